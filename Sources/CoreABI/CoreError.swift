import SceneFile

/// Why an ABI call failed: the CLI's exit code for the same failure, and its message.
struct CoreError: Error {
    /// The sysexits codes the CLI exits with (docs/command-line.md): the ABI returns them negated.
    enum Code: Int32 {
        case usage = 64
        case dataError = 65
        case noInput = 66
        case software = 70
    }

    var code: Code
    var message: String
}

extension SceneLoadError {
    /// The CLI's exit code for this failure.
    var exitCode: CoreError.Code {
        switch self {
        case .unreadable: .noInput
        case .invalid: .dataError
        }
    }
}
