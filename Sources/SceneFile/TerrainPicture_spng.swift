// Native only: the files and libspng. The wasm core asks its host for both (TerrainPicture_embedded.swift).
#if !hasFeature(Embedded)
internal import CSpng
import FileIO
import SceneModel

/// Decodes a terrain picture's PNG bytes into solidity samples, through libspng. Sizes are
/// checked from the header before any pixel is decoded; libspng checks every chunk's CRC.
enum TerrainPicture {
    /// The picture file's bytes, up to `TerrainLimits.maxFileSize`, or why they cannot be read.
    static func fileBytes(path: String) -> Result<[UInt8], TerrainPictureError> {
        do {
            return .success(try FileBytes.read(path: path, limit: TerrainLimits.maxFileSize))
        } catch {
            return .failure(.unreadable(error.description))
        }
    }

    /// The samples of the PNG `bytes` read through `channel`, or why there are none (a message for a person).
    static func samples(png bytes: [UInt8], channel: TerrainChannel) -> Result<TerrainSamples, TerrainPictureError> {
        guard bytes.starts(with: signature) else { return .failure(.notPNG) }
        guard let context = spng_ctx_new(0) else { return .failure(.undecodable("libspng could not start")) }
        defer { spng_ctx_free(context) }
        // Chunks beyond the pixels (text, ICC profiles) are bounded too: a picture is read, not its metadata.
        spng_set_chunk_limits(context, 1 << 20, 4 << 20)
        spng_set_image_limits(context, UInt32(TerrainLimits.maxSide), UInt32(TerrainLimits.maxSide))
        var header = spng_ihdr()
        let result = bytes.withUnsafeBytes { buffer -> Result<TerrainSamples, TerrainPictureError> in
            var status = spng_set_png_buffer(context, buffer.baseAddress, buffer.count)
            if status == 0 { status = spng_get_ihdr(context, &header) }
            if status == Int32(SPNG_EUSER_WIDTH.rawValue) || status == Int32(SPNG_EUSER_HEIGHT.rawValue) || status == Int32(SPNG_EWIDTH.rawValue)
                || status == Int32(SPNG_EHEIGHT.rawValue) {
                return .failure(sideTooLarge)
            }
            guard status == 0 else { return .failure(.undecodable(String(cString: spng_strerror(status)))) }
            let width = Int(header.width), height = Int(header.height)
            guard width * height <= TerrainLimits.maxPixels else {
                return .failure(tooManyPixels(width: width, height: height))
            }
            var size = 0
            status = spng_decoded_image_size(context, Int32(SPNG_FMT_RGBA8.rawValue), &size)
            guard status == 0, size == width * height * 4 else {
                return .failure(.undecodable(status == 0 ? "unexpected decoded size" : String(cString: spng_strerror(status))))
            }
            var rgba = [UInt8](repeating: 0, count: size)
            // No gamma correction (no SPNG_DECODE_TRNS or gamma flags beyond tRNS): whole numbers in, whole numbers out.
            status = rgba.withUnsafeMutableBytes { spng_decode_image(context, $0.baseAddress, size, Int32(SPNG_FMT_RGBA8.rawValue),
                                                                     Int32(SPNG_DECODE_TRNS.rawValue)) }
            guard status == 0 else { return .failure(.undecodable(String(cString: spng_strerror(status)))) }
            return .success(rgba.withUnsafeBufferPointer { samples(rgba: $0, width: width, height: height, channel: channel) })
        }
        return result
    }
}

#endif
