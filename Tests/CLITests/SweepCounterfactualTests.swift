import Foundation
import TestSupport
import Testing

/// A `counterfactual` axis: samples that differ only in one change to one body at a step share
/// every step before it bit for bit, and `verify` runs each again with its change.
@Suite struct SweepCounterfactualTests {
    static func spec(values: String, outputs: String = #""hash_every": 10, "trace": "csv", "trace_every": 60"#) -> String {
        """
        {
          "scene": "\(Repository.path("Scenes/book.json"))",
          "seconds": 2,
          "axes": [{ "field": "counterfactual", "values": \(values) }],
          "outputs": { \(outputs) }
        }
        """
    }

    @Test func eachChangeSharesEveryStepBeforeItsBranchAndDiffersAfter() throws {
        let folder = try SweepFramesTests.temporaryFolder("counterfactual")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.spec(values: """
            [null, { "step": 60, "body": 2, "remove": true }, { "step": 60, "body": 2, "position": [150, 200] },
             { "step": 60, "body": 2, "velocity": [0, 400] }]
            """).write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let run = try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"])
        #expect(run.status == 0, "\(run.stderr)")
        func trail(_ sample: Int) throws -> [String] {
            try String(contentsOfFile: "\(folder)/out/samples/00000\(sample)/hashes.txt", encoding: .utf8).split(separator: "\n").map(String.init)
        }
        let factual = try trail(0)
        #expect(factual.count == 24)
        for sample in 1...3 {
            let changed = try trail(sample)
            // Lines for steps 10 ... 60: the same bits; from step 70 on, the change shows.
            #expect(Array(changed.prefix(6)) == Array(factual.prefix(6)), "sample \(sample)")
            #expect(zip(changed.dropFirst(6), factual.dropFirst(6)).allSatisfy { $0 != $1 }, "sample \(sample)")
            let verify = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "\(sample)"])
            #expect(verify.status == 0 && verify.stdout.contains(#""result":"identical""#), "\(verify.stdout)\(verify.stderr)")
        }
        // The removed body is in the trace up to the branch and gone after it.
        let trace = try String(contentsOfFile: "\(folder)/out/samples/000001/trace.csv", encoding: .utf8).split(separator: "\n")
        #expect(trace.contains { $0.hasPrefix("60,") && $0.split(separator: ",")[2] == "2" })
        #expect(!trace.contains { $0.hasPrefix("120,") && $0.split(separator: ",")[2] == "2" })
        #expect(trace.contains { $0.hasPrefix("120,") && $0.split(separator: ",")[2] == "3" })
        // The manifest records each sample's change.
        let merge = try CLI.run(["sweep", "merge", "\(folder)/out"])
        let manifest = try String(contentsOfFile: "\(folder)/out/manifest.jsonl", encoding: .utf8)
        #expect(merge.status == 0 && manifest.contains(#""counterfactual":{"step":60,"body":2,"remove":true}"#), "\(manifest.prefix(400))")
    }

    /// Each changed sample branches from its own saved state: `branch.state`, the world at the
    /// change's step before the change, holds the state the run as it happens has there (the
    /// same hash), and the sample goes on from it restored. `verify` continues it with the change
    /// to the same end; a branch state of another step differs (exit 3). The run as it happens
    /// has none.
    @Test func eachChangeBranchesFromItsOwnSavedState() throws {
        let folder = try SweepFramesTests.temporaryFolder("counterfactual-branch")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.spec(values: #"[null, { "step": 60, "body": 2, "velocity": [0, 400] }]"#, outputs: #""hash_every": 10"#)
            .write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"]).status == 0)
        let branch = "\(folder)/out/samples/000001/branch.state"
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/out/samples/000000/branch.state"))
        guard SavedStateCommandTests.portable else {
            // Debian's library saves no states: the change is made to the running world.
            #expect(!FileManager.default.fileExists(atPath: branch))
            #expect(try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "1"]).status == 0)
            return
        }
        let factual = try String(contentsOfFile: "\(folder)/out/samples/000000/hashes.txt", encoding: .utf8).split(separator: "\n")
        let atBranch = try CLI.run(["hash", branch, "--steps", "0"])
        #expect(atBranch.status == 0 && atBranch.stdout == "\(factual[5])\n", "\(atBranch.stdout) \(factual[5])")
        #expect(try String(contentsOfFile: "\(folder)/out/samples/000001/done.json", encoding: .utf8).contains(#""branch.state""#))
        let verify = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "1"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        // A state of another step in its place.
        try FileManager.default.removeItem(atPath: branch)
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "50", "--save-state", branch]).status == 0)
        let moved = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "1"])
        #expect(moved.status == 3 && moved.stderr.contains("branch.state: saved at step 50, not at the change's step"), "\(moved.stderr)")
        // Other bits: one byte changed, so its checksum no longer holds (was exit 66, as a file not read).
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: branch)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: branch))
        let damaged = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "1"])
        #expect(damaged.status == 3 && damaged.stderr.contains("branch.state: not the state the run saved"), "\(damaged.status) \(damaged.stderr)")
    }

    /// The branch state holds the world before the inputs of the change's step, as every saved
    /// state does: a continuation applies that step's lines once (an impulse at the change's step
    /// is not given twice), so `verify` finds the sample identical.
    @Test func aLineAtTheChangesStepIsAppliedOnceByTheContinuation() throws {
        let folder = try SweepFramesTests.temporaryFolder("counterfactual-line")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
        {
          "scene": "\(Repository.path("Scenes/book.json"))",
          "seconds": 2,
          "axes": [
            { "field": "gravity_script", "values": [[{ "step": 60, "body": 3, "impulse": [0, 4000], "at": [90, 60] }]] },
            { "field": "counterfactual", "values": [{ "step": 60, "body": 2, "velocity": [0, 400] }] }
          ],
          "outputs": { "hash_every": 10 }
        }
        """.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let run = try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"])
        #expect(run.status == 0, "\(run.stderr)")
        let verify = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "0"])
        #expect(verify.status == 0 && verify.stdout.contains(#""result":"identical""#), "\(verify.stdout)\(verify.stderr)")
    }

    @Test(arguments: [
        (#"[{ "step": 60, "body": 9, "remove": true }]"#, ":4: axes[0].values[0].body", "body 9 is not in the scene (its bodies are 1...5)"),
        (#"[{ "step": 240, "body": 2, "remove": true }]"#, "sample 0", "counterfactual.step: 240 is not a step the sample changes (it runs from step 0 to 240)"),
        (#"[{ "step": 60, "body": 2, "remove": true, "velocity": [0, 1] }]"#, ":4: axes[0].values[0]", "needs one change: remove, position, velocity or add, not remove and velocity"),
        (#"[{ "step": 60, "body": 2, "remove": false }]"#, ":4: axes[0].values[0]", "remove: must be true"),
        (#"[{ "step": -1, "body": 2, "remove": true }]"#, ":4: axes[0].values[0]", "step: must be a whole number"),
        (#"[{ "step": 60, "body": 2, "position": [1e9, 0] }]"#, ":4: axes[0].values[0]", "position"),
        (#"[{ "step": 60, "body": 2, "turn": 1 }]"#, ":4: axes[0].values[0]", "turn: unknown key"),
        (#"[3]"#, ":4: axes[0].values[0]", "must be null (the run as it happens) or an object"),
    ])
    func changesASampleCannotMakeAreRefusedAtPlan(values: String, place: String, message: String) throws {
        let plan = try SweepFramesTests.plan(Self.spec(values: values))
        #expect(plan.status == 65 && plan.stderr.contains(place) && plan.stderr.contains(message), "\(plan.stderr)")
    }

    /// A position set has no input line: a record beside it would replay without it, and is refused.
    @Test func aRecordBesideAPositionChangeIsRefused() throws {
        let plan = try SweepFramesTests.plan(Self.spec(values: #"[null, { "step": 60, "body": 2, "position": [150, 200] }]"#,
                                                       outputs: #""record": true"#))
        #expect(plan.status == 65 && plan.stderr.contains("outputs.record: axes[0] sets a body's position"), "\(plan.stderr)")
    }

    /// Removals, adds and velocities are structural changes or input lines (issue 44): beside them
    /// a sample keeps its record (which carries the change as its line and replays, verified) and
    /// its end state (which holds the changed make-up and continues as the sample's run does).
    @Test(.needsSavedStates(SavedStateCommandTests.portable), .timeLimit(.minutes(3)))
    func recordsAndEndStatesHoldTheChange() throws {
        let folder = try SweepFramesTests.temporaryFolder("counterfactual-record")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.spec(values: """
            [null, { "step": 60, "body": 2, "remove": true }, { "step": 60, "body": 2, "velocity": [0, 400] },
             { "step": 60, "add": { "center": [150, 250], "shape": "circle", "radius": 15, "mass": 40 } }]
            """, outputs: #""hash_every": 10, "record": true, "save_state": true"#).write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let run = try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"])
        #expect(run.status == 0, "\(run.stderr)")
        for sample in 0...3 {
            let path = "\(folder)/out/samples/00000\(sample)"
            let replay = try CLI.run(["replay", "\(path)/run.rec", "--verify"])
            #expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "sample \(sample): \(replay.stdout)\(replay.stderr)")
            let trail = try String(contentsOfFile: "\(path)/hashes.txt", encoding: .utf8).split(separator: "\n")
            let end = try CLI.run(["hash", "\(path)/end.state", "--steps", "0"])
            #expect(end.status == 0 && end.stdout == "\(trail.last!)\n", "sample \(sample): \(end.stderr)")
            let verify = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "\(sample)"])
            #expect(verify.status == 0, "sample \(sample): \(verify.stdout)\(verify.stderr)")
        }
        let added = try String(contentsOfFile: "\(folder)/out/samples/000003/run.rec", encoding: .utf8)
        #expect(added.contains(#"{"step":60,"add":{"center":[150.0,250.0],"shape":"circle""#), "\(added.prefix(300))")
    }
}
