import Foundation

/// Runs the built `cratedrop` executable, as a user would, and captures what it printed.
public enum CLI {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var stdoutBytes: Data
    }

    /// The `cratedrop` binary SwiftPM built beside the test bundle.
    public static var executable: URL {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = bundleDirectory.appendingPathComponent("cratedrop")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Repository.root.appendingPathComponent(".build/debug/cratedrop")
    }

    /// Runs `cratedrop ARGUMENTS` in the repository root, with `input` on stdin (empty if nil) and
    /// `environment` added to this process's environment.
    public static func run(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        try launch(executable, arguments, input: input, environment: environment, directory: Repository.root)
    }

    /// Runs an installed program found on PATH (ffmpeg, ffprobe) in the repository root.
    public static func tool(_ name: String, _ arguments: [String]) throws -> Result {
        try launch(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, input: nil, environment: [:], directory: Repository.root)
    }

    /// Runs `program` in `directory` and collects its status and output.
    private static func launch(_ program: URL, _ arguments: [String], input: Data?, environment: [String: String],
                               directory: URL) throws -> Result {
        let process = Process()
        process.executableURL = program
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        Thread {
            errorData = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }.start()
        if let input { stdin.fileHandleForWriting.write(input) }
        try? stdin.fileHandleForWriting.close()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self),
                      stdoutBytes: outputData)
    }

    /// The determinism class of the `cratedrop` binary under test (`cratedrop platform --json`).
    public static let determinismClass: String = {
        guard let result = try? run(["platform", "--json"]), result.status == 0,
              let fields = try? JSONFields(result.stdout.trimmingCharacters(in: .newlines)),
              let id = fields.string("determinism_class") else { return "unknown" }
        return id
    }()

    /// Runs `script` with bash in the repository root, `$CRATEDROP` naming the binary under test:
    /// for what needs a shell (closed descriptors, pipelines). Returns bash's own status and output.
    public static func shell(_ script: String) throws -> Result {
        try launch(URL(fileURLWithPath: "/bin/bash"), ["-c", script], input: nil, environment: ["CRATEDROP": executable.path],
                   directory: Repository.root)
    }

    /// Runs `script` with bash in `directory`, with the binary under test first on PATH as
    /// `cratedrop`: for recipes written as a user types them. `environment` is added.
    public static func recipe(_ script: String, in directory: String, environment: [String: String] = [:]) throws -> Result {
        let path = executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try launch(URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", script], input: nil,
                          environment: environment.merging(["PATH": path]) { $1 }, directory: URL(fileURLWithPath: directory))
    }
}
