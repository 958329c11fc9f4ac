#if canImport(Glibc)
import Glibc
#endif
private import CSpng
import Raster

/// Encodes frames as PNG with libspng (Debian's libspng-dev): 8-bit RGB, no interlace; instance
/// masks as 16-bit greyscale (`MaskPNG`).
///
/// The frames are runs of flat colour, which deflate compresses best unfiltered: PNG's row filters
/// turn a flat run into zeros that cost the same, and trying them costs time (measured on a
/// 1280x720 frame of pile-100: no filter is smaller than adaptive filtering at every level, and
/// 3-5x faster). So rows are never filtered, and the level is zlib's; the default, 1, is the
/// fastest that still compresses (docs/outputs.md).
public struct PNGEncoder: Sendable, Equatable {
    /// zlib compression level, 0 (store) ... 9 (smallest).
    public let level: Int
    public static let levels = 0...9
    public static let defaultLevel = 1

    public init(level: Int = PNGEncoder.defaultLevel) {
        precondition(Self.levels.contains(level), "PNG level must be in 0...9")
        self.level = level
    }

    /// The PNG file for `image`.
    /// - Throws: libspng's error text (it fails only on memory exhaustion or sizes over 2^31−1).
    public func encode(_ image: RGBImage) throws(FrameWriteError) -> [UInt8] {
        try image.pixels.withUnsafeBytes { pixels in
            Result { () throws(FrameWriteError) in
                try encode(pixels, width: image.width, height: image.height, bitDepth: 8, colorType: SPNG_COLOR_TYPE_TRUECOLOR)
            }
        }.get()
    }

    /// The PNG file for `mask`: 16-bit greyscale, each pixel its id, so that every PNG reader gives
    /// back the ids (`numpy.asarray(PIL.Image.open(path))` is uint16). Written by `MaskPNG`, whose
    /// deflate writes each run of one id at once (the level does not apply), not libspng.
    public func encode(_ mask: InstanceMask) throws(FrameWriteError) -> [UInt8] {
        MaskPNG.encode(mask)
    }

    private func encode(_ samples: UnsafeRawBufferPointer, width: Int, height: Int, bitDepth: UInt8, colorType: spng_color_type)
        throws(FrameWriteError) -> [UInt8] {
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw FrameWriteError(target: "PNG", reason: "libspng could not allocate an encoder")
        }
        defer { spng_ctx_free(context) }
        var header = spng_ihdr(width: UInt32(width), height: UInt32(height), bit_depth: bitDepth,
                               color_type: UInt8(colorType.rawValue), compression_method: 0,
                               filter_method: 0, interlace_method: 0)
        var status = spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
        if status == 0 { status = spng_set_option(context, SPNG_IMG_COMPRESSION_LEVEL, Int32(level)) }
        if status == 0 { status = spng_set_option(context, SPNG_FILTER_CHOICE, Int32(SPNG_FILTER_CHOICE_NONE.rawValue)) }
        if status == 0 { status = spng_set_ihdr(context, &header) }
        if status == 0 {
            status = spng_encode_image(context, samples.baseAddress, samples.count, Int32(SPNG_FMT_PNG.rawValue),
                                       Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        var length = 0
        var bufferStatus: Int32 = 0
        let buffer = status == 0 ? spng_get_png_buffer(context, &length, &bufferStatus) : nil
        guard let buffer else {
            let code = status != 0 ? status : bufferStatus
            throw FrameWriteError(target: "PNG", reason: "libspng: " + String(cString: spng_strerror(code)))
        }
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
