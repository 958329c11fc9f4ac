import SceneModel

extension World {
    /// The crate with `id`, if it is in this world (crates are kept in ascending id order).
    public func crate(_ id: BodyID) -> Crate? {
        crateIndex(id).map { crates[$0] }
    }

    /// Where the crate with `id` is in `crates`, by binary search.
    func crateIndex(_ id: BodyID) -> Int? {
        var low = 0, high = rowIDs.count
        while low < high {
            let middle = (low + high) / 2
            if rowIDs[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < rowIDs.count && rowIDs[low] == id ? low : nil
    }

    /// Does what an input line says, now, between steps: sets gravity, does something to one body
    /// (`apply(_:to:)`) or changes the world's make-up (`apply(_:)`, whose entry is returned). Every
    /// runner of input lines applies them through this one place, from its own single owner of
    /// inputs and record (the CLI's `RunInputs` in Session, the wasm core's `CoreRun.apply`), which
    /// records what applied; the world keeps no log of inputs.
    /// - Throws: as the call it makes.
    @discardableResult
    public func apply(_ action: InputAction) throws(PhysicsError) -> MakeupChange? {
        switch action {
        case let .gravity(gravity):
            try setGravity(gravity)
            return nil
        case let .body(id, input):
            try apply(input, to: id)
            return nil
        case let .change(change):
            return try apply(change)
        }
    }

    /// Does `input` to the crate `id` now, between steps: a push, a velocity, or a force held
    /// over the next steps. The same as the input line `{"step": N, "body": ID, ...}` applied
    /// after N steps.
    ///
    /// ```swift
    /// try world.apply(.impulse(Vec2(0, 500), at: nil), to: BodyID(3))
    /// try world.apply(.hold(force: Vec2(2000, 0), at: nil, torque: 0, steps: 60), to: BodyID(3))
    /// // Drag body 3 by its top-left corner towards (200, 150), then let go.
    /// try world.apply(.grab(at: Vec2(90, 60), maxForce: nil), to: BodyID(3))
    /// try world.apply(.dragTo(Vec2(200, 150)), to: BodyID(3))
    /// try world.apply(.release, to: BodyID(3))
    /// ```
    /// - Throws: `PhysicsError.invalidValue` naming the body or the value: a body not in the
    ///   world, a value out of range, a push or a grab of a kinematic body, a drag or release of
    ///   a body not grabbed.
    public func apply(_ input: BodyInput, to id: BodyID) throws(PhysicsError) {
        guard let crate = crate(id) else {
            let range = crates.isEmpty ? "it has none" : "its bodies are \(crates.first!.id!)...\(crates.last!.id!)"
            throw .invalidValue(what: "input", problems: [FieldProblem("", "body \(id) is not a body of this world (\(range))")])
        }
        var problems = input.problems()
        if input.pushes, crate.bodyType == .kinematic {
            problems.append(FieldProblem("", "body \(id) is kinematic: it moves only by its velocity (set \"velocity\" or \"angular_velocity\"), "
                + "and takes no impulse, force or drag"))
        }
        switch input {
        case .dragTo, .release:
            if !drags.contains(where: { $0.body == id }) {
                problems.append(FieldProblem("", "body \(id) is not grabbed: a drag begins with \"grab\""))
            }
        default: break
        }
        guard problems.isEmpty else { throw .invalidValue(what: "input", problems: problems) }
        switch input {
        case let .impulse(impulse, at): Chipmunk.bodyApplyImpulse(crate.body, impulse, at: at)
        case let .velocity(velocity): Chipmunk.bodySetVelocity(crate.body, velocity)
        case let .angularVelocity(rate): Chipmunk.bodySetAngularVelocity(crate.body, rate)
        case let .hold(force, at, torque, steps): heldForces.append(HeldForce(body: id, force: force, at: at, torque: torque, remaining: steps))
        case let .grab(point, maxForce): grab(id, crate: crate, at: point, maxForce: maxForce)
        case let .dragTo(target): _ = dragTo(id, target)
        case .release: release(id)
        }
        inputsApplied += 1
    }

    /// Applies each held force for the step about to be taken, in the order they were given, and
    /// drops those whose steps are done.
    func applyHeldForces() {
        for held in heldForces {
            // A crate removed takes its held forces with it (`remove(_:)`).
            guard let crate = crate(held.body) else { continue }
            Chipmunk.bodyApplyForce(crate.body, held.force, at: held.at, torque: held.torque)
        }
        for i in heldForces.indices { heldForces[i].remaining -= 1 }
        heldForces.removeAll { $0.remaining <= 0 }
    }
}

extension Crate {
    /// A push: `cpBodyApplyImpulseAtWorldPoint` at `point` (a world point; the crate's position when nil).
    /// - Throws: `PhysicsError.notInThisWorld` outside a world; `invalidValue` for a value out of range.
    public func applyImpulse(_ impulse: Vec2, at point: Vec2? = nil) throws(PhysicsError) {
        try applyInWorld(.impulse(impulse, at: point))
    }

    /// - Throws: `PhysicsError.notInThisWorld` outside a world; `invalidValue` for a value out of range.
    public func setVelocity(_ velocity: Vec2) throws(PhysicsError) { try applyInWorld(.velocity(velocity)) }

    /// - Throws: `PhysicsError.notInThisWorld` outside a world; `invalidValue` for a value out of range.
    public func setAngularVelocity(_ rate: Double) throws(PhysicsError) { try applyInWorld(.angularVelocity(rate)) }

    /// A force (at a world point, or the crate's position) and a torque on the crate for each of
    /// the world's next `steps` steps.
    /// - Throws: `PhysicsError.notInThisWorld` outside a world; `invalidValue` for a value out of range.
    public func applyForce(_ force: Vec2, at point: Vec2? = nil, torque: Double = 0, steps: Int = 1) throws(PhysicsError) {
        try applyInWorld(.hold(force: force, at: point, torque: torque, steps: steps))
    }

    /// Takes hold of the crate at `point` (a world point) with a drag joint pulling it towards a
    /// target, first `point` (`BodyInput.grab`); `maxForce` nil: its mass × `Drag.defaultPull`.
    /// - Throws: `PhysicsError.notInThisWorld` outside a world; `invalidValue` for a value out of
    ///   range or a kinematic crate.
    public func grab(at point: Vec2, maxForce: Double? = nil) throws(PhysicsError) { try applyInWorld(.grab(at: point, maxForce: maxForce)) }

    /// Moves the target of the crate's drag.
    /// - Throws: `PhysicsError.notInThisWorld` outside a world; `invalidValue` for a value out of
    ///   range or a crate not grabbed.
    public func drag(to target: Vec2) throws(PhysicsError) { try applyInWorld(.dragTo(target)) }

    /// Lets go of the crate.
    /// - Throws: `PhysicsError.notInThisWorld` outside a world; `invalidValue` for a crate not grabbed.
    public func release() throws(PhysicsError) { try applyInWorld(.release) }

    private func applyInWorld(_ input: BodyInput) throws(PhysicsError) {
        guard let world, let id else { throw .notInThisWorld }
        try world.apply(input, to: id)
    }
}
