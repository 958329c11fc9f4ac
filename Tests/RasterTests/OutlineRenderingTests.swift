import Raster
import SceneModel
import Testing

/// Polygons, segments and polygon walls drawn from their outlines, anti-aliased like the crates;
/// the plain look; a colour per wall.
@Suite struct OutlineRenderingTests {
    static let background = RGB(255, 255, 255)

    static func render(_ shape: BodyShape, angle: Double = 0, look: BodyLook = .plain, walls: [WallState] = []) -> RGBImage {
        let colors = RenderDefaults(background: background, crate: RGB(200, 60, 40), wall: RGB(0, 0, 0), look: look)
        let renderer = FrameRenderer(world: Vec2(100, 100), walls: walls, bodyShapes: BodyShapes([(BodyID(1), shape)]),
                                     width: 100, height: 100, colors: colors)
        return renderer.render(WorldSnapshot(step: 0, bodies: [BodyState(id: BodyID(1), position: Vec2(50, 50), angle: angle,
                                                                           velocity: .zero, angularVelocity: 0)]))
    }

    static func count(_ image: RGBImage, where test: (RGB) -> Bool) -> Int {
        stride(from: 0, to: image.pixels.count, by: 3).count { test(RGB(image.pixels[$0], image.pixels[$0 + 1], image.pixels[$0 + 2])) }
    }

    @Test func aTriangleCoversItsAreaWithSoftEdges() {
        // Area 0.5 · 40 · 30 = 600 px².
        let image = Self.render(.polygon(vertices: [Vec2(-20, -10), Vec2(20, -10), Vec2(-20, 20)], radius: 0))
        let touched = Self.count(image) { $0 != Self.background }
        let solid = Self.count(image) { $0 == RGB(200, 60, 40) || $0 == RGB(110, 33, 22) }
        #expect((560...680).contains(touched), "\(touched)")
        #expect(solid < touched, "the edges are blended")
        // Inside: the body's colour in the plain look; the rim a darker shade of it.
        let i = (55 * 100 + 40) * 3
        #expect(RGB(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) == RGB(200, 60, 40))
        #expect(Self.count(image) { $0 == RGB(110, 33, 22) } > 50)
    }

    @Test func aRoundingRadiusGrowsThePolygonAndTurningTurnsIt() {
        let square = [Vec2(-10, -10), Vec2(10, -10), Vec2(10, 10), Vec2(-10, 10)]
        let sharp = Self.count(Self.render(.polygon(vertices: square, radius: 0))) { $0 != Self.background }
        let round = Self.count(Self.render(.polygon(vertices: square, radius: 3))) { $0 != Self.background }
        // Pixels touched: those whose centre is within half a pixel of the shape. 400 px² grown by
        // 3.5: 400 + 4 · 20 · 3.5 + π · 3.5² ≈ 718.
        #expect((380...430).contains(sharp) && (650...760).contains(round), "\(sharp) \(round)")
        let wide = Self.render(.segment(a: Vec2(-30, 0), b: Vec2(30, 0), radius: 2))
        let turned = Self.render(.segment(a: Vec2(-30, 0), b: Vec2(30, 0), radius: 2), angle: .pi / 2)
        func columns(_ image: RGBImage) -> Int { Set((0..<10_000).filter { image.pixels[$0 * 3] != 255 }.map { $0 % 100 }).count }
        #expect(columns(wide) > 60 && columns(turned) < 8)
    }

    @Test func theCrateLookDrawsPolygonsInWoodAndBoxesAsCrates() {
        // The wood's face is the crate colour (the crates' first plank) inside the crates' frame
        // shade, not the plain look's darker rim.
        let triangle = BodyShape.polygon(vertices: [Vec2(-20, -10), Vec2(20, -10), Vec2(0, 20)], radius: 0)
        let wood = Self.render(triangle, look: .crate), plain = Self.render(triangle, look: .plain)
        #expect(Self.count(wood) { $0 == RGB(200, 60, 40) } > 300)
        #expect(Self.count(wood) { $0 == RGB(110, 33, 22) } == 0 && Self.count(plain) { $0 == RGB(110, 33, 22) } > 50)
        let box = Self.render(.box(size: Vec2(30, 30)), look: .crate), plainBox = Self.render(.box(size: Vec2(30, 30)), look: .plain)
        #expect(box != plainBox, "a box is a crate in the crate look and a flat shape in the plain one")
        #expect(Self.count(plainBox) { $0 == RGB(200, 60, 40) } > 500)
    }

    @Test func aPolygonWallIsFilledInItsOwnColour() {
        let wedge = WallState(geometry: .polygon(vertices: [Vec2(0, 0), Vec2(40, 0), Vec2(0, 40)]), radius: 0, color: RGB(10, 120, 30))
        let plain = WallState(from: Vec2(60, 5), to: Vec2(100, 5), radius: 2)
        let image = Self.render(.circle(radius: 1), walls: [wedge, plain])
        let green = Self.count(image) { $0 == RGB(10, 120, 30) }
        #expect((700...820).contains(green), "about 800 px² of wedge: \(green)")
        #expect(Self.count(image) { $0 == RGB(0, 0, 0) } > 60, "the other wall in the scene's wall colour")
    }
}
