import Foundation
import TestSupport
import Testing

/// `run --out FILE.mp4` and friends from the command line: the bad inputs, and Ctrl-C.
@Suite struct VideoOutputTests {
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("video-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aMissingFFmpegIsExit69BeforeAnyWork() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["run", "Scenes/book.json", "--out", "\(directory)/x.mp4"], environment: ["PATH": directory])
        #expect(result.status == 69)
        #expect(result.stderr.contains("ffmpeg is not installed (or not on PATH)") && result.stderr.contains("apt-get install ffmpeg"))
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func anExistingVideoNeedsForce() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/x.mp4"
        try #require(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
        let refused = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.5", "--out", path])
        #expect(refused.status == 73 && refused.stderr.contains("\(path) already exists; pass --force to replace it"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("keep".utf8))
        let forced = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.5", "--out", path, "--force", "--quiet"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try VideoProbe(path).frames == 30)
    }

    @Test func viewWithoutADisplayExits69AndSaysWhatToDoInstead() throws {
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.5", "--view"],
                                 environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_VIDEODRIVER": ""])
        #expect(result.status == 69 && result.stdout.isEmpty)
        #expect(result.stderr == "cratedrop: --view needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is set: write a video "
            + "instead (--out out/run.mp4), or watch in a browser (cratedrop serve SCENE)\n")
    }

    /// A stand-in ffplay that fails as ffplay does without a usable display: its words reach the
    /// user, the command exits 69, and no window is said to have closed. One that reads some
    /// frames and exits quietly is a window the user closed: the run stops there, exit 0.
    @Test(arguments: [
        ("echo 'Could not initialize SDL - No available video device' >&2; exit 1", Int32(69),
         "cratedrop: ffplay: could not show the frames: Could not initialize SDL - No available video device\n"),
        ("head -c 270000 > /dev/null; exit 0", Int32(0), "cratedrop: the viewer window was closed after "),
    ] as [(String, Int32, String)])
    func aViewerThatFailsIsNotAWindowClosed(script: String, status: Int32, message: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fake = "\(directory)/ffplay"
        try "#!/bin/sh\n\(script)\n".write(toFile: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "2", "--view", "--quiet"],
                                 environment: ["PATH": "\(directory):/usr/bin:/bin", "DISPLAY": ":0"])
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stderr.contains("closed") == (status == 0))
    }

    /// The WebM default keeps every frame close to the drawn one: PSNR (ffmpeg's psnr filter, RGB,
    /// frames paired by index) of each frame of the book scene's first second against the PPM
    /// frames of the same run. Measured: 41.0 dB at least with -crf 10, 37.6 with the old -crf 32
    /// (docs/outputs.md, "WebM quality", has every shipped scene).
    @Test func webmFramesStayCloseToTheDrawnFrames() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let video = "\(directory)/book.webm", frames = "\(directory)/frames", log = "\(directory)/psnr.log"
        #expect(try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--out", video, "--quiet"]).status == 0)
        #expect(try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--out", frames, "--quiet"]).status == 0)
        let graph = "[1:v]format=rgb24,settb=1/60,setpts=N[drawn];[0:v]format=rgb24,settb=1/60,setpts=N[coded];"
            + "[coded][drawn]psnr=stats_file=\(log):shortest=1"
        let measured = try CLI.tool("ffmpeg", ["-v", "error", "-i", video, "-framerate", "60", "-i", "\(frames)/frame-%05d.ppm",
                                               "-lavfi", graph, "-f", "null", "-"])
        #expect(measured.status == 0, "\(measured.stderr)")
        let values = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }.flatMap { Double($0.dropFirst("psnr_avg:".count)) }
        }
        #expect(values.count == 60)
        #expect((values.min() ?? 0) >= 39, "lowest frame PSNR \(values.min() ?? 0) dB")
    }

    /// A GIF without --fps plays at 50 frames per second (its delays are whole hundredths).
    @Test func aGIFWithoutFPSIsMadeAt50() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/crates.gif"
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.4", "--size", "64x64", "--out", path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try JSONFields(result.stdout.trimmingCharacters(in: .newlines)).number("fps") == 50)
        let probe = try VideoProbe(path)
        #expect(probe.frameRate == "50/1" && probe.frames == 20)
    }

    /// An offline video's encoder is the bottleneck: the step loop (the main thread) and the
    /// drawing thread give way to it (nice +10), the thread that hands it frames does not. A
    /// stand-in ffmpeg reads the threads' nice values from /proc while the run feeds it.
    @Test(.timeLimit(.minutes(3)))
    func anOfflineVideoGivesWayToTheEncoderExceptTheFrameWriter() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // After the first frame, list the nice value of its parent's main thread, then of each of
        // its threads (field 19 of stat, counted after the command name's closing parenthesis),
        // then drain the rest.
        let script = """
            #!/bin/sh
            head -c 100000 > /dev/null
            niceness() { sed 's/.*) //' "$1" | cut -d' ' -f17; }
            { niceness /proc/$PPID/stat; for task in /proc/$PPID/task/*; do niceness "$task/stat"; done; } > "\(directory)/threads"
            cat > /dev/null
            """
        let fake = "\(directory)/ffmpeg"
        try script.write(toFile: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "2", "--size", "320x240", "--out", "\(directory)/x.mp4", "--quiet"],
                                 environment: ["PATH": "\(directory):/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        let values = try String(contentsOfFile: "\(directory)/threads", encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        try #require(values.count >= 4, "\(values)")
        let base = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        let lowered = min(19, base + 10)
        let (main, threads) = (values[0], values.dropFirst())
        #expect(main == lowered, "the step loop: \(values)")
        // The main thread and the drawing thread; the writer (and ffmpeg's stderr reader) not.
        #expect(threads.filter { $0 == lowered }.count >= 2 && threads.contains(base), "\(values)")
    }

    /// A refused video output is found before the data files are opened: an existing trace keeps
    /// what it held.
    @Test func aRefusedVideoLeavesAnExistingTraceAlone() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let video = "\(directory)/x.mp4", trace = "\(directory)/t.csv"
        try #require(FileManager.default.createFile(atPath: video, contents: Data("keep".utf8)))
        try #require(FileManager.default.createFile(atPath: trace, contents: Data("earlier trace".utf8)))
        let refused = try CLI.run(["run", "Scenes/book.json", "--out", video, "--trace", trace])
        #expect(refused.status == 73 && refused.stderr.contains("already exists; pass --force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == Data("earlier trace".utf8))
    }

    @Test(arguments: [
        (["--out", "x.avi"], 64, "--out x.avi: CrateDrop does not write .avi files"),
        (["--out", "x.mp4", "--size", "301x300"], 64, ".mp4 needs even frame sides (its colour planes are half size), got 301x300: try --size 302x300"),
        (["--out", "x.gif", "--fps", "60"], 64, "--fps must divide 100 and be at most 50"),
        (["--out", "/nonexistent/x.mp4"], 73, "/nonexistent/x.mp4: cannot create it: No such file or directory"),
        (["--out", "/proc/x.mp4"], 73, "/proc/x.mp4: cannot create it:"),
        (["--out", "-", "--force"], 64, "--force and --encoder-args are for files; --out - streams frames to stdout"),
        (["--out", "frames", "--encoder-args", "-crf 1"], 64, "--encoder-args is for video files"),
        (["--out", "x.mp4", "--format", "png"], 64, "--format is for frame directories"),
        (["--out", "-", "--format", "png"], 64, "--out - streams PPM frames"),
        (["--out", "x.mp4", "--view"], 64, "--view shows frames in a window; it cannot be combined with --out"),
        (["--out", "f", "--png-level", "10"], 64, "--png-level must be in 0...9, got 10"),
        (["--out", "x.mp4", "--encoder-args", "   "], 64, "--encoder-args needs ffmpeg options"),
        (["--force"], 64, "--format, --force, --encoder-args and --at need --out"),
        (["--out", "f", "--overlay", "aabb,boxes"], 64, "--overlay: unknown overlay 'boxes' (known: grid, sleeping, aabb, contacts, ids)"),
    ] as [([String], Int32, String)])
    func badOutputsAreRefusedBeforeAnyStep(arguments: [String], status: Int32, message: String) throws {
        let result = try CLI.run(["run", "Scenes/book.json"] + arguments)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func ffmpegsErrorIsShownAndTheRunEndsWith74() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "1", "--out", "\(directory)/x.mp4", "--quiet",
                                  "--encoder-args", "-c:v no-such-encoder"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("ffmpeg stopped (exit 1): Unknown encoder 'no-such-encoder'"), "\(result.stderr)")
        #expect(result.stderr.contains("no video was made"))
        #expect(try JSONFields(result.stdout.trimmingCharacters(in: .newlines)).object("render").string("error") != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    /// Ctrl-C during a video run: the summary, exit 130, and a playable video of every frame drawn.
    @Test(.timeLimit(.minutes(3)))
    func ctrlCStillLeavesAPlayableVideo() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/x.mp4"
        let process = Process()
        process.executableURL = CLI.executable
        // No encoder lookahead and a flush after each packet, so the file grows as frames arrive.
        process.arguments = ["run", "Scenes/book.json", "--gravity", "-", "--out", path, "--quiet", "--encoder-args",
                             "-c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -movflags +faststart -flush_packets 1"]
        process.currentDirectoryURL = Repository.root
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        // Steps 0...120 can run (60 frames); then the run waits for a line that never comes.
        input.fileHandleForWriting.write(Data("{\"step\": 120, \"gravity\": [0, 1000]}\n".utf8))
        // Wait, without sleeping blind, until encoded video reaches the temporary file.
        func encodedBytes() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.compactMap { try? FileManager.default.attributesOfItem(atPath: "\(directory)/\($0)")[.size] as? Int }.max() ?? 0
        }
        for _ in 0..<4000 where encodedBytes() < 2000 { usleep(5000) }
        kill(process.processIdentifier, SIGINT)
        let summaryText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 130)
        let summary = try JSONFields(summaryText.trimmingCharacters(in: .newlines))
        #expect(summary.string("interrupted") == "SIGINT")
        let written = try #require(try summary.object("render").number("frames_written"))
        let probe = try VideoProbe(path)
        #expect(written >= 10 && Double(probe.frames) == written)
        #expect(abs(probe.duration - written / 60) < 0.05)
    }
}

/// The live view's pacing, read where a viewer reads it: the real-time PPM stream on a pipe.
@Suite struct LivePacingTests {
    @Test(.timeLimit(.minutes(3)))
    func realtimeFramesArriveAtTheFrameRate() throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["run", "Scenes/pile-100.json", "--realtime", "--seconds", "3", "--fps", "30", "--size", "64x64",
                             "--out", "-", "--quiet"]
        process.currentDirectoryURL = Repository.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let frameBytes = "P6\n64 64\n255\n".utf8.count + 64 * 64 * 3
        var pending = 0
        var arrivals: [UInt64] = []
        // read(2), not FileHandle.read(upToCount:), which waits to fill its whole count.
        let fd = output.fileHandleForReading.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += count
            while pending >= frameBytes {
                pending -= frameBytes
                arrivals.append(DispatchTime.now().uptimeNanoseconds)
            }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(arrivals.count >= 85 && arrivals.count <= 92, "\(arrivals.count) frames")
        let intervals = zip(arrivals.dropFirst(), arrivals).map { Double($0 - $1) / 1e6 }.sorted()
        let median = intervals[intervals.count / 2]
        // 30 fps is 33.3 ms a frame; a machine this busy may jitter, never run at a different rate.
        #expect(abs(median - 33.33) < 5, "median interval \(median) ms")
        let total = Double(arrivals.last! - arrivals.first!) / 1e9
        #expect(abs(total - Double(arrivals.count - 1) / 30) < 0.25, "\(arrivals.count) frames over \(total) s")
    }
}

@Suite struct ViewRectOptionTests {
    @Test(arguments: [
        (["--view-rect", "0,0,100"], "--view-rect must be four numbers X0,Y0,X1,Y1"),
        (["--view-rect", "10,0,5,100"], "--view-rect 10,0,5,100: min must be below and left of max"),
        (["--view-rect", "0,0,nan,100"], "--view-rect 0,0,nan,100: must be finite numbers"),
    ])
    func badViewRectanglesAreRefused(arguments: [String], message: String) throws {
        let result = try CLI.run(["run", "Scenes/book.json", "--out", "f"] + arguments)
        #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
    }

    /// Framing the bottom-left quarter doubles the scale: a crate resting in that corner covers
    /// four times the pixels.
    @Test func aViewRectangleFramesPartOfTheWorld() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("view-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func crateCoverage(_ extra: [String]) throws -> Int {
            try? FileManager.default.removeItem(atPath: directory)
            let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "0.05", "--out", directory, "--size", "200x200", "--quiet",
                                      "--no-interpolation"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let image = try PPMImage.readFile(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/frame-00003.ppm"))))
            let background: [UInt8] = [0xf4, 0xef, 0xe6], wall: [UInt8] = [0x3c, 0x3c, 0x46]
            return stride(from: 0, to: image.pixels.count, by: 3).filter {
                let pixel = Array(image.pixels[$0..<$0 + 3])
                return pixel != background && pixel != wall
            }.count
        }
        let whole = try crateCoverage([])
        // The top-left quarter of the 300x300 world holds four of the five crates, all of them
        // inside it at the start.
        let quarter = try crateCoverage(["--view-rect", "0,150,150,300"])
        #expect(whole > 1000)
        #expect(Double(quarter) > 3.0 * Double(whole) * 0.8, "whole \(whole), quarter \(quarter)")
    }
}
