import Foundation
import SceneFile
import TestSupport
import Testing

@Suite struct RecordReplayTests {
    static let maskFMA = ["GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"]

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-\(UUID().uuidString)-\(name)").path
    }

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    static func json(_ text: String) throws -> JSONFields { try JSONFields(text.trimmingCharacters(in: .newlines)) }

    @Test func aRecordHoldsItsHeaderSceneChangesCheckpointsAndEnd() throws {
        let record = Self.temporaryPath("tilt.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let run = try CLI.run(["hash", "Scenes/book.json", "--gravity", "Scenes/tilt.jsonl", "--steps", "1200", "--record", record])
        #expect(run.status == 0)
        let lines = try Self.lines(record)
        let header = try Self.json(lines[0])
        #expect(header.keys == ["record", "version", "scene_file", "determinism_class", "backend", "architecture", "libc", "state_rows"])
        #expect(header.string("record") == "cratedrop" && header.string("determinism_class") == CLI.determinismClass)
        let scene = try Self.json(lines[1])
        let sceneText = try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8)
        #expect(scene.string("scene") == sceneText)
        let gravity = lines.filter { $0.contains("\"gravity\"") }
        let tiltLines = try Self.lines(Repository.path("Scenes/tilt.jsonl"))
        #expect(gravity.count == tiltLines.count)
        // Five crates: every one of the 1200 steps keeps its full state (100,000 rows allow 20,000 steps).
        let checkpoints = lines.filter { $0.contains("\"hash\"") && !$0.contains("\"end\"") }
        #expect(checkpoints.count == 1200 && checkpoints.allSatisfy { $0.contains("\"state\":[[1,") })
        let end = try Self.json(lines.last!)
        #expect(end.bool("end") == true && end.number("steps") == 1200)
        #expect(run.stdout == "1200 \(end.string("hash")!)\n")
    }

    @Test func aRecordReplaysAndVerifiesOnTheMachineThatMadeIt() throws {
        let record = Self.temporaryPath("tilt.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let made = try CLI.run(["hash", "Scenes/book.json", "--gravity", "Scenes/tilt.jsonl", "--steps", "1200", "--record", record])
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stderr.isEmpty)
        let report = try Self.json(replay.stdout)
        #expect(report.bool("verified") == true && report.number("checkpoints_verified") == 1200 && report.isNull("divergence"))
        #expect(made.stdout == "1200 \(report.string("state_hash")!)\n")
        // The record is also a gravity stream: the same hash through `hash --gravity`.
        let asGravity = try CLI.run(["hash", "Scenes/book.json", "--gravity", record, "--steps", "1200"])
        #expect(asGravity.status == 0 && asGravity.stdout == made.stdout)
    }

    @Test func aPileReplayedWithGlibcFMAMaskedReportsWhereTheClassesPart() throws {
        let record = Self.temporaryPath("pile.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let made = try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "1200", "--record", record])
        #expect(made.status == 0)
        let replay = try CLI.run(["replay", record, "--verify"], environment: Self.maskFMA)
        let report = try Self.json(replay.stdout)
        let normal = try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "1200", "--every", "1"]).stdout.split(separator: "\n")
        let masked = try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "1200", "--every", "1"], environment: Self.maskFMA)
            .stdout.split(separator: "\n")
        guard let firstDifference = normal.indices.first(where: { normal[$0] != masked[$0] }) else {
            // The portable backend (or a CPU without FMA): one class, so the replay verifies clean.
            #expect(replay.status == 0 && replay.stderr.isEmpty)
            #expect(report.bool("verified") == true && report.number("checkpoints_verified") == 1200)
            return
        }
        #expect(replay.status == 3)
        let divergence = try report.object("divergence")
        #expect(divergence.number("step") == Double(firstDifference + 1) && divergence.bool("exact") == true)
        #expect(divergence.number("last_matching_step") == Double(firstDifference))
        #expect(divergence.string("field") != nil && divergence.number("body") != nil && (divergence.number("ulps") ?? 0) >= 1)
        let warnings = replay.stderr.components(separatedBy: "bit-exact replay is promised only within one class").count - 1
        #expect(warnings == 1)
        #expect(replay.stderr.contains("the replay parts from the record: the states part during step \(firstDifference)"))
    }

    @Test func recordsWhoseInputsDifferByOneGravityLineAtStep500PartAtThatStep() throws {
        let base = #"{"step": 300, "gravity": [0, -1000]}"# + "\n"
        var records: [String] = []
        defer { for path in records { try? FileManager.default.removeItem(atPath: path) } }
        for x in ["-500", "-501"] {
            let record = Self.temporaryPath("r\(x).rec")
            records.append(record)
            let input = Data((base + #"{"step": 500, "gravity": [\#(x), -1000]}"# + "\n").utf8)
            let made = try CLI.run(["hash", "Scenes/pile-100.json", "--gravity", "-", "--steps", "1200", "--record", record], input: input)
            #expect(made.status == 0)
        }
        let diff = try CLI.run(["diff", records[0], records[1]])
        #expect(diff.status == 3)
        let divergence = try Self.json(diff.stdout).object("divergence")
        // The line acts on step 500 (counted from 0): states agree after 500 steps, differ after 501.
        #expect(divergence.number("step") == 501 && divergence.number("last_matching_step") == 500)
        #expect(divergence.bool("exact") == true && divergence.string("field") != nil)
        #expect(diff.stderr.contains("the states part during step 500 (counted from 0)"))
    }

    @Test func diffComparesDumpsAndTrailsOnTheStepsBothHold() throws {
        let dense = Self.temporaryPath("dense.txt"), sparse = Self.temporaryPath("sparse.txt"), dump = Self.temporaryPath("dump.jsonl")
        defer { for path in [dense, sparse, dump] { try? FileManager.default.removeItem(atPath: path) } }
        try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--every", "1"]).stdout.write(toFile: dense, atomically: true, encoding: .utf8)
        try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--every", "60"]).stdout.write(toFile: sparse, atomically: true, encoding: .utf8)
        try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--every", "1", "--dump"]).stdout
            .write(toFile: dump, atomically: true, encoding: .utf8)
        let same = try CLI.run(["diff", dense, sparse])
        let sameReport = try Self.json(same.stdout)
        #expect(same.status == 0 && sameReport.number("steps_compared") == 4)
        let withDump = try CLI.run(["diff", dump, dense])
        let withDumpReport = try Self.json(withDump.stdout)
        #expect(withDump.status == 0 && withDumpReport.number("steps_compared") == 240)
        let other = Self.temporaryPath("other.txt")
        defer { try? FileManager.default.removeItem(atPath: other) }
        try CLI.run(["hash", "Scenes/tumbler.json", "--steps", "240", "--every", "60"]).stdout.write(toFile: other, atomically: true, encoding: .utf8)
        let parted = try CLI.run(["diff", sparse, other])
        #expect(parted.status == 3)
        let partedReport = try Self.json(parted.stdout).object("divergence")
        #expect(partedReport.bool("exact") == false)
    }

    @Test(arguments: [
        (["replay", "Scenes/tilt.jsonl"], 65, "Scenes/tilt.jsonl:1: not a CrateDrop record"),
        // A scene where JSON Lines are read is named as such (its line 1, `{`, is no JSON object).
        (["replay", "Scenes/book.json"], 65, "Scenes/book.json:1: this is a scene file, not a run record"),
        (["replay", "no-such.rec"], 66, "cratedrop: no-such.rec: No such file or directory"),
        (["diff", "no-such.txt", "Scenes/tilt.jsonl"], 66, "cratedrop: no-such.txt: No such file or directory"),
        (["diff", "Scenes/book.json", "Scenes/book.json"], 65, "Scenes/book.json:1: expected a `cratedrop hash --dump` line"),
        (["run", "Scenes/book.json", "--verify"], 64, "--verify needs a run record as SCENE"),
    ])
    func badRecordsAndFilesEndWithAClearMessage(arguments: [String], status: Int32, message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A scene given as the input stream is named as such; the run's summary still says what ran.
    @Test func aSceneAsTheInputStreamIsNamed() throws {
        let result = try CLI.run(["run", "Scenes/book.json", "--gravity", "Scenes/book.json", "--seconds", "0.1"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("Scenes/book.json:1: this is a scene file, not an input stream"), "\(result.stderr)")
        #expect(!result.stderr.contains("invalid JSON"))
    }

    @Test func aRecordRefusesAGravityOptionAndRendersWithOut() throws {
        let record = Self.temporaryPath("book.rec"), frames = Self.temporaryPath("frames")
        defer { for path in [record, frames] { try? FileManager.default.removeItem(atPath: path) } }
        let made = try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--record", record])
        #expect(made.status == 0)
        let refused = try CLI.run(["run", record, "--gravity", "Scenes/tilt.jsonl"])
        #expect(refused.status == 64 && refused.stderr.contains("is a run record, which carries its own gravity changes"))
        let rendered = try CLI.run(["replay", record, "--verify", "--out", frames, "--size", "48x48", "--quiet"])
        #expect(rendered.status == 0)
        let summary = try Self.json(rendered.stdout)
        #expect(summary.number("steps") == 240 && summary.number("frames") == 120)
        let written = try FileManager.default.contentsOfDirectory(atPath: frames)
        #expect(written.count == 120)
        let lastLine = try Self.lines(record).last!
        #expect(lastLine.contains(summary.string("state_hash")!))
    }
}
