import Foundation
import TestSupport
import Testing

@Suite struct RunCommandTests {
    static let summaryKeys = ["scene", "mode", "fps", "step_rate", "interpolation", "frames", "steps", "simulated_seconds",
                              "dropped_steps", "dropped_seconds", "debt_steps", "frames_capped", "running_slowly", "ran_slowly",
                              "peak_physics_load", "load_warning", "step_time_us", "physics_seconds", "frame_interval_us", "wall_seconds",
                              "state_hash", "determinism_class", "render", "gravity", "interrupted", "trace", "stats"]

    @Test(arguments: [24, 60, 1000])
    func offlineRunPrintsOneSummaryLineWithTheSameHashAsHash(fps: Int) throws {
        let run = try CLI.run(["run", "Scenes/book.json", "--seconds", "10", "--fps", String(fps)])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let summary = try JSONFields(String(lines[0]))
        #expect(summary.keys == Self.summaryKeys)
        #expect(summary.string("scene") == "book" && summary.string("mode") == "offline")
        #expect(summary.number("steps") == 1200 && summary.number("frames") == Double(10 * fps))
        #expect(summary.number("simulated_seconds") == 10 && summary.number("dropped_seconds") == 0)
        #expect(summary.isNull("interrupted") && summary.isNull("render"))
        #expect(summary.string("determinism_class") == CLI.determinismClass)
        let hash = try CLI.run(["hash", "Scenes/book.json", "--seconds", "10"])
        #expect(hash.stdout == "1200 \(summary.string("state_hash")!)\n")
    }

    @Test(arguments: [
        (["run", "Scenes/book.json", "--fps", "0"], "--fps must be in 1...10000, got 0"),
        (["run", "Scenes/book.json", "--seconds", "0"], "--seconds must be a decimal number of seconds > 0"),
        (["run", "Scenes/book.json", "--budget-ms", "0"], "--budget-ms must be in (0, 60000], got 0.0"),
    ])
    func badUsageExits64(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message))
        #expect(result.stdout.isEmpty)
    }

    /// Physics slower than the time it simulates holds back a real-time run only: an offline run
    /// says so in its summary, not with the real-time warning on stderr. Here 40 crates stacked
    /// on the floor from the start, solved with 1,000 iterations a step at 1,000 steps a second:
    /// each millisecond step takes several (about 3 ms in a debug build), on any machine.
    @Test(.timeLimit(.minutes(3))) func anOfflineRunDoesNotWarnOfRealTimeLoad() throws {
        let out = SavedStateCommandTests.temporary("load-frames"), scene = SavedStateCommandTests.temporary("load-stack.json")
        defer { for path in [out, scene] { try? FileManager.default.removeItem(atPath: path) } }
        let crates = (0..<40).map { #"{"center": [\#(40 + $0 % 4 * 30), \#(11 + $0 / 4 * 20)], "size": [20, 20], "mass": 1}"# }
        try (#"{"world": [200, 220], "gravity": [0, -1000], "step_rate": 1000, "iterations": 1000, "bounds": {"radius": 1}, "crates": ["#
            + crates.joined(separator: ", ") + "]}").write(toFile: scene, atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", scene, "--seconds", "1.1", "--fps", "10", "--size", "64x64", "--out", out, "--format", "png"])
        #expect(run.status == 0 && run.stdout.contains(#""load_warning":true"#), "\(run.stdout)")
        #expect(!run.stderr.contains("falls behind"), "\(run.stderr)")
    }

    @Test func missingSceneExits66() throws {
        let result = try CLI.run(["run", "Scenes/none.json"])
        #expect(result.status == 66 && result.stderr == "cratedrop: Scenes/none.json: No such file or directory\n")
    }

    /// Ctrl-C (or SIGTERM) ends a real-time run at a frame boundary: exit 128 + signal, the summary still printed.
    @Test(arguments: [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")])
    func aSignalEndsTheRunCleanlyWithASummary(signal: Int32, name: String) throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["run", "Scenes/book.json", "--realtime", "--seconds", "60"]
        process.currentDirectoryURL = Repository.root
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Wait, without sleeping blind, until the process has its handlers for all three installed.
        var ready = false
        for _ in 0..<2000 where !ready {
            ready = Self.stopHandlersInstalled(pid: process.processIdentifier)
            if !ready { usleep(5000) }
        }
        #expect(ready)
        kill(process.processIdentifier, signal)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal)
        let summary = try JSONFields(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .newlines))
        #expect(summary.string("interrupted") == name)
        #expect(summary.number("steps")! < 60 * 120)
        #expect(String(decoding: errors, as: UTF8.self).hasPrefix("cratedrop: stopped by \(name) after "))
    }

    /// Whether process `pid` is the `cratedrop` under test and catches SIGINT, SIGTERM and SIGHUP
    /// (the caught-signals mask in /proc). It installs them one after the other, so a test that
    /// sends SIGTERM waits for SIGTERM's too; and a process not yet exec'd would show its parent's
    /// handlers (Foundation's Process uses posix_spawn, which returns after the exec, so the pid is
    /// cratedrop's at once; checked anyway, as scripts/audit must after a shell's `&`).
    static func stopHandlersInstalled(pid: Int32) -> Bool {
        // The binary under test, by its path (links resolved): a rebuild that replaces the file
        // leaves the path, with " (deleted)" after it.
        guard let resolved = realpath(CLI.executable.path, nil) else { return false }
        let built = String(cString: resolved)
        free(resolved)
        guard var exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe") else { return false }
        if exe.hasSuffix(" (deleted)") { exe.removeLast(" (deleted)".count) }
        guard exe == built,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return [SIGINT, SIGTERM, SIGHUP].allSatisfy { mask & (1 << (UInt64($0) - 1)) != 0 }
    }
}
