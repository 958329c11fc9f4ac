@testable import Raster
import SceneModel
import Testing

/// The rasterizer fills each row's plank interior without the per-pixel tests (`PlankInterior`);
/// that must never change a pixel.
@Suite struct PlankInteriorTests {
    /// Crates of many sizes and shapes at random sub-pixel positions and angles, including exact
    /// quarter turns and angles a hair off them (nearly flat slopes), drawn with and without the
    /// interior fill over a background with other crates: the images are identical.
    @Test func fillingTheInteriorChangesNoPixel() {
        var random = SplitMix64(seed: 20261122)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        let palette = CratePalette(base: RGB(181, 131, 74))
        let quarter = Double.pi / 2
        let specialAngles: [Double] = [0, quarter, 2 * quarter, -quarter, 1e-12, quarter + 1e-10, 1e-7, quarter / 2]
        for trial in 0..<300 {
            let size = Vec2(1 + unit() * 120, 1 + unit() * 120)
            let style = CrateStyle(size: size, scale: 0.5 + unit() * 1.5, palette: palette)
            let angle = trial < specialAngles.count * 10 ? specialAngles[trial % specialAngles.count] : (unit() - 0.5) * 4 * .pi
            let center = Vec2(20 + unit() * 160, 20 + unit() * 120)
            var filled = RGBImage(width: 200, height: 160, fill: RGB(240, 235, 225))
            Rasterizer.drawCrate(&filled, center: Vec2(100, 80), angle: 0.3, style: style)
            var shaded = filled
            Rasterizer.drawCrate(&filled, center: center, angle: angle, style: style)
            Rasterizer.drawCrate(&shaded, center: center, angle: angle, style: style, fillsInterior: false)
            #expect(filled == shaded, "trial \(trial): size \(size), angle \(angle), centre \(center)")
        }
    }

    /// The fill is used: a large crate's middle row has an interior, less the brace.
    @Test func aLargeCrateHasAnInterior() {
        let style = CrateStyle(size: Vec2(100, 60), scale: 1, palette: CratePalette(base: RGB(181, 131, 74)))
        let row = PlankInterior(style: style, cos: 1, sin: 0).row(dy: 0.5, centerX: 100)
        #expect(row.first > 50 && row.last < 150 && row.last - row.first > 60)
        #expect(row.braceFirst > row.first && row.braceLast < row.last)
    }
}

/// `Rasterizer.truncatedByte` is `UInt8(x)` on [0, 256), without the checks.
@Suite struct TruncatedByteTests {
    @Test func itTruncatesAsUInt8Does() {
        var values: [Double] = []
        for k in 0..<(256 * 64) { values.append(Double(k) / 64) }
        for n in 0..<256 {
            let whole = Double(n)
            values += [whole.nextUp, whole.nextDown, whole + 0.5, (whole + 0.5).nextUp, (whole + 0.5).nextDown]
        }
        var random = SplitMix64(seed: 7)
        for _ in 0..<100_000 { values.append(Double(random.next() >> 11) / Double(1 << 53) * 256) }
        let wrong = values.filter { $0 >= 0 && $0 < 256 && Rasterizer.truncatedByte($0) != UInt8($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(values.count > 100_000)
    }
}
