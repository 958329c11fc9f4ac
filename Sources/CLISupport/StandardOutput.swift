#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FileIO
import SceneFile

/// Results go to stdout through here, and every write is checked: no result is lost silently.
/// A reader that closed the pipe (`cratedrop hash ... | head -1`) ends the command quietly with
/// exit 0, as `head` users expect; any other failure (a full disk, a closed stdout) is exit 74
/// with a message on stderr. SIGPIPE is ignored process-wide, so a closed pipe comes back as EPIPE.
package enum StandardOutput {
    package enum Failure: Error, Sendable {
        case readerClosed
        case failed(String)
    }

    /// Writes `line` and a newline to stdout, control characters escaped (`TerminalText.lines`:
    /// JSON stays the same JSON; file text cannot reach the terminal raw).
    package static func write(_ line: String) throws(Failure) {
        do {
            try FileDescriptorIO.writeAll(STDOUT_FILENO, Array((TerminalText.lines(line) + "\n").utf8))
        } catch {
            throw error.isClosedPipe ? .readerClosed : .failed(error.description)
        }
    }

    /// Writes `line`, or ends the command as a failure says (for output with nothing left to finish).
    package static func print(_ line: String) throws {
        do {
            try write(line)
        } catch {
            throw exitCode(for: error)
        }
    }

    /// Exit 0 for a closed reader; else the failure on stderr and exit 74.
    package static func exitCode(for failure: Failure) -> ExitCode {
        switch failure {
        case .readerClosed: return .success
        case let .failed(reason):
            printError("cratedrop: cannot write results to stdout: \(reason)")
            return ExitCodes.ioError
        }
    }
}
