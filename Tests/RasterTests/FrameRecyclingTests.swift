import Raster
import SceneModel
import Testing

/// Frames drawn into recycled memory (`FrameRenderer.render(_:into:)`) and the regions a frame
/// records as drawn over the static layer.
@Suite struct FrameRecyclingTests {
    static let colors = RenderDefaults(background: RGB(240, 235, 225), crate: RGB(181, 131, 74), wall: RGB(60, 60, 60))
    static let walls = [WallState(from: Vec2(0, 2), to: Vec2(100, 2), radius: 1)]

    static func renderer(overlays: Overlays = []) -> FrameRenderer {
        FrameRenderer(world: Vec2(100, 60), walls: walls, bodyShapes: FrameRendererTests.boxes([1: Vec2(12, 8), 2: Vec2(9, 9), 3: Vec2(20, 5)]),
                      width: 150, height: 90, colors: colors,
                      crateColors: [BodyID(2): RGB(40, 90, 200)], overlays: overlays)
    }

    /// Frame `n` of a little scene: crates sliding, turning, sleeping, one leaving and coming back,
    /// a moving wall, contact points.
    static func snapshot(_ n: Int) -> WorldSnapshot {
        var bodies = [
            BodyState(id: BodyID(1), position: Vec2(10 + 3.7 * Double(n), 20), angle: 0.21 * Double(n), velocity: .zero,
                      angularVelocity: 0, sleeping: n % 4 == 0),
            BodyState(id: BodyID(2), position: Vec2(70, 40 - 1.3 * Double(n)), angle: 0, velocity: .zero, angularVelocity: 0),
        ]
        if n % 3 != 1 {
            bodies.append(BodyState(id: BodyID(3), position: Vec2(50, 50), angle: 0.5, velocity: .zero, angularVelocity: 0))
        }
        let wall = WallState(from: Vec2(20 + Double(n), 55), to: Vec2(40, 45 - Double(n)), radius: 0.8)
        let contacts = [ContactPoint(position: Vec2(10 + 3.7 * Double(n), 16), normal: Vec2(0, 1))]
        return WorldSnapshot(step: n, bodies: bodies, movingWalls: [wall], contacts: contacts)
    }

    @Test(arguments: [Overlays(), [.sleeping, .aabb, .contacts, .ids, .grid]])
    func aRecycledFrameEqualsAFreshOne(overlays: Overlays) {
        let renderer = Self.renderer(overlays: overlays)
        var recycled = renderer.render(WorldSnapshot(step: 0, bodies: []))
        for n in 0..<16 {
            let snapshot = Self.snapshot(n)
            renderer.render(snapshot, into: &recycled)
            #expect(recycled == renderer.render(snapshot), "frame \(n)")
        }
    }

    /// Outside its drawn regions a frame is exactly the empty frame (the static layer).
    @Test func drawnRegionsHoldEveryPixelDrawnOverTheStaticLayer() throws {
        let renderer = Self.renderer(overlays: [.aabb, .contacts, .ids])
        let empty = renderer.render(WorldSnapshot(step: 0, bodies: []))
        #expect(empty.drawnRegions?.rects == [])
        for n in 0..<16 {
            let frame = renderer.render(Self.snapshot(n))
            let regions = try #require(frame.drawnRegions)
            #expect(regions.background == empty.drawnRegions?.background)
            var outsideDiffers = 0, insideDiffers = 0
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let at = (y * frame.width + x) * 3
                    guard frame.pixels[at..<at + 3] != empty.pixels[at..<at + 3] else { continue }
                    let inside = regions.rects.contains { x >= $0.minX && x <= $0.maxX && y >= $0.minY && y <= $0.maxY }
                    if inside { insideDiffers += 1 } else { outsideDiffers += 1 }
                }
            }
            #expect(outsideDiffers == 0, "frame \(n)")
            #expect(insideDiffers > 300, "frame \(n)")
        }
    }

    /// Changing a frame's pixels drops its drawn regions, so that neither the renderer nor a video
    /// writer trusts them for a frame changed since.
    @Test func changedPixelsDropTheDrawnRegions() {
        let renderer = Self.renderer()
        var frame = renderer.render(Self.snapshot(2))
        #expect(frame.drawnRegions != nil)
        frame.pixels[0] = 0
        #expect(frame.drawnRegions == nil)
        renderer.render(Self.snapshot(4), into: &frame)
        #expect(frame == renderer.render(Self.snapshot(4)) && frame.drawnRegions != nil)
    }

    /// A frame drawn by another renderer (another static layer) or of another size is not patched
    /// but replaced.
    @Test func aForeignFrameIsReplacedWhole() {
        let renderer = Self.renderer()
        let other = FrameRenderer(world: Vec2(100, 60), walls: [], bodyShapes: .none, width: 150, height: 90, colors: RenderDefaults())
        var foreign = other.render(Self.snapshot(3))
        renderer.render(Self.snapshot(5), into: &foreign)
        #expect(foreign == renderer.render(Self.snapshot(5)))
        var small = RGBImage(width: 4, height: 4, fill: RGB(0, 0, 0))
        renderer.render(Self.snapshot(5), into: &small)
        #expect(small == renderer.render(Self.snapshot(5)))
    }
}
