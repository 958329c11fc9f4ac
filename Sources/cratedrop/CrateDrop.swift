#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Physics

@main
struct CrateDrop: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "cratedrop",
        abstract: "Runs 2D crate-drop scenes on the Chipmunk physics engine.",
        discussion: """
            Scenes are JSON files (see Scenes/). Results go to stdout, diagnostics to stderr.
            Exit codes: 0 success (also when a reader closes the pipe, as `| head` does), 3 the
            runs part (replay, diff), 64 bad usage, 65 bad data, 66 missing input, 69 a program
            CrateDrop needs (ffmpeg) missing, 73 cannot create output, 74 I/O error, 129/130/143
            stopped by SIGHUP/SIGINT/SIGTERM.
            """,
        version: version,
        subcommands: [Run.self, Hash.self, Replay.self, Diff.self, Validate.self, Platform.self, Serve.self, Bench.self]
    )

    /// The process effects are the executable's, set up here before anything else runs.
    static func main() {
        // A closed pipe must come back from write() as EPIPE, to be reported, never kill the process.
        signal(SIGPIPE, SIG_IGN)
        // stdout carries results: the debug build's banner must not reach it.
        DebugBanner.silence()
        main(nil)
    }
}
