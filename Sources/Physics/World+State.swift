import SceneModel

/// Why a world's state could not be saved or restored.
public enum StateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The loaded libchipmunk cannot save or restore a space exactly (Debian's library: its
    /// broadphase tree, which decides the solver's order, is private to it).
    case unsupportedBackend
    /// This world's set-up is outside what a saved state covers.
    case unsupportedWorld(String)
    /// The state belongs to a world of another make-up (scene).
    case otherWorld
    /// The state's bytes are malformed: cut short, out of range, inconsistent.
    case malformed(String)

    public var description: String {
        switch self {
        // Written for whoever built the program: most often a Swift program on CrateDrop's
        // libraries linked without the flags, then the cratedrop command installed without it.
        case .unsupportedBackend:
            "saved states need CrateDrop's Chipmunk (the portable physics backend), and this program loaded Debian's libchipmunk7, "
                + "which keeps its broadphase tree private (the order in which it hands pairs to the solver is part of what a "
                + "continuation must restore). A Swift program on CrateDrop's libraries links CrateDrop's Chipmunk when built with "
                + "lib=$(PATH_TO_CRATEDROP/scripts/chipmunk-library) and swift build -Xlinker -L\"$lib\" -Xlinker -rpath -Xlinker \"$lib\" "
                + "(CrateDrop's README, \"Use CrateDrop from Swift\"); World.canSaveState tells before a save. The cratedrop command has it "
                + "unless installed with scripts/install --chipmunk debian (`cratedrop platform` tells)"
        case let .unsupportedWorld(reason): reason
        case .otherWorld: "the state was saved from a world of another make-up (another scene)"
        case let .malformed(reason): reason
        }
    }
}

extension World {
    /// Whether the loaded libchipmunk can save and restore worlds (`cratedrop platform` says which backend it is).
    public static var canSaveState: Bool { SavedStateCalls.available }

    /// Every shape in the world's own order (walls, tumblers' walls, crates), and every moving body
    /// (tumblers, crates): the order both sides of a saved state name them by; with the world's
    /// fingerprint. Made once, until a crate, wall or tumbler is added or removed.
    private var stateMakeup: StateMakeup {
        if let stateMakeupCache { return stateMakeupCache }
        let makeup = StateMakeup(shapes: walls.map { $0.shape } + tumblers.flatMap { $0.shapes } + crates.flatMap { $0.shapes },
                                 bodies: tumblers.map { $0.body } + crates.map { $0.body },
                                 constraints: joints.map { $0.constraint } + dragJoints.map { $0.constraint },
                                 fingerprint: computeFingerprint())
        stateMakeupCache = makeup
        return makeup
    }

    /// The world's make-up, which a state must match: step rate, walls, tumblers, each crate's
    /// shape (every value that defines it: `BodyShape.fingerprintValues`), mass, surface and
    /// collision settings, and each joint (`JointSpec.fingerprintValues`, its ends by the crates'
    /// places), and the digest of each terrain picture's bytes (`Scene.terrain`), hashed with
    /// FNV-1a 64 over their IEEE-754 bits.
    public var fingerprint: UInt64 { stateMakeup.fingerprint }

    private func computeFingerprint() -> UInt64 {
        var hasher = FNV1a64()
        hasher.combine(Double(stepRate))
        for wall in walls {
            let spec = wall.spec
            for value in spec.geometry.fingerprintValues { hasher.combine(value) }
            for value in [spec.radius, spec.friction, spec.elasticity] + spec.collision.fingerprintValues + spec.rules.fingerprintValues {
                hasher.combine(value)
            }
        }
        // A picture's bytes: a changed picture is a changed world, even where it traces the same walls.
        for source in origin?.scene.terrain ?? [] {
            for value in [ShapeFingerprint.terrainMarker, Double(source.wallIndex), Double(source.digest >> 32),
                          Double(source.digest & 0xffff_ffff)] {
                hasher.combine(value)
            }
        }
        for tumbler in tumblers {
            let spec = tumbler.spec
            for value in [spec.center.x, spec.center.y, spec.size.x, spec.size.y, spec.angularVelocity, spec.radius, spec.friction, spec.elasticity] {
                hasher.combine(value)
            }
        }
        for crate in crates {
            if crate.bodyType == .kinematic { hasher.combine(ShapeFingerprint.kinematicMarker) }
            for value in crate.shape.fingerprintValues + [crate.mass, crate.friction, crate.elasticity] + crate.collision.fingerprintValues
                + crate.rules.fingerprintValues {
                hasher.combine(value)
            }
        }
        // A scene's spawners decide what the world will be made of: a state of another's continues otherwise.
        for spawner in spawners {
            hasher.combine(ShapeFingerprint.spawnerMarker)
            for value in [spawner.at.x, spawner.at.y, Double(spawner.interval(stepRate: stepRate)), Double(spawner.firstStep(stepRate: stepRate)),
                          Double(spawner.count), spawner.jitter.x, spawner.jitter.y, spawner.scale?.lowerBound ?? 0,
                          spawner.scale?.upperBound ?? 0, Double(spawner.seed >> 32), Double(spawner.seed & 0xffff_ffff)]
                + spawner.crate.shape.fingerprintValues + [spawner.crate.angle, spawner.crate.mass, spawner.crate.friction,
                                                           spawner.crate.elasticity] + spawner.crate.collision.fingerprintValues
                + spawner.crate.rules.fingerprintValues {
                hasher.combine(value)
            }
        }
        if !joints.isEmpty {
            var place: [ObjectIdentifier: Int] = [:]
            for (index, crate) in crates.enumerated() { place[ObjectIdentifier(crate)] = index }
            func end(_ crate: Crate?) -> JointEnd { crate.map { .crate(place[ObjectIdentifier($0)] ?? -1) } ?? .world }
            for joint in joints {
                for value in JointSpec(joint.kind, a: end(joint.a), b: end(joint.b), settings: joint.settings).fingerprintValues {
                    hasher.combine(value)
                }
            }
        }
        return hasher.value
    }

    /// The world's complete state now, between steps: restoring it into this world, or into one
    /// built from the same scene (in any process, on any CPU running the portable backend),
    /// continues exactly as this world goes on.
    /// - Throws: `StateError.unsupportedBackend` on Debian's library; `unsupportedWorld` for a
    ///   world with sleeping or Chipmunk's spatial hash, which this format does not cover.
    public func saveState() throws(StateError) -> WorldState {
        statesSaved += 1
        do {
            let makeup = stateMakeup
            let saved = try SavedStateCalls.save(space: space, makeup: makeup)
            var state = WorldState(step: stepCount, gravity: gravity, fingerprint: makeup.fingerprint, savedPhysics: saved.bytes,
                                   restoreAid: saved.aid, heldForces: heldForces, drags: drags)
            state.makeup = self.makeup
            return state
        } catch {
            throw StateError(error)
        }
    }

    /// Puts `state` into the world: from the next step on it goes on exactly as the world the
    /// state was saved from. A state whose make-up log is not this world's (saved before or after
    /// a structural change, or after others) is put into the world built again from its scene
    /// with the state's log replayed, which this world then becomes: its crates, walls and joints
    /// are then new objects, and those held from before are detached (look bodies up again by id,
    /// `crate(_:)`). On any error the world is left as it was.
    /// - Throws: `StateError.otherWorld` when the state belongs to another make-up; `malformed`
    ///   with what is wrong (a make-up log that does not replay as written among it);
    ///   `unsupportedBackend` on Debian's library; `unsupportedWorld` for a state of another log
    ///   and a world not built from a scene (`init(checked:)`), which cannot be built again.
    public func restore(_ state: WorldState) throws(StateError) {
        if state.makeup != makeup {
            guard state.makeup.last.map({ $0.step <= state.step }) ?? true else {
                throw .malformed("the state's make-up log has a change after the state's own step")
            }
            guard let origin else {
                throw .unsupportedWorld("the state's world went through other structural changes, and this world was not built from a scene to build again")
            }
            let fresh = try World.rebuilt(from: origin, replaying: state.makeup, like: self)
            try fresh.restore(state)
            adopt(fresh)
            forgetRefusedSpawns(from: state.step)
            return
        }
        guard state.fingerprint == fingerprint else { throw .otherWorld }
        guard state.step >= 0 else { throw .malformed("the state's step count is negative") }
        // Gravity is checked before anything changes, like every other value.
        guard state.gravity.x.isFinite, state.gravity.y.isFinite, abs(state.gravity.x) <= Limits.gravity,
              abs(state.gravity.y) <= Limits.gravity else { throw .malformed("the state's gravity is out of range") }
        for held in state.heldForces {
            guard crate(held.body) != nil, BodyInput.hold(force: held.force, at: held.at, torque: held.torque, steps: held.remaining)
                .problems().isEmpty else { throw .malformed("a force the state holds names a body not in the world, or is out of range") }
        }
        for drag in state.drags {
            guard let crate = crate(drag.body), crate.bodyType == .dynamic, drag.problems().isEmpty else {
                throw .malformed("a drag the state holds names a body not in the world (or not a dynamic one), or is out of range")
            }
        }
        // A state from outside (a file) is checked, once restored, as scenes are: bodies piled on
        // one spot make each step take minutes. Refused, the world goes back to how it was. So
        // does a world whose drags the state changes (their joints are made again).
        let changesDrags = state.drags != drags
        let before = state.physicsAsSaved && !changesDrags ? nil : try saveState()
        func undo() {
            // This world's own state, just saved: restoring it cannot fail.
            guard let before else { return }
            replaceDrags(with: before.drags)
            try? SavedStateCalls.restore(space: space, makeup: stateMakeup, bytes: before.physics, asSaved: true, aid: before.restoreAid)
        }
        replaceDrags(with: state.drags)
        do {
            try SavedStateCalls.restore(space: space, makeup: stateMakeup, bytes: state.physics, asSaved: state.physicsAsSaved,
                                        aid: state.restoreAid)
        } catch {
            undo()
            throw StateError(error)
        }
        if !state.physicsAsSaved, let crowding = crowdingProblem() {
            undo()
            throw .malformed(crowding)
        }
        // Checked above: cannot fail.
        try? setGravity(state.gravity)
        heldForces = state.heldForces
        // A look-ahead (the synctest's) may have stepped the world past finite values: the state's
        // own next step says whether it goes there.
        nonFinite = nil
        stepCount = state.step
        forgetRefusedSpawns(from: state.step)
        inputsApplied += 1
    }
}

extension World {
    /// Forgets the spawned crates not made at and after `step`, which a world restored to it meets
    /// again as it steps on.
    private func forgetRefusedSpawns(from step: Int) {
        while let last = refusedSpawnSteps.last, last >= step { refusedSpawnSteps.removeLast() }
        refusedSpawns.removeAll { $0.step >= step }
    }

    /// Why the world's bodies, where they are now, are too crowded to step (as a scene's start
    /// would be refused: `CrateOverlaps`, counting only overlaps deeper than resting bodies make);
    /// nil if they are not.
    func crowdingProblem() -> String? {
        let bodies = snapshot().bodies
        // Bodies far outside any world (thrown out, falling for ever) meet nothing in it; the
        // check's grid takes coordinates within Limits.coordinate.
        var specs: [CrateSpec] = [], owners: [Crate] = []
        for (crate, body) in zip(crates, bodies)
        where body.position.isFinite && abs(body.position.x) <= Limits.coordinate && abs(body.position.y) <= Limits.coordinate {
            specs.append(CrateSpec(center: body.position, shape: crate.shape, angle: body.angle.isFinite ? body.angle : 0, mass: crate.mass,
                                   collision: crate.collision, bodyType: crate.bodyType))
            owners.append(crate)
        }
        let report = CrateOverlaps.check(specs, deepOnly: true)
        if report.gaveUp || report.overlappingPairs > Limits.overlappingPairs {
            return "the state's bodies lie too deep in each other to step (more than \(Limits.overlappingPairs) pairs, "
                + "or too many to check); a step would take minutes"
        }
        guard let crowded = report.crowded.first, let id = owners[crowded.index].id else { return nil }
        return "the state's body \(id) lies deep in more than \(Limits.overlapsPerCrate) others; a heap of bodies on one spot makes "
            + "each step take minutes (scenes are refused for it too)"
    }
}

extension World {
    /// A second world, independent of this one, in this one's state now: stepped alike, it goes on
    /// exactly as this one would (for planners and search: try what happens next on a copy).
    /// The copy has this world's walls, tumblers, crates (with their ids) and joints, step count and gravity.
    /// - Throws: what `saveState()` throws (`StateError.unsupportedBackend` on Debian's library).
    public func copy() throws(StateError) -> World {
        let state = try saveState()
        // A changed world is built as it was: its scene, then its log (shapes' ids follow the order they were made in).
        if !makeup.isEmpty {
            guard let origin else { throw .unsupportedWorld("a world not built from a scene cannot be copied once its make-up has changed") }
            let twin = try World.rebuilt(from: origin, replaying: makeup, like: self)
            try twin.restore(state)
            return twin
        }
        let twin: World
        do {
            twin = try World(gravity: gravity, stepRate: stepRate, iterations: iterations, space: spaceOptions)
            for wall in walls { try twin.addWall(wall.spec) }
            for tumbler in tumblers { try twin.addTumbler(tumbler.spec) }
            for crate in crates {
                let now = crate.state
                var spec = CrateSpec(center: now.position, shape: crate.shape, angle: now.angle, velocity: now.velocity,
                                     angularVelocity: now.angularVelocity, mass: crate.mass, friction: crate.friction, elasticity: crate.elasticity,
                                     collision: crate.collision, color: crate.color, bodyType: crate.bodyType)
                spec.rules = crate.rules
                try twin.add(Crate(spec), id: crate.id ?? BodyID(twin.nextBodyID))
            }
            var twinOf: [ObjectIdentifier: Crate] = [:]
            for (crate, twinCrate) in zip(crates, twin.crates) { twinOf[ObjectIdentifier(crate)] = twinCrate }
            let staticBody = Chipmunk.spaceStaticBody(twin.space)
            for (joint, id) in zip(joints, jointIDs) {
                twin.add(Joint(copying: joint, a: joint.a.flatMap { twinOf[ObjectIdentifier($0)] },
                               b: joint.b.flatMap { twinOf[ObjectIdentifier($0)] }, staticBody: staticBody), id: id)
            }
        } catch {
            // This world's own values, checked when it was made: not reached.
            throw .unsupportedWorld("cannot make a copy of this world: \(error)")
        }
        twin.nextBodyID = nextBodyID
        twin.nextJointID = nextJointID
        twin.origin = origin
        twin.spawners = spawners
        twin.snapshotsIncludeContacts = snapshotsIncludeContacts
        twin.recordsContactEvents = recordsContactEvents
        try twin.restore(state)
        return twin
    }
}

extension StateError {
    init(_ error: SavedStateCallError) {
        switch error {
        case .unavailable: self = .unsupportedBackend
        case .notATree: self = .unsupportedWorld("saved states do not cover Chipmunk's spatial hash (spatial_hash): use the default tree")
        case .sleeping: self = .unsupportedWorld("saved states do not cover sleeping bodies (sleep_time)")
        case .locked: self = .unsupportedWorld("the world is stepping")
        case .pendingForces: self = .unsupportedWorld("a body has a force pending")
        case .outOfMemory: self = .unsupportedWorld("out of memory")
        case .unknownShape: self = .unsupportedWorld("the world holds a shape it does not list")
        case .unknownConstraint: self = .unsupportedWorld("the world holds a joint it does not list")
        case let .malformed(reason): self = .malformed(reason)
        }
    }
}
