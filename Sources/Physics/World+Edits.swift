import SceneModel

extension World {
    /// Makes `edit`'s change to its body now (a sweep's counterfactual): removes it, sets its
    /// centre (`cpBodySetPosition`, which wakes it), or sets its velocity (`cpBodySetVelocity`).
    /// Not an input: nothing is recorded, and a removal changes the world's make-up.
    /// - Throws: `PhysicsError.invalidValue` for a body not in the world or a value out of range,
    ///   `.crateHasJoints` for removing a body a joint holds.
    public func apply(_ edit: WorldEdit) throws(PhysicsError) {
        guard let crate = crate(edit.body) else {
            throw .invalidValue(what: "counterfactual", problems: [FieldProblem("body", "body \(edit.body) is not a body of this world")])
        }
        let problems = edit.problems
        guard problems.isEmpty else { throw .invalidValue(what: "counterfactual", problems: problems) }
        switch edit.change {
        case .remove: try remove(crate)
        case let .position(point): Chipmunk.bodySetPosition(crate.body, point)
        case let .velocity(velocity): Chipmunk.bodySetVelocity(crate.body, velocity)
        }
    }
}
