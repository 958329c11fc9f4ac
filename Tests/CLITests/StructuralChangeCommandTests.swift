import Foundation
import TestSupport
import Testing

/// Structural changes from input lines (issue 44): `add`, `add_wall`, `add_joint`, a body's or a
/// joint's `remove`, applied at their step boundaries, recorded, replayed, saved and continued bit
/// for bit; bad lines named by file, line and key before their step.
@Suite struct StructuralChangeCommandTests {
    static let changes = """
        {"step": 30, "add": {"center": [200, 250], "size": [30, 30], "mass": 5}}
        {"step": 30, "add": {"center": [240, 250], "shape": "polygon", "vertices": [[-10, -10], [10, -10], [0, 12]], "mass": 2}}
        {"step": 60, "body": 2, "remove": true}
        {"step": 61, "add_joint": {"kind": "pin", "a": 6, "b": "static", "anchor_b": [150, 280]}}
        {"step": 90, "add_wall": {"from": [150, 150], "to": [250, 120], "radius": 3}}
        {"step": 100, "add": {"center": [100, 250], "shape": "circle", "radius": 12, "mass": 3, "color": "#ff0000"}}
        {"step": 100, "body": 8, "impulse": [0, 500]}
        {"step": 150, "joint": 1, "remove": true}
        {"step": 170, "body": 6, "remove": true}

        """

    static func inputs(_ name: String, _ text: String = changes) throws -> String {
        let path = SavedStateCommandTests.temporary(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Saved before, between and after the changes (a file holds the make-up log), each state
    /// continued with the same inputs prints the straight run's every-step lines; the synctest
    /// passes; the record of the run replays and verifies.
    @Test(.needsSavedStates(SavedStateCommandTests.portable), .timeLimit(.minutes(3)))
    func statesAroundChangesContinueAndRecordsReplay() throws {
        let inputs = try Self.inputs("changes.jsonl")
        defer { try? FileManager.default.removeItem(atPath: inputs) }
        let straight = try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--every", "1", "--gravity", inputs])
        #expect(straight.status == 0, "\(straight.stderr)")
        let lines = straight.stdout.split(separator: "\n")
        #expect(lines.count == 240)
        for step in [20, 30, 31, 61, 95, 150, 171] {
            let state = SavedStateCommandTests.temporary("at-\(step).state")
            defer { try? FileManager.default.removeItem(atPath: state) }
            let saved = try CLI.run(["hash", "Scenes/book.json", "--steps", String(step), "--gravity", inputs, "--save-state", state])
            #expect(saved.status == 0, "\(saved.stderr)")
            let continued = try CLI.run(["hash", state, "--steps", String(240 - step), "--every", "1", "--gravity", inputs])
            #expect(continued.status == 0, "\(continued.stderr)")
            #expect(continued.stdout.split(separator: "\n") == Array(lines.dropFirst(step)), "saved at step \(step)")
        }
        let synctest = try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--gravity", inputs, "--synctest", "3"])
        #expect(synctest.status == 0 && synctest.stdout == "\(lines.last!)\n", "\(synctest.stderr)")
        let record = SavedStateCommandTests.temporary("changes.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let recorded = try CLI.run(["hash", "Scenes/book.json", "--steps", "240", "--gravity", inputs, "--record", record, "--keyframes", "50"])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        // The record holds the changes as the lines an input stream writes.
        let text = try String(contentsOfFile: record, encoding: .utf8)
        for line in [#"{"step":60,"body":2,"remove":true}"#, #"{"step":150,"joint":1,"remove":true}"#, #"{"step":90,"add_wall":{"from":[150.0,150.0]"#] {
            #expect(text.contains(line), "\(line)")
        }
        for from in ["0", "100", "200"] {
            let replay = try CLI.run(["replay", record, "--verify", "--from", from])
            #expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "from \(from): \(replay.stderr)")
        }
    }

    /// Traces follow the make-up (a removed body's rows stop, an added one's start at its step);
    /// frames draw an added body from its step (here against the same run without that add), and
    /// nothing differs before it.
    @Test(.timeLimit(.minutes(3))) func framesAndTracesFollowTheChanges() throws {
        let inputs = try Self.inputs("drawn.jsonl")
        let without = try Self.inputs("drawn-without.jsonl", Self.changes.split(separator: "\n").filter { !$0.contains("circle") && !$0.contains("\"body\": 8") }
            .joined(separator: "\n") + "\n")
        let (frames, others, trace) = (SavedStateCommandTests.temporary("drawn"), SavedStateCommandTests.temporary("drawn-without"),
                                       SavedStateCommandTests.temporary("drawn.csv"))
        defer { for path in [inputs, without, frames, others, trace] { try? FileManager.default.removeItem(atPath: path) } }
        for (stream, folder) in [(inputs, frames), (without, others)] {
            let run = try CLI.run(["run", "Scenes/book.json", "--seconds", "2", "--fps", "12", "--gravity", stream, "--out", folder, "--format", "png",
                                   "--masks", folder + "-masks", "--quiet"] + (stream == inputs ? ["--trace", trace] : []))
            #expect(run.status == 0, "\(run.stderr)")
        }
        defer { for path in [frames + "-masks", others + "-masks"] { try? FileManager.default.removeItem(atPath: path) } }
        let rows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
        var idsAt: [Int: Set<Int>] = [:]
        for row in rows {
            let cells = row.split(separator: ",")
            idsAt[Int(cells[0])!, default: []].insert(Int(cells[2])!)
        }
        #expect(idsAt[20] == [1, 2, 3, 4, 5] && idsAt[40] == [1, 2, 3, 4, 5, 6, 7], "\(idsAt[20] ?? []) \(idsAt[40] ?? [])")
        #expect(idsAt[80] == [1, 3, 4, 5, 6, 7] && idsAt[120] == [1, 3, 4, 5, 6, 7, 8] && idsAt[200] == [1, 3, 4, 5, 7, 8])
        func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
        // Frame 10 shows step 100, before the circle's step's end; frame 12 (step 120) shows it, in pixels and in the mask.
        for name in ["frame-00005.png", "frame-00010.png"] { #expect(try bytes("\(frames)/\(name)") == bytes("\(others)/\(name)"), "\(name)") }
        #expect(try bytes("\(frames)/frame-00012.png") != bytes("\(others)/frame-00012.png"))
        #expect(try bytes("\(frames)-masks/mask-00012.png") != bytes("\(others)-masks/mask-00012.png"))
    }

    /// Lines that cannot apply are named by file, line and key, before their step (exit 65), or
    /// skipped with a warning under `--on-bad-line skip`.
    @Test(arguments: [
        (#"{"step": 5, "add": {"center": [100, 100], "size": [10, 10], "mass": -6}}"#, "bad.jsonl:1: add.mass: must be > 0, got -6"),
        (#"{"step": 5, "add": {"center": [100, 100], "size": [10, 10], "mas": 1}}"#, "bad.jsonl:1: add.mas: unknown key 'mas' (did you mean 'mass'?)"),
        (#"{"step": 5, "body": 99, "remove": true}"#,
         "bad.jsonl:1: body: body 99 is not a body of this world: no body 99 was made (the world's bodies so far are 1...5)"),
        (#"{"step": 5, "body": 2, "remove": true}"# + "\n" + #"{"step": 6, "body": 2, "remove": true}"#,
         "bad.jsonl:2: body: body 2 is not a body of this world: it left the world at step 5"),
        (#"{"step": 5, "body": 2, "remove": true}"# + "\n" + #"{"step": 6, "add_joint": {"kind": "pivot", "a": 2, "b": "static", "pivot": [1, 1]}}"#,
         "bad.jsonl:2: add_joint.a: body 2 is not a body of this world: it left the world at step 5"),
        (#"{"step": 5, "body": 2, "remove": true}"# + "\n" + #"{"step": 6, "body": 2, "impulse": [0, 10]}"#,
         "bad.jsonl:2: body 2 is not a body of this world"),
        (#"{"step": 5, "joint": 1, "remove": true}"#, "bad.jsonl:1: joint: joint 1 is not a joint of this world: no joint 1 was made (the world has made none)"),
        (#"{"step": 5, "add_joint": {"kind": "pivot", "a": 0, "b": "static", "pivot": [1, 1]}}"#,
         "bad.jsonl:1: add_joint.a: a body's id, from 1 (input lines name bodies by id"),
        (#"{"step": 5, "add": {"center": [100, 100], "size": [10, 10], "mass": 1}, "gravity": [0, 1]}"#,
         #"bad.jsonl:1: unknown key "gravity" (allowed with "add": t, step, add)"#),
        (#"{"step": 5, "remove": true}"#, #"bad.jsonl:1: "remove" goes with "body": ID or "joint": ID"#),
        (#"{"step": 5, "body": 1, "remove": false}"#, "bad.jsonl:1: remove must be true"),
        (#"{"step": 5, "add_wall": {"from": [0, 0], "to": [0, 0], "radius": 1}}"#, "bad.jsonl:1: add_wall."),
    ])
    func aBadChangeLineIsNamedBeforeItsStep(lines: String, message: String) throws {
        let folder = SavedStateCommandTests.temporary("bad-change")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (lines + "\n").write(toFile: "\(folder)/bad.jsonl", atomically: true, encoding: .utf8)
        let result = try CLI.run(["hash", "Scenes/book.json", "--steps", "100", "--gravity", "\(folder)/bad.jsonl"])
        #expect(result.status == 65 && result.stderr.contains(message), "\(result.status) \(result.stderr)")
        let skipped = try CLI.run(["hash", "Scenes/book.json", "--steps", "100", "--gravity", "\(folder)/bad.jsonl", "--on-bad-line", "skip"])
        #expect(skipped.status == 0 && skipped.stderr.contains("skipped") && skipped.stdout.hasPrefix("100 "), "\(skipped.stderr)")
    }

    /// A flood of adds on one spot is refused once a new body would lie deep in more than 8
    /// others (each step would take minutes); a line past the run's end is told, not applied.
    @Test(.timeLimit(.minutes(3))) func aFloodOfAddsAndALateLineAreTold() throws {
        let flood = String(repeating: #"{"step": 5, "add": {"center": [100, 100], "size": [10, 10], "mass": 1}}"# + "\n", count: 100_000)
        let inputs = try Self.inputs("flood.jsonl", flood)
        defer { try? FileManager.default.removeItem(atPath: inputs) }
        let stopped = try CLI.run(["hash", "Scenes/book.json", "--steps", "50", "--gravity", inputs])
        #expect(stopped.status == 65 && stopped.stderr.contains("flood.jsonl:10: add: it would lie deep in more than 8 bodies"), "\(stopped.stderr)")
        // Each refused line costs tens of microseconds (the bodies near it only): 10^6 take about 13 s in a release build.
        let skipped = try CLI.run(["hash", "Scenes/book.json", "--steps", "50", "--gravity", inputs, "--on-bad-line", "skip"])
        #expect(skipped.status == 0 && skipped.stdout.hasPrefix("50 "), "\(skipped.stderr.suffix(300))")
        #expect(skipped.stderr.split(separator: "\n").count == 100_000 - 9)
        let late = try Self.inputs("late.jsonl", #"{"step": 500, "body": 1, "remove": true}"# + "\n")
        defer { try? FileManager.default.removeItem(atPath: late) }
        let told = try CLI.run(["hash", "Scenes/book.json", "--steps", "100", "--gravity", late])
        #expect(told.status == 0 && told.stderr.contains("late.jsonl:1: step 500 is past the run's end (it ends after step 100)"), "\(told.stderr)")
    }

    /// What a change did beyond its line is told (stderr, the run goes on): an add that starts
    /// overlapping a body or a wall (Chipmunk pushes them apart at the next step), with how deep;
    /// the joints a body's removal took with it.
    @Test(.timeLimit(.minutes(3))) func anOverlappingAddAndTheJointsARemovalTookAreTold() throws {
        let inputs = try Self.inputs("told.jsonl", """
            {"step": 5, "add": {"center": [150, 150], "size": [10, 10], "mass": 1}}
            {"step": 6, "add": {"center": [152, 150], "size": [10, 10], "mass": 1}}
            {"step": 7, "add_joint": {"kind": "pin", "a": 6, "b": 7}}
            {"step": 8, "add_joint": {"kind": "pin", "a": 6, "b": "static", "anchor_b": [100, 100]}}
            {"step": 9, "body": 6, "remove": true}
            {"step": 10, "add": {"center": [150, 0], "size": [10, 10], "mass": 1}}
            {"step": 11, "add": {"center": [60, 150], "size": [10, 10], "mass": 1}}
            {"step": 12, "body": 7, "remove": true}

            """)
        defer { try? FileManager.default.removeItem(atPath: inputs) }
        let run = try CLI.run(["hash", "Scenes/book.json", "--steps", "20", "--gravity", inputs])
        #expect(run.status == 0 && run.stdout.hasPrefix("20 "), "\(run.stderr)")
        let told = run.stderr.split(separator: "\n").map { String($0.drop { $0 != ":" }.dropFirst()) }
        #expect(told == [
            " warning: \(inputs):2: add: body 7 starts overlapping body 6 by 8 px (Chipmunk pushes them apart at the next step)",
            " warning: \(inputs):5: removing body 6 at step 9 took the joints that held it with it: 1, 2",
            " warning: \(inputs):6: add: body 8 starts overlapping wall 0 by 6 px (Chipmunk pushes them apart at the next step)",
        ], "\(run.stderr)")
    }

    /// A million add lines, each a body in a free place: the world takes them up to its body
    /// limit, and the line past it stops the run at its step (exit 65), the hash lines of the
    /// steps before it written.
    @Test(.timeLimit(.minutes(3))) func aMillionAddsStopAtTheBodyLimit() throws {
        var text = ""
        text.reserveCapacity(72_000_000)
        for i in 0..<1_000_000 {
            text += #"{"step": 5, "add": {"center": ["# + String(1000 + i % 1000 * 3) + ", " + String(1000 + i / 1000 * 3) + #"], "size": [1, 1], "mass": 1}}"# + "\n"
        }
        let inputs = try Self.inputs("million.jsonl", text)
        defer { try? FileManager.default.removeItem(atPath: inputs) }
        let run = try CLI.run(["hash", "Scenes/book.json", "--steps", "50", "--every", "1", "--gravity", inputs])
        #expect(run.status == 65 && run.stderr.contains("million.jsonl:99996: add: the world holds 100000 bodies, the most it may"), "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map { $0.split(separator: " ")[0] } == ["1", "2", "3", "4", "5"])
    }
}
