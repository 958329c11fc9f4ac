import Driver
import FileIO
import Physics
import SceneModel

/// What a run did: the driver's result and what each stage of its pipeline reported. Each
/// stage's file adds the accessor for its part (`gravity`, `check`, `render`, ...).
public struct RunOutcome: Sendable {
    /// Why a run ended before its end.
    public enum Stop: Sendable, Equatable {
        /// `shouldStop` said so (a signal).
        case requested
        /// A live run was asked to start over.
        case restart
    }

    public var result: RunResult
    public var stop: Stop?
    /// Each stage's part and the problems they saw.
    public var stages = StageReports()

    init(result: RunResult) {
        self.result = result
    }

    /// What went wrong, in order of precedence: the first that is not a notice decides how the
    /// run ended (`RunProblem.Kind`).
    public var problems: [RunProblem] { stages.problems }

    /// The problem that decides how the run ended, if any.
    public var failure: RunProblem? { problems.first { $0.kind != .notice } }
}

/// Why `--save-state` wrote no state; `description` is `PATH: reason`.
public enum SaveStateFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The world's state cannot be saved (the backend, or the world's set-up).
    case cannotSave(path: String, StateError)
    /// The file could not be written.
    case notWritten(path: String, FileFailure)

    public var description: String {
        switch self {
        case let .cannotSave(path, error): "\(path): cannot save the state: \(error)"
        case let .notWritten(path, failure): "\(path): \(failure)"
        }
    }
}
