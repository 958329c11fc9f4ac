/// A world whose state went non-finite in a step (an overflow: a spring of stiffness 1e15 pulled
/// far from rest, impulses of 1e308 from a crafted state): the first body found, in ascending id,
/// and its first value that is not a finite number. Nothing after such a step means anything, so a
/// run stops there and says so (exit 65), rather than writing NaN into hashes, traces and states.
public struct NonFiniteBody: Error, Sendable, Equatable, CustomStringConvertible {
    /// The world's step count after the step in which it went non-finite.
    public var step: Int
    public var body: BodyID
    /// The value's name as traces write it (`x`, `y`, `angle`, `vx`, `vy`, `angular_velocity`).
    public var field: String
    public var value: Double

    public init(step: Int, body: BodyID, field: String, value: Double) {
        self.step = step
        self.body = body
        self.field = field
        self.value = value
    }

    /// The first value of `state` that is not finite, as a problem at `step`; nil if all are.
    public static func first(in state: BodyState, step: Int) -> NonFiniteBody? {
        let values = [("x", state.position.x), ("y", state.position.y), ("angle", state.angle), ("vx", state.velocity.x),
                      ("vy", state.velocity.y), ("angular_velocity", state.angularVelocity)]
        return values.first { !$0.1.isFinite }.map { NonFiniteBody(step: step, body: state.id, field: $0.0, value: $0.1) }
    }

    public var description: String {
        "the world went non-finite in step \(step): body \(body)'s \(field) is \(value) (a value overflowed: a joint or spring too stiff "
            + "for the step, or a state's impulses out of any real range); the run stops there"
    }
}
