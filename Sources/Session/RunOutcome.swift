import FileIO
import Physics
import Driver
import Raster
import SceneModel
import Script

/// What a run did: the driver's result and what each stage of its pipeline did.
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
    public var render: RenderStats?
    /// Real time: intervals between frames sent to the render stage on the frame schedule.
    public var presentedIntervals: LatencyHistogram?
    /// States traced and steps measured, when `--trace` or `--stats` were given.
    public var stepsTraced = 0
    public var stepsMeasured = 0
    /// What the trace and stats files could not write (a full disk), each naming its file.
    public var dataFailures: [FrameWriteError] = []
    /// What the gravity input did, when the run had one.
    public var gravity: GravitySummary?
    /// The record could not be written whole.
    public var recordFailure: RecordWriteError?
    /// A saved state (at the end, or one of `--save-every`'s) could not be made or written.
    public var saveStateFailure: SaveStateFailure?
    /// States written by `--save-every`.
    public var statesSaved = 0
    /// What the check against a record found, when the run had one.
    public var check: CheckSummary?
    /// What the synctest found, when the run had one.
    public var synctest: SyncTestSummary?
    /// Why a world edit (a counterfactual) was refused, ending the run.
    public var editFailure: String?

    init(result: RunResult) {
        self.result = result
    }

    /// How the gravity input ended.
    public struct GravitySummary: Sendable, Equatable {
        /// The input's name: its path, `stdin` or `pages`.
        public var source: String
        public var changesApplied: Int
        public var linesSkipped: Int
        /// The malformed line that stopped the run (policy `stop`).
        public var failure: GravityLineError?
        /// The stream could not be read to its end.
        public var readError: FileFailure?
    }

    /// How a check against a record ended.
    public struct CheckSummary: Sendable {
        /// Checkpoints that matched.
        public var verified: Int
        /// Where the run parted from the record, if it did.
        public var divergence: TrailDivergence?
    }
}

extension RunOutcome {
    /// How a synctest ended.
    public struct SyncTestSummary: Sendable {
        /// States compared with a look-ahead's.
        public var statesCompared: Int
        /// Where a restore was not exact, if it was not.
        public var failure: SyncTestFailure?
    }
}

/// Why `--save-state` wrote no state; `description` is `PATH: reason`.
public enum SaveStateFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The world's state cannot be saved (the backend, or the world's set-up).
    case cannotSave(path: String, StateError)
    /// The file could not be written.
    case notWritten(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotSave(path, error): "\(path): cannot save the state: \(error)"
        case let .notWritten(path, reason): "\(path): \(reason)"
        }
    }
}
