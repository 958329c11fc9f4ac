import Foundation
import TestSupport
import Testing

/// Bodies' inputs (pushes, velocities, held forces) through the command line: the same per-step
/// hashes as a plain-C build of the same scene and inputs (on either library), recorded and
/// replayed, continued from a state saved while a force is held, the synctest, and bad lines
/// refused before the step they would apply at.
@Suite struct BodyInputCommandTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("inputs-\(UUID().uuidString)-\(name)").path
    }

    /// The benchmark tool SwiftPM built beside `cratedrop`.
    static let bench = CLI.executable.deletingLastPathComponent().appendingPathComponent("cratedrop-bench").path

    /// Every step of the book scene with Scenes/push.jsonl, and of the lift (a kinematic
    /// platform) with Scenes/lift.jsonl, against the C baseline applying the same lines with its
    /// own calls (`cratedrop-bench --step-loop --side c --inputs`).
    @Test(arguments: [("book", "push"), ("lift", "lift"), ("book", "drag")])
    func everyStepEqualsThePlainCBuild(scene: String, inputs: String) throws {
        let crateDrop = try CLI.run(["hash", "Scenes/\(scene).json", "--inputs", "Scenes/\(inputs).jsonl", "--steps", "900", "--every", "1"])
        let plainC = try CLI.shell("'\(Self.bench)' Scenes/\(scene).json --step-loop --side c --inputs Scenes/\(inputs).jsonl --warmup 0 --steps 900")
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 900)
        #expect(crateDrop.stdout == plainC.stdout)
        let without = try CLI.run(["hash", "Scenes/\(scene).json", "--steps", "900"])
        #expect(!crateDrop.stdout.hasSuffix(without.stdout), "the inputs change the run")
    }

    @Test func aRecordedRunWithInputsReplaysAndVerifies() throws {
        let record = Self.temporary("push.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let run = try CLI.run(["hash", "Scenes/book.json", "--inputs", "Scenes/push.jsonl", "--steps", "600", "--record", record])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: record, encoding: .utf8)
        #expect(text.contains(#"{"step":60,"body":3,"impulse":[0.0,4000.0],"at":[90.0,60.0]}"#), "\(text)")
        #expect(text.contains(#""force":[30000.0,0.0],"torque":20000.0,"steps":40}"#))
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stdout.contains("\"verified\":true"), "\(replay.stdout)\(replay.stderr)")
        // The record is an input stream too.
        let again = try CLI.run(["hash", "Scenes/book.json", "--inputs", record, "--steps", "600"])
        #expect(again.stdout == run.stdout)
    }

    /// A state saved at step 210, while the force of the line at step 200 still has 30 of its 40
    /// steps to act, holds them: the continuation equals the straight run at every step.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func aStateSavedWhileAForceIsHeldContinuesExactly() throws {
        let directory = Self.temporary("states")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let straight = try CLI.run(["hash", "Scenes/book.json", "--inputs", "Scenes/push.jsonl", "--steps", "600", "--every", "1",
                                    "--save-every", "210", directory])
        #expect(straight.status == 0, "\(straight.stderr)")
        let continued = try CLI.run(["hash", "\(directory)/step-000000210.state", "--inputs", "Scenes/push.jsonl", "--steps", "390", "--every", "1"])
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stdout.split(separator: "\n").map { $0.split(separator: " ")[1] }
            == straight.stdout.split(separator: "\n").dropFirst(210).map { $0.split(separator: " ")[1] })
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func theSynctestPassesWithInputs() throws {
        let synced = try CLI.run(["hash", "Scenes/book.json", "--inputs", "Scenes/push.jsonl", "--steps", "600", "--synctest", "2"])
        let plain = try CLI.run(["hash", "Scenes/book.json", "--inputs", "Scenes/push.jsonl", "--steps", "600"])
        #expect(synced.status == 0 && synced.stdout == plain.stdout, "\(synced.stderr)")
    }

    /// Scenes/drag.jsonl grabs crate 5 at step 120, moves it up and across and lets go at 300:
    /// recorded and verified (every step against the plain-C build: `everyStepEqualsThePlainCBuild`).
    @Test func aDraggedRunReplays() throws {
        let record = Self.temporary("drag.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let run = try CLI.run(["hash", "Scenes/book.json", "--inputs", "Scenes/drag.jsonl", "--steps", "600", "--every", "1", "--record", record])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: record, encoding: .utf8)
        #expect(text.contains(#"{"step":120,"body":5,"grab":[40.0,50.0]}"#) && text.contains(#"{"step":300,"body":5,"release":true}"#), "\(text.prefix(2000))")
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stdout.contains("\"verified\":true"), "\(replay.stdout)\(replay.stderr)")
        let plain = try CLI.run(["hash", "Scenes/book.json", "--steps", "600", "--every", "1"])
        #expect(plain.stdout.split(separator: "\n").last != run.stdout.split(separator: "\n").last, "the drag changes the run")
    }

    /// The dragged run continued from a state saved mid-drag (step 200) exactly, and through the synctest.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func aDraggedRunContinuesExactlyAndPassesTheSynctest() throws {
        let run = try CLI.run(["hash", "Scenes/book.json", "--inputs", "Scenes/drag.jsonl", "--steps", "600", "--every", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let directory = Self.temporary("drag-states")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = try CLI.run(["hash", "Scenes/book.json", "--inputs", "Scenes/drag.jsonl", "--steps", "600", "--save-every", "200", directory])
        #expect(saved.status == 0, "\(saved.stderr)")
        let continued = try CLI.run(["hash", "\(directory)/step-000000200.state", "--inputs", "Scenes/drag.jsonl", "--steps", "400", "--every", "1"])
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stdout.split(separator: "\n").map { $0.split(separator: " ")[1] }
            == run.stdout.split(separator: "\n").dropFirst(200).map { $0.split(separator: " ")[1] })
        let synced = try CLI.run(["hash", "Scenes/book.json", "--inputs", "Scenes/drag.jsonl", "--steps", "600", "--every", "1", "--synctest", "2"])
        #expect(synced.status == 0 && synced.stdout == run.stdout, "\(synced.stderr)")
    }

    /// What the parser cannot know is checked when the line applies, before its step: the run
    /// stops there (65) with the line and reason, or skips it with a warning.
    @Test(arguments: [
        (#"{"step": 5, "body": 9, "impulse": [0, 1]}"#, "inputs.jsonl:1: body 9 is not a body of this world (its bodies are 1...5)"),
        (#"{"step": 100, "body": 2, "force": [0, 1], "steps": 30}"#,
         "inputs.jsonl:1: the force is held for 30 steps from step 100, past the run's end after step 120"),
        (#"{"step": 5, "body": 2, "drag_to": [1, 1]}"#, #"inputs.jsonl:1: body 2 is not grabbed: a drag begins with "grab""#),
    ])
    func aLineThatCannotApplyStopsTheRunBeforeItsStep(line: String, message: String) throws {
        let file = Self.temporary("inputs.jsonl")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let stopped = try CLI.run(["hash", "Scenes/book.json", "--inputs", file, "--steps", "120"])
        #expect(stopped.status == 65 && stopped.stderr.contains(file + ":1: " + message.dropFirst("inputs.jsonl:1: ".count)), "\(stopped.stderr)")
        let step = line.contains("\"step\": 5,") ? "5" : "100"
        #expect(stopped.stdout.hasPrefix(step + " "), "no step is taken past the line: \(stopped.stdout)")
        let skipped = try CLI.run(["hash", "Scenes/book.json", "--inputs", file, "--steps", "120", "--on-bad-line", "skip"])
        let plain = try CLI.run(["hash", "Scenes/book.json", "--steps", "120"])
        #expect(skipped.status == 0 && skipped.stdout == plain.stdout && skipped.stderr.contains("warning: skipped"), "\(skipped.stderr)")
    }
}
