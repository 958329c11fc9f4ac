import Foundation
import SceneModel
import TestSupport
import Testing

@Suite struct GravityStreamTests {
    static let goldenDirectory = Repository.path("Tests/CLITests/Golden")
    static let tiltArguments = ["hash", "Scenes/book.json", "--seconds", "8", "--every", "240"]

    static func tiltBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/tilt.jsonl"))) }

    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-\(UUID().uuidString)\(suffix)").path
    }

    @Test func tiltStreamMatchesTheGoldenHash() throws {
        let result = try CLI.run(Self.tiltArguments + ["--gravity", "Scenes/tilt.jsonl"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let found = result.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (key: String(parts[0]), value: String(parts[1]))
        }
        let golden = try GoldenFile(directory: Self.goldenDirectory, determinismClass: CLI.determinismClass,
                                    name: "tilt-hashes.txt")
        if GoldenFile.isRecording {
            try golden.record(found)
            Issue.record("Recorded \(golden.path); run again without RECORD_GOLDEN")
            return
        }
        #expect(found.count == 4 && golden.values.count == 4)
        for (step, hash) in found { #expect(golden.value(step) == hash, "step \(step)") }
        // The stream really tilts the world: without it the hash differs.
        let still = try CLI.run(Self.tiltArguments)
        #expect(still.stdout.split(separator: "\n").last != result.stdout.split(separator: "\n").last)
    }

    @Test func fileStdinAndAChunkedPipeGiveTheSameHash() throws {
        let fromFile = try CLI.run(Self.tiltArguments + ["--gravity", "Scenes/tilt.jsonl"])
        let fromStdin = try CLI.run(Self.tiltArguments + ["--gravity", "-"], input: try Self.tiltBytes())
        #expect(fromStdin.status == 0 && fromStdin.stdout == fromFile.stdout)

        // A named pipe fed in random-sized bursts, each drained before the next: offline runs wait for what they need.
        let fifo = Self.temporaryPath(".fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let bytes = Array(try Self.tiltBytes())
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            var random = SplitMix64(seed: 5)
            var index = 0
            while index < bytes.count {
                let size = 1 + Int(random.next() % 17)
                let end = min(index + size, bytes.count)
                _ = bytes[index..<end].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                index = end
                // A burst ends when the reader has drained it (it then waits for more), a
                // condition checked instead of a pause; bounded, in case the reader is gone.
                var unread: Int32 = 1
                for _ in 0..<1_000_000 where ioctl(fd, UInt(FIONREAD), &unread) == 0 && unread > 0 { sched_yield() }
            }
            close(fd)
        }
        writer.start()
        let fromPipe = try CLI.run(Self.tiltArguments + ["--gravity", fifo])
        #expect(fromPipe.status == 0 && fromPipe.stdout == fromFile.stdout)
    }

    /// A live real-time run fed through a pipe records what it applied; replaying the record
    /// offline for the same number of steps gives the same hash, bit for bit.
    @Test func recordOfARealTimeRunReplaysToTheSameHash() throws {
        let record = Self.temporaryPath(".jsonl")
        defer { try? FileManager.default.removeItem(atPath: record) }
        let process = Process()
        process.executableURL = CLI.executable
        // 3 s of run for 0.6 s of input: room for a loaded machine.
        process.arguments = ["run", "Scenes/book.json", "--realtime", "--seconds", "3", "--gravity", "-", "--record", record]
        process.currentDirectoryURL = Repository.root
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        for i in 0..<10 {
            input.fileHandleForWriting.write(Data("{\"gravity\": [\(i * 150 - 700), -1000]}\n".utf8))
            usleep(60_000)
        }
        try input.fileHandleForWriting.close()
        let summary = try JSONFields(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .newlines))
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let steps = Int(try #require(summary.number("steps")))
        let hash = try #require(summary.string("state_hash"))
        let recorded = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        let changes = recorded.filter { $0.contains("\"gravity\"") }
        #expect(changes.count == 10)
        #expect(changes.allSatisfy { $0.hasPrefix("{\"step\":") })
        let replay = try CLI.run(["hash", "Scenes/book.json", "--steps", String(steps), "--gravity", record])
        #expect(replay.stdout == "\(steps) \(hash)\n")
        // The record is self-contained: it replays and verifies without the scene file.
        let verified = try CLI.run(["replay", record, "--verify"])
        #expect(verified.status == 0)
        #expect(try JSONFields(verified.stdout.trimmingCharacters(in: .newlines)).string("state_hash") == hash)
    }

    @Test(arguments: [
        ("{\"t\": 1, \"gravity\": [0, -1000]}\n\n{\"t\": 2, \"gravity\": [0]}\n", "3: gravity must be an array of two numbers [x, y]"),
        ("{\"t\": 1, \"gravity\": [0, -1000]}\r\n{\"t\": 0.5, \"gravity\": [0, 1]}\r\n", "2: t goes backwards: 0.5 after 1"),
        ("{\"step\": -1, \"gravity\": [0, 1]}", "1: step must be >= 0, got -1"),
        ("{\"t\": 1, \"gravity\": [0, 1e400]}\n", "1: gravity must be finite numbers within ±1000000, got [0.0, inf]"),
        ("{\"t\": 1}\n", "1: needs \"gravity\": [x, y], \"accel\": [ax, ay, az] or \"body\": ID with what to do to it"),
        ("{\"t\": 1, \"gravity\": [0, 1]}\nnot json\n", "2: invalid JSON at column 2: unexpected 'o', expected 'null'"),
        ("{\"gravity\": [0, 1]}\n", "1: a line without \"t\" or \"step\" applies when read, which only a --realtime run can do"),
        (String(repeating: " ", count: (1 << 20) + 1) + "\n", "1: line longer than 1 MiB"),
    ])
    func aMalformedLineStopsTheRunAfterItsFramesAndSummary(stream: String, message: String) throws {
        let directory = Self.temporaryPath("")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "3", "--size", "16x16", "--out", directory, "--gravity", "-"],
                                 input: Data(stream.utf8))
        #expect(result.status == 65)
        #expect(result.stderr.contains("cratedrop: stdin:\(message)\n"))
        let summary = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
        let steps = Int(try #require(summary.number("steps")))
        #expect(steps < 360)
        let frames = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(frames.count == Int(summary.number("frames")!))
        for frame in frames { _ = try PPMImage.readFile(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(frame)")))) }
    }

    @Test func skipPolicyWarnsCountsAndGoesOn() throws {
        let stream = "{\"t\": 0.5, \"gravity\": [-1000, 0]}\nbroken\n{\"t\": 1, \"gravity\": [1000, 0]}\n"
        let result = try CLI.run(["run", "Scenes/book.json", "--seconds", "2", "--gravity", "-", "--on-bad-line", "skip"],
                                 input: Data(stream.utf8))
        #expect(result.status == 0)
        #expect(result.stderr == "cratedrop: warning: skipped stdin:2: invalid JSON at column 1: unexpected 'b', expected a value\n")
        let summary = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
        #expect(summary.number("steps") == 240)
        let gravity = try #require(summary.members.first { $0.key == "gravity" }?.value)
        guard case let .object(fields) = gravity.kind else {
            Issue.record("gravity is not an object")
            return
        }
        #expect(fields.first { $0.key == "lines_skipped" }?.value.kind == .number(1, literal: "1"))
        #expect(fields.first { $0.key == "changes_applied" }?.value.kind == .number(2, literal: "2"))
    }

    @Test func aProducerThatClosesEarlyLeavesGravityAtItsLastValue() throws {
        // Gravity flips up at 0.5 s and the stream ends: the rest of the run keeps it.
        let flipped = try CLI.run(["hash", "Scenes/book.json", "--seconds", "3", "--gravity", "-"],
                                  input: Data("{\"t\": 0.5, \"gravity\": [0, 1000]}".utf8))
        #expect(flipped.status == 0)
        let dump = try CLI.run(["hash", "Scenes/book.json", "--seconds", "3", "--gravity", "-", "--dump"],
                               input: Data("{\"t\": 0.5, \"gravity\": [0, 1000]}".utf8))
        // The crates end up against the ceiling (y near 300), not the floor.
        let ys = dump.stdout.matches(of: /"y":([-0-9.e]+)/).map { Double(String($0.1))! }
        #expect(ys.count == 5 && ys.allSatisfy { $0 > 200 })
    }

    /// An offline run waiting for a silent producer still ends cleanly on Ctrl-C.
    @Test func ctrlCEndsAnOfflineRunWaitingForInput() throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["run", "Scenes/book.json", "--gravity", "-"]
        process.currentDirectoryURL = Repository.root
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        input.fileHandleForWriting.write(Data("{\"step\": 30, \"gravity\": [0, 1000]}\n".utf8))
        var ready = false
        for _ in 0..<2000 where !ready {
            ready = RunCommandTests.stopHandlersInstalled(pid: process.processIdentifier)
            if !ready { usleep(5000) }
        }
        #expect(ready)
        kill(process.processIdentifier, SIGINT)
        let summary = try JSONFields(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .newlines))
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 130)
        #expect(summary.string("interrupted") == "SIGINT")
        // However far it got when the signal came, it never passes step 30: there it applies the
        // line it has and waits for the next one, which never comes.
        #expect(summary.number("steps").map { $0 <= 30 } == true)
    }

    @Test func recordingOverTheInputIsRefused() throws {
        let path = Self.temporaryPath(".jsonl")
        try Self.tiltBytes().write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLI.run(["run", "Scenes/book.json", "--gravity", path, "--record", path])
        #expect(result.status == 64 && result.stderr.contains("--record \(path) would overwrite the --gravity input (\(path)), which this command reads"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.tiltBytes())
    }

    @Test func aMissingGravityFileExits66() throws {
        let result = try CLI.run(["run", "Scenes/book.json", "--gravity", "Scenes/none.jsonl"])
        #expect(result.status == 66 && result.stderr == "cratedrop: Scenes/none.jsonl: No such file or directory\n")
    }
}
