import Outputs
import Physics
@testable import Raster
import SceneModel
import Session
import TestSupport
import Testing

/// Frames drawn into recycled frames by their changes only (`FrameRenderer+Changes.swift`) against
/// the same frames drawn whole, byte for byte at every frame, over scenes that run: a pile that
/// falls asleep, one that never stops jittering, spawners, joints and a joint that breaks, a
/// tumbler's moving walls, polygons and circles in the plain look, bodies of parts added and
/// removed as the run goes. The video writer's YUV conversion of only what changed is checked
/// against converting each frame whole on the way.
@Suite(.timeLimit(.minutes(5)))
struct ChangedRegionDrawingTests {
    /// What happens to a world before a frame's steps (frame number, world).
    typealias Edit = (Int, World) throws -> Void

    /// Runs `frames` frames of `scene` (two steps each), drawing each frame into the oldest of six
    /// recycled frames as the render pipeline does, and whole with a second renderer.
    /// - Returns: how many frames were drawn by their changes.
    @discardableResult
    static func compare(_ scene: Scene, frames: Int, size: Int = 240, alpha: Double = 0, overlays: Overlays = [],
                        edit: Edit = { _, _ in }) throws -> Int {
        let world = try World(scene: scene)
        func renderer(drawsChanges: Bool) -> FrameRenderer {
            FrameRenderer(world: scene.worldSize, walls: world.wallStates(), bodyShapes: world.bodyShapes, width: size, height: size,
                          colors: scene.render, crateColors: scene.crateColors(in: world), overlays: overlays, joints: world.jointLinks,
                          drawsChanges: drawsChanges)
        }
        let changes = renderer(drawsChanges: true), whole = renderer(drawsChanges: false)
        let converter = YUV420Converter(width: size, height: size)
        var pool = [RGBImage?](repeating: nil, count: 6)
        var converted: [(image: RGBImage, yuv: [UInt8])?] = [nil, nil]
        var previous = world.snapshot()
        for frame in 0..<frames {
            try edit(frame, world)
            world.step()
            world.step()
            let current = world.snapshot()
            let snapshot = WorldSnapshot.interpolated(from: previous, to: current, alpha: alpha)
            previous = current
            let slot = frame % pool.count
            if pool[slot] == nil {
                pool[slot] = changes.render(snapshot)
            } else {
                changes.render(snapshot, into: &pool[slot]!)
            }
            let drawn = pool[slot]!
            let expected = whole.render(snapshot)
            #expect(drawn.pixels == expected.pixels, "\(scene.name) frame \(frame)")
            guard drawn.pixels == expected.pixels else { break }
            // As the video writer does: a ring of two conversions, each updated where the frames differ.
            let ring = frame % converted.count
            var yuv = converted[ring]?.yuv ?? []
            let before = converted[ring]?.image.drawnRegions
            let changed = before.flatMap { before in drawn.drawnRegions.flatMap { $0.changes(since: before) } }
            converter.convert(drawn, into: &yuv, previous: converted[ring]?.image, changed: changed)
            var fresh: [UInt8] = []
            converter.convert(expected, into: &fresh)
            #expect(yuv == fresh, "\(scene.name) frame \(frame): YUV")
            converted[ring] = (drawn, yuv)
        }
        return changes.framesDrawnByChanges
    }

    /// A pile whose crates fall asleep: once most lie still, frames are drawn by their changes.
    /// Interpolated frames (between the steps), the sleeping colour and the grid.
    @Test func aPileFallingAsleepIsDrawnByItsChanges() throws {
        var scene = try Repository.scene("pile-100")
        scene.space.sleepTimeThreshold = 0.3
        #expect(try Self.compare(scene, frames: 300, alpha: 0.37, overlays: [.sleeping, .grid]) > 60)
    }

    /// pile-100 never comes to rest (99 of its 100 bodies move in every frame): its frames fall
    /// back to being drawn whole, as exactly.
    @Test(arguments: ["pile-100", "crate-drop", "chains", "breaking-bridge", "tumbler", "car", "newton-cradle"])
    func scenesDrawnByTheirChangesAreTheirWholeDrawings(name: String) throws {
        try Self.compare(Repository.scene(name), frames: 150)
    }

    /// Overlays other than the grid and sleeping draw more than the items: those frames are drawn whole.
    @Test func framesWithOtherOverlaysAreDrawnWhole() throws {
        #expect(try Self.compare(Repository.scene("book"), frames: 40, overlays: [.aabb, .ids]) == 0)
    }

    /// Bodies of parts (each part drawn in its own colour), added and removed while the run goes.
    @Test func bodiesAddedAndRemovedMidRunAreDrawnAndClearedExactly() throws {
        let parts = [
            BodyPart(shape: .box(size: Vec2(30, 10)), offset: Vec2(0, 0), mass: 3, color: RGB(200, 60, 60)),
            BodyPart(shape: .box(size: Vec2(20, 10)), offset: Vec2(-10, 15), angle: Double.pi / 2, mass: 2),
            BodyPart(shape: .circle(radius: 5), offset: Vec2(15, 8), mass: 1, color: RGB(40, 90, 200)),
        ]
        var removed: [BodyID] = []
        // Bodies that fall asleep keep their values exactly: frames are drawn by their changes.
        var scene = try Repository.scene("book")
        scene.space.sleepTimeThreshold = 0.2
        let framesByChanges = try Self.compare(scene, frames: 240) { frame, world in
            if frame % 40 == 20 {
                let x = 60 + Double(frame) / 2
                _ = try world.apply(.addCrate(CrateSpec(center: Vec2(x, 150), shape: .compound(parts: parts), angle: 0.4, mass: 6)))
            }
            if frame % 60 == 59, let victim = world.snapshot().bodies.first(where: { !removed.contains($0.id) })?.id {
                removed.append(victim)
                _ = try world.apply(.removeBody(victim))
            }
        }
        #expect(removed.count == 4)
        #expect(framesByChanges > 10)
    }
}
