import CSpng
import CZlib
@testable import Outputs
@testable import Raster
import Testing

/// Instance-mask PNGs (`MaskPNG`, its deflate `RunDeflater`) read back by decoders CrateDrop does
/// not share: zlib's inflate, which checks the Adler-32, and libspng, which checks the chunks'
/// CRCs and gives back the ids. Every copy length a run can need (1 to 700 ids: a copy split at
/// 258, remainders of 3, 4 and 5), every byte value in each half of an id, widths of 1 to 2049.
@Suite struct MaskPNGTests {
    /// SplitMix64, so each mask is the same on every run.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func mask(width: Int, height: Int, seed: UInt64, longestRun: Int) -> InstanceMask {
        var mask = InstanceMask(width: width, height: height)
        var random = Random(state: seed)
        let ids: [UInt16] = [0, 1, 5, 0x00FF, 0x0100, 0xFF00, 0xEFFF, 0xF000, 0xFFFF]
        var index = 0
        while index < mask.ids.count {
            let id = random.next(4) == 0 ? UInt16(random.next(65536)) : ids[random.next(ids.count)]
            let run = 1 + random.next(longestRun)
            for _ in 0..<min(run, mask.ids.count - index) {
                mask.ids[index] = id
                index += 1
            }
        }
        return mask
    }

    /// The chunks of a PNG, their CRCs checked.
    static func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var found: [(String, [UInt8])] = []
        var at = 8
        func u32(_ at: Int) -> Int { Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3]) }
        while at + 12 <= png.count {
            let length = u32(at)
            let typeAndData = Array(png[(at + 4)..<(at + 8 + length)])
            let crc = typeAndData.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
            #expect(UInt32(u32(at + 8 + length)) == UInt32(crc))
            found.append((String(decoding: typeAndData.prefix(4), as: UTF8.self), Array(typeAndData.dropFirst(4))))
            at += 12 + length
        }
        #expect(at == png.count)
        return found
    }

    /// The rows PNG stores for `mask`: a row equal to the one above as filter 2 (Up) and zeros,
    /// any other as filter 0 and each id big-endian.
    static func rows(_ mask: InstanceMask) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<mask.height {
            let row = mask.ids[(y * mask.width)..<((y + 1) * mask.width)]
            if y > 0, Array(row) == Array(mask.ids[((y - 1) * mask.width)..<(y * mask.width)]) {
                bytes += [2] + [UInt8](repeating: 0, count: 2 * mask.width)
                continue
            }
            bytes.append(0)
            for id in row { bytes += [UInt8(id >> 8), UInt8(id & 0xFF)] }
        }
        return bytes
    }

    static func inflated(_ stream: [UInt8], size: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: size)
        var length = UInt(size)
        let status = uncompress(&output, &length, stream, UInt(stream.count))
        return status == Z_OK && length == UInt(size) ? output : nil
    }

    static func decodedByLibspng(_ png: [UInt8]) -> [UInt16]? {
        guard let context = spng_ctx_new(0) else { return nil }
        defer { spng_ctx_free(context) }
        // libspng keeps the buffer's address: set and decode within one access to the bytes.
        return png.withUnsafeBytes { bytes -> [UInt16]? in
            var size = 0
            guard spng_set_png_buffer(context, bytes.baseAddress, bytes.count) == 0,
                  spng_decoded_image_size(context, Int32(SPNG_FMT_PNG.rawValue), &size) == 0 else { return nil }
            var ids = [UInt16](repeating: 0, count: size / 2)
            let status = ids.withUnsafeMutableBytes { spng_decode_image(context, $0.baseAddress, size, Int32(SPNG_FMT_PNG.rawValue), 0) }
            return status == 0 ? ids : nil
        }
    }

    @Test(arguments: [(1, 1, 1), (3, 5, 2), (256, 4, 700), (1000, 3, 700), (2049, 2, 300), (256, 256, 40), (7, 9, 1)])
    func masksReadBackAsTheirIds(width: Int, height: Int, longestRun: Int) throws {
        for seed in UInt64(0)..<8 {
            let mask = Self.mask(width: width, height: height, seed: seed, longestRun: longestRun)
            let png = MaskPNG.encode(mask)
            let chunks = Self.chunks(png)
            try #require(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
            #expect(chunks[0].data == [0, 0, UInt8(width >> 8), UInt8(width & 0xFF), 0, 0, UInt8(height >> 8), UInt8(height & 0xFF), 16, 0, 0, 0, 0])
            let rows = Self.rows(mask)
            #expect(Self.inflated(chunks[1].data, size: rows.count) == rows, "zlib: \(width)x\(height) seed \(seed)")
            #expect(Self.decodedByLibspng(png) == mask.ids, "libspng: \(width)x\(height) seed \(seed)")
        }
    }

    /// Rows equal to the row above (a box's straight sides, the background) are filtered Up.
    @Test func repeatedRowsReadBack() throws {
        var mask = InstanceMask(width: 300, height: 40)
        for y in 10..<30 { for x in 50..<250 { mask.ids[y * 300 + x] = y < 20 ? 7 : 0xFFFF } }
        let png = MaskPNG.encode(mask)
        #expect(Self.inflated(Self.chunks(png)[1].data, size: Self.rows(mask).count) == Self.rows(mask))
        #expect(Self.decodedByLibspng(png) == mask.ids)
        // The PNG's own 57 bytes, then about 10 bytes a row: a filter byte and one run of 600 bytes.
        #expect(png.count < 57 + 40 * 12, "\(png.count) bytes")
    }

    /// Every run length 1...600 alone in a row of a background: the copies at each split.
    @Test func everyRunLengthReadsBack() throws {
        var mask = InstanceMask(width: 602, height: 600)
        for length in 1...600 {
            for x in 1...length { mask.ids[(length - 1) * 602 + x] = UInt16(length) }
        }
        let png = MaskPNG.encode(mask)
        #expect(Self.inflated(Self.chunks(png)[1].data, size: Self.rows(mask).count) == Self.rows(mask))
        #expect(Self.decodedByLibspng(png) == mask.ids)
    }
}
