/// Something that went wrong in a run, as the stage that saw it tells it: a kind, which callers
/// turn into their own terms (an exit code, a sample's failure), the stage's typed error, and the
/// message users read. One rule for every command, so no caller keeps a ladder of its own.
public struct RunProblem: Error, Sendable, CustomStringConvertible {
    /// What kind of problem, in order of precedence: when a run has several, the first kind decides.
    public enum Kind: Int, Comparable, Sendable, CaseIterable {
        /// The run's input values were refused (a gravity line, a counterfactual): exit 65.
        case badValues
        /// An input could not be read to its end or an output not written whole (a full disk): exit 74.
        case inputOutput
        /// The run parted from what it was checked against (a record, a synctest's look-ahead): exit 3.
        case diverged
        /// This machine lacks what the run needs (a library without saved states, a viewer): exit 69.
        case unavailable
        /// The run asked for what it cannot do (a world saved states do not cover): exit 64.
        case unsupported
        /// Not a failure: told, and the run's result stands (the viewer's window was closed).
        case notice

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    /// The stage's own error.
    public var cause: any Error & Sendable
    /// The message users read.
    public var description: String
    /// What to do about it, when there is a better way.
    public var advice: String?

    /// - Parameters:
    ///   - kind: what kind of problem it is.
    ///   - cause: the stage's own error.
    ///   - message: the message, when it says more than the error (how far the run got).
    ///   - advice: what to do about it, when there is a better way.
    public init(_ kind: Kind, _ cause: some Error & Sendable & CustomStringConvertible, message: String? = nil, advice: String? = nil) {
        self.kind = kind
        self.cause = cause
        description = message ?? cause.description
        self.advice = advice
    }
}
