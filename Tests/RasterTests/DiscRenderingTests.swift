import Raster
import SceneModel
import Testing

/// Circle bodies drawn as round crates: a disc of the body's size, a rim, and a brace whose knot
/// turns with the body.
@Suite struct DiscRenderingTests {
    static let background = RGB(255, 255, 255)
    static let colors = RenderDefaults(background: background, crate: RGB(200, 100, 50), wall: RGB(0, 0, 0))
    /// CratePalette's shades of the crate colour: the rim (frame) and the face (first plank).
    static let rim = RGB(124, 62, 31), face = RGB(200, 100, 50)

    static func render(angle: Double) -> RGBImage {
        let renderer = FrameRenderer(world: Vec2(100, 100), walls: [], bodyShapes: BodyShapes([(BodyID(1), .circle(radius: 20))]),
                                     width: 100, height: 100, colors: colors)
        let disc = BodyState(id: BodyID(1), position: Vec2(50, 50), angle: angle, velocity: .zero, angularVelocity: 0)
        return renderer.render(WorldSnapshot(step: 0, bodies: [disc]))
    }

    static func pixel(_ image: RGBImage, _ x: Int, _ y: Int) -> RGB {
        let i = (y * image.width + x) * 3
        return RGB(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    }

    @Test func aDiscCoversItsCircleAndNoMore() {
        let image = Self.render(angle: 0)
        var touched = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let dx = Double(x) + 0.5 - 50, dy = Double(y) + 0.5 - 50
                let distance = (dx * dx + dy * dy).squareRoot()
                let drawn = Self.pixel(image, x, y) != Self.background
                if distance < 19 { #expect(drawn, "inside at \(x),\(y)") }
                if distance > 21.5 { #expect(!drawn, "outside at \(x),\(y)") }
                if drawn { touched += 1 }
            }
        }
        // About π·20² = 1257 pixels.
        #expect((1180...1340).contains(touched))
        // The rim is the frame shade, the face between rim and brace the plank shade.
        #expect(Self.pixel(image, 50, 31) == Self.rim)
        #expect(Self.pixel(image, 50, 40) == Self.face)
    }

    @Test func theKnotTurnsWithTheBody() {
        // The knot sits at the brace's +x end: right of the centre at angle 0; a quarter turn
        // counter-clockwise in the world (y up) puts it above the centre on the image (y down).
        let still = Self.render(angle: 0), turned = Self.render(angle: .pi / 2)
        #expect(Self.pixel(still, 63, 50) == Self.rim)
        #expect(Self.pixel(still, 37, 50) != Self.rim)
        #expect(Self.pixel(turned, 50, 36) == Self.rim)
        #expect(Self.pixel(turned, 63, 50) == Self.face)
    }
}
