import Raster
import SceneModel
import Testing

@Suite struct FrameRendererTests {
    static let background = RGB(255, 255, 255)
    static let colors = RenderDefaults(background: background, crate: RGB(200, 100, 50), wall: RGB(0, 0, 0))

    static func crate(_ id: UInt64, at position: Vec2, size: Vec2, angle: Double = 0) -> BodyState {
        BodyState(id: BodyID(id), position: position, angle: angle, velocity: .zero, angularVelocity: 0)
    }

    /// Boxes by id, as a world would list their shapes.
    static func boxes(_ sizes: [UInt64: Vec2]) -> BodyShapes {
        BodyShapes(sizes.keys.sorted().map { (BodyID($0), .box(size: sizes[$0]!)) })
    }

    static func pixel(_ image: RGBImage, _ x: Int, _ y: Int) -> RGB {
        let i = (y * image.width + x) * 3
        return RGB(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    }

    /// Which pixels differ from the background.
    static func footprint(_ image: RGBImage) -> Set<[Int]> {
        var result = Set<[Int]>()
        for y in 0..<image.height { for x in 0..<image.width where pixel(image, x, y) != background { result.insert([x, y]) } }
        return result
    }

    @Test func viewportFitsTheWorldKeepingAspectRatioAndFlipsY() {
        let square = Viewport(world: Vec2(300, 300), imageWidth: 120, imageHeight: 120)
        #expect(square.scale == 0.4)
        #expect(square.imagePoint(Vec2(0, 300)) == Vec2(0, 0))
        #expect(square.imagePoint(Vec2(300, 0)) == Vec2(120, 120))
        let wide = Viewport(world: Vec2(400, 200), imageWidth: 100, imageHeight: 100)
        #expect(wide.scale == 0.25 && wide.offsetX == 0 && wide.offsetY == 25)
    }

    @Test func anAxisAlignedCrateCoversExactlyItsPixels() {
        let renderer = FrameRenderer(world: Vec2(20, 20), walls: [], bodyShapes: Self.boxes([1: Vec2(6, 6)]), width: 20, height: 20,
                                     colors: Self.colors)
        // World x 2...8, y 12...18 -> image columns 2...7, rows 2...7 (y flipped).
        let image = renderer.render(WorldSnapshot(step: 0, bodies: [Self.crate(1, at: Vec2(5, 15), size: Vec2(6, 6))]))
        let expected = Set((2...7).flatMap { x in (2...7).map { [x, $0] } })
        #expect(Self.footprint(image) == expected)
    }

    @Test func edgesAreAntiAliased() {
        let renderer = FrameRenderer(world: Vec2(20, 20), walls: [], bodyShapes: Self.boxes([1: Vec2(6, 6)]), width: 20, height: 20,
                                     colors: Self.colors)
        // Half a pixel off the grid: the edge columns are half covered, so between crate and background.
        let image = renderer.render(WorldSnapshot(step: 0, bodies: [Self.crate(1, at: Vec2(5.5, 10), size: Vec2(6, 6))]))
        let edge = Self.pixel(image, 2, 10), inside = Self.pixel(image, 4, 10)
        #expect(edge != Self.background && edge != inside)
        #expect(edge.r > inside.r || edge.g > inside.g)
    }

    @Test func aQuarterTurnSwapsTheFootprint() {
        let renderer = FrameRenderer(world: Vec2(20, 20), walls: [], bodyShapes: Self.boxes([1: Vec2(12, 4)]), width: 20, height: 20,
                                     colors: Self.colors)
        let flat = renderer.render(WorldSnapshot(step: 0, bodies: [Self.crate(1, at: Vec2(10, 10), size: Vec2(12, 4))]))
        let turned = renderer.render(WorldSnapshot(step: 0, bodies: [Self.crate(1, at: Vec2(10, 10), size: Vec2(12, 4), angle: .pi / 2)]))
        let transposed = Set(Self.footprint(flat).map { [$0[1], $0[0]] })
        #expect(Self.footprint(turned) == transposed)
        #expect(Self.footprint(flat).count == 48)
    }

    @Test func wallsArePrerenderedAndCratesDrawOverThem() {
        let wall = WallState(from: Vec2(0, 5), to: Vec2(20, 5), radius: 1)
        let renderer = FrameRenderer(world: Vec2(20, 20), walls: [wall], bodyShapes: Self.boxes([1: Vec2(4, 4)]), width: 20, height: 20,
                                     colors: Self.colors)
        let empty = renderer.render(WorldSnapshot(step: 0, bodies: []))
        // The wall spans rows 14 and 15 (world y 4...6), full width, and nothing else.
        #expect(Self.footprint(empty) == Set((0..<20).flatMap { x in [[x, 14], [x, 15]] }))
        #expect(Self.pixel(empty, 10, 14) == RGB(0, 0, 0))
        let withCrate = renderer.render(WorldSnapshot(step: 0, bodies: [Self.crate(1, at: Vec2(10, 5), size: Vec2(4, 4))]))
        #expect(Self.pixel(withCrate, 10, 14) != RGB(0, 0, 0))
        #expect(Self.pixel(withCrate, 2, 14) == RGB(0, 0, 0))
    }

    @Test func cratesLookLikeCratesWithFrameAndBrace() {
        let renderer = FrameRenderer(world: Vec2(40, 40), walls: [], bodyShapes: Self.boxes([1: Vec2(30, 30)]), width: 40, height: 40,
                                     colors: Self.colors)
        let image = renderer.render(WorldSnapshot(step: 0, bodies: [Self.crate(1, at: Vec2(20, 20), size: Vec2(30, 30))]))
        let frame = Self.pixel(image, 6, 20), plank = Self.pixel(image, 12, 20), brace = Self.pixel(image, 20, 20)
        #expect(frame != plank && brace != plank)
        #expect(Int(frame.r) < Int(plank.r))
    }

    @Test func ppmHeaderIsBinaryP6() {
        let image = RGBImage(width: 3, height: 2, fill: RGB(1, 2, 3))
        #expect(image.ppm() == Array("P6\n3 2\n255\n".utf8) + [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3])
    }
}

@Suite struct SceneLookTests {
    /// A crate with a colour of its own is drawn in its shades; the others in the scene's.
    @Test func crateColoursAreDrawnPerBody() {
        let crates = [FrameRendererTests.crate(1, at: Vec2(25, 50), size: Vec2(30, 30)),
                      FrameRendererTests.crate(2, at: Vec2(75, 50), size: Vec2(30, 30))]
        let red = RGB(200, 20, 20)
        let renderer = FrameRenderer(world: Vec2(100, 100), walls: [], bodyShapes: FrameRendererTests.boxes([1: Vec2(30, 30), 2: Vec2(30, 30)]),
                                     width: 100, height: 100, colors: RenderDefaults(), crateColors: [BodyID(2): red])
        let image = renderer.render(WorldSnapshot(step: 0, bodies: crates))
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[(y * 100 + x) * 3..<(y * 100 + x) * 3 + 3]) }
        // Just inside the left border, on the bottom plank (shade 1.0 of the base colour).
        let base = RenderDefaults().crate
        #expect(pixel(18, 60) == [base.r, base.g, base.b])
        #expect(pixel(68, 60) == [red.r, red.g, red.b])
    }

    /// A view rectangle fills the image: its corners map to the image's corners.
    @Test func aViewRectangleIsFittedIntoTheImage() {
        let viewport = Viewport(view: ViewRect(min: Vec2(100, 20), max: Vec2(260, 110)), imageWidth: 320, imageHeight: 180)
        #expect(viewport.scale == 2)
        #expect(viewport.imagePoint(Vec2(100, 110)) == Vec2(0, 0))
        #expect(viewport.imagePoint(Vec2(260, 20)) == Vec2(320, 180))
        // The whole world keeps mapping as before: (0, h) is the top-left corner.
        let world = Viewport(world: Vec2(300, 300), imageWidth: 120, imageHeight: 120)
        #expect(world.imagePoint(Vec2(0, 300)) == Vec2(0, 0) && world.imagePoint(Vec2(300, 0)) == Vec2(120, 120))
    }
}

@Suite struct OverlayTests {
    static func count(_ image: RGBImage, _ color: RGB) -> Int {
        stride(from: 0, to: image.pixels.count, by: 3).filter {
            image.pixels[$0] == color.r && image.pixels[$0 + 1] == color.g && image.pixels[$0 + 2] == color.b
        }.count
    }

    static func render(_ overlays: Overlays, bodies: [BodyState], contacts: [ContactPoint] = []) -> RGBImage {
        FrameRenderer(world: Vec2(100, 100), walls: [], bodyShapes: FrameRendererTests.boxes([7: Vec2(30, 20)]), width: 200, height: 200,
                      colors: RenderDefaults(), overlays: overlays)
            .render(WorldSnapshot(step: 0, bodies: bodies, contacts: contacts))
    }

    static let crate = FrameRendererTests.crate(7, at: Vec2(50, 50), size: Vec2(30, 20), angle: 0.5)

    @Test func eachOverlayDrawsOnlyWhenAsked() {
        let plain = Self.render([], bodies: [Self.crate], contacts: [ContactPoint(position: Vec2(20, 20), normal: Vec2(0, 1))])
        #expect(Self.count(plain, RGB(0xe0, 0x30, 0x30)) == 0 && Self.count(plain, RGB(0x10, 0x10, 0x10)) == 0)

        // Lines are anti-aliased, so count the pixels each overlay changes.
        func changed(_ a: RGBImage, _ b: RGBImage) -> Int {
            stride(from: 0, to: a.pixels.count, by: 3).filter { a.pixels[$0..<$0 + 3] != b.pixels[$0..<$0 + 3] }.count
        }
        // The bounding box of a 30x20 crate turned 0.5 rad is about 36 x 32 world px: 4 sides of ~70 image px.
        let boxed = Self.render(.aabb, bodies: [Self.crate])
        #expect(changed(boxed, Self.render([], bodies: [Self.crate])) > 200)

        let labelled = Self.render(.ids, bodies: [Self.crate])
        #expect(Self.count(labelled, RGB(0x10, 0x10, 0x10)) > 10)

        // Lines every 50 world px over a 100 px world: 3 each way across 200 image px.
        let gridded = Self.render(.grid, bodies: [])
        #expect(changed(gridded, Self.render([], bodies: [])) > 6 * 150)

        let contact = Self.render(.contacts, bodies: [], contacts: [ContactPoint(position: Vec2(20, 20), normal: Vec2(0, 1))])
        #expect(changed(contact, Self.render([], bodies: [])) > 20)
    }

    @Test func sleepingCratesAreGreyOnlyWithTheOverlay() {
        var asleep = Self.crate
        asleep.sleeping = true
        let base = RenderDefaults().crate
        #expect(Self.count(Self.render([], bodies: [asleep]), base) > 100)
        let shown = Self.render(.sleeping, bodies: [asleep])
        #expect(Self.count(shown, base) == 0 && Self.count(shown, RGB(0x9a, 0x9a, 0x9a)) > 100)
    }

    @Test func overlayListsParse() throws {
        let all = try Overlays.parse("aabb,contacts,sleeping,ids,grid").get()
        #expect(all == [.aabb, .contacts, .sleeping, .ids, .grid])
        guard case let .failure(unknown) = Overlays.parse("aabb,boxes") else { Issue.record("accepted"); return }
        #expect(unknown.description == "unknown overlay 'boxes' (known: grid, sleeping, aabb, contacts, ids)")
    }
}
