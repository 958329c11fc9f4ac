import SceneFile

/// Why a sweep spec could not be used. Each case maps to an exit code in the CLI.
public enum SweepSpecError: Error, Sendable, CustomStringConvertible {
    /// The spec, or a file it names, is missing or unreadable (66).
    case unreadable(file: String, reason: String)
    /// The spec or a file it names was read but is wrong (65): every problem found, in order.
    case invalid([SceneDiagnostic])
    /// The spec needs what this machine lacks (69): saved states on Debian's libchipmunk.
    case unavailable(file: String, line: Int, path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(file, reason): "\(file): \(reason)"
        case let .invalid(problems): problems.map(\.description).joined(separator: "\n")
        case let .unavailable(file, line, path, reason): "\(file):\(line): \(path): \(reason)"
        }
    }
}
