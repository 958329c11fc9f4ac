import Foundation
import TestSupport
import Testing

/// A scene's spawners (issue 44) in the plain-C build (`cratedrop-bench --side c`): the Swift side
/// works out every crate they release (`Spawner.crate(_:)`) and the C world adds each at the start
/// of its step (`cbaseline_spawn`), after that boundary's input lines, spawners in file order, as
/// CrateDrop's world releases them. The C build has no crowding check: a spawned crate CrateDrop
/// refuses is told, never hashed as if the two agreed.
@Suite struct BaselineSpawnerTests {
    /// Lines at the steps Scenes/crate-drop.json releases crates (spawner 0 every 60 steps from
    /// 0, spawner 1 every 60 from 30): a push on the first crate at step 60, before that step's
    /// crate; the first ball (body 2) removed at step 90, just before the next ball is made.
    static let dropLines = """
        {"step": 60, "body": 1, "velocity": [0, 400]}
        {"step": 90, "body": 2, "remove": true}
        {"step": 90, "add": {"center": [40, 60], "size": [20, 20], "mass": 20}}

        """

    /// Writes `text` to a temporary file; the caller removes it.
    static func temporary(_ name: String, _ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString)-\(name)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every one of 1200 steps of Scenes/crate-drop.json (40 crates released through step 1170),
    /// alone and with lines at release steps, equals CrateDrop's; and the C build's step loop
    /// without a stream ends on `cratedrop hash`'s line (it gave the empty world's hash before).
    @Test(arguments: [false, true])
    func everyStepOfTheCrateDropEqualsThePlainCBuild(withLines: Bool) throws {
        let stream = withLines ? try Self.temporary("drop.jsonl", Self.dropLines) : nil
        defer { if let stream { try? FileManager.default.removeItem(atPath: stream) } }
        let (crateDrop, plainC) = try StructuralChangeBaselineTests.trails(scenePath: "Scenes/crate-drop.json", stream: stream, steps: 1200)
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 1200)
        #expect(crateDrop.stdout == plainC.stdout)
        if withLines {
            let without = try CLI.run(["hash", "Scenes/crate-drop.json", "--every", "1", "--steps", "1200"])
            #expect(without.stdout.split(separator: "\n").prefix(60) == crateDrop.stdout.split(separator: "\n").prefix(60)
                    && without.stdout != crateDrop.stdout, "the lines change the run from step 61")
        } else {
            let loop = try CLI.shell("'\(BodyInputCommandTests.bench)' Scenes/crate-drop.json --step-loop --side c --warmup 200 --steps 1000")
            let hash = try CLI.run(["hash", "Scenes/crate-drop.json", "--steps", "1200"])
            #expect(loop.status == 0 && loop.stdout == hash.stdout, "\(loop.stdout) \(loop.stderr)")
        }
    }

    /// The spec the cross-architecture harness reads holds each spawned crate as an addbody line at
    /// its release step, after that step's input lines (the push at 60, the removal and the add at
    /// 90), the spawners' crates in step order, spawner 0's before spawner 1's.
    @Test func theBaselineSpecHoldsEachSpawnedCrateAfterItsStepsLines() throws {
        let stream = try Self.temporary("drop.jsonl", Self.dropLines)
        defer { try? FileManager.default.removeItem(atPath: stream) }
        let spec = try CLI.shell("'\(BodyInputCommandTests.bench)' --baseline-spec Scenes/crate-drop.json --inputs '\(stream)'")
        #expect(spec.status == 0, "\(spec.stderr)")
        let lines = spec.stdout.split(separator: "\n")
        let timed = lines.filter { ["input", "addbody", "removebody"].contains($0.split(separator: " ")[0]) }.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        let released = (0..<40).map { $0 % 2 == 0 ? 60 * ($0 / 2) : 30 + 60 * ($0 / 2) }
        // Spawner 0's crates are boxes (kind 0), spawner 1's balls (kind 1).
        var expected = released.enumerated().map { "addbody \($0.element) \($0.offset % 2)" }
        expected.insert("input 60 1", at: 2)
        expected.insert(contentsOf: ["removebody 90 1", "addbody 90 0"], at: 4)
        #expect(timed == expected, "\(timed)")
        // Each crate jittered and scaled: no two lines alike.
        #expect(Set(lines.filter { $0.hasPrefix("addbody") }).count == 41)
    }

    /// A spawner faster than its spot clears: CrateDrop refuses the crates that would heap, the C
    /// build (no crowding check) would make them. The step loop refuses (69) and says which crate,
    /// printing no hash; the bench says why its hashes differ (exit 1); a run that ends before the
    /// first refusal is compared as usual.
    @Test func aSpawnCrateDropRefusesIsToldRatherThanHashed() throws {
        let scene = try Self.temporary("heap.json", #"""
            {"name": "heap", "world": [200, 200], "gravity": [0, 0], "spawners": [{"at": [100, 100], "every": 0.01, "count": 40, "crate": {"size": [20, 20], "mass": 1}}]}
            """#)
        defer { try? FileManager.default.removeItem(atPath: scene) }
        let refused = try CLI.shell("'\(BodyInputCommandTests.bench)' '\(scene)' --step-loop --side c --warmup 0 --steps 100")
        #expect(refused.status == 69 && refused.stdout.isEmpty, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("CrateDrop refuses a spawned crate (crate 9 of spawner 0, at step 18: ")
                && refused.stderr.contains("compare scenes whose spawns all succeed"), "\(refused.stderr)")
        let bench = try CLI.run(["bench", "--quick", scene])
        #expect(bench.status == 3 && bench.stderr.contains("heap: CrateDrop refused ")
                && bench.stderr.contains(" spawned crate(s) (a heap where they appear), which the C baseline makes ("), "\(bench.stderr)")
        let early = try CLI.shell("'\(BodyInputCommandTests.bench)' '\(scene)' --step-loop --side c --warmup 0 --steps 18")
        let hash = try CLI.run(["hash", scene, "--steps", "18"])
        #expect(early.status == 0 && early.stdout == hash.stdout, "\(early.stderr)")
    }
}
