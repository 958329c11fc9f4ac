import Foundation
import SceneModel
import TestSupport
import Testing

@Suite struct RenderOutputTests {
    static let goldenDirectory = Repository.path("Tests/CLITests/Golden")

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-frames-\(UUID().uuidString)").path
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func fnv(_ bytes: [UInt8]) -> String {
        var hasher = FNV1a64()
        for byte in bytes { hasher.combine(byte: byte) }
        return StateHash(value: hasher.value).description
    }

    /// Frames 1 and 60 of the book scene at 120x120, compared with the checked-in PPMs
    /// (README of Golden/ says how they were made). RECORD_GOLDEN=1 rewrites them and fails.
    @Test func bookFramesMatchTheGoldenImages() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--size", "120x120", "--out", directory])
        #expect(result.status == 0)
        for frame in ["frame-00001.ppm", "frame-00060.ppm"] {
            let rendered = try Self.bytes("\(directory)/\(frame)")
            let goldenPath = GoldenFile.path(directory: Self.goldenDirectory, determinismClass: CLI.determinismClass,
                                             name: "book-120x120-\(frame)")
            if GoldenFile.isRecording {
                try FileManager.default.createDirectory(atPath: (goldenPath as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try Data(rendered).write(to: URL(fileURLWithPath: goldenPath))
                Issue.record("Recorded \(goldenPath); run again without RECORD_GOLDEN")
                continue
            }
            guard FileManager.default.fileExists(atPath: goldenPath) else {
                throw GoldenFile.MissingGolden(path: goldenPath, determinismClass: CLI.determinismClass)
            }
            let golden = try Self.bytes(goldenPath)
            #expect(Self.fnv(rendered) == Self.fnv(golden), "\(frame) differs from \(goldenPath)")
        }
    }

    @Test func everyFrameOfAShortRunIsACompletePPM() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.5", "--fps", "30", "--size", "64x48",
                                  "--every", "2", "--out", directory])
        #expect(result.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files == (1...7).map { "frame-0000\($0).ppm" })  // frames 2, 4, ..., 14 of 15
        for file in files {
            let image = try PPMImage.readFile(try Self.bytes("\(directory)/\(file)"))
            #expect(image.width == 64 && image.height == 48)
        }
        let summary = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
        #expect(summary.number("frames") == 15)
    }

    /// Drawing never changes the physics: files, stream, headless and `hash` agree.
    @Test func renderedRunsHaveTheSameStateHashAsHeadlessOnes() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let toFiles = try CLI.run(["run", "Scenes/book.json", "--seconds", "2", "--size", "60x60", "--out", directory])
        let toStream = try CLI.run(["run", "Scenes/book.json", "--seconds", "2", "--size", "60x60", "--out", "-"])
        let headless = try CLI.run(["run", "Scenes/book.json", "--seconds", "2"])
        let hash = try CLI.run(["hash", "Scenes/book.json", "--seconds", "2"])
        #expect([toFiles.status, toStream.status, headless.status, hash.status] == [0, 0, 0, 0])
        let fileHash = try JSONFields(toFiles.stdout.trimmingCharacters(in: .newlines)).string("state_hash")
        // With --out -, stdout carries only frames; the summary goes to stderr.
        let streamHash = try JSONFields(toStream.stderr.trimmingCharacters(in: .newlines)).string("state_hash")
        let headlessHash = try JSONFields(headless.stdout.trimmingCharacters(in: .newlines)).string("state_hash")
        #expect(fileHash != nil && fileHash == streamHash && streamHash == headlessHash)
        #expect(hash.stdout == "240 \(headlessHash!)\n")
        let frames = try PPMImage.readStream(Array(toStream.stdoutBytes))
        #expect(frames.count == 120)
        let fromFile = try PPMImage.readFile(try Self.bytes("\(directory)/frame-00120.ppm"))
        #expect(frames.last == fromFile)
    }

    @Test func summaryCanGoToAFile() throws {
        let path = Self.temporaryDirectory() + ".json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.1", "--out", "-", "--size", "8x8", "--summary", path])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let summary = try JSONFields(String(decoding: try Self.bytes(path), as: UTF8.self).trimmingCharacters(in: .newlines))
        #expect(summary.number("steps") == 12)
    }

    /// One overwrite rule: a directory that holds anything needs --force, which removes the old
    /// frame files (and only those) before the new frames are written.
    @Test func writingIntoAFolderThatIsNotEmptyNeedsForce() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let arguments = ["run", "Scenes/book.json", "--seconds", "0.1", "--size", "8x8", "--out", directory]
        #expect(try CLI.run(arguments).stderr.isEmpty)
        let again = try CLI.run(arguments)
        #expect(again.status == 73 && again.stdout.isEmpty)
        #expect(again.stderr == "cratedrop: \(directory) already holds 6 frame files; pass --force to replace them (it removes earlier frame files only)\n")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(directory)/notes.txt"))
        try Data().write(to: URL(fileURLWithPath: "\(directory)/frame-09999.png"))
        let shorter = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.05", "--size", "8x8", "--out", directory, "--force"])
        #expect(shorter.status == 0, "\(shorter.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            == ["frame-00001.ppm", "frame-00002.ppm", "frame-00003.ppm", "notes.txt"])

        let other = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: other) }
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(other)/notes.txt"))
        let notEmpty = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.05", "--size", "8x8", "--out", other])
        #expect(notEmpty.status == 73)
        #expect(notEmpty.stderr == "cratedrop: \(other) is not empty; pass --force to write frames into it (it removes earlier frame files only)\n")
    }

    /// A real-time run presents the slots of an offline run (k/fps, k >= 1) and no more: each
    /// slot written or counted skipped. Its loop's frames (the summary's `frames`) are at most the
    /// slots: a frame that runs late is not made up for, its slot joins the next (`WallFrameClock`;
    /// 29 of 30 seen with two busy loops beside it), where an offline run has every one.
    @Test func realTimeRunsOfferEachOfflineSlotOnce() throws {
        var counts: [Int] = []
        for mode in [[], ["--realtime"]] {
            let directory = Self.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.5", "--size", "8x8", "--out", directory, "--quiet"] + mode)
            #expect(result.status == 0, "\(result.stderr)")
            let summary = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
            let frames = summary.number("frames") ?? -1
            #expect(mode.isEmpty ? frames == 30 : (1...30).contains(frames), "\(mode): \(frames) frames")
            // Real time offers each slot once; a frame offered while the writer was still busy is
            // skipped and counted (a loaded machine), never written twice or made up.
            let render = try summary.object("render")
            let written = render.number("frames_written") ?? -1
            #expect(written + (render.number("frames_skipped") ?? -1) == 30)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == Int(written))
            counts.append(Int(written))
        }
        #expect(counts[0] == 30 && counts[1] <= 30, "\(counts)")
    }

    /// `--out FILE.png` keeps one frame: the last (or the one at --at), pixel for pixel the frame
    /// a directory run writes at that time.
    @Test func aStillImageIsTheLastFrameOrTheOneAtAGivenTime() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--size", "64x64", "--out", directory, "--quiet"]).status == 0)
        let end = directory + "-end.png", early = directory + "-early.png"
        defer {
            try? FileManager.default.removeItem(atPath: end)
            try? FileManager.default.removeItem(atPath: early)
        }
        let last = try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--size", "64x64", "--out", end, "--quiet"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try JSONFields(last.stdout.trimmingCharacters(in: .newlines)).object("render").number("frames_written") == 1)
        #expect(try VideoProbe.rgbFrame(end) == PPMImage.readFile(try Self.bytes("\(directory)/frame-00060.ppm")).pixels)
        let at = try CLI.run(["run", "Scenes/book.json", "--size", "64x64", "--out", early, "--at", "0.25", "--quiet"])
        #expect(at.status == 0, "\(at.stderr)")
        #expect(try JSONFields(at.stdout.trimmingCharacters(in: .newlines)).number("steps") == 30)
        #expect(try VideoProbe.rgbFrame(early) == PPMImage.readFile(try Self.bytes("\(directory)/frame-00015.ppm")).pixels)
        let again = try CLI.run(["run", "Scenes/book.json", "--size", "64x64", "--out", early, "--at", "0.25"])
        #expect(again.status == 73 && again.stderr == "cratedrop: \(early) already exists; pass --force to replace it\n")
        #expect(try CLI.run(["run", "Scenes/book.json", "--size", "64x64", "--out", early, "--at", "0.5", "--force", "--quiet"]).status == 0)
        #expect(try VideoProbe.rgbFrame(early) == PPMImage.readFile(try Self.bytes("\(directory)/frame-00030.ppm")).pixels)
    }

    @Test(arguments: [
        (["--out", "x.png", "--at", "11"], "--at 11 is past the run's end (--seconds 10)"),
        (["--out", "frames", "--at", "1"], "--at picks the frame of a still image: give --out FILE.png"),
        (["--out", "x.png", "--at", "-1"], "--at must be a decimal number of seconds > 0"),
        (["--out", "x.png", "--every", "2"], "--every is not for a still image"),
    ] as [([String], String)])
    func stillImageOptionsAreChecked(arguments: [String], message: String) throws {
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "10"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aMissingParentDirectoryExits73() throws {
        let result = try CLI.run(["run", "Scenes/book.json", "--out", "/nonexistent/frames"])
        #expect(result.status == 73)
        #expect(result.stderr == "cratedrop: /nonexistent/frames: cannot create it: its parent directory does not exist\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func aFullDiskEndsTheRunWithExit74() throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["run", "Scenes/book.json", "--seconds", "1", "--size", "32x32", "--out", "-"]
        process.currentDirectoryURL = Repository.root
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74)
        #expect(stderr.contains("cratedrop: stdout: No space left on device; 0 complete frames were written before it"))
        // The summary still comes out, on stderr, naming the error.
        #expect(stderr.contains("\"error\":\"stdout: No space left on device\""))
    }

    @Test func aClosedPipeEndsTheRunWithExit74() throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["run", "Scenes/book.json", "--seconds", "10", "--size", "64x64", "--out", "-"]
        process.currentDirectoryURL = Repository.root
        let frames = Pipe(), errors = Pipe()
        process.standardOutput = frames
        process.standardError = errors
        try process.run()
        // Read one frame's worth, then hang up like `head -c` would.
        _ = frames.fileHandleForReading.readData(ofLength: 64 * 64 * 3)
        try frames.fileHandleForReading.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74)
        #expect(stderr.contains("cratedrop: stdout: the reader closed the pipe (Broken pipe)"))
    }

    /// Ctrl-C during a real-time render: exit 130, and every frame file on disk is complete.
    @Test func framesOfAnInterruptedRunAreAllComplete() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["run", "Scenes/pile-100.json", "--realtime", "--seconds", "60", "--size", "320x320", "--out", directory]
        process.currentDirectoryURL = Repository.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        // Wait until frames are being written, then interrupt mid-run.
        for _ in 0..<2000 where !FileManager.default.fileExists(atPath: "\(directory)/frame-00005.ppm") { usleep(5000) }
        kill(process.processIdentifier, SIGINT)
        let summaryText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files.count >= 5 && files.allSatisfy { $0.hasPrefix("frame-") && $0.hasSuffix(".ppm") })
        for file in files {
            let image = try PPMImage.readFile(try Self.bytes("\(directory)/\(file)"))
            #expect(image.width == 320)
        }
        #expect(try JSONFields(summaryText.trimmingCharacters(in: .newlines)).string("interrupted") == "SIGINT")
    }

    /// A second Ctrl-C soon after the first only repeats the request: the frame being written is
    /// finished, the summary printed, no temporary file left behind.
    @Test(.timeLimit(.minutes(3)))
    func aSecondSignalStillFinishesTheRun() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["run", "Scenes/book.json", "--realtime", "--seconds", "60", "--size", "2048x2048", "--out", directory, "--quiet"]
        process.currentDirectoryURL = Repository.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        for _ in 0..<4000 where !FileManager.default.fileExists(atPath: "\(directory)/frame-00002.ppm") { usleep(5000) }
        kill(process.processIdentifier, SIGINT)
        kill(process.processIdentifier, SIGINT)
        let summaryText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(try JSONFields(summaryText.trimmingCharacters(in: .newlines)).string("interrupted") == "SIGINT")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.count >= 2 && files.allSatisfy { $0.hasPrefix("frame-") && $0.hasSuffix(".ppm") }, "\(files)")
    }

    @Test(arguments: [
        (["run", "Scenes/book.json", "--out", "f", "--size", "0x10"], "--size must be WIDTHxHEIGHT with each side in 1...16384"),
        (["run", "Scenes/book.json", "--out", "f", "--size", "big"], "--size must be WIDTHxHEIGHT"),
        (["run", "Scenes/book.json", "--out", "f", "--every", "0"], "--every must be >= 1, got 0"),
        (["run", "Scenes/book.json", "--size", "10x10"], "--size, --every, --view-rect and --overlay need --out or --view"),
    ])
    func badRenderOptionsExit64(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64 && result.stderr.contains(message))
    }
}
