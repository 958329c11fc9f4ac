@testable import Raster
import SceneModel
import Testing

/// The rasterizer fills each row's solid runs (frame, planks, brace) without the per-pixel tests
/// (`SolidRuns`); that must never change a pixel.
@Suite struct SolidRunsTests {
    /// Crates of many sizes, shapes and colours at random sub-pixel positions and angles, including
    /// exact quarter turns and angles a hair off them (nearly flat slopes), drawn with and without
    /// the runs, and shading pixels well beyond the span visited, over a background with other
    /// crates: the images are identical.
    @Test func fillingTheRunsChangesNoPixel() {
        var random = SplitMix64(seed: 20261122)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        // The book's wood, a palette whose frame lands on a rounding tie (no frame runs), white and
        // black (clamped shades), and random colours.
        let fixed = [RGB(181, 131, 74), RGB(25, 75, 125), RGB(255, 255, 255), RGB(0, 0, 0)]
        let quarter = Double.pi / 2
        let specialAngles: [Double] = [0, quarter, 2 * quarter, -quarter, 1e-12, quarter + 1e-10, 1e-7, quarter / 2]
        var framesFilled = 0, bracesFilled = 0
        for trial in 0..<400 {
            let base = trial < 200 ? fixed[trial % fixed.count]
                : RGB(UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()))
            let size = Vec2(1 + unit() * 120, 1 + unit() * 120)
            let style = CrateStyle(size: size, scale: 0.5 + unit() * 1.5, palette: CratePalette(base: base))
            if style.frameBytes != nil { framesFilled += 1 }
            if style.braceBytes != nil { bracesFilled += 1 }
            let angle = trial < specialAngles.count * 10 ? specialAngles[trial % specialAngles.count] : (unit() - 0.5) * 4 * .pi
            let center = Vec2(20 + unit() * 160, 20 + unit() * 120)
            var filled = RGBImage(width: 200, height: 160, fill: RGB(240, 235, 225))
            Rasterizer.drawCrate(&filled, center: Vec2(100, 80), angle: 0.3, style: style)
            var shaded = filled, wide = filled
            Rasterizer.drawCrate(&filled, center: center, angle: angle, style: style)
            Rasterizer.drawCrate(&shaded, center: center, angle: angle, style: style, fillsRuns: false)
            // Shading pixels further out too finds nothing more to draw.
            Rasterizer.drawCrate(&wide, center: center, angle: angle, style: style, fillsRuns: false, reach: 3)
            #expect(filled == shaded, "trial \(trial): colour \(base), size \(size), angle \(angle), centre \(center)")
            #expect(filled == wide, "trial \(trial): pixels beyond the visited span")
        }
        #expect(framesFilled > 300 && bracesFilled > 300)
    }

    /// The runs are used: a large crate's middle row has frame runs at both ends, plank runs and a
    /// solid brace between them; a row in its bottom border is one frame run.
    @Test func aLargeCrateHasRunsOfEveryKind() throws {
        let style = CrateStyle(size: Vec2(100, 60), scale: 1, palette: CratePalette(base: RGB(181, 131, 74)))
        #expect(style.border > 5)
        let runs = SolidRuns(style: style, cos: 1, sin: 0)
        let middle = runs.row(dy: 0.5, centerX: 100)
        let order = [middle.frameLeft, middle.plankLeft, middle.brace, middle.plankRight, middle.frameRight]
        for run in order { #expect(run.first < run.last) }
        for (a, b) in zip(order, order.dropFirst()) { #expect(a.last < b.first) }
        #expect(middle.frameLeft.first > 50 && middle.frameRight.last < 150 && middle.plankLeft.last - middle.plankLeft.first > 20)
        let border = runs.row(dy: 28.5, centerX: 100)
        #expect(border.frameLeft.first > 50 && border.frameLeft.last > 140 && border.plankLeft.first > border.plankLeft.last)
    }

    /// A palette whose frame colour sits on a rounding tie gets no frame runs (`shade` might round
    /// it either way), and the test above still finds its crates unchanged.
    @Test func aFrameOnARoundingTieIsShaded() {
        let tie = CrateStyle(size: Vec2(100, 60), scale: 1, palette: CratePalette(base: RGB(25, 75, 125)))
        #expect(tie.frameBytes == nil)
        let row = SolidRuns(style: tie, cos: 1, sin: 0).row(dy: 0.5, centerX: 100)
        #expect(row.frameLeft.first > row.frameLeft.last && row.plankLeft.first < row.plankLeft.last)
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
