import Sweep
import TestSupport
import Testing

/// A sweep over a scene with a terrain picture: each sample's scene (the base scene with the
/// sample's values set) reads the picture beside the base scene file, not beside the sample's.
@Suite(.timeLimit(.minutes(3))) struct TerrainSweepTests {
    @Test func aSceneValueAxisOverATerrainSceneIsAccepted() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let problems = try fixture.problems("""
            {
              "scene": "\(Repository.path("Scenes/terrain.json"))",
              "seconds": 0.5,
              "sample": { "kind": "grid" },
              "axes": [{ "field": "gravity", "values": [[0, -1000], [200, -1000]] }],
              "outputs": { "hash_every": 30 }
            }
            """)
        #expect(problems == [])
    }
}
