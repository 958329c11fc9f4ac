#if canImport(Glibc)
import Glibc
#endif
import Physics
import SceneModel
import TestSupport
import Testing

@Suite struct SpaceOptionsTests {
    /// The spatial hash and sleeping change how Chipmunk works, never determinism.
    @Test(arguments: [
        SpaceOptions(spatialHash: .init(cellSize: 20, cells: 1000)),
        SpaceOptions(sleepTimeThreshold: 0.2),
        SpaceOptions(spatialHash: .init(cellSize: 20, cells: 1000), sleepTimeThreshold: 0.2),
    ])
    func optionsKeepRunsDeterministic(options: SpaceOptions) throws {
        var scene = try Repository.scene("pile-100")
        scene.space = options
        let first = try World(scene: scene), second = try World(scene: scene)
        let plain = try World(scene: Repository.scene("pile-100"))
        for _ in 0..<600 {
            first.step()
            second.step()
            plain.step()
        }
        #expect(first.stateHash == second.stateHash)
        // The option is really in effect: the result differs from the default tree, no sleeping.
        #expect(first.stateHash != plain.stateHash)
    }

    @Test func tumblerWallsTurnAtTheirAngularVelocity() throws {
        let scene = try Repository.scene("tumbler")
        let world = try World(scene: scene)
        let start = world.snapshot().movingWalls
        #expect(start.count == 4)
        for _ in 0..<120 { world.step() }
        // After 1 s at 0.5 rad/s, the bottom wall's direction has turned by 0.5 rad.
        let ends = world.snapshot().movingWalls[0].geometry.points
        let angle = atan2(ends[1].y - ends[0].y, ends[1].x - ends[0].x)
        #expect(abs(angle - 0.5) < 1e-9)
        #expect(world.snapshot().bodies.allSatisfy { abs($0.position.x - 300) < 300 && abs($0.position.y - 300) < 300 })
    }

    @Test func badOptionsAreRefusedBeforeChipmunkSeesThem() {
        #expect(throws: PhysicsError.self) { try World(gravity: .zero, space: SpaceOptions(spatialHash: .init(cellSize: 0, cells: 10))) }
        #expect(throws: PhysicsError.self) { try World(gravity: .zero, space: SpaceOptions(sleepTimeThreshold: .nan)) }
    }
}
