import Physics
import SceneFile
import SceneModel
import TestSupport
import Testing

/// Spawners (issue 44): crates dropped one by one at fixed steps, placed and sized by a seeded
/// generator, each an added crate logged in the world's make-up.
@Suite struct SpawnerTests {
    /// Crate i's draws are numbers 3i, 3i + 1 and 3i + 2 of SplitMix64's stream from the seed:
    /// worked out here by drawing the whole stream, not by the shortcut the spawner takes.
    @Test func eachCrateIsPlacedAndSizedByItsDrawsOfTheSeededStream() throws {
        let spawner = Spawner(at: Vec2(100, 200), every: DecimalSeconds("0.25")!, count: 5, crate: CrateSpec(center: .zero, size: Vec2(10, 20), mass: 4),
                              jitter: Vec2(30, 5), scale: 0.5...2, seed: 7)
        var stream = SplitMix64(seed: 7)
        for index in 0..<5 {
            let (x, y, s) = (stream.nextUnit(), stream.nextUnit(), stream.nextUnit())
            let crate = spawner.crate(index)
            let factor = 0.5 + 1.5 * s
            #expect(crate.center == Vec2(100 + 30 * (2 * x - 1), 200 + 5 * (2 * y - 1)), "crate \(index)")
            #expect(crate.shape == .box(size: Vec2(10 * factor, 20 * factor)) && crate.mass == 4 * factor * factor, "crate \(index)")
        }
    }

    @Test func cratesAppearAtTheirStepsWithTheNextIDs() throws {
        let world = try World(scene: Repository.scene("crate-drop"))
        // Boxes every 60 steps from step 0; balls every 60 from step 30.
        #expect(world.spawners.map { $0.interval(stepRate: 120) } == [60, 60] && world.spawners.map { $0.firstStep(stepRate: 120) } == [0, 30])
        var counts: [Int: Int] = [:]
        for _ in 0..<200 {
            world.step()
            counts[world.stepCount] = world.crates.count
        }
        #expect(counts[1] == 1 && counts[30] == 1 && counts[31] == 2 && counts[61] == 3 && counts[200] == 7)
        #expect(world.makeup.map(\.step) == [0, 30, 60, 90, 120, 150, 180] && world.makeup.map(\.made) == (1...7).map { UInt64($0) })
        #expect(world.refusedSpawnCount == 0)
    }

    /// A spawner that drops faster than the spot clears: once a crate would lie deep in more than
    /// 8 bodies it is not made, and noted, and the run goes on.
    @Test func aCrateThatWouldHeapIsNotMadeAndNoted() throws {
        let scene = try SceneLoader.parse(Array("""
            {"world": [200, 200], "gravity": [0, 0], "spawners": [{"at": [100, 100], "every": 0.01, "count": 40,
             "crate": {"size": [20, 20], "mass": 1}}]}
            """.utf8), file: "heap.json")
        let world = try World(scene: scene)
        // A crate every 2 steps (0.01 s rounded up at 120 steps/s): the 40th at step 78.
        for _ in 0..<100 { world.step() }
        #expect(world.refusedSpawnCount > 0 && world.crates.count + world.refusedSpawnCount == 40)
        #expect(world.refusedSpawns.first?.reason.contains("deep in more than 8 bodies") == true)
    }

    /// A restore forgets the refusals at and after its step, which the world meets again as it
    /// steps on: a look-ahead and a rewind (the synctest's) count each refusal once.
    @Test(.needsSavedStates(World.canSaveState)) func aRestoreForgetsTheRefusalsAfterItsStep() throws {
        let scene = try SceneLoader.parse(Array("""
            {"world": [200, 200], "gravity": [0, 0], "spawners": [{"at": [100, 100], "every": 0.01, "count": 40,
             "crate": {"size": [20, 20], "mass": 1}}]}
            """.utf8), file: "heap.json")
        let world = try World(scene: scene)
        for _ in 0..<40 { world.step() }
        let state = try world.saveState()
        let (count, first) = (world.refusedSpawnCount, world.refusedSpawns)
        #expect(count > 0)
        for _ in 0..<60 { world.step() }
        let straight = world.refusedSpawnCount
        #expect(straight > count)
        try world.restore(state)
        #expect(world.refusedSpawnCount == count && world.refusedSpawns == first)
        for _ in 0..<60 { world.step() }
        #expect(world.refusedSpawnCount == straight)
    }

    @Test(arguments: [
        (#""every": 0, "count": 3"#, "spawners[0].every: must be more than 0 s"),
        (#""every": 0.5, "count": 0"#, "spawners[0].count: must be in 1...100000"),
        (#""every": 0.5, "count": 100001"#, "spawners[0].count"),
        (#""every": 1000000000, "count": 100000"#, "spawners[0].count: its last crate would come after step 2^53"),
        (#""every": -1, "count": 3"#, "spawners[0].every: must be a plain decimal number of seconds"),
        (#""every": 0.5, "count": 3, "scale": [2, 1]"#, "spawners[0].scale: the smallest factor (2.0) is more than the largest (1.0)"),
        (#""every": 0.5, "count": 3, "scale": [0.5, 1e9]"#, "spawners[0].scale: must be within (0, 100.0]"),
        (#""every": 0.5, "count": 3, "jitter": [-1, 0]"#, "spawners[0].jitter: must be >= 0"),
        (#""every": 0.5, "count": 3, "jitter": [999950, 0]"#, "spawners[0].jitter: moves crates past ±1000000.0 px from at [100.0, 100.0]"),
    ])
    func aBadSpawnerIsNamedByItsKey(keys: String, message: String) throws {
        let text = """
            {"world": [200, 200], "gravity": [0, -10], "spawners": [{"at": [100, 100], \(keys), "crate": {"size": [10, 10], "mass": 1}}]}
            """
        #expect(throws: SceneLoadError.self) { try SceneLoader.parse(Array(text.utf8), file: "bad.json") }
        do {
            _ = try SceneLoader.parse(Array(text.utf8), file: "bad.json")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func aSpawnersCrateHasNoCenterOfItsOwn() throws {
        let text = #"{"world": [200, 200], "gravity": [0, -10], "spawners": [{"at": [100, 100], "every": 1, "count": 1, "crate": {"center": [1, 1], "size": [10, 10], "mass": 1}}]}"#
        do {
            _ = try SceneLoader.parse(Array(text.utf8), file: "bad.json")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("spawners[0].crate.center: a spawner's crates appear at its \"at\""), "\(error)")
        }
    }
}
