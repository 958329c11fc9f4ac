@testable import Raster
import SceneModel
import Testing

/// Drawing only inside a clip rectangle gives exactly the pixels drawing the whole shape gives
/// there, and none outside it: what lets a frame draw again only where it changed.
@Suite struct ClippedDrawingTests {
    /// Draws with `draw(clip)` tile by tile over a textured image, and whole.
    static func expectTilesEqualWhole(_ name: String, _ draw: (inout RGBImage, PixelRect?) -> Void) {
        var start = RGBImage(width: 61, height: 47, fill: RGB(240, 235, 225))
        for i in start.pixels.indices { start.pixels[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
        var whole = start
        draw(&whole, nil)
        var tiled = start
        for tileY in stride(from: 0, to: start.height, by: 7) {
            for tileX in stride(from: 0, to: start.width, by: 5) {
                draw(&tiled, PixelRect(minX: tileX, minY: tileY, maxX: min(tileX + 4, start.width - 1), maxY: min(tileY + 6, start.height - 1)))
            }
        }
        #expect(tiled.pixels == whole.pixels, "\(name)")
        #expect(whole.pixels != start.pixels, "\(name) draws something")
        // One tile alone changes nothing outside it.
        var one = start
        let tile = PixelRect(minX: 20, minY: 14, maxX: 34, maxY: 27)
        draw(&one, tile)
        for y in 0..<start.height {
            for x in 0..<start.width where !(tile.minX...tile.maxX).contains(x) || !(tile.minY...tile.maxY).contains(y) {
                let at = (y * start.width + x) * 3
                if one.pixels[at..<at + 3] != start.pixels[at..<at + 3] { Issue.record("\(name): (\(x), \(y)) outside the clip") }
            }
        }
    }

    @Test(arguments: [0.0, 0.3, 1.1, 2.9, -0.7])
    func aCrateDrawnInTilesIsTheWholeCrate(angle: Double) {
        let style = CrateStyle(size: Vec2(33.3, 21.7), scale: 1.13, palette: CratePalette(base: RGB(181, 131, 74)))
        // Partly off the image's left edge, where rows start at column 0.
        for center in [Vec2(30.37, 23.81), Vec2(3.2, 40.6)] {
            Self.expectTilesEqualWhole("crate at \(center), \(angle)") { image, clip in
                Rasterizer.drawCrate(&image, center: center, angle: angle, style: style, clip: clip)
            }
        }
    }

    @Test func discsOutlinesAndSegmentsDrawnInTilesAreTheWholeShapes() {
        let disc = DiscStyle(radius: 14.2, scale: 1, palette: CratePalette(base: RGB(72, 120, 207)))
        Self.expectTilesEqualWhole("disc") { image, clip in
            Rasterizer.drawDisc(&image, center: Vec2(29.6, 22.3), angle: 0.8, style: disc, clip: clip)
        }
        let outline = OutlineStyle(color: RGB(200, 85, 61), look: .plain, scale: 1, size: 20)
        Self.expectTilesEqualWhole("polygon") { image, clip in
            Rasterizer.drawOutline(&image, points: [Vec2(8.3, 9.1), Vec2(50.2, 14.7), Vec2(41.9, 40.3), Vec2(12.6, 33.3)], radius: 1.3,
                                   style: outline, clip: clip)
        }
        Self.expectTilesEqualWhole("segment") { image, clip in
            Rasterizer.drawSegment(&image, from: Vec2(3.3, 41.2), to: Vec2(57.1, 6.4), radius: 2.6, color: RGB(60, 60, 70), clip: clip)
        }
    }
}
