import SceneModel

/// A world that changes while it runs: structural changes made between steps and logged, so that
/// a saved state names the make-up it needs, and a world built from the same scene becomes it by
/// replaying the log (docs/determinism.md, "A world that changes").
extension World {
    /// Makes `change` now, between steps, and logs it in `makeup` with the step and the ids it
    /// made or took: an added crate gets the next body id, an added joint the next joint id; a
    /// removed body's joints leave first (ascending joint id), then its shape, then the body. Ids
    /// are never used again. The same as the input line that says it, applied after `stepCount` steps.
    ///
    /// ```swift
    /// let made = try world.apply(.addCrate(CrateSpec(center: Vec2(200, 400), size: Vec2(30, 30), mass: 4)))
    /// try world.apply(.removeBody(BodyID(made.made!)))
    /// ```
    /// - Returns: the log's new entry.
    /// - Throws: `PhysicsError.invalidValue` naming the value or the id: a part out of range, a
    ///   body or joint that is not in the world (never made, or gone: the message says when), a
    ///   world at its body or joint limit. Nothing changes then.
    @discardableResult
    public func apply(_ change: StructuralChange) throws(PhysicsError) -> MakeupChange {
        let problems = change.problems()
        guard problems.isEmpty else { throw .invalidValue(what: "change", problems: problems) }
        let entry = try make(change, madeValues: nil)
        makeup.append(entry)
        partsChanged()
        inputsApplied += 1
        return entry
    }

    /// Makes `change`; an added joint takes `madeValues` (a replayed log's) instead of working
    /// them out from where its bodies are.
    private func make(_ change: StructuralChange, madeValues: [Double]?) throws(PhysicsError) -> MakeupChange {
        var entry = MakeupChange(step: stepCount, change: change)
        switch change {
        case let .addCrate(spec):
            guard crates.count < Limits.crateCount.upperBound else {
                throw .invalidValue(what: "change", problems: [FieldProblem("add", "the world holds \(crates.count) bodies, the most it may")])
            }
            if madeValues == nil, let crowding = crowdingProblem(adding: spec) {
                throw .invalidValue(what: "change", problems: [FieldProblem("add", crowding)])
            }
            let crate = Crate(checkedSpec: spec)
            try add(crate)
            entry.made = crate.id?.rawValue
        case let .addWall(spec):
            try addWall(spec)
        case let .addJoint(kind, a, b, settings):
            let joint = try makeJoint(kind, a: try body(a, key: "add_joint.a"), b: try body(b, key: "add_joint.b"), settings: settings,
                                      replaying: madeValues != nil)
            if let madeValues { Chipmunk.constraintSetMadeValues(joint.constraint, kind, madeValues) }
            entry.madeValues = Chipmunk.constraintMadeValues(joint.constraint, kind)
            entry.made = add(joint).rawValue
        case let .removeBody(id):
            guard let crate = crate(id) else { throw absent(id, key: "body") }
            for (joint, jointID) in zip(joints, jointIDs) where joint.a === crate || joint.b === crate {
                try remove(joint)
                entry.jointsRemoved.append(jointID)
            }
            try remove(crate)
        case let .removeJoint(id):
            guard let index = jointIDs.firstIndex(of: id) else {
                let reason = makeup.last { $0.change == .removeJoint(id) || $0.jointsRemoved.contains(id) }.map { "it left the world at step \($0.step)" }
                    ?? (id.rawValue >= nextJointID ? "no joint \(id) was made (" + (nextJointID == 1 ? "the world has made none)" : "the world's joints so far are 1...\(nextJointID - 1))")
                        : "it is not in the world")
                throw .invalidValue(what: "change", problems: [FieldProblem("joint", "joint \(id) is not a joint of this world: \(reason)")])
            }
            try remove(joints[index])
        }
        return entry
    }

    /// Why a crate of `spec` cannot be added where it is, if it cannot: deep in more bodies than
    /// a scene's crate may be (`CrateOverlaps`), which would make each step take minutes (a flood
    /// of adds on one spot). Only bodies near it are looked at.
    private func crowdingProblem(adding spec: CrateSpec) -> String? {
        let size = spec.shape.boundingSize
        let reach = (size.x * size.x + size.y * size.y).squareRoot()
        func clamped(_ value: Double) -> Double { min(max(value, -Limits.coordinate), Limits.coordinate) }
        let low = Vec2(clamped(spec.center.x - reach), clamped(spec.center.y - reach))
        let high = Vec2(clamped(spec.center.x + reach), clamped(spec.center.y + reach))
        guard let near = try? query(boxFrom: low, to: high) else { return nil }
        let bodies = near.compactMap { party -> Crate? in if case let .body(id) = party { crate(id) } else { nil } }
        if bodies.count > Limits.bodiesMetByAnAdd {
            // Sensors and crates of one filter group never push, so only their boxes tell.
            let extent = spec.shape.halfExtents(angle: spec.angle)
            let met = (try? query(boxFrom: Vec2(clamped(spec.center.x - extent.x), clamped(spec.center.y - extent.y)),
                                  to: Vec2(clamped(spec.center.x + extent.x), clamped(spec.center.y + extent.y))))?
                .count { if case .body = $0 { true } else { false } } ?? 0
            if met > Limits.bodiesMetByAnAdd {
                return "its bounding box would meet \(met) bodies' (sensors and crates a filter keeps apart included), more than "
                    + "\(Limits.bodiesMetByAnAdd): Chipmunk's broadphase keeps every such pair, and a heap of them makes each step take minutes"
            }
        }
        guard bodies.count >= Limits.overlapsPerCrate else { return nil }
        let specs = bodies.map { crate in
            let now = crate.state
            return CrateSpec(center: now.position, shape: crate.shape, angle: now.angle.isFinite ? now.angle : 0, mass: crate.mass,
                             collision: crate.collision, bodyType: crate.bodyType)
        }
        guard CrateOverlaps.crowds(spec, among: specs) else { return nil }
        return "it would lie deep in more than \(Limits.overlapsPerCrate) bodies; a heap of bodies on one spot makes each step take minutes "
            + "(scenes are refused for it too)"
    }

    /// Releases the crates the spawners drop at this step boundary (after its input lines), in
    /// spawner order, each logged as an added crate. Not an input: a run stepped again from a
    /// saved state releases them again, so no owner of inputs records them (`RunInputs`). A crate that
    /// cannot be made where it appears (a heap there, the body limit) is not made, and noted.
    func releaseSpawns() {
        for (number, spawner) in spawners.enumerated() {
            guard let index = spawner.release(atStep: stepCount, stepRate: stepRate) else { continue }
            do {
                let entry = try make(.addCrate(spawner.crate(index)), madeValues: nil)
                makeup.append(entry)
                partsChanged()
            } catch {
                refusedSpawnSteps.append(stepCount)
                if refusedSpawns.count < 100 {
                    refusedSpawns.append(RefusedSpawn(step: stepCount, spawner: number, crate: index, reason: error.description))
                }
            }
        }
    }

    /// Removes, at the end of the step just taken, each breakable joint whose impulse in it passed
    /// its threshold, in ascending joint id: logged as a removal that broke (at the step count
    /// after the step), noted in `jointBreaks` and, when contact events are on, as `joint_broke`
    /// events after the step's contacts.
    func breakJoints() {
        var broken: [JointBreak] = []
        for (joint, id) in zip(joints, jointIDs) where joint.settings.breaks {
            // One read of Chipmunk's impulse a joint: the test and the report use the same value.
            let impulse = joint.impulse
            guard joint.settings.breaks(impulse: impulse, stepRate: stepRate) else { continue }
            broken.append(JointBreak(step: stepCount, joint: id, a: joint.a?.id, b: joint.b?.id, impulse: impulse))
        }
        jointBreaks = broken
        for item in broken {
            // A joint of this world, found by its id just now: its removal cannot fail.
            guard var entry = try? make(.removeJoint(item.joint), madeValues: nil) else { continue }
            entry.broke = true
            makeup.append(entry)
            partsChanged()
            if eventBuffer != nil { contactEvents.append(item.event) }
        }
    }

    /// The crate with `id` (nil: the static body), or why there is none.
    private func body(_ id: BodyID?, key: String) throws(PhysicsError) -> Crate? {
        guard let id else { return nil }
        guard let crate = crate(id) else { throw absent(id, key: key) }
        return crate
    }

    /// Why body `id` is not in the world: it left (when), or was never made.
    private func absent(_ id: BodyID, key: String) -> PhysicsError {
        let reason = makeup.last { $0.change == .removeBody(id) }.map { "it left the world at step \($0.step)" }
            ?? (id.rawValue >= nextBodyID ? "no body \(id) was made (" + (nextBodyID == 1 ? "the world has made none)" : "the world's bodies so far are 1...\(nextBodyID - 1))")
                : "it is not in the world")
        return .invalidValue(what: "change", problems: [FieldProblem(key, "body \(id) is not a body of this world: \(reason)")])
    }

    // MARK: Parts

    /// What snapshots carry of the world's parts once its make-up has changed (nil before): from
    /// then on, also after a restore back to the scene's own make-up, so whoever drew the changed
    /// parts learns they changed back.
    var changedParts: WorldParts? {
        guard partsVersion > 0 else { return nil }
        if let partsCache { return partsCache }
        var colors: [BodyID: RGB] = [:], masses: [BodyID: Double] = [:]
        for crate in crates {
            guard let id = crate.id else { continue }
            if let color = crate.color { colors[id] = color }
            if crate.bodyType == .dynamic { masses[id] = crate.mass }
        }
        let parts = WorldParts(version: partsVersion, changes: makeup.count, bodyShapes: bodyShapes, bodyColors: colors, masses: masses,
                               walls: wallStates(), joints: jointLinks)
        partsCache = parts
        return parts
    }

    /// Notes that the parts changed: a structural change, or a restore that took another make-up.
    /// Each time gets a new version, also when a rewound world makes as many changes again.
    func partsChanged() {
        partsCache = nil
        partsVersion += 1
    }

    // MARK: Building again

    /// A world built again from `origin` with `log` replayed, each change at its step, checked as
    /// it goes: each must apply and make what the log says it made.
    /// - Throws: `StateError.malformed` for a log that does not replay as written.
    static func rebuilt(from origin: CheckedScene, replaying log: [MakeupChange], like world: World) throws(StateError) -> World {
        let fresh: World
        do {
            fresh = try World(checked: origin)
        } catch {
            throw .unsupportedWorld("cannot build the world again from its scene: \(error)")
        }
        fresh.snapshotsIncludeContacts = world.snapshotsIncludeContacts
        fresh.recordsContactEvents = world.recordsContactEvents
        for entry in log {
            guard entry.step >= fresh.stepCount else { throw .malformed("the state's make-up log is out of order (a change at step \(entry.step))") }
            fresh.stepCount = entry.step
            var made: MakeupChange
            do throws(PhysicsError) {
                let problems = entry.change.problems()
                guard problems.isEmpty else { throw .invalidValue(what: "change", problems: problems) }
                made = try fresh.make(entry.change, madeValues: entry.madeValues)
                made.broke = entry.broke
            } catch {
                throw .malformed("the state's make-up log does not apply to its scene: at step \(entry.step): \(error)")
            }
            guard made == entry else {
                throw .malformed("the state's make-up log does not replay as written: the change at step \(entry.step) made other ids")
            }
            fresh.makeup.append(made)
        }
        return fresh
    }

    /// Takes `other`'s space and parts (a world built again), giving it this world's, which go
    /// when it does. Crates, walls and joints of the old make-up are left detached.
    func adopt(_ other: World) {
        let applied = inputsApplied
        swap(&space, &other.space)
        swap(&crates, &other.crates)
        swap(&rowBodies, &other.rowBodies)
        swap(&rowIDs, &other.rowIDs)
        swap(&walls, &other.walls)
        swap(&tumblers, &other.tumblers)
        swap(&joints, &other.joints)
        swap(&jointIDs, &other.jointIDs)
        swap(&breakableJoints, &other.breakableJoints)
        swap(&jointBreaks, &other.jointBreaks)
        swap(&nextJointID, &other.nextJointID)
        swap(&makeup, &other.makeup)
        swap(&stateMakeupCache, &other.stateMakeupCache)
        swap(&stepCount, &other.stepCount)
        swap(&heldForces, &other.heldForces)
        swap(&drags, &other.drags)
        swap(&dragJoints, &other.dragJoints)
        swap(&eventBuffer, &other.eventBuffer)
        swap(&contactHooks, &other.contactHooks)
        swap(&contactEvents, &other.contactEvents)
        swap(&nextBodyID, &other.nextBodyID)
        swap(&nonFinite, &other.nonFinite)
        for crate in crates { crate.world = self }
        for wall in walls { wall.world = self }
        for tumbler in tumblers { tumbler.world = self }
        for joint in joints { joint.world = self }
        for crate in other.crates { crate.world = other }
        for wall in other.walls { wall.world = other }
        for tumbler in other.tumblers { tumbler.world = other }
        for joint in other.joints { joint.world = other }
        inputsApplied = applied + 1
        partsChanged()
    }
}
