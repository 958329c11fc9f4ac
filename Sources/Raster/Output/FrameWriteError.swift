/// A frame could not be written. `description` names the file (or stdout) and the reason, e.g.
/// `frames/frame-00012.ppm: No space left on device`.
public struct FrameWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var target: String
    public var reason: String

    public init(target: String, reason: String) {
        self.target = target
        self.reason = reason
    }

    public var description: String { "\(target): \(reason)" }
}
