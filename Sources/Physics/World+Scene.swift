import SceneModel

extension World {
    /// Builds the world `scene` describes, checked first (once): see `init(checked:)`.
    /// - Throws: `PhysicsError.invalidValue` if any value is out of range; nothing reaches Chipmunk then.
    public convenience init(scene: Scene) throws(PhysicsError) {
        let checked: CheckedScene
        do {
            checked = try CheckedScene(scene)
        } catch {
            throw .invalidValue(what: "scene", problems: error.problems)
        }
        try self.init(checked: checked)
    }

    /// Builds the world a checked scene describes: walls (bounds first), the tumbler, crates in
    /// creation order, then joints in file order. The scene's values and its listed crates are
    /// not checked again (walls, joints and generated crates are, as they are added).
    public convenience init(checked: CheckedScene) throws(PhysicsError) {
        let scene = checked.scene
        try self.init(gravity: scene.gravity, stepRate: scene.stepRate, iterations: scene.iterations, space: scene.space)
        for wall in scene.allWalls() { try addWall(wall) }
        if let tumbler = scene.tumbler { try addTumbler(tumbler) }
        for crate in scene.crates { try add(Crate(checkedSpec: crate)) }
        // Generated crates are the generator's making, not values the check saw: checked as made.
        for crate in scene.generator?.crates(in: scene.worldSize) ?? [] { try addCrate(crate) }
        for spec in scene.joints {
            // Checked by scene.problems(): every index names a crate.
            func crate(_ end: JointEnd) -> Crate? { end.crateIndex.map { crates[$0] } }
            try addJoint(spec.kind, a: crate(spec.a), b: crate(spec.b), settings: spec.settings)
        }
        spawners = scene.spawners
        origin = checked
    }
}
