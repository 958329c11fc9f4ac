import Foundation
import TestSupport
import Testing

/// Hostile but realistic inputs: each ends with a clear message and a documented exit code below
/// 128 (or succeeds), and no input file or device is replaced.
@Suite struct HardeningTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-\(UUID().uuidString)-\(name)").path
    }

    static func write(_ text: String, _ name: String) throws -> String {
        let path = temporary(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func book(adding extra: String) throws -> String {
        let text = try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8)
        return try write(String(text.dropLast(2)) + ",\n" + extra + "\n}\n", "book.json")
    }

    // MARK: Crashes that are now messages

    @Test(arguments: [
        (#""generator": {"count": 9223372036854775807, "seed": 1, "size": [4, 8], "density": 1, "friction": 0.5, "elasticity": 0.1}"#,
         "generator.count: more than 9223372036854775807 crates in all (inline and generated); at most 100000"),
        (#""spatial_hash": {"cell_size": 0.01, "cells": 1}"#,
         "spatial_hash.cell_size: 0.01 is too small for crates up to 91 px across"),
        (#""generator": {"count": 99999999999999999999, "seed": 1, "size": [4, 8], "density": 1, "friction": 0.5, "elasticity": 0.1}"#,
         "generator.count: is too large: must be a whole number within ±9223372036854775807, got 99999999999999999999"),
    ])
    func extremeSceneValuesAreRefusedWithAMessage(extra: String, message: String) throws {
        let path = try Self.book(adding: extra)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["validate", path])
        #expect(result.status == 65 && result.stdout.contains(message), "\(result.stdout)")
    }

    @Test func aBodyFarOutsideTheViewIsDrawnWithoutATrap() throws {
        let scene = try Self.write(#"{"world": [1, 1], "gravity": [0, -1e6], "step_rate": 1, "crates": [{"center": [0.5, 0.5], "size": [0.5, 0.5], "mass": 1, "friction": 0.5, "elasticity": 0.5}]}"#, "fall.json")
        let directory = Self.temporary("frames")
        defer { for path in [scene, directory] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try CLI.run(["run", scene, "--seconds", "500000", "--fps", "1", "--every", "500000", "--out", directory, "--quiet"])
        #expect(result.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files == ["frame-00001.ppm"])
    }

    @Test(arguments: [
        // Read and held, never applied: the run ends long before (a warning says so).
        (#"{"t": 100000000.000000000, "gravity": [0, -1]}"#, Int32(0), "stdin:1: step 12000000000 is past the run's end (it ends after step 5)"),
        (#"{"t": 9999999999.000000000, "gravity": [0, -1]}"#, 65, "stdin:1: t must be a plain decimal number of seconds >= 0 (such as 1.25, at most 9 decimals, at most 1000000000), got 9999999999.000000000"),
        (#"{"step": 99999999999999999999, "gravity": [0, -1]}"#, 65, "stdin:1: step is too large: must be a whole number within 0...9223372036854775807"),
    ])
    func hugeGravityTimesEndWithALineErrorNotATrap(line: String, status: Int32, message: String) throws {
        let result = try CLI.run(["hash", "Scenes/book.json", "--gravity", "-", "--steps", "5"], input: Data((line + "\n").utf8))
        #expect(result.status == status)
        #expect(message.isEmpty ? result.stderr.isEmpty : result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func anEveryBeyondTheFrameCountWritesNoFrameAndSucceeds() throws {
        let directory = Self.temporary("frames")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--out", directory, "--every", "9223372036854775807", "--quiet"])
        let summary = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
        #expect(result.status == 0 && summary.number("frames") == 60)
    }

    // MARK: Limits on work

    static func grid(_ n: Int, spacing: Double) throws -> String {
        let crates = (0..<n * n).map { i in
            #"{"center": [\#(20 + spacing * Double(i % n)), \#(20 + spacing * Double(i / n))], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#
        }
        let side = 40 + spacing * Double(n)
        return try write(#"{"world": [\#(side), \#(side)], "gravity": [0, -1000], "crates": [\#(crates.joined(separator: ",\n"))]}"#, "grid.json")
    }

    @Test func coincidentCratesAreRefusedNamingThem() throws {
        let crate = #"{"center": [150, 150], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#
        let heap = try Self.write(#"{"world": [300, 300], "gravity": [0, -1000], "crates": [\#(Array(repeating: crate, count: 20).joined(separator: ",\n"))]}"#, "heap.json")
        let small = try Self.write(#"{"world": [300, 300], "gravity": [0, -1000], "crates": [\#(Array(repeating: crate, count: 9).joined(separator: ",\n"))]}"#, "nine.json")
        defer { for path in [heap, small] { try? FileManager.default.removeItem(atPath: path) } }
        let refused = try CLI.run(["validate", heap])
        #expect(refused.status == 65)
        #expect(refused.stdout.hasPrefix("\(heap):1: crates[0]: starts overlapping more than 8 other crates (crates[1], crates[2], crates[3], …)"))
        let accepted = try CLI.run(["validate", small])
        #expect(accepted.status == 0)
    }

    /// The worst accepted packing: a 71×71 block of touching crates (19,740 pairs in contact,
    /// corners included) builds and steps; one more row is refused.
    @Test(.timeLimit(.minutes(3)))
    func theWorstAcceptedPackedBlockBuildsAndStepsAndALargerOneIsRefused() throws {
        let accepted = try Self.grid(71, spacing: 10), refused = try Self.grid(72, spacing: 10)
        defer { for path in [accepted, refused] { try? FileManager.default.removeItem(atPath: path) } }
        let stepped = try CLI.run(["hash", accepted, "--steps", "1"])
        #expect(stepped.status == 0 && stepped.stdout.hasPrefix("1 "))
        let result = try CLI.run(["validate", refused])
        #expect(result.status == 65 && result.stdout.contains("crates: more than 20000 pairs of crates start touching or overlapping"))
    }

    @Test func inlineCratesCountAgainstTheCrateLimit() throws {
        let crate = #"{"center": [5, 5], "size": [1, 1], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#
        let crates = Array(repeating: crate, count: 20_001).joined(separator: ",")
        let path = try Self.write(#"{"world": [100000, 100000], "gravity": [0, -1000], "crates": [\#(crates)], "generator": {"count": 80000, "seed": 1, "size": [4, 8], "density": 1, "friction": 0.5, "elasticity": 0.1}}"#, "many.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["validate", path])
        #expect(result.status == 65 && result.stdout.contains("generator.count: 100001 crates in all (inline and generated); at most 100000"))
    }

    // MARK: Output safety

    @Test func aSummaryNeverReplacesALinkADeviceOrAnInput() throws {
        let victim = try Self.write("keep", "victim.txt")
        let link = Self.temporary("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        defer { for path in [victim, link] { try? FileManager.default.removeItem(atPath: path) } }
        let linked = try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--summary", link])
        #expect(linked.status == 64 && linked.stderr.contains("--summary \(link) is a symbolic link; CrateDrop does not write through links"))
        let kept = try String(contentsOfFile: victim, encoding: .utf8)
        #expect(kept == "keep")
        // A character device is written in place and stays one.
        let device = try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--summary", "/dev/null"])
        #expect(device.status == 0)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        // Outputs that are the run's inputs are refused before anything runs.
        let scene = try Self.write(try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8), "scene.json")
        defer { try? FileManager.default.removeItem(atPath: scene) }
        let overScene = try CLI.run(["run", scene, "--seconds", "1", "--record", scene])
        #expect(overScene.status == 64 && overScene.stderr.contains("--record \(scene) would overwrite the scene file (\(scene)), which this command reads"))
        let overGravity = try CLI.run(["run", "Scenes/book.json", "--gravity", "Scenes/tilt.jsonl", "--summary", "Scenes/tilt.jsonl"])
        #expect(overGravity.status == 64 && overGravity.stderr.contains("would overwrite the --gravity input"))
        let sceneAfter = try String(contentsOfFile: scene, encoding: .utf8)
        #expect(sceneAfter == (try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8)))
    }

    @Test func aPlantedTemporaryLinkIsNeverFollowedAndNoTemporaryFileIsLeft() throws {
        let directory = Self.temporary("frames"), victim = try Self.write("keep", "victim.txt")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/.frame-00001.ppm.tmp", withDestinationPath: victim)
        defer { for path in [directory, victim] { try? FileManager.default.removeItem(atPath: path) } }
        // The folder is not empty (the planted link): --force lets the run write into it, and
        // removes frame files only, so the link stays, unfollowed.
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.1", "--size", "16x16", "--out", directory, "--quiet", "--force"])
        #expect(result.status == 0)
        let kept = try String(contentsOfFile: victim, encoding: .utf8)
        #expect(kept == "keep")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files == [".frame-00001.ppm.tmp"] + (1...6).map { "frame-0000\($0).ppm" })
    }

    @Test(.timeLimit(.minutes(3)))
    func pipesThatNobodyServesAreRefusedAtOnce() throws {
        let fifo = Self.temporary("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let scene = try CLI.run(["validate", fifo])
        #expect(scene.status == 66 && scene.stdout == "\(fifo): is a named pipe, expected a regular file (scene and record files are read whole)\n")
        let record = try CLI.run(["hash", "Scenes/book.json", "--steps", "1", "--record", fifo])
        #expect(record.status == 73 && record.stderr.contains("\(fifo): is a named pipe that no process is reading"))
    }

    /// Under a file-size limit (`ulimit -f`), a record that outgrows it is a write error (74) that
    /// names the file and why, after the run's own result is printed, not a silent death by
    /// SIGXFSZ (exit 153; audit round 4, finding 11). bash's `ulimit -f` counts 1024-byte blocks.
    @Test func aFileSizeLimitIsAWriteErrorNotASignal() throws {
        let folder = Self.temporary("fsize")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CLI.shell("ulimit -f 16; $CRATEDROP hash Scenes/pile-100.json --steps 600 --record \(folder)/pile.rec")
        #expect(result.status == 74, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("\(folder)/pile.rec: File too large"), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("600 "), "\(result.stdout)")
    }

    // MARK: Results never lost silently

    @Test(arguments: [
        ("$CRATEDROP hash Scenes/book.json > /dev/full", Int32(74)),
        ("$CRATEDROP hash Scenes/book.json --dump > /dev/full", 74),
        ("$CRATEDROP run Scenes/book.json --seconds 1 > /dev/full", 74),
        ("$CRATEDROP validate Scenes/book.json > /dev/full", 74),
        ("$CRATEDROP hash Scenes/book.json >&-", 74),
        ("$CRATEDROP run Scenes/book.json --seconds 1 >&-", 74),
        ("$CRATEDROP hash Scenes/book.json --steps 1200 --every 1 | head -1 > /dev/null; exit ${PIPESTATUS[0]}", 0),
        ("$CRATEDROP validate Scenes/*.json | true; exit ${PIPESTATUS[0]}", 0),
    ])
    func everyStdoutFailureIsReported(script: String, status: Int32) throws {
        let result = try CLI.shell(script)
        #expect(result.status == status, "\(script): \(result.stderr)")
        if status == 74 { #expect(result.stderr.contains("cratedrop: cannot write results to stdout: ")) }
        if status == 0 { #expect(result.stderr.isEmpty) }
    }

    // MARK: Messages

    @Test(arguments: [
        (["run", "Scenes/book.json", "--seconds", "-1"], "--seconds must be a decimal number of seconds > 0"),
        (["run", "Scenes/book.json", "--fps", "-5"], "--fps must be in 1...10000, got -5"),
        (["run", "Scenes/book.json", "--out", "x", "--size", "-5x5"], "--size must be WIDTHxHEIGHT with each side in 1...16384"),
        (["run", "Scenes/book.json", "--out", "x", "--every", "-1"], "--every must be >= 1, got -1"),
        (["run", "Scenes/book.json", "--budget-ms", "-1"], "--budget-ms must be in (0, 60000], got -1.0"),
        (["hash", "Scenes/book.json", "--steps", "-1"], "--steps must be >= 0, got -1"),
    ])
    func negativeValuesSayWhatIsWrong(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(arguments: [
        ([0xef, 0xbb, 0xbf] + Array("{}".utf8), "the text starts with a UTF-8 byte order mark (EF BB BF)"),
        ([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00], "the text looks like UTF-16"),
        (Array(#"{"name": "\u+041", "world": [1, 1], "gravity": [0, 0]}"#.utf8), "invalid \\u escape: needs four hex digits"),
    ] as [([UInt8], String)])
    func encodingMistakesAreNamed(bytes: [UInt8], message: String) throws {
        let path = Self.temporary("enc.json")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["validate", path])
        #expect(result.status == 65 && result.stdout.contains(message), "\(result.stdout)")
    }

    @Test func aHugeLiteralIsEchoedShort() throws {
        let path = try Self.book(adding: #""sleep_time": 1e\#(String(repeating: "9", count: 100_000))"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["validate", path])
        #expect(result.status == 65 && result.stdout.contains("sleep_time: must be a finite number, got 1e\(String(repeating: "9", count: 38))… (100002 characters)"))
        #expect(result.stdout.count < 300)
    }

    @Test func structuralAndRangeProblemsComeInOnePass() throws {
        let path = try Self.write("""
            {"world": [100, 100], "gravity": [0, -10],
             "crates": [{"center": [50, 50], "size": [10, 10], "mass": -5, "friction": 0.5, "elasticity": 2.5},
                        {"center": [50, 50], "size": [10, 10], "friction": 0.5, "elasticity": 0.2}],
             "walls": [{"from": [1, 1], "to": [1, 1], "radius": 1, "friction": 0.5, "elasticity": 0.5}]}
            """, "two.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["validate", path])
        #expect(result.status == 65)
        #expect(result.stdout.split(separator: "\n").map { String($0.dropFirst(path.count + 1)) } == [
            "2: crates[0].mass: must be > 0, got -5",
            "2: crates[0].elasticity: must be in 0...1, got 2.5",
            "3: crates[1].mass: is missing",
            "4: walls[0].to: a wall must have a length > 0, but from and to are both [1, 1]",
        ])
    }

    /// Links as outputs follow one rule, `--out` included: refused with 64 before any work,
    /// whatever they point to (README, "Output files").
    @Test func anOutDirectoryThatIsADanglingLinkSaysSo() throws {
        let link = Self.temporary("dangling")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent/target")
        defer { try? FileManager.default.removeItem(atPath: link) }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--out", link])
        #expect(result.status == 64 && result.stderr.contains("--out \(link) is a symbolic link whose target does not exist; CrateDrop does not write through links"))
        #expect(FileManager.default.fileExists(atPath: "/nonexistent/target") == false)
    }

    @Test func anOutLinkToAFolderIsRefusedAndNothingIsWrittenThere() throws {
        let folder = Self.temporary("folder"), link = Self.temporary("link")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder)
        defer { for path in [folder, link] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.1", "--out", link, "--quiet"])
        #expect(result.status == 64 && result.stderr.contains("--out \(link) is a symbolic link; CrateDrop does not write through links"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test(arguments: [
        (["--trace", "X.jsonl", "--record", "X.jsonl"], "--trace X.jsonl and --record X.jsonl name the same file"),
        (["--summary", "X.json", "--record", "sub/../X.json"], "--summary X.json and --record sub/../X.json name the same file"),
        (["--summary", "X.jsonl", "--trace", "X.jsonl"], "--summary X.jsonl and --trace X.jsonl name the same file"),
        (["--summary", "F/frame-00001.ppm", "--out", "F"], "--summary F/frame-00001.ppm is inside the frames folder --out F"),
    ])
    func twoOutputsOnOneFileAreRefusedBeforeAnythingIsWritten(options: [String], message: String) throws {
        let folder = Self.temporary("outputs")
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let absolute = options.map { $0.hasPrefix("-") ? $0 : "\(folder)/\($0)" }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.5", "--quiet"] + absolute)
        #expect(result.status == 64 && result.stderr.contains(message.replacingOccurrences(of: " X", with: " \(folder)/X")
            .replacingOccurrences(of: " sub/", with: " \(folder)/sub/").replacingOccurrences(of: " F", with: " \(folder)/F")), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["sub"])
    }
}
