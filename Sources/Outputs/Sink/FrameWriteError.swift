import FileIO

/// A frame could not be written. `description` names the file (or stdout) and the reason, e.g.
/// `frames/frame-00012.ppm: No space left on device`; the reason stays typed until printed.
public struct FrameWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var target: String
    public var cause: Cause
    /// The output ended by the user's choice (a viewer window closed): the run stops as if asked
    /// to, and this is no failure.
    public var stopsRun: Bool
    /// The program behind the output could not do its job (ffplay could not open a window):
    /// the command ends as for a missing program (exit 69), with the program's own words.
    public var programFailed: Bool

    /// Why an output failed.
    public enum Cause: Sendable, Equatable, CustomStringConvertible {
        /// A file operation failed: its errno, or the rule that refused the path.
        case file(FileFailure)
        /// A step of the output's work failed ("cannot create it", "cannot move the finished video
        /// into place"): printed as `STEP: FAILURE`.
        case during(String, FileFailure)
        /// The reader of a pipe closed it (EPIPE).
        case closedPipe
        /// In words: a rule's ("exists and is not a directory") or a program's own (ffmpeg's message).
        case message(String)

        public var description: String {
            switch self {
            case let .file(failure): failure.description
            case let .during(step, failure): "\(step): \(failure)"
            case .closedPipe: "the reader closed the pipe (\(FileFailure.system(.brokenPipe)))"
            case let .message(text): text
            }
        }
    }

    public init(target: String, cause: Cause, stopsRun: Bool = false, programFailed: Bool = false) {
        self.target = target
        self.cause = cause
        self.stopsRun = stopsRun
        self.programFailed = programFailed
    }

    /// A failure told in words.
    public init(target: String, reason: String, stopsRun: Bool = false, programFailed: Bool = false) {
        self.init(target: target, cause: .message(reason), stopsRun: stopsRun, programFailed: programFailed)
    }

    /// The cause as users read it.
    public var reason: String { cause.description }

    public var description: String { "\(target): \(reason)" }

    /// Two failures are the same when they say the same thing about the same target, whether the
    /// cause is an errno or the words for it.
    public static func == (a: FrameWriteError, b: FrameWriteError) -> Bool {
        a.target == b.target && a.reason == b.reason && a.stopsRun == b.stopsRun && a.programFailed == b.programFailed
    }
}
