import Foundation
import TestSupport
import Testing

/// Scenes/platformer.json (issue 45's rules of contact) through the command line: it validates,
/// continues bit for bit from states saved at three steps (before, while and after crates pass up
/// through the one-way platforms), passes the synctest, replays its record with --verify, hashes
/// the same with and without --events, and the plain C build reaches the same hashes with its own
/// one-way pre-solve and surface velocities.
@Suite(.timeLimit(.minutes(5))) struct PlatformerCommandTests {
    static let scene = "Scenes/platformer.json"

    @Test func itValidatesWithoutWarnings() throws {
        let validated = try CLI.run(["validate", Self.scene])
        #expect(validated.status == 0 && validated.stdout == "\(Self.scene): ok (8 crates, 9 walls)\n" && validated.stderr.isEmpty,
                "\(validated.stdout) \(validated.stderr)")
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable))
    func itContinuesFromStatesSynctestsAndReplays() throws {
        let straight = try CLI.run(["hash", Self.scene, "--steps", "600", "--every", "1"])
        #expect(straight.status == 0, "\(straight.stderr)")
        let lines = straight.stdout.split(separator: "\n")
        #expect(lines.count == 600)
        // Step 30: the thrown crates are inside or just through the lower platform (their
        // contacts ignored); 5 before any reaches it; 300 at rest.
        for step in [5, 30, 300] {
            let state = SavedStateCommandTests.temporary("platformer-\(step).state")
            defer { try? FileManager.default.removeItem(atPath: state) }
            #expect(try CLI.run(["hash", Self.scene, "--steps", String(step), "--save-state", state]).status == 0)
            let continued = try CLI.run(["hash", state, "--steps", String(600 - step), "--every", "1"])
            #expect(continued.status == 0 && continued.stdout.split(separator: "\n") == Array(lines.dropFirst(step)),
                    "saved at step \(step): \(continued.stderr)")
        }
        let synctest = try CLI.run(["hash", Self.scene, "--steps", "600", "--synctest", "3"])
        #expect(synctest.status == 0 && synctest.stdout == "\(lines.last!)\n", "\(synctest.stderr)")
        let record = SavedStateCommandTests.temporary("platformer.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try CLI.run(["hash", Self.scene, "--steps", "600", "--record", record, "--keyframes", "200"]).status == 0)
        for from in ["0", "250"] {
            let replay = try CLI.run(["replay", record, "--verify", "--from", from])
            #expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "from \(from): \(replay.stderr)")
        }
    }

    static let pushes = "Scenes/platformer.jsonl"

    /// The character (body 8, a box with a round head) pushed by `platformer.jsonl`: it jumps up
    /// through the lower platform and lands on it, rides the conveyor, and jumps up through the
    /// upper platform onto it. States saved at three steps (sliding, in the air, on the conveyor)
    /// continue bit for bit with the rest of the stream, the synctest passes, the record verifies,
    /// and the plain C build (its own impulses, one-way pre-solve and surface velocities) reaches
    /// the same hashes at every step.
    @Test(.needsSavedStates(SavedStateCommandTests.portable))
    func theCharacterPushedByLinesContinuesReplaysAndMatchesPlainC() throws {
        let straight = try CLI.run(["hash", Self.scene, "--inputs", Self.pushes, "--steps", "900", "--every", "1"])
        #expect(straight.status == 0, "\(straight.stderr)")
        let lines = straight.stdout.split(separator: "\n")
        #expect(lines.count == 900)
        let alone = try CLI.run(["hash", Self.scene, "--steps", "900"])
        #expect(alone.stdout != "\(lines.last!)\n", "the pushes change the run")
        // Where the character is: on the lower platform, then on the upper one.
        let trace = SavedStateCommandTests.temporary("platformer-pushes.csv")
        defer { try? FileManager.default.removeItem(atPath: trace) }
        #expect(try CLI.run(["hash", Self.scene, "--inputs", Self.pushes, "--steps", "900", "--trace", trace, "--trace-every", "30"]).status == 0)
        let rows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: ",").map(String.init) }.filter { $0.count > 7 && $0[2] == "8" }
        let height = { (step: String) in rows.first { $0[0] == step }.flatMap { Double($0[7]) } ?? .nan }
        #expect((150...200).contains(height("420")), "on the lower platform (y 150) at step 420: \(height("420"))")
        #expect((260...310).contains(height("900")), "on the upper platform (y 260) at step 900: \(height("900"))")
        for step in [200, 300, 560] {
            let state = SavedStateCommandTests.temporary("platformer-pushes-\(step).state")
            defer { try? FileManager.default.removeItem(atPath: state) }
            #expect(try CLI.run(["hash", Self.scene, "--inputs", Self.pushes, "--steps", String(step), "--save-state", state]).status == 0)
            let continued = try CLI.run(["hash", state, "--inputs", Self.pushes, "--steps", String(900 - step), "--every", "1"])
            #expect(continued.status == 0 && continued.stdout.split(separator: "\n") == Array(lines.dropFirst(step)),
                    "saved at step \(step): \(continued.stderr)")
        }
        let synctest = try CLI.run(["hash", Self.scene, "--inputs", Self.pushes, "--steps", "900", "--synctest", "3"])
        #expect(synctest.status == 0 && synctest.stdout == "\(lines.last!)\n", "\(synctest.stderr)")
        let record = SavedStateCommandTests.temporary("platformer-pushes.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try CLI.run(["hash", Self.scene, "--inputs", Self.pushes, "--steps", "900", "--record", record]).status == 0)
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "\(replay.stderr)")
        let (crateDrop, plainC) = try StructuralChangeBaselineTests.trails(scenePath: Self.scene, stream: Self.pushes, steps: 900)
        #expect(crateDrop.status == 0 && plainC.status == 0 && crateDrop.stdout == plainC.stdout && crateDrop.stdout == straight.stdout,
                "\(crateDrop.stderr) \(plainC.stderr)")
    }

    /// `--events` is a link in the rules' chain, not a handler of its own: every step's hash is the
    /// same with it, and the crates thrown up make no begin with the platforms they pass through.
    @Test func eventsChangeNoHash() throws {
        let events = SavedStateCommandTests.temporary("platformer-events.csv")
        defer { try? FileManager.default.removeItem(atPath: events) }
        let plain = try CLI.run(["hash", Self.scene, "--steps", "600", "--every", "1"])
        let noting = try CLI.run(["hash", Self.scene, "--steps", "600", "--every", "1", "--events", events])
        #expect(plain.status == 0 && noting.status == 0 && plain.stdout == noting.stdout, "\(noting.stderr)")
        let rows = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("step") }
        // Crate 1 (thrown up at 780 px/s) and the lower platform (wall 4): one begin, when it lands on top.
        let landings = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0[2] == "begin" && $0[3] == "1" && $0[5] == "4" }
        #expect(landings.count == 1 && (Int(landings.first?[0] ?? "") ?? 0) > 40, "\(landings)")
    }

    /// A ledge (one-way, a moving surface) and a crate thrown up through it, added by input lines:
    /// the record writes their rules on its lines, so the replay verifies, and the plain C build
    /// makes the same parts with the same hashes.
    static let ledgeLines = """
        {"step": 20, "add_wall": {"from": [330, 120], "to": [450, 120], "radius": 3, "one_way": [0, 1], "surface_velocity": [40, 0]}}
        {"step": 21, "add": {"center": [390, 95], "size": [16, 16], "mass": 1, "velocity": [0, 600], "surface_velocity": [0, 0]}}

        """

    @Test func partsWithRulesAddedByLinesReplayAndMatchPlainC() throws {
        let stream = SavedStateCommandTests.temporary("ledge.jsonl"), record = SavedStateCommandTests.temporary("ledge.rec")
        try Self.ledgeLines.write(toFile: stream, atomically: true, encoding: .utf8)
        defer { for path in [stream, record] { try? FileManager.default.removeItem(atPath: path) } }
        let (crateDrop, plainC) = try StructuralChangeBaselineTests.trails(scenePath: Self.scene, stream: stream, steps: 300)
        #expect(crateDrop.status == 0 && plainC.status == 0 && crateDrop.stdout == plainC.stdout, "\(crateDrop.stderr) \(plainC.stderr)")
        let recorded = try CLI.run(["hash", Self.scene, "--steps", "300", "--gravity", stream, "--record", record])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let lines = try String(contentsOfFile: record, encoding: .utf8)
        #expect(lines.contains(#""one_way":[0.0,1.0],"surface_velocity":[40.0,0.0]"#), "the record keeps the rules")
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "\(replay.stderr)")
    }

    @Test func thePlainCBuildReachesTheSameHashes() throws {
        let (crateDrop, plainC) = try StructuralChangeBaselineTests.trails(scenePath: Self.scene, stream: nil, steps: 600)
        #expect(crateDrop.status == 0 && plainC.status == 0, "\(crateDrop.stderr) \(plainC.stderr)")
        #expect(crateDrop.stdout.split(separator: "\n").count == 600)
        #expect(crateDrop.stdout == plainC.stdout)
    }

    /// Bad rules are refused with the file, line and field, exit 65, before any step.
    @Test(arguments: [
        (#""one_way": [0, 0]"#, "crates[0].one_way: must be a direction of length > 0"),
        (#""one_way": [0, 1e400]"#, "crates[0].one_way[1]: "),
        (#""surface_velocity": [2e6, 0]"#, "crates[0].surface_velocity[0]: must be a finite number within ±1000000 px/s, got 2000000.0"),
        (#""one_way": "up""#, "crates[0].one_way: must be an array of two numbers"),
    ])
    func badRulesAreRefused(key: String, message: String) throws {
        let path = SavedStateCommandTests.temporary("bad-rules.json")
        try """
            {"world": [300, 300], "gravity": [0, -1000],
             "crates": [{"center": [150, 150], "size": [30, 30], "mass": 5, \(key)}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // validate lists problems on stdout; a run says them on stderr and prints no hash.
        let validated = try CLI.run(["validate", path])
        #expect(validated.status == 65 && validated.stdout.contains("\(path):2: \(message)"), "\(validated.stdout)")
        let hashed = try CLI.run(["hash", path, "--steps", "10"])
        #expect(hashed.status == 65 && hashed.stderr.contains("\(path):2: \(message)") && hashed.stdout.isEmpty, "\(hashed.stderr)")
    }
}
