/// A body held by a drag (`BodyInput.grab`): a pivot joint from the static body at `target` to
/// `anchor` in the body's own frame, pulling with at most `maxForce`. Part of a world's state,
/// like a held force: the steps to come read it (and the joint's accumulated impulse, which the
/// physics part of the state keeps).
public struct Drag: Sendable, Equatable {
    /// The pull a grab without `max_force` gets, per unit of the body's mass (px/s²): 20 times
    /// the usual 1000 px/s² of gravity, so a dragged body follows the pointer closely but a heavy
    /// pile pushes back.
    public static let defaultPull = 20_000.0

    public var body: BodyID
    /// The point held, in the body's frame (where it was grabbed).
    public var anchor: Vec2
    /// Where the pointer is: a world point.
    public var target: Vec2
    public var maxForce: Double

    public init(body: BodyID, anchor: Vec2, target: Vec2, maxForce: Double) {
        self.body = body
        self.anchor = anchor
        self.target = target
        self.maxForce = maxForce
    }

    /// Problems with its values (a state's, read from a file).
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        list.check("anchor", anchor, magnitude: Limits.coordinate)
        list.check("target", target, magnitude: Limits.coordinate)
        list.check("max_force", maxForce, in: Limits.jointForce)
        return list.problems
    }
}
