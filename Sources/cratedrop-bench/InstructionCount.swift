import ArgumentParser
import CLISupport
import Foundation
import SceneFile
import SceneModel

/// Counts instructions per step of both sides with valgrind's callgrind, which counts
/// instructions rather than time, so the figure repeats run after run on a busy machine.
enum InstructionCount {
    /// - Parameter other: another `cratedrop-bench` binary, built on the other physics backend
    ///   (scripts/count-instructions --backends): its instructions per step are counted too and the
    ///   report gives the ratio of this binary's CrateDrop side to the other's.
    static func report(paths: [String], scenes: [Scene], warmup: Int, steps: Int, json: Bool, other: String? = nil) throws {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile) else {
            printError("cratedrop: bench --instructions needs valgrind (apt-get install valgrind)")
            throw ExitCodes.noInput
        }
        var entries: [JSONOutput] = []
        for (path, scene) in zip(paths, scenes) {
            // Each side runs twice, `steps` and 2 × `steps` measured steps after the same warm-up;
            // the difference is exactly the instructions of steps warmup+steps+1 ... warmup+2×steps.
            func perStep(_ binary: String, _ side: String, _ function: String) throws -> (instructions: Double, hash: String) {
                let short = try count(valgrind: valgrind, binary: binary, scene: path, side: side, function: function, warmup: warmup, steps: steps)
                let long = try count(valgrind: valgrind, binary: binary, scene: path, side: side, function: function, warmup: warmup, steps: 2 * steps)
                return (Double(long.instructions - short.instructions) / Double(steps), long.hash)
            }
            let this = CommandLine.arguments[0]
            let swift = try perStep(this, "swift", "*measuredSwiftStepLoop*")
            let c = try perStep(this, "c", "cbaseline_step")
            try requireSameHash(scene.name, swift.hash, c.hash, binary: this)
            var fields: [(key: String, value: JSONOutput)] = [
                ("scene", .string(scene.name)), ("swift_instructions_per_step", .number(swift.instructions)),
                ("c_instructions_per_step", .number(c.instructions)), ("ratio", .number(swift.instructions / c.instructions)),
            ]
            var line = "\(scene.name): CrateDrop \(Int(swift.instructions)) instructions/step (snapshot copy included), "
                + "C \(Int(c.instructions)) instructions/step, ratio \(String(format: "%.4f", swift.instructions / c.instructions)) "
                + "(steps \(warmup + steps + 1)...\(warmup + 2 * steps))"
            if let other {
                let otherSwift = try perStep(other, "swift", "*measuredSwiftStepLoop*")
                let otherC = try perStep(other, "c", "cbaseline_step")
                try requireSameHash(scene.name, otherSwift.hash, otherC.hash, binary: other)
                let backendRatio = swift.instructions / otherSwift.instructions
                fields += [("other_swift_instructions_per_step", .number(otherSwift.instructions)),
                           ("other_c_instructions_per_step", .number(otherC.instructions)),
                           ("backend_ratio", .number(backendRatio))]
                line += "; other backend: CrateDrop \(Int(otherSwift.instructions)), C \(Int(otherC.instructions)), "
                    + "this/other \(String(format: "%.4f", backendRatio))"
            }
            if json { entries.append(.object(fields)) } else { try StandardOutput.print(line) }
        }
        if json { try StandardOutput.print(JSONOutput.array(entries).text) }
    }

    /// Each backend's CrateDrop side and C side must reach the same state (their hashes differ
    /// between backends, never within one).
    private static func requireSameHash(_ scene: String, _ swift: String, _ c: String, binary: String) throws {
        guard swift == c else {
            printError("cratedrop: \(binary): \(scene): CrateDrop reached \(swift) but plain C \(c)")
            throw ExitCode(3)
        }
    }

    /// Instructions callgrind collected inside `function` for one `bench --step-loop` run of
    /// `binary`, and the state hash that run printed.
    private static func count(valgrind: String, binary: String, scene: String, side: String, function: String, warmup: Int,
                              steps: Int) throws -> (instructions: Int, hash: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = ["--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=\(function)",
                             binary, scene, "--step-loop", "--side", side,
                             "--warmup", String(warmup), "--steps", String(steps)]
        let errors = Pipe(), output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // callgrind writes little to stderr: read it whole, then stdout (the hash line).
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let match = text.firstMatch(of: /Collected : (\d+)/), let collected = Int(match.1)
        else {
            printError("cratedrop: callgrind failed for \(scene) (\(side)):\n\(text)")
            throw ExitCode(69)
        }
        return (collected, String(printed.split(separator: " ").last ?? "").trimmingCharacters(in: .newlines))
    }
}
