import FileIO
import Outputs
import Physics
import Script

/// Why a run could not start; raised before any step is taken and before any output a later
/// check would refuse is touched.
public enum RunSetupError: Error, Sendable, CustomStringConvertible {
    /// The scene's values cannot build a world (exit 65).
    case world(PhysicsError)
    /// The gravity input cannot be opened, e.g. a missing file (exit 66).
    case gravityUnreadable(GravityOpenError)
    /// The record file cannot be created (exit 73).
    case recordNotCreated(RecordCreateError)
    /// The saved state cannot be continued here: malformed or of another scene (exit 65), or the
    /// backend cannot restore states (exit 69).
    case state(StateError)
    /// The folder of `--save-every` cannot be made or written into (exit 73).
    case statesFolder(path: String, FileFailure)
    /// The plan asks for what a run cannot do (exit 64).
    case unsupported(String)
    /// A frame, trace or stats output cannot be set up (exit 64, 69 or 73: see `OutputSetupError`).
    case output(OutputSetupError)

    public var description: String {
        switch self {
        case let .world(error): error.description
        case let .gravityUnreadable(error): error.description
        case let .recordNotCreated(error): error.description
        case let .output(error): error.description
        case let .state(error): error.description
        case let .statesFolder(path, failure): "\(path): \(failure)"
        case let .unsupported(reason): reason
        }
    }
}
