import Foundation
import TestSupport
import Testing

/// Records with keyframes (`--keyframes K`) and `replay --from STEP`: a keyframe record replays and
/// verifies bit for bit, a stretch started from a keyframe prints exactly the straight replay's
/// lines from that step on (gravity changes included), corrupt or foreign keyframes are bad data
/// (65), and records without keyframes still read. Keyframes are saved states, so on Debian's
/// library `--keyframes` is refused before any step (69); `--from` then steps from 0.
@Suite struct KeyframeRecordTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("keyframes-\(UUID().uuidString)-\(name)").path
    }

    static var portable: Bool { SavedStateCommandTests.portable }

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A record's text without its keyframes: the header's "keyframes" and each line's "keyframe".
    static func withoutKeyframes(_ path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.replacingOccurrences(of: #",\"keyframes?\":(\"[^\"]*\"|[0-9]+)"#, with: "", options: .regularExpression)
    }

    /// The JSON line `replay --hash-every` writes on stderr (after any warning).
    static func report(_ stderr: String) throws -> JSONFields {
        try JSONFields(try #require(stderr.split(separator: "\n").last { $0.hasPrefix("{") }).description)
    }

    /// 600 steps of the book tilted by Scenes/tilt.jsonl (changes at 120, 300, 480), keyframes every 97 steps.
    static func tiltRecord(_ path: String, keyframes: Int? = 97) throws -> CLI.Result {
        try CLI.run(["hash", "Scenes/book.json", "--gravity", "Scenes/tilt.jsonl", "--steps", "600", "--record", path]
            + (keyframes.map { ["--keyframes", String($0)] } ?? []))
    }

    @Test func aRecordWithKeyframesReplaysAndVerifiesBitForBit() throws {
        let (record, plain) = (Self.temporary("k.rec"), Self.temporary("plain.rec"))
        defer { for path in [record, plain] { try? FileManager.default.removeItem(atPath: path) } }
        let made = try Self.tiltRecord(record)
        guard Self.portable else {
            #expect(made.status == 69 && made.stdout.isEmpty && made.stderr.contains("portable physics backend"), "\(made.stderr)")
            #expect(!FileManager.default.fileExists(atPath: record), "refused before the record is created")
            return
        }
        #expect(made.status == 0, "\(made.stderr)")
        let lines = try Self.lines(record)
        #expect(lines[0].hasSuffix(#","keyframes":97}"#))
        let keyframed = lines.filter { $0.contains(#""keyframe":""#) }
        #expect(keyframed.count == 6 && keyframed.first?.hasPrefix(#"{"step":97,"hash":"#) == true)
        // Keyframes only add keys: without them the record is the one made without --keyframes.
        #expect(try Self.tiltRecord(plain, keyframes: nil).status == 0)
        #expect(try Self.withoutKeyframes(record) == String(contentsOfFile: plain, encoding: .utf8))
        let diff = try CLI.run(["diff", record, plain])
        #expect(diff.status == 0 && diff.stdout.contains(#""steps_compared":600,"same":true"#), "\(diff.stderr)")
        let replay = try CLI.run(["replay", record, "--verify"])
        #expect(replay.status == 0 && replay.stderr.isEmpty, "\(replay.stderr)")
        let report = try JSONFields(replay.stdout.trimmingCharacters(in: .newlines))
        #expect(report.bool("verified") == true && report.number("checkpoints_verified") == 600 && report.isNull("keyframe"))
        #expect(made.stdout == "600 \(report.string("state_hash")!)\n")
    }

    /// From before the first keyframe, on one, just after one, across the gravity change at step
    /// 300 (keyframe 291) and near the end: the lines after STEP, exactly.
    @Test(.needsSavedStates(SavedStateCommandTests.portable), arguments: [1, 97, 98, 299, 301, 599])
    func fromPrintsTheStraightReplaysLinesFromThatStepOn(from: Int) throws {
        let record = Self.temporary("k.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try Self.tiltRecord(record).status == 0)
        let straight = try CLI.run(["replay", record, "--hash-every", "1"])
        let stretch = try CLI.run(["replay", record, "--from", String(from), "--hash-every", "1"])
        #expect(straight.status == 0 && stretch.status == 0, "\(stretch.stderr)")
        #expect(straight.stdout.split(separator: "\n").count == 600)
        #expect(stretch.stdout.split(separator: "\n") == Array(straight.stdout.split(separator: "\n").dropFirst(from)))
        let report = try Self.report(stretch.stderr)
        let keyframe = from / 97 * 97
        #expect(report.number("from") == Double(from) && report.number("steps") == Double(600 - from))
        #expect(keyframe == 0 ? report.isNull("keyframe") : report.number("keyframe") == Double(keyframe))
        // Verified from the keyframe on: every checkpoint after it.
        let verified = try CLI.run(["replay", record, "--from", String(from), "--verify"])
        let fields = try JSONFields(verified.stdout.trimmingCharacters(in: .newlines))
        #expect(verified.status == 0 && fields.bool("verified") == true && fields.number("checkpoints_verified") == Double(600 - keyframe))
    }

    /// Rendered from a step: the frames are the straight render's from that time on (at 60 fps a
    /// frame every 2 steps; step 300 is frame 150's time).
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func fromRendersTheStraightRendersLastFrames() throws {
        let (record, straight, stretch) = (Self.temporary("k.rec"), Self.temporary("all"), Self.temporary("from"))
        defer { for path in [record, straight, stretch] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try Self.tiltRecord(record).status == 0)
        #expect(try CLI.run(["replay", record, "--out", straight, "--size", "48x64", "--quiet"]).status == 0)
        let rendered = try CLI.run(["replay", record, "--from", "300", "--out", stretch, "--size", "48x64", "--quiet"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let frames = try FileManager.default.contentsOfDirectory(atPath: stretch).sorted()
        #expect(frames.count == 150 && frames.last == "frame-00150.ppm")
        for (mine, theirs) in [(1, 151), (150, 300)] {
            let a = FileManager.default.contents(atPath: String(format: "%@/frame-%05d.ppm", stretch, mine))
            let b = FileManager.default.contents(atPath: String(format: "%@/frame-%05d.ppm", straight, theirs))
            #expect(a != nil && a == b, "frame \(mine) from step 300 is the straight render's frame \(theirs)")
        }
    }

    /// A record made without keyframes (as every record before them): `--from` steps from 0 and
    /// says so; the lines are the same. On both backends.
    @Test func withoutKeyframesFromStepsFromZeroAndSaysSo() throws {
        let record = Self.temporary("plain.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try Self.tiltRecord(record, keyframes: nil).status == 0)
        let straight = try CLI.run(["replay", record, "--hash-every", "50"])
        let stretch = try CLI.run(["replay", record, "--from", "301", "--hash-every", "50"])
        #expect(stretch.status == 0)
        #expect(stretch.stderr.hasPrefix("cratedrop: warning: \(record): it holds no keyframes (record with --keyframes K to have them): stepping from step 0 to step 301\n"))
        #expect(stretch.stdout.split(separator: "\n") == Array(straight.stdout.split(separator: "\n").dropFirst(6)))
        #expect(try Self.report(stretch.stderr).isNull("keyframe"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let record = Self.temporary("plain.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try Self.tiltRecord(record, keyframes: nil).status == 0)
        for (arguments, message) in [
            (["replay", record, "--from", "-1"], "--from must be >= 0, got -1"),
            (["replay", record, "--from", "601"], "cratedrop: --from 601 is past the end of \(record) (600 steps)"),
            (["replay", record, "--from", "99999999999999999999"], "--from"),
            (["replay", record, "--hash-every", "0"], "--hash-every must be >= 1, got 0"),
            (["hash", "Scenes/book.json", "--record", Self.temporary("x.rec"), "--keyframes", "0"], "--keyframes must be >= 1, got 0"),
            (["hash", "Scenes/book.json", "--record", Self.temporary("x.rec"), "--keyframes", "99999999999999999999"], "--keyframes"),
            (["hash", "Scenes/book.json", "--keyframes", "120"], "--keyframes needs --record FILE"),
        ] {
            let result = try CLI.run(arguments)
            #expect(result.status == 64 && result.stdout.isEmpty && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// Keyframes are saved states: a world they do not cover (sleeping bodies) is refused before
    /// any step and before the record exists (64), and Debian's library refuses them first (69).
    @Test func aWorldSavedStatesDoNotCoverIsRefusedBeforeAnyStep() throws {
        let (scene, record) = (Self.temporary("sleepy.json"), Self.temporary("sleepy.rec"))
        defer { for path in [scene, record] { try? FileManager.default.removeItem(atPath: path) } }
        let book = try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8)
        try book.replacingOccurrences(of: "{", with: #"{"sleep_time": 0.5, "#, options: [], range: book.range(of: "{"))
            .write(toFile: scene, atomically: false, encoding: .utf8)
        let result = try CLI.run(["hash", scene, "--steps", "10", "--record", record, "--keyframes", "5"])
        if Self.portable {
            #expect(result.status == 64 && result.stderr.contains("keyframes: saved states do not cover sleeping bodies (sleep_time)"), "\(result.stderr)")
        } else {
            #expect(result.status == 69 && result.stderr.contains("portable physics backend"), "\(result.stderr)")
        }
        #expect(result.stdout.isEmpty && !FileManager.default.fileExists(atPath: record))
    }

    /// `--save-state`, `--save-every` and `--synctest` on a world saved states do not cover are
    /// refused the same way, before any step and any output (they were refused only at the run's
    /// end, after the whole run: issue 35, "Tried as a new user would").
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func savingAWorldStatesDoNotCoverIsRefusedBeforeAnyStep() throws {
        let (scene, state, folder) = (Self.temporary("sleepy.json"), Self.temporary("sleepy.state"), Self.temporary("states"))
        defer { for path in [scene, state, folder] { try? FileManager.default.removeItem(atPath: path) } }
        let book = try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8)
        try book.replacingOccurrences(of: "{", with: #"{"sleep_time": 0.5, "#, options: [], range: book.range(of: "{"))
            .write(toFile: scene, atomically: false, encoding: .utf8)
        for (options, named) in [(["--save-state", state], "--save-state"), (["--save-every", "5", folder], "--save-every"), (["--synctest", "2"], "--synctest")] {
            let result = try CLI.run(["hash", scene, "--steps", "1200"] + options)
            #expect(result.status == 64 && result.stderr.contains("\(named): saved states do not cover sleeping bodies (sleep_time)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: state) && !FileManager.default.fileExists(atPath: folder))
    }

    /// Each way a keyframe can be wrong, refused with the record's file and line (65): by every
    /// reader of the record (`replay --verify` too), or, for a keyframe of another scene, when it is restored.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func corruptAndForeignKeyframesAreBadData() throws {
        let (record, pile, broken) = (Self.temporary("k.rec"), Self.temporary("pile.rec"), Self.temporary("broken.rec"))
        defer { for path in [record, pile, broken] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try Self.tiltRecord(record).status == 0)
        #expect(try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "200", "--record", pile, "--keyframes", "97"]).status == 0)
        let lines = try Self.lines(record)
        let index = try #require(lines.firstIndex { $0.hasPrefix(#"{"step":194,"#) })
        let line = lines[index]
        let value = try #require(line.range(of: #""keyframe":""#)).upperBound
        func replacingKeyframe(_ text: String) -> String { String(line[..<value]) + text + "\"}" }
        let keyframe = String(line[value...].dropLast(2))
        var flipped = Array(keyframe)
        flipped[keyframe.count / 2] = flipped[keyframe.count / 2] == "A" ? "B" : "A"
        let otherScene = try #require(try Self.lines(pile).first { $0.hasPrefix(#"{"step":194,"#) })
        let foreign = String(otherScene[try #require(otherScene.range(of: #""keyframe":""#)).upperBound...].dropLast(2))
        let cases: [(String, String, Bool)] = [
            (replacingKeyframe(String(flipped)), "keyframe: the saved state is corrupt or cut short (its checksum does not match)", true),
            (replacingKeyframe(String(keyframe.dropLast(8))), "keyframe: the saved state", true),
            (replacingKeyframe("not base64!"), "keyframe must be base64 text", true),
            (replacingKeyframe(try #require(lines.first { $0.hasPrefix(#"{"step":97,"#) }).components(separatedBy: #""keyframe":""#)[1].dropLast(2).description),
             "the keyframe holds the state after step 97, not after step 194", true),
            (replacingKeyframe(foreign), "the keyframe after step 194: the state was saved from a world of another make-up", false),
        ]
        for (replacement, message, refusedByEveryReader) in cases {
            var edited = lines
            edited[index] = replacement
            try (edited.joined(separator: "\n") + "\n").write(toFile: broken, atomically: false, encoding: .utf8)
            let from = try CLI.run(["replay", broken, "--from", "250", "--hash-every", "1"])
            #expect(from.status == 65 && from.stdout.isEmpty && from.stderr.contains("\(broken):\(index + 1): \(message)"), "\(from.stderr)")
            let verify = try CLI.run(["replay", broken, "--verify"])
            #expect((verify.status == 65) == refusedByEveryReader, "\(message): \(verify.stderr)")
        }
        // A keyframe of another class than its record's header.
        var edited = lines
        edited[0] = edited[0].replacingOccurrences(of: #""determinism_class":"\#(CLI.determinismClass)""#, with: #""determinism_class":"000000000000""#)
        try (edited.joined(separator: "\n") + "\n").write(toFile: broken, atomically: false, encoding: .utf8)
        let foreignClass = try CLI.run(["replay", broken, "--verify"])
        #expect(foreignClass.status == 65 && foreignClass.stderr.contains("\(broken):99: the keyframe was made in class \(CLI.determinismClass), portable backend, the record in class 000000000000"),
                "\(foreignClass.stderr)")
    }

    /// A keyframe altered with its checksum made right (the last contact's impulse tripled; the
    /// bodies, and so every hash, unchanged) is found by `replay --verify`, which compares each
    /// keyframe with a save of the replayed world at its step: exit 3 naming the line (audit round
    /// 4, finding 12). The unaltered record verifies.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func anAlteredKeyframeFailsVerification() throws {
        let (record, broken) = (Self.temporary("k.rec"), Self.temporary("altered.rec"))
        defer { for path in [record, broken] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try Self.tiltRecord(record).status == 0)
        #expect(try CLI.run(["replay", record, "--verify"]).status == 0)
        var lines = try Self.lines(record)
        let index = try #require(lines.firstIndex { $0.hasPrefix(#"{"step":194,"#) })
        let value = try #require(lines[index].range(of: #""keyframe":""#)).upperBound
        var bytes = [UInt8](try #require(Data(base64Encoded: String(lines[index][value...].dropLast(2)))))
        // The physics part ends with the last contact's hash, jnAcc and jtAcc (8 bytes each); then come
        // the counts of held forces, drags and make-up changes (4 bytes each, all 0) and the checksum.
        let at = bytes.count - 8 - 12 - 8
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
        let tripled = (Double(bitPattern: bits) * 3 + 1).bitPattern
        for i in 0..<8 { bytes[at + i] = UInt8(truncatingIfNeeded: tripled >> (8 * UInt64(i))) }
        bytes = SavedStateCommandTests.withChecksum(bytes)
        lines[index] = String(lines[index][..<value]) + Data(bytes).base64EncodedString() + "\"}"
        try (lines.joined(separator: "\n") + "\n").write(toFile: broken, atomically: false, encoding: .utf8)
        let verify = try CLI.run(["replay", broken, "--verify"])
        #expect(verify.status == 3, "\(verify.stderr)")
        #expect(verify.stdout.contains(#""keyframe_line":\#(index + 1)"#) && verify.stderr.contains("keyframe (line \(index + 1))"),
                "\(verify.stdout) \(verify.stderr)")
    }
}

/// Records a CrateDrop of another format wrote, and records cut short (audit round 4, finding 15).
@Suite struct RecordEdgeTests {
    @Test func aRecordOfAnotherVersionIsRefusedAsARecordEverywhere() throws {
        let (record, other) = (KeyframeRecordTests.temporary("r.rec"), KeyframeRecordTests.temporary("v2.rec"))
        defer { for path in [record, other] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "30", "--record", record]).status == 0)
        let text = try String(contentsOfFile: record, encoding: .utf8)
        try text.replacingOccurrences(of: #""version":1"#, with: #""version":2"#).write(toFile: other, atomically: false, encoding: .utf8)
        for command in [["run", other, "--seconds", "0.1"], ["replay", other, "--verify"]] {
            let result = try CLI.run(command)
            #expect(result.status == 65 && result.stderr.contains("\(other):1: a run record of version 2, which this cratedrop does not read"),
                    "\(command): \(result.stderr)")
        }
        // `hash` takes scenes and states; a record, of any version, is pointed to `replay`.
        for path in [record, other] {
            let hashed = try CLI.run(["hash", path])
            #expect(hashed.status == 64 && hashed.stderr.contains("\(path) is a run record: `cratedrop replay"), "\(hashed.stderr)")
        }
    }

    @Test func aRecordWithoutItsEndLineSaysSo() throws {
        let (record, cut) = (KeyframeRecordTests.temporary("r.rec"), KeyframeRecordTests.temporary("cut.rec"))
        defer { for path in [record, cut] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "30", "--record", record]).status == 0)
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        #expect(lines.last?.contains(#""end":true"#) == true)
        try (lines.dropLast().joined(separator: "\n") + "\n").write(toFile: cut, atomically: false, encoding: .utf8)
        let whole = try CLI.run(["replay", record, "--verify"]), partial = try CLI.run(["replay", cut, "--verify"])
        #expect(whole.status == 0 && whole.stdout.contains(#""complete":true"#) && whole.stderr.isEmpty)
        #expect(partial.status == 0 && partial.stdout.contains(#""complete":false"#))
        #expect(partial.stderr.contains("\(cut) has no end line: the run that wrote it stopped before finishing the file"), "\(partial.stderr)")
    }
}
