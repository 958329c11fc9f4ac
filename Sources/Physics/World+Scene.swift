import SceneModel

extension World {
    /// Builds the world `scene` describes: walls (bounds first), the tumbler, crates in creation
    /// order, then joints in file order.
    /// - Throws: `PhysicsError.invalidValue` if any value is out of range; nothing reaches Chipmunk then.
    public convenience init(scene: Scene) throws(PhysicsError) {
        let problems = scene.problems()
        guard problems.isEmpty else { throw .invalidValue(what: "scene", problems: problems) }
        try self.init(gravity: scene.gravity, stepRate: scene.stepRate, iterations: scene.iterations, space: scene.space)
        for wall in scene.allWalls() { try addWall(wall) }
        if let tumbler = scene.tumbler { try addTumbler(tumbler) }
        for crate in scene.allCrates() { try addCrate(crate) }
        for spec in scene.joints {
            // Checked by scene.problems(): every index names a crate.
            func crate(_ end: JointEnd) -> Crate? { end.crateIndex.map { crates[$0] } }
            try addJoint(spec.kind, a: crate(spec.a), b: crate(spec.b), settings: spec.settings)
        }
    }
}
