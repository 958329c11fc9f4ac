import ArgumentParser
import Foundation
import SceneModel

/// Counts instructions per step of both sides with valgrind's callgrind, which counts
/// instructions rather than time, so the figure repeats run after run on a busy machine.
enum InstructionCount {
    static func report(paths: [String], scenes: [Scene], warmup: Int, steps: Int, json: Bool) throws {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile) else {
            printError("cratedrop: bench --instructions needs valgrind (apt-get install valgrind)")
            throw ExitCodes.noInput
        }
        var entries: [String] = []
        for (path, scene) in zip(paths, scenes) {
            // Each side runs twice, `steps` and 2 × `steps` measured steps after the same warm-up;
            // the difference is exactly the instructions of steps warmup+steps+1 ... warmup+2×steps.
            func perStep(_ side: String, _ function: String) throws -> Double {
                let short = try count(valgrind: valgrind, scene: path, side: side, function: function, warmup: warmup, steps: steps)
                let long = try count(valgrind: valgrind, scene: path, side: side, function: function, warmup: warmup, steps: 2 * steps)
                return Double(long - short) / Double(steps)
            }
            let swiftPerStep = try perStep("swift", "*measuredSwiftStepLoop*")
            let cPerStep = try perStep("c", "cbaseline_step")
            let ratio = swiftPerStep / cPerStep
            if json {
                entries.append("{\"scene\":\(RunSummary.quoted(scene.name)),\"swift_instructions_per_step\":\(swiftPerStep),"
                    + "\"c_instructions_per_step\":\(cPerStep),\"ratio\":\(ratio)}")
            } else {
                print("\(scene.name): CrateDrop \(Int(swiftPerStep)) instructions/step (snapshot copy included), "
                    + "C \(Int(cPerStep)) instructions/step, ratio \(String(format: "%.4f", ratio)) "
                    + "(steps \(warmup + steps + 1)...\(warmup + 2 * steps))")
            }
        }
        if json { print("[\(entries.joined(separator: ","))]") }
    }

    /// Instructions callgrind collected inside `function` for one `bench --step-loop` run.
    private static func count(valgrind: String, scene: String, side: String, function: String, warmup: Int, steps: Int) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=\(function)",
                             CommandLine.arguments[0], "bench", scene, "--step-loop", "--side", side,
                             "--warmup", String(warmup), "--steps", String(steps)]
        let errors = Pipe()
        process.standardOutput = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let match = text.firstMatch(of: /Collected : (\d+)/), let collected = Int(match.1)
        else {
            printError("cratedrop: callgrind failed for \(scene) (\(side)):\n\(text)")
            throw ExitCode.failure
        }
        return collected
    }
}
