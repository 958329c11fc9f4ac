#if canImport(Glibc)
import Glibc
#endif
private import CDeflate
import Raster
import Synchronization

/// Encodes frames as PNG: 8-bit RGB, no interlace, its zlib stream made by libdeflate (Debian's
/// libdeflate-dev); instance masks as 16-bit greyscale (`MaskPNG`).
///
/// The frames are runs of flat colour, which deflate compresses best unfiltered: PNG's row filters
/// turn a flat run into zeros that cost the same, and trying them costs time (measured on a
/// 1280x720 frame of pile-100: no filter is smaller than adaptive filtering at every level, and
/// 3-5x faster). So rows are never filtered. libdeflate compresses the whole image at once, several
/// times faster than zlib's deflate at a like ratio (zlib was most of a dataset sweep's work); its
/// level 1, the default, is the fastest that still compresses (docs/outputs.md).
public struct PNGEncoder: Sendable, Equatable {
    /// Compression level, 0 (store) ... 9 (smallest), as libdeflate counts them.
    public let level: Int
    public static let levels = 0...9
    public static let defaultLevel = 1

    public init(level: Int = PNGEncoder.defaultLevel) {
        precondition(Self.levels.contains(level), "PNG level must be in 0...9")
        self.level = level
    }

    /// The PNG file for `image`.
    /// - Throws: when libdeflate cannot allocate a compressor (memory exhausted).
    public func encode(_ image: RGBImage) throws(FrameWriteError) -> [UInt8] {
        try Self.workspaces.withWorkspace(level: level) { workspace throws(FrameWriteError) in
            let rowBytes = image.width * 3, stride = rowBytes + 1
            let rows = workspace.rows(count: image.height * stride)
            image.pixels.withUnsafeBufferPointer { pixels in
                guard let source = pixels.baseAddress else { return }
                for y in 0..<image.height {
                    rows[y * stride] = 0  // filter type 0 (none)
                    (rows.baseAddress! + y * stride + 1).update(from: source + y * rowBytes, count: rowBytes)
                }
            }
            let stream = try workspace.zlibStream(of: UnsafeBufferPointer(rows))
            var png = PNGFile(capacity: stream.count + 64)
            png.header(width: image.width, height: image.height, bitDepth: 8, colorType: 2)  // truecolour
            png.chunk("IDAT", stream)
            png.end()
            return png.bytes
        }
    }

    /// The PNG file for `mask`: 16-bit greyscale, each pixel its id, so that every PNG reader gives
    /// back the ids (`numpy.asarray(PIL.Image.open(path))` is uint16). Written by `MaskPNG`, whose
    /// deflate writes each run of one id at once (the level does not apply).
    public func encode(_ mask: InstanceMask) throws(FrameWriteError) -> [UInt8] {
        MaskPNG.encode(mask)
    }

    /// libdeflate's compressors and the buffers around them, kept between frames: a compressor
    /// holds some hundreds of kilobytes of tables and a frame's rows megabytes, which made afresh
    /// for each frame the system hands out and takes back, page by page, every time.
    private static let workspaces = WorkspacePool()
}

/// One frame's encoding at a time: a compressor of one level, the unfiltered rows, the stream.
private final class DeflateWorkspace {
    let level: Int
    private let compressor: OpaquePointer
    private var rowBuffer: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
    private var streamBuffer: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)

    init?(level: Int) {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else { return nil }
        self.level = level
        self.compressor = compressor
    }

    deinit {
        libdeflate_free_compressor(compressor)
        rowBuffer.deallocate()
        streamBuffer.deallocate()
    }

    /// Room for `count` bytes of rows (its contents are the caller's to write).
    func rows(count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if rowBuffer.count < count {
            rowBuffer.deallocate()
            rowBuffer = .allocate(capacity: count)
        }
        return UnsafeMutableBufferPointer(rebasing: rowBuffer[0..<count])
    }

    /// `data` as one zlib stream (RFC 1950).
    func zlibStream(of data: UnsafeBufferPointer<UInt8>) throws(FrameWriteError) -> [UInt8] {
        let bound = libdeflate_zlib_compress_bound(compressor, data.count)
        if streamBuffer.count < bound {
            streamBuffer.deallocate()
            streamBuffer = .allocate(capacity: bound)
        }
        let written = libdeflate_zlib_compress(compressor, data.baseAddress, data.count, streamBuffer.baseAddress, bound)
        // The bound is what libdeflate promises to fit: 0 would mean it did not.
        guard written > 0 else { throw FrameWriteError(target: "PNG", reason: "libdeflate's output did not fit its own bound") }
        return Array(streamBuffer[0..<written])
    }
}

/// Idle workspaces, shared by the threads that write frames: each is used by one thread at a time,
/// taken out of the pool while it works (kept as addresses, which a lock may hold).
private final class WorkspacePool: Sendable {
    private let idle = Mutex<[UInt]>([])

    func withWorkspace<Result>(level: Int, _ body: (DeflateWorkspace) throws(FrameWriteError) -> Result) throws(FrameWriteError) -> Result {
        let kept = idle.withLock { idle -> UInt? in
            guard let index = idle.lastIndex(where: { Unmanaged<DeflateWorkspace>.fromOpaque(UnsafeRawPointer(bitPattern: $0)!).takeUnretainedValue().level == level }) else { return nil }
            return idle.remove(at: index)
        }
        let workspace: DeflateWorkspace
        if let kept {
            workspace = Unmanaged<DeflateWorkspace>.fromOpaque(UnsafeRawPointer(bitPattern: kept)!).takeRetainedValue()
        } else {
            guard let made = DeflateWorkspace(level: level) else {
                throw FrameWriteError(target: "PNG", reason: "libdeflate could not allocate a compressor")
            }
            workspace = made
        }
        defer {
            let address = UInt(bitPattern: Unmanaged.passRetained(workspace).toOpaque())
            idle.withLock { $0.append(address) }
        }
        return try body(workspace)
    }
}
