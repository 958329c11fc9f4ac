import Foundation

/// Small PNG files made in the test, byte by byte: 8-bit grey, one filter byte a row, the pixels
/// in stored (uncompressed) deflate blocks, so no encoder stands between a test and its picture.
enum TestPicture {
    /// A `width`×`height` grey picture; `grey(x, row)` gives each pixel (row 0 at the top).
    static func png(width: Int, height: Int, grey: (Int, Int) -> UInt8) -> [UInt8] {
        var raw: [UInt8] = []
        for row in 0..<height {
            raw.append(0)
            for x in 0..<width { raw.append(grey(x, row)) }
        }
        return png(width: width, height: height, rawRows: raw)
    }

    /// A PNG whose header says `width`×`height` but whose pixel data is one empty row: what a
    /// size check must refuse before decoding.
    static func header(width: Int, height: Int) -> [UInt8] {
        png(width: width, height: height, rawRows: [0])
    }

    /// `original` with a text chunk before its end: other bytes, the same pixels.
    static func withComment(_ original: [UInt8], _ text: String) -> [UInt8] {
        let end = original.count - 12
        return Array(original[..<end]) + chunk("tEXt", Array("Comment\0\(text)".utf8)) + Array(original[end...])
    }

    private static func png(width: Int, height: Int, rawRows raw: [UInt8]) -> [UInt8] {
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8((~count >> 8) & 0xff)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    private static func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(kind.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) } }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
