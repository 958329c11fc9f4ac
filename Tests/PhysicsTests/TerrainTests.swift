import Physics
import SceneFile
import SceneModel
import TestSupport
import Testing

/// Terrain from a picture: Scenes/terrain.png becomes the same segment walls on every run and
/// every CPU (a digest of their coordinates' bits is a checked-in constant), in the documented
/// order, and the crates on it roll down into the valley.
@Suite(.timeLimit(.minutes(3))) struct TerrainTests {
    static func terrainScene() throws -> Scene {
        try SceneLoader.load(path: Repository.path("Scenes/terrain.json"))
    }

    /// FNV-1a 64 over every wall's ends, in order.
    static func digest(_ walls: [WallSpec]) -> String {
        var hasher = FNV1a64()
        for wall in walls {
            for value in wall.geometry.fingerprintValues { hasher.combine(value) }
        }
        return String(hasher.value, radix: 16)
    }

    @Test func thePictureBecomesTheSameSegmentWallsEveryTime() throws {
        let scene = try Self.terrainScene()
        #expect(scene.walls.count == 46)
        #expect(scene.terrain == [TerrainSource(wallIndex: 0, digest: scene.terrain.first?.digest ?? 0, wallCount: 46)])
        #expect(Self.digest(scene.walls) == "a44584ebce88895d")
        #expect(try Self.terrainScene().walls == scene.walls)
    }

    /// Each outline is a chain: a wall starts where the one before it ended, and a closed outline
    /// ends where it began (the polyline order docs/scenes.md gives).
    @Test func theWallsFollowEachOutlineEndToEnd() throws {
        let walls = try Self.terrainScene().walls.map { wall -> (Vec2, Vec2) in
            guard case let .segment(from, to) = wall.geometry else { Issue.record("not a segment"); return (.zero, .zero) }
            return (from, to)
        }
        // Split where a wall does not start at the last one's end: each piece must close on itself.
        var chains: [[(Vec2, Vec2)]] = []
        for wall in walls {
            if let last = chains.last?.last, last.1 == wall.0 { chains[chains.count - 1].append(wall) } else { chains.append([wall]) }
        }
        #expect(chains.count == 2, "the ground and the cave")
        for chain in chains { #expect(chain.first!.0 == chain.last!.1, "a closed outline") }
    }

    @Test func theCratesRollDownIntoTheValley() throws {
        let world = try World(scene: try Self.terrainScene())
        let start = world.snapshot().bodies
        for _ in 0..<300 { world.step() }
        let end = world.snapshot().bodies
        for index in [2, 3] {
            #expect(end[index].position.x > start[index].position.x + 80, "crate \(index) rolls right, downhill")
            #expect(end[index].position.y < 120, "crate \(index) ends in the valley")
        }
    }
}
