private import CDeflate

/// A PNG file's framing (PNG specification, "File structure"): the signature, then chunks, each
/// its data's length, its type, the data and the CRC-32 of type and data. Frames (`PNGEncoder`)
/// and instance masks (`MaskPNG`) write their IHDR, one IDAT and IEND through it.
struct PNGFile {
    private(set) var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// IHDR: the size, the bit depth and colour type; deflate, adaptive filtering, no interlace.
    mutating func header(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8) {
        var data: [UInt8] = []
        data.appendBigEndian(UInt32(width))
        data.appendBigEndian(UInt32(height))
        data += [bitDepth, colorType, 0, 0, 0]
        chunk("IHDR", data)
    }

    mutating func chunk(_ type: StaticString, _ data: [UInt8]) {
        bytes.appendBigEndian(UInt32(data.count))
        let start = bytes.count
        type.withUTF8Buffer { bytes += $0 }
        bytes += data
        let crc = bytes[start...].withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        bytes.appendBigEndian(crc)
    }

    mutating func end() { chunk("IEND", []) }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
    }
}
