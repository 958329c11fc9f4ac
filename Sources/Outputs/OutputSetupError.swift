
/// An output that cannot be set up; raised before any step is taken.
public enum OutputSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A program the output needs is not installed (exit 69, EX_UNAVAILABLE).
    case programMissing(program: String, package: String)
    /// A window was asked for where there is no display to open it on (exit 69).
    case noDisplay
    /// The output exists and replacing it was not asked for (exit 73).
    case exists(path: String)
    /// A frame directory holds files and replacing them was not asked for (exit 73).
    case notEmpty(path: String, frameFiles: Int)
    /// Frames of this size or rate cannot go into this output (exit 64).
    case unsuitable(path: String, reason: String)
    /// The output cannot be created (exit 73).
    case cannotCreate(FrameWriteError)

    public var description: String {
        switch self {
        case let .programMissing(program, package):
            "\(program) is not installed (or not on PATH); video output needs it: install the \(package) package "
                + "(Debian: apt-get install \(package)), or write frames to a directory with --out DIR"
        case .noDisplay:
            "--view needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is set: write a video instead "
                + "(--out out/run.mp4), or watch in a browser (cratedrop serve SCENE)"
        case let .exists(path): "\(path) already exists; pass --force to replace it"
        case let .notEmpty(path, 0): "\(path) is not empty; pass --force to write frames into it (it removes earlier frame files only)"
        case let .notEmpty(path, frameFiles):
            "\(path) already holds \(frameFiles) frame files; pass --force to replace them (it removes earlier frame files only)"
        case let .unsuitable(path, reason): "\(path): \(reason)"
        case let .cannotCreate(error): error.description
        }
    }
}
