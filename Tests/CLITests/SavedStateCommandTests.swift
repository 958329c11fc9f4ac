import Foundation
import TestSupport
import Testing

/// `hash --save-state` and `hash STATE`: a state saved at step N and continued for M steps in a
/// new process prints exactly the lines N+1...N+M of one straight run, on the portable backend;
/// Debian's library refuses before any step (69); corrupt states are bad data (65).
@Suite struct SavedStateCommandTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)-\(name)").path
    }

    static let portable = (try? CLI.run(["platform"]).stdout.contains("portable backend")) == true

    @Test(arguments: [("Scenes/pile-100.json", 301), ("Scenes/tumbler.json", 240)])
    func aContinuationPrintsTheStraightRunsLines(scene: String, at step: Int) throws {
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let saved = try CLI.run(["hash", scene, "--steps", String(step), "--save-state", state])
        guard Self.portable else {
            #expect(saved.status == 69 && saved.stdout.isEmpty && saved.stderr.contains("portable physics backend"))
            #expect(!FileManager.default.fileExists(atPath: state))
            return
        }
        #expect(saved.status == 0, "\(saved.stderr)")
        let continued = try CLI.run(["hash", state, "--steps", "300", "--every", "1"])
        let straight = try CLI.run(["hash", scene, "--steps", String(step + 300), "--every", "1"])
        #expect(continued.status == 0 && straight.status == 0)
        let expected = straight.stdout.split(separator: "\n").dropFirst(step)
        #expect(continued.stdout.split(separator: "\n") == Array(expected))
    }

    /// A state saved before states began with a layout identifier (file format 2, by CrateDrop's
    /// Chipmunk of 2026-11-27; Tests/CLITests/Golden/README.md says how it was made) is refused as
    /// bad data, naming its format, by `hash`, `run` and `validate`; so is the same state with its
    /// file's version edited to the current one (and its checksum made right): the physics part's
    /// layout identifier names it then.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func aStateOfAnEarlierLayoutIsRefusedNamingIt() throws {
        let earlier = "Tests/CLITests/Golden/earlier-formats/book-60-format-2-no-layout-id.state"
        let out = Self.temporary("out")
        defer { try? FileManager.default.removeItem(atPath: out) }
        for arguments in [["hash", earlier, "--steps", "1"], ["run", earlier, "--seconds", "0.1", "--out", out + ".png"], ["validate", earlier]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect((result.stdout + result.stderr).contains("saved-state format 2, which this CrateDrop (format 6) cannot read"),
                    "\(arguments): \(result.stdout) \(result.stderr)")
        }
        // The version edited to 4, no held forces after the physics (a u32 count of 0), the
        // checksum (FNV-1a 64 of every byte before it) made right.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: earlier)))
        bytes[8] = 4
        bytes.insert(contentsOf: [0, 0, 0, 0], at: bytes.count - 8)
        bytes = Self.withChecksum(bytes)
        let relabelled = Self.temporary("relabelled.state")
        defer { try? FileManager.default.removeItem(atPath: relabelled) }
        try Data(bytes).write(to: URL(fileURLWithPath: relabelled))
        let result = try CLI.run(["hash", relabelled, "--steps", "1"])
        #expect(result.status == 65 && result.stderr.contains("a state of another format or Chipmunk layout (layout 0xf42a4e0700000005, this library reads 0x"),
                "\(result.stderr)")
    }

    /// A state file's bytes with its step set to `step` and its checksum made right (the layout
    /// in Sources/SceneModel/SavedStateFile.swift: magic, version, four strings, the scene's text, step).
    static func withStep(_ step: UInt64, _ original: [UInt8]) -> [UInt8] {
        var bytes = original
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        var at = 12
        for _ in 0..<5 { at += 4 + u32(at) }
        for i in 0..<8 { bytes[at + i] = UInt8(truncatingIfNeeded: step >> (8 * UInt64(i))) }
        return withChecksum(bytes)
    }

    /// A state file's bytes with their last 8 set to FNV-1a 64 of every byte before them.
    static func withChecksum(_ original: [UInt8]) -> [UInt8] {
        var bytes = original
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes.dropLast(8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for i in 0..<8 { bytes[bytes.count - 8 + i] = UInt8(truncatingIfNeeded: hash >> (8 * UInt64(i))) }
        return bytes
    }

    /// A state whose step is past 2^53 (the audit's: 2^63 - 11, checksum made right) is bad data
    /// for `validate`, `hash` and `run`, which trapped on the overflow of its step plus the run's;
    /// at 2^53 it continues; `--steps` past 2^53 is a usage error.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func aStateStepPastTwoToThe53IsRefused() throws {
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "60", "--save-state", state]).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: state)))
        let late = Self.temporary("late.state")
        defer { try? FileManager.default.removeItem(atPath: late) }
        try Data(Self.withStep(1 << 63 - 11, bytes)).write(to: URL(fileURLWithPath: late))
        for arguments in [["validate", late], ["hash", late, "--steps", "20"], ["run", late, "--seconds", "0.1", "--out", late + ".png"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 65 && (result.stdout + result.stderr).contains("the state's step count 9223372036854775797 is out of range (at most 2^53"),
                    "\(arguments): \(result.stderr)")
        }
        try Data(Self.withStep(1 << 53, bytes)).write(to: URL(fileURLWithPath: late))
        let last = try CLI.run(["hash", late, "--steps", "2"])
        #expect(last.status == 0 && last.stdout.hasPrefix("\(1 << 53 + 2) "), "\(last.stdout) \(last.stderr)")
        let tooLong = try CLI.run(["hash", late, "--steps", String(1 << 53 + 1)])
        #expect(tooLong.status == 64 && tooLong.stderr.contains("--steps must be from 0 to 2^53"), "\(tooLong.stderr)")
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func corruptTruncatedAndForeignStatesAreBadData() throws {
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "120", "--save-state", state]).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: state)))
        let broken = Self.temporary("broken.state")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x10
        for (variant, message) in [(flipped, "checksum does not match"), (Array(bytes.prefix(bytes.count - 9)), "corrupt or cut short"),
                                   (Array(bytes.prefix(12)), "cut short")] {
            try Data(variant).write(to: URL(fileURLWithPath: broken))
            let result = try CLI.run(["hash", broken, "--steps", "1"])
            #expect(result.status == 65 && result.stdout.isEmpty && result.stderr.contains(message), "\(result.stderr)")
        }
    }

    /// A gravity script continues from the saved step: lines before it are already in the state.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func gravityInputsContinueFromTheSavedStep() throws {
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let tilt = Repository.path("Scenes/tilt.jsonl")
        #expect(try CLI.run(["hash", "Scenes/book.json", "--gravity", tilt, "--steps", "400", "--save-state", state]).status == 0)
        let continued = try CLI.run(["hash", state, "--gravity", tilt, "--steps", "500", "--every", "50"])
        let straight = try CLI.run(["hash", "Scenes/book.json", "--gravity", tilt, "--steps", "900", "--every", "50"])
        #expect(continued.status == 0)
        #expect(continued.stdout.split(separator: "\n") == Array(straight.stdout.split(separator: "\n").dropFirst(8)))
    }
}

/// `--save-every STEPS DIR`, `run STATE` and `validate STATE`.
@Suite struct SavedStateOutputsTests {
    @Test func saveEveryWritesAStateAtEachMultipleThatContinuesTheStraightRun() throws {
        let folder = SavedStateCommandTests.temporary("states")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let saved = try CLI.run(["hash", "Scenes/tumbler.json", "--steps", "250", "--every", "50", "--save-every", "100", folder])
        guard SavedStateCommandTests.portable else {
            #expect(saved.status == 69 && saved.stdout.isEmpty && !FileManager.default.fileExists(atPath: folder))
            return
        }
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["step-000000100.state", "step-000000200.state"])
        // The state at 100 continued to 250 ends where the straight run did, and saves the same state at 200.
        let again = SavedStateCommandTests.temporary("again")
        defer { try? FileManager.default.removeItem(atPath: again) }
        let continued = try CLI.run(["hash", "\(folder)/step-000000100.state", "--steps", "150", "--every", "50", "--save-every", "100", again])
        #expect(continued.status == 0)
        #expect(continued.stdout.split(separator: "\n") == Array(saved.stdout.split(separator: "\n").dropFirst(2)))
        #expect(FileManager.default.contents(atPath: "\(again)/step-000000200.state") == FileManager.default.contents(atPath: "\(folder)/step-000000200.state"))
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func saveEveryRefusesAFolderItCannotMakeBeforeAnyStep() throws {
        let file = SavedStateCommandTests.temporary("file")
        FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        for (folder, message) in [("\(file)/sub", "a part of its path is a file"), ("\(file)x/sub", "parent folder does not exist"), (file, "exists and is not a folder")] {
            let result = try CLI.run(["hash", "Scenes/book.json", "--save-every", "10", folder])
            #expect(result.status == 73 && result.stdout.isEmpty && result.stderr.contains(message), "\(result.stderr)")
        }
        for arguments in [["--save-every", "10"], ["--save-every", "0", "x"], ["--save-every", "ten", "x"]] {
            #expect(try CLI.run(["hash", "Scenes/book.json"] + arguments).status == 64)
        }
    }

    /// A run from a state saved at 2.5 s draws what the straight run draws from 2.5 s on: the same
    /// last frame and state hash (frames fall on whole steps at 60 fps and 120 steps/s).
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func runFromAStateDrawsTheStraightRunsFrames() throws {
        let folder = SavedStateCommandTests.temporary("run")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "300", "--save-state", "\(folder)/s.state"]).status == 0)
        let continued = try CLI.run(["run", "\(folder)/s.state", "--seconds", "1", "--out", "\(folder)/continued.png"])
        let straight = try CLI.run(["run", "Scenes/book.json", "--seconds", "3.5", "--out", "\(folder)/straight.png"])
        #expect(continued.status == 0 && straight.status == 0, "\(continued.stderr)")
        func hash(_ summary: String) -> String? { summary.firstMatch(of: /"state_hash":"([0-9a-f]{16})"/).map { String($0.1) } }
        #expect(hash(continued.stdout) != nil && hash(continued.stdout) == hash(straight.stdout))
        let continuedImage = FileManager.default.contents(atPath: "\(folder)/continued.png")
        #expect(continuedImage != nil && continuedImage == FileManager.default.contents(atPath: "\(folder)/straight.png"))
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func validateChecksAStateWholeAndRefusesACorruptOne() throws {
        let state = SavedStateCommandTests.temporary("v.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "200", "--save-state", state]).status == 0)
        let good = try CLI.run(["validate", state, "Scenes/book.json"])
        #expect(good.status == 0)
        #expect(good.stdout.contains("\(state): ok (saved state: step 200 of Scenes/pile-100.json") && good.stdout.contains("100 bodies; restores into its scene"))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: state)))
        bytes[bytes.count / 2] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: state))
        let bad = try CLI.run(["validate", state, "Scenes/book.json"])
        #expect(bad.status == 65 && bad.stdout.contains("checksum does not match") && bad.stdout.contains("Scenes/book.json: ok"))
    }
}
