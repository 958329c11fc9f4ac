/// A frame could not be written. `description` names the file (or stdout) and the reason, e.g.
/// `frames/frame-00012.ppm: No space left on device`.
public struct FrameWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var target: String
    public var reason: String
    /// The output ended by the user's choice (a viewer window closed): the run stops as if asked
    /// to, and this is no failure.
    public var stopsRun: Bool
    /// The program behind the output could not do its job (ffplay could not open a window):
    /// the command ends as for a missing program (exit 69), with the program's own words.
    public var programFailed: Bool

    public init(target: String, reason: String, stopsRun: Bool = false, programFailed: Bool = false) {
        self.target = target
        self.reason = reason
        self.stopsRun = stopsRun
        self.programFailed = programFailed
    }

    public var description: String { "\(target): \(reason)" }
}
