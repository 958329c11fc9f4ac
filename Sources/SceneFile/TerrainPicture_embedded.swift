// The core as Embedded Swift reads no files and links no libspng: it asks its host for both, the
// picture's bytes by path and their decoding, answered with the CLI's libspng (built from the
// same pinned source) so the pixels are the CLI's. In the wasm build the host is JavaScript
// (cratedrop.file_size / file_read, from the files a caller hands cratedrop.js; png_decode /
// png_copy, answered by cratedrop-png.wasm); in the native library (Python) it is C linked beside
// the core (Backends/native/host_pictures.c: the file read as the CLI reads it). Another Embedded
// build refuses a scene with a terrain picture at its `image` key, as an unreadable picture is.
#if hasFeature(Embedded)
import SceneModel

#if arch(wasm32) || os(Linux)
#if arch(wasm32)
/// The file's size in bytes, or -1 when the host has no file at that path.
@_extern(wasm, module: "cratedrop", name: "file_size")
private func hostFileSize(_ path: UnsafePointer<UInt8>?, _ pathLength: Int32) -> Int32
/// Copies the file's bytes to `into`; returns how many.
@_extern(wasm, module: "cratedrop", name: "file_read")
private func hostFileRead(_ path: UnsafePointer<UInt8>?, _ pathLength: Int32, _ into: UnsafeMutablePointer<UInt8>?) -> Int32
/// Decodes a PNG (png_decoder.c's statuses; -1: the host has no decoder), writing width and height to `size`.
@_extern(wasm, module: "cratedrop", name: "png_decode")
private func hostPNGDecode(_ png: UnsafePointer<UInt8>?, _ length: Int32, _ maxSide: Int32, _ maxPixels: Int32,
                           _ size: UnsafeMutablePointer<Int32>?) -> Int32
/// Copies the last decoding's RGBA8 pixels, or its message when it failed, to `into` (at most `capacity` bytes); returns how many.
@_extern(wasm, module: "cratedrop", name: "png_copy")
private func hostPNGCopy(_ into: UnsafeMutablePointer<UInt8>?, _ capacity: Int32) -> Int32

/// The file's bytes, given by the page or program that loaded the wasm core.
private func hostFileBytes(path: String) -> Result<[UInt8], TerrainPictureError> {
    let name = Array(path.utf8)
    let size = name.withUnsafeBufferPointer { hostFileSize($0.baseAddress, Int32(name.count)) }
    guard size >= 0 else { return .failure(.unreadable("not among the files given to the wasm core with the scene")) }
    guard Int(size) <= TerrainLimits.maxFileSize else { return .failure(.unreadable("larger than \(TerrainLimits.maxFileSize >> 20) MiB")) }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    let read = name.withUnsafeBufferPointer { path in
        bytes.withUnsafeMutableBufferPointer { hostFileRead(path.baseAddress, Int32(name.count), $0.baseAddress) }
    }
    guard read == size else { return .failure(.unreadable("its host gave \(read) of its \(size) bytes")) }
    return .success(bytes)
}
/// Why a picture could not be decoded when the host has no decoder.
private let missingDecoder = "this page or program loaded no picture decoder (cratedrop-png.wasm)"
#elseif os(Linux)
/// Why a picture could not be decoded when the host has no decoder (the library is built with one).
private let missingDecoder = "this build of the library has no picture decoder"
/// Reads the file (at most `limit` bytes) for `hostFileCopy`: its size, or -1 (`hostFileMessage` says why).
@_extern(c, "cratedrop_host_file_read")
private func hostFileRead(_ path: UnsafePointer<UInt8>?, _ pathLength: Int32, _ limit: Int32) -> Int32
@_extern(c, "cratedrop_host_file_copy")
private func hostFileCopy(_ into: UnsafeMutablePointer<UInt8>?) -> Int32
@_extern(c, "cratedrop_host_file_message")
private func hostFileMessage() -> UnsafePointer<CChar>?
@_extern(c, "cratedrop_host_png_decode")
private func hostPNGDecode(_ png: UnsafePointer<UInt8>?, _ length: Int32, _ maxSide: Int32, _ maxPixels: Int32,
                           _ size: UnsafeMutablePointer<Int32>?) -> Int32
@_extern(c, "cratedrop_host_png_copy")
private func hostPNGCopy(_ into: UnsafeMutablePointer<UInt8>?, _ capacity: Int32) -> Int32

/// The file's bytes, read by the C host as the CLI reads a file.
private func hostFileBytes(path: String) -> Result<[UInt8], TerrainPictureError> {
    let name = Array(path.utf8)
    let size = name.withUnsafeBufferPointer { hostFileRead($0.baseAddress, Int32(name.count), Int32(TerrainLimits.maxFileSize)) }
    guard size >= 0 else { return .failure(.unreadable(hostFileMessage().map { String(cString: $0) } ?? "cannot be read")) }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    let copied = bytes.withUnsafeMutableBufferPointer { hostFileCopy($0.baseAddress) }
    guard copied == size else { return .failure(.unreadable("its host gave \(copied) of its \(size) bytes")) }
    return .success(bytes)
}
#endif

enum TerrainPicture {
    static func fileBytes(path: String) -> Result<[UInt8], TerrainPictureError> {
        hostFileBytes(path: path)
    }

    static func samples(png bytes: [UInt8], channel: TerrainChannel) -> Result<TerrainSamples, TerrainPictureError> {
        guard bytes.starts(with: signature) else { return .failure(.notPNG) }
        var size: [Int32] = [0, 0]
        let status = bytes.withUnsafeBufferPointer { png in
            size.withUnsafeMutableBufferPointer {
                hostPNGDecode(png.baseAddress, Int32(png.count), Int32(TerrainLimits.maxSide), Int32(TerrainLimits.maxPixels), $0.baseAddress)
            }
        }
        let width = Int(size[0]), height = Int(size[1])
        switch status {
        case 0:
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            let copied = rgba.withUnsafeMutableBufferPointer { hostPNGCopy($0.baseAddress, Int32($0.count)) }
            guard Int(copied) == rgba.count else { return .failure(.undecodable("its host gave \(copied) of \(rgba.count) pixel bytes")) }
            return .success(rgba.withUnsafeBufferPointer { samples(rgba: $0, width: width, height: height, channel: channel) })
        case 1: return .failure(sideTooLarge)
        case 2: return .failure(tooManyPixels(width: width, height: height))
        case 3:
            var text = [UInt8](repeating: 0, count: 256)
            let length = text.withUnsafeMutableBufferPointer { hostPNGCopy($0.baseAddress, Int32($0.count)) }
            return .failure(.undecodable(String(decoding: text.prefix(Int(Swift.max(0, length))), as: UTF8.self)))
        default: return .failure(.undecodable(missingDecoder))
        }
    }
}
#else
enum TerrainPicture {
    static func fileBytes(path: String) -> Result<[UInt8], TerrainPictureError> {
        .failure(.unreadable("terrain pictures cannot be read by this build of the core (run the scene with the cratedrop command)"))
    }

    static func samples(png bytes: [UInt8], channel: TerrainChannel) -> Result<TerrainSamples, TerrainPictureError> {
        .failure(.undecodable("this build of the core has no PNG decoder"))
    }
}
#endif
#endif
