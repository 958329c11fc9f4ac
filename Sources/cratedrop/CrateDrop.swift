#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CLISupport
import Physics
import SceneFile

@main
struct CrateDrop: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "cratedrop",
        abstract: "Runs 2D crate-drop scenes on the Chipmunk physics engine.",
        discussion: """
            Scenes are JSON files (see Scenes/). Results go to stdout, diagnostics to stderr. Exit codes: 0 success (also when a reader closes the pipe, as `| head` does), 3 the runs part (replay --verify, diff, hash --synctest, bench: CrateDrop against plain C), 64 bad usage, 65 bad data, 66 missing input, 69 a program or library CrateDrop needs missing (ffmpeg, a display, CrateDrop's Chipmunk for saved states, the WebAssembly build for page), 73 cannot create output, 74 I/O error, 75 a sweep incomplete (sweep merge), 129/130/138/143 stopped by SIGHUP/SIGINT/SIGUSR1 (sweep run)/SIGTERM.
            """,
        version: version,
        subcommands: [Run.self, Hash.self, Replay.self, Diff.self, Validate.self, Platform.self, Serve.self, Page.self, Bench.self, SweepCommand.self]
    )

    /// The process effects are the executable's, set up here before anything else runs.
    static func main() {
        // A closed pipe must come back from write() as EPIPE, to be reported, never kill the process.
        signal(SIGPIPE, SIG_IGN)
        // A write past the file-size limit (`ulimit -f`) must fail with EFBIG, to be reported as an
        // I/O error (74) with what was done so far, not kill the process silently with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        // stdout carries results: the debug build's banner must not reach it.
        DebugBanner.silence()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = unknownSubcommand(arguments) {
            printError(unknown)
            Glibc.exit(ExitCodes.usage.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            end(reporting: error)
        }
    }

    /// Ends the process as swift-argument-parser's `exit(withError:)` does, with the same exit
    /// codes (64 for usage), but every message on stderr begins `cratedrop: ` like all others
    /// (the parser's own "Error: " goes); help and --version still go to stdout.
    private static func end(reporting error: any Error) -> Never {
        let code = exitCode(for: error)
        var message = fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            Glibc.exit(code.rawValue)
        }
        if message.hasPrefix("Error: ") { message = "cratedrop: " + message.dropFirst("Error: ".count) }
        if !message.isEmpty { printError(message) }
        Glibc.exit(code.rawValue)
    }

    /// The message for a first argument that names no subcommand, with the closest name if one is
    /// near: `cratedrop rn` → `cratedrop: unknown subcommand 'rn' (did you mean 'run'?)`.
    static func unknownSubcommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        if let near = KeySuggestion.closest(to: first, among: names) {
            return "cratedrop: unknown subcommand '\(first)' (did you mean '\(near)'?)"
        }
        return "cratedrop: unknown subcommand '\(first)'; the subcommands are \(names.dropLast().joined(separator: ", ")) (cratedrop --help)"
    }
}
