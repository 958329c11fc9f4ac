import SceneModel

extension World {
    /// Makes `edit`'s change now (a sweep's counterfactual): removes its body (its joints first) or
    /// adds a crate, both structural changes (`apply(_: StructuralChange)`), sets its body's centre
    /// (`cpBodySetPosition`, which wakes it), or sets its velocity (`cpBodySetVelocity`).
    /// - Throws: `PhysicsError.invalidValue` for a body not in the world or a value out of range.
    public func apply(_ edit: WorldEdit) throws(PhysicsError) {
        if case let .add(spec) = edit.change {
            try apply(.addCrate(spec))
            return
        }
        guard let crate = crate(edit.body) else {
            throw .invalidValue(what: "counterfactual", problems: [FieldProblem("body", "body \(edit.body) is not a body of this world")])
        }
        let problems = edit.problems
        guard problems.isEmpty else { throw .invalidValue(what: "counterfactual", problems: problems) }
        switch edit.change {
        case .remove: try apply(.removeBody(edit.body))
        case .add: break
        case let .position(point): Chipmunk.bodySetPosition(crate.body, point)
        case let .velocity(velocity): Chipmunk.bodySetVelocity(crate.body, velocity)
        }
    }
}
