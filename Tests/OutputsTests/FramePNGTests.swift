import CSpng
import Outputs
import Raster
import SceneModel
import Testing

/// Frame PNGs (`PNGEncoder`: libdeflate's zlib stream in CrateDrop's chunks) read back, through
/// zlib and libspng (decoders CrateDrop does not write with), as the image's exact pixels at
/// every level, for sizes that end mid-row of a deflate block and images of noise and of runs.
@Suite struct FramePNGTests {
    static func image(width: Int, height: Int, seed: UInt64, runs: Bool) -> RGBImage {
        var image = RGBImage(width: width, height: height, fill: RGB(0, 0, 0))
        var pixels = image.pixels
        var random = SplitMix64(seed: seed)
        var i = 0
        while i < pixels.count {
            let value = UInt8(truncatingIfNeeded: random.next())
            let length = runs ? Int(random.next() % 200) + 1 : 1
            for j in i..<min(i + length, pixels.count) { pixels[j] = value }
            i += length
        }
        image.pixels = pixels
        return image
    }

    static func decodedByLibspng(_ png: [UInt8]) -> [UInt8]? {
        guard let context = spng_ctx_new(0) else { return nil }
        defer { spng_ctx_free(context) }
        return png.withUnsafeBytes { bytes -> [UInt8]? in
            var size = 0
            guard spng_set_png_buffer(context, bytes.baseAddress, bytes.count) == 0,
                  spng_decoded_image_size(context, Int32(SPNG_FMT_RGB8.rawValue), &size) == 0 else { return nil }
            var pixels = [UInt8](repeating: 0, count: size)
            let status = pixels.withUnsafeMutableBytes { spng_decode_image(context, $0.baseAddress, size, Int32(SPNG_FMT_RGB8.rawValue), 0) }
            return status == 0 ? pixels : nil
        }
    }

    @Test(arguments: [(1, 1), (7, 3), (256, 256), (1280, 720), (3, 1000)])
    func framesReadBackAsTheirPixels(width: Int, height: Int) throws {
        for (seed, runs) in [(UInt64(1), true), (2, false)] {
            let image = Self.image(width: width, height: height, seed: seed, runs: runs)
            for level in [0, 1, 6, 9] {
                let png = try PNGEncoder(level: level).encode(image)
                let chunks = MaskPNGTests.chunks(png)
                try #require(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
                #expect(chunks[0].data.suffix(5) == [8, 2, 0, 0, 0], "8-bit truecolour, deflate, no interlace")
                var rows: [UInt8] = []
                for y in 0..<height { rows += [0] + image.pixels[(y * width * 3)..<((y + 1) * width * 3)] }
                #expect(MaskPNGTests.inflated(chunks[1].data, size: rows.count) == rows, "zlib: \(width)x\(height) level \(level)")
                #expect(Self.decodedByLibspng(png) == image.pixels, "libspng: \(width)x\(height) level \(level)")
            }
        }
    }

    /// A frame of runs compresses: level 1 is far smaller than storing (level 0).
    @Test func aFrameOfRunsCompresses() throws {
        let image = Self.image(width: 640, height: 360, seed: 3, runs: true)
        let stored = try PNGEncoder(level: 0).encode(image).count, compressed = try PNGEncoder(level: 1).encode(image).count
        #expect(compressed * 5 < stored, "\(compressed) against \(stored)")
    }
}
