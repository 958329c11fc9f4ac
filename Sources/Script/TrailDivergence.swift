import SceneFile
import SceneModel

/// Where two runs of one scene part: the first checkpoint whose state differs, the last one
/// before it that agrees, and, when both sides have the full state there, the first body and
/// field that differ.
///
/// Steps are counted as `cratedrop hash` prints them: checkpoint N is the state after N steps.
/// A change that acts on step N (counted from 0, as gravity lines count) first shows at
/// checkpoint N + 1.
public struct TrailDivergence: Error, Sendable, Equatable, CustomStringConvertible {
    /// The last checkpoint both sides have and agree on, if any.
    public var lastMatchingStep: Int?
    /// The first checkpoint both sides have that differs.
    public var step: Int
    public var expectedHash: StateHash
    public var actualHash: StateHash
    /// The first differing body and field, when both sides have the full state at `step`.
    public var detail: StateDivergence?

    public init(lastMatchingStep: Int?, step: Int, expectedHash: StateHash, actualHash: StateHash, detail: StateDivergence?) {
        self.lastMatchingStep = lastMatchingStep
        self.step = step
        self.expectedHash = expectedHash
        self.actualHash = actualHash
        self.detail = detail
    }

    /// Whether `step` is exactly where they part: the state one step earlier is known to agree
    /// (or `step` is the first step).
    public var isExact: Bool { (lastMatchingStep ?? 0) == step - 1 }

    public var description: String {
        if let detail, case .keyframe = detail.kind {
            return "after \(step) steps (hash \(actualHash) on both sides) \(detail)"
        }
        var text: String
        if isExact {
            text = "the states part during step \(step - 1) (counted from 0): they agree after \(step - 1) steps "
                + "and differ after \(step) (hash \(expectedHash) vs \(actualHash))"
        } else {
            let agreed = lastMatchingStep.map { "they agree after \($0) steps" } ?? "no earlier checkpoint to compare"
            text = "the states part between steps \(lastMatchingStep ?? 0) and \(step): \(agreed) and differ after \(step) "
                + "(hash \(expectedHash) vs \(actualHash)); no checkpoint in between"
        }
        if let detail { text += "; first difference: \(detail)" }
        return text
    }

    /// The report as one JSON object.
    public var json: String { jsonOutput.text }

    /// The report as a JSON object to write or to place in another.
    package var jsonOutput: JSONOutput {
        var fields: [(key: String, value: JSONOutput)] = [
            ("step", .integer(step)), ("exact", .bool(isExact)),
            ("last_matching_step", lastMatchingStep.map(JSONOutput.integer) ?? .null),
            ("expected_hash", .string(expectedHash.description)), ("actual_hash", .string(actualHash.description)),
        ]
        switch detail?.kind {
        case let .value(id, field, expected, actual)?:
            fields += [("body", .unsigned(id.rawValue)), ("field", .string(field)), ("expected", .number(expected)),
                       ("actual", .number(actual)), ("ulps", .unsigned(StateDivergence.ulps(expected, actual)))]
        case let .bodies(expected, actual)?:
            fields += [("expected_bodies", .integer(expected.count)), ("actual_bodies", .integer(actual.count))]
        case let .keyframe(line)?:
            fields += [("keyframe_line", .integer(line))]
        case nil:
            break
        }
        return .object(fields)
    }

    /// Compares two lists of checkpoints (each in ascending step order) on the steps both have.
    /// - Returns: nil and the number of steps compared when they agree, else the divergence.
    public static func compare(expected: [Checkpoint], actual: [Checkpoint]) -> (divergence: TrailDivergence?, compared: Int) {
        var first = expected.makeIterator(), second = actual.makeIterator()
        return compare(expected: { first.next() }, actual: { second.next() })
    }

    /// Compares two streams of checkpoints (each in ascending step order, nil at the end) on the
    /// steps both have, holding one checkpoint of each at a time; stops at the first difference
    /// or the end of either.
    /// - Returns: nil and the number of steps compared when they agree, else the divergence.
    /// - Throws: what either stream throws.
    public static func compare<Failure: Error>(
        expected nextExpected: () throws(Failure) -> Checkpoint?,
        actual nextActual: () throws(Failure) -> Checkpoint?
    ) throws(Failure) -> (divergence: TrailDivergence?, compared: Int) {
        var compared = 0
        var lastMatch: Int?
        var a = try nextExpected(), b = try nextActual()
        while let ea = a, let eb = b {
            if ea.step < eb.step { a = try nextExpected(); continue }
            if eb.step < ea.step { b = try nextActual(); continue }
            let detail: StateDivergence? = if let sa = ea.state, let sb = eb.state {
                StateDivergence.first(expected: sa, actual: sb)
            } else {
                nil
            }
            if ea.hash != eb.hash || detail != nil {
                return (TrailDivergence(lastMatchingStep: lastMatch, step: ea.step, expectedHash: ea.hash, actualHash: eb.hash,
                                        detail: detail), compared)
            }
            compared += 1
            lastMatch = ea.step
            a = try nextExpected()
            b = try nextActual()
        }
        return (nil, compared)
    }
}

/// The state after `step` steps: its hash and, where known, every body's values.
public struct Checkpoint: Sendable, Equatable {
    public var step: Int
    public var hash: StateHash
    public var state: [BodyValues]?

    public init(step: Int, hash: StateHash, state: [BodyValues]?) {
        self.step = step
        self.hash = hash
        self.state = state
    }

    public init(_ snapshot: WorldSnapshot) {
        self.init(step: snapshot.step, hash: StateHash(snapshot), state: snapshot.bodies.map(BodyValues.init))
    }
}

extension TrailDivergence: Encodable {
    /// As `jsonOutput`, inside a typed report.
    public func encode(to encoder: any Encoder) throws {
        try jsonOutput.encode(to: encoder)
    }
}
