/// Where two states of one scene first differ: the first body, in ascending id order, with a
/// field whose bits differ, both values and how far apart they are in units in the last place.
///
/// Used to explain a hash mismatch (replays, `cratedrop diff`): the hash says that two states
/// differ, this says where.
public struct StateDivergence: Sendable, Equatable, CustomStringConvertible {
    /// The six state values of a body, in state-hash order.
    public static let fieldNames = ["x", "y", "angle", "vx", "vy", "angular_velocity"]

    public enum Kind: Sendable, Equatable {
        /// Body `id` has `field` = `expected` in the first state and `actual` in the second.
        case value(id: BodyID, field: String, expected: Double, actual: Double)
        /// The states hold different bodies (counts or ids differ).
        case bodies(expected: [BodyID], actual: [BodyID])
        /// The bodies agree, but the record's keyframe (on `line`) differs from a save of the
        /// world at its step: contacts' impulses, the broadphase, or other state the hash does not see.
        case keyframe(line: Int)
    }

    public let kind: Kind

    public init(kind: Kind) { self.kind = kind }

    /// The first difference between `expected` and `actual` (both in ascending id order), or nil
    /// when they are equal bit for bit.
    public static func first(expected: [BodyValues], actual: [BodyValues]) -> StateDivergence? {
        guard expected.map({ $0.id }) == actual.map({ $0.id }) else {
            return StateDivergence(kind: .bodies(expected: expected.map { $0.id }, actual: actual.map { $0.id }))
        }
        for (a, b) in zip(expected, actual) {
            for (index, (x, y)) in zip(a.values, b.values).enumerated() where x.bitPattern != y.bitPattern {
                return StateDivergence(kind: .value(id: a.id, field: fieldNames[index], expected: x, actual: y))
            }
        }
        return nil
    }

    /// The distance between two doubles in units in the last place: how many representable
    /// doubles lie between them, plus one (0 for equal bits; +0 and −0 are 1 apart).
    public static func ulps(_ a: Double, _ b: Double) -> UInt64 {
        // Map bit patterns onto a line where neighbouring doubles are neighbouring integers.
        func ordered(_ value: Double) -> Int128 {
            let bits = Int64(bitPattern: value.bitPattern)
            return bits < 0 ? Int128(Int64.min) - Int128(bits) - 1 : Int128(bits)
        }
        let distance = ordered(a) - ordered(b)
        return UInt64(clamping: distance.magnitude)
    }

    public var description: String {
        switch kind {
        case let .value(id, field, expected, actual):
            "body \(id) \(field): \(expected) vs \(actual) (\(Self.ulps(expected, actual)) ULP apart)"
        case let .bodies(expected, actual):
            "different bodies: \(expected.count) vs \(actual.count) (ids \(Self.span(expected)) vs \(Self.span(actual)))"
        case let .keyframe(line):
            "the record's keyframe (line \(line)) is not the world's saved state at that step: the bodies agree, but what "
                + "else a continuation reads (contact impulses, the broadphase, the solver's biases) does not"
        }
    }

    private static func span(_ ids: [BodyID]) -> String {
        guard let first = ids.first, let last = ids.last else { return "none" }
        return "\(first)...\(last)"
    }
}

/// One body's id and its six state values (x, y, angle, vx, vy, angular velocity), as hashed.
public struct BodyValues: Sendable, Equatable {
    public var id: BodyID
    public var values: [Double]

    public init(id: BodyID, values: [Double]) {
        self.id = id
        self.values = values
    }

    public init(_ state: BodyState) {
        self.init(id: state.id, values: [state.position.x, state.position.y, state.angle,
                                         state.velocity.x, state.velocity.y, state.angularVelocity])
    }
}
