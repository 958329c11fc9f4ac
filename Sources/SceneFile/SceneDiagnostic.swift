import SceneModel

/// One problem in a scene file, printed as `FILE:LINE: PATH: MESSAGE`, e.g.
/// `Scenes/x.json:14: crates[3].mass: must be > 0, got -5`; a warning as
/// `FILE:LINE: warning: PATH: MESSAGE`.
public struct SceneDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// An error makes the scene unusable; a warning names something that is allowed but likely
    /// not meant (a crate placed across a wall).
    public enum Severity: Sendable, Equatable {
        case error
        case warning
    }

    public var file: String
    public var line: Int?
    /// The JSON path of the offending value (`crates[3].mass`); empty for file-level problems.
    public var path: String
    public var message: String
    public var severity: Severity

    public init(file: String, line: Int?, path: String, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.path = path
        self.message = message
        self.severity = severity
    }

    public var description: String {
        let location = (line.map { "\(file):\($0)" } ?? file) + (severity == .warning ? ": warning" : "")
        return path.isEmpty ? "\(location): \(message)" : "\(location): \(path): \(message)"
    }
}

/// Why a scene could not be loaded. Each case maps to a sysexits code in the CLI.
public enum SceneLoadError: Error, Sendable, CustomStringConvertible {
    /// The file is missing or unreadable (EX_NOINPUT, 66).
    case unreadable(file: String, reason: String)
    /// The file was read but its content is wrong (EX_DATAERR, 65); every problem found, errors
    /// and warnings (at least one error), in line order.
    case invalid([SceneDiagnostic])

    public var description: String {
        switch self {
        case let .unreadable(file, reason): "\(file): \(reason)"
        case let .invalid(diagnostics): diagnostics.map { $0.description }.joined(separator: "\n")
        }
    }
}
