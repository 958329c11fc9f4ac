import Foundation
import TestSupport
import Testing

/// Spawner scenes from the command line (issue 44's figure): 1,000 crates dropped over 20 s,
/// saved at five steps (before, between and after releases), each continuation equal to the
/// straight run's every-step lines; the synctest passes; the record replays and verifies.
@Suite struct SpawnerCommandTests {
    static let thousand = """
        {"world": [1200, 900], "gravity": [0, -1000], "step_rate": 100, "bounds": {"radius": 12, "friction": 0.6},
         "spawners": [{"at": [600, 860], "every": 0.02, "count": 1000, "jitter": [560, 20], "scale": [0.8, 1.2], "seed": 3,
                       "crate": {"size": [16, 16], "mass": 1, "friction": 0.6}}]}
        """

    @Test(.needsSavedStates(SavedStateCommandTests.portable), .timeLimit(.minutes(10)))
    func aThousandCrateSpawnerContinuesFromStatesAndReplays() throws {
        let scene = SavedStateCommandTests.temporary("drop-1000.json")
        try Self.thousand.write(toFile: scene, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scene) }
        let straight = try CLI.run(["hash", scene, "--steps", "2100", "--every", "1"])
        #expect(straight.status == 0, "\(straight.stderr)")
        let lines = straight.stdout.split(separator: "\n")
        #expect(lines.count == 2100)
        // A crate every 2 steps (0.02 s at 100 steps/s) from step 0, the last at step 1998:
        // saved before one, at one and between two, and after the last.
        for step in [100, 1000, 1001, 1998, 2050] {
            let state = SavedStateCommandTests.temporary("drop-\(step).state")
            defer { try? FileManager.default.removeItem(atPath: state) }
            #expect(try CLI.run(["hash", scene, "--steps", String(step), "--save-state", state]).status == 0)
            let continued = try CLI.run(["hash", state, "--steps", String(2100 - step), "--every", "1"])
            #expect(continued.status == 0 && continued.stdout.split(separator: "\n") == Array(lines.dropFirst(step)), "saved at step \(step)")
        }
        let synctest = try CLI.run(["hash", scene, "--steps", "2100", "--synctest", "3"])
        #expect(synctest.status == 0 && synctest.stdout == "\(lines.last!)\n", "\(synctest.stderr)")
        let record = SavedStateCommandTests.temporary("drop-1000.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try CLI.run(["hash", scene, "--steps", "2100", "--record", record, "--keyframes", "500"]).status == 0)
        for from in ["0", "1200"] {
            let replay = try CLI.run(["replay", record, "--verify", "--from", from])
            #expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "from \(from): \(replay.stderr)")
        }
    }

    /// A spawner faster than its spot clears: the first crate not made is told with its step and
    /// why, and the count in all when the run ends; the run goes on (exit 0).
    @Test func cratesThatCannotBeMadeAreTold() throws {
        let scene = SavedStateCommandTests.temporary("heap.json")
        try #"{"world": [200, 200], "gravity": [0, 0], "spawners": [{"at": [100, 100], "every": 0.01, "count": 40, "crate": {"size": [20, 20], "mass": 1}}]}"#
            .write(toFile: scene, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scene) }
        let result = try CLI.run(["hash", scene, "--steps", "100"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("spawners[0]'s crate ") && result.stderr.contains("was not made at step ")
                && result.stderr.contains("it would lie deep in more than 8 bodies") && result.stderr.contains("spawned crates were not made in all"),
                "\(result.stderr)")
        let validated = try CLI.run(["validate", "Scenes/crate-drop.json"])
        #expect(validated.stdout == "Scenes/crate-drop.json: ok (0 crates, 40 from 2 spawners, 4 walls)\n", "\(validated.stdout)")
    }

    /// A record that removes a spawned body replays and verifies: the reader cannot know the
    /// spawned ids the lines do not say, and leaves them to the replay (review of stop 45).
    @Test func aRecordRemovingASpawnedBodyReplays() throws {
        let (inputs, record) = (SavedStateCommandTests.temporary("remove-spawned.jsonl"), SavedStateCommandTests.temporary("remove-spawned.rec"))
        defer { for path in [inputs, record] { try? FileManager.default.removeItem(atPath: path) } }
        try #"{"step": 300, "body": 3, "remove": true}"#.write(toFile: inputs, atomically: true, encoding: .utf8)
        let run = try CLI.run(["hash", "Scenes/crate-drop.json", "--steps", "400", "--gravity", inputs, "--record", record])
        #expect(run.status == 0, "\(run.stderr)")
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "\(replay.stdout)\(replay.stderr)")
    }
}
