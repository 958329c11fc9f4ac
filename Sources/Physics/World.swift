import SceneModel

/// A physics world: owns a Chipmunk space (`cpSpace`) and, strongly and in insertion order, the
/// crates and walls in it.
///
/// Time advances only by `step()`, exactly 1/`stepRate` s each. Dropping the world removes every
/// shape, then every body, from the space and then frees it; crates still referenced elsewhere are
/// left detached and can be added to another world. Not `Sendable`: one thread at a time.
public final class World {
    /// The space; replaced only when a restore rebuilds the world (`World+Changes.swift`).
    var space: OpaquePointer
    /// Fixed steps per simulated second.
    public let stepRate: Int
    /// The crates in the world, in the order they were added (ascending `BodyID`).
    public internal(set) var crates: [Crate] = [] { didSet { madeOfOtherParts() } }
    /// What a snapshot reads of each crate, parallel to `crates`: copying state out walks plain
    /// values instead of class instances (no reference counting in the per-step copy), and the
    /// finiteness check after every step hands the bodies to C in one array.
    var rowBodies: [OpaquePointer?] = []
    var rowIDs: [BodyID] = []
    public internal(set) var walls: [Wall] = [] { didSet { madeOfOtherParts() } }
    public internal(set) var tumblers: [Tumbler] = [] { didSet { stateMakeupCache = nil } }

    /// The world's parts changed: what saved states name is made again; once the world has
    /// stepped, snapshots carry the new parts (a part added or removed through the Swift API
    /// directly, which the make-up log does not hold, is drawn too).
    private func madeOfOtherParts() {
        stateMakeupCache = nil
        if stepCount > 0 { partsChanged() }
    }
    /// The joints, in the order they were added (ascending `JointID`).
    public internal(set) var joints: [Joint] = [] { didSet { madeOfOtherParts() } }
    /// The joints' ids, parallel to `joints`.
    var jointIDs: [JointID] = []
    /// Set by the first step after which a body's state is not finite (NaN or infinite), and kept:
    /// a run stops there (`StepPipeline`).
    public internal(set) var nonFinite: NonFiniteBody?
    /// Joints with a breaking threshold: the world looks at their impulses after each step.
    var breakableJoints = 0
    /// The joints that broke in the last step, in ascending joint id.
    public internal(set) var jointBreaks: [JointBreak] = []
    var nextJointID: UInt64 = 1
    /// The structural changes made since the world was built, in order (`apply(_:)`).
    public internal(set) var makeup: [MakeupChange] = []
    /// The scene the world was built from, when it was: a restore of a state with another
    /// make-up log builds the world again from it (`World+Changes.swift`).
    var origin: CheckedScene?
    /// What snapshots carry of the parts once the make-up has changed, kept until it changes again.
    var partsCache: WorldParts?
    /// How many times the parts have changed (`WorldParts.version`): never repeats in a world's life.
    package internal(set) var partsVersion = 0
    /// The scene's spawners, releasing crates as the world steps (`World+Changes.swift`).
    public internal(set) var spawners: [Spawner] = []
    /// Spawned crates that could not be made (a heap where they appear, the body limit), first 100.
    public internal(set) var refusedSpawns: [RefusedSpawn] = []
    /// How many spawned crates could not be made, in all.
    public var refusedSpawnCount: Int { refusedSpawnSteps.count }
    /// The step of each spawned crate not made, in order: a restore forgets those at and after
    /// its step, which the world, stepping on, meets again (a synctest's look-ahead counted them twice).
    var refusedSpawnSteps: [Int] = []
    /// What saved states name of this world (`World+State.swift`), kept until its make-up changes.
    var stateMakeupCache: StateMakeup?
    /// Steps taken since the world was made.
    public internal(set) var stepCount = 0
    /// Forces held on crates over the next steps (`hold(_:on:)`), applied before each step.
    public internal(set) var heldForces: [HeldForce] = []
    /// Crates held by drags (`BodyInput.grab`), in ascending body id.
    public internal(set) var drags: [Drag] = []
    /// The drags' joints, parallel to `drags`: not the world's `joints` (a drag is an input, not
    /// part of the world's make-up), but in its saved states all the same.
    var dragJoints: [Joint] = []
    /// Inputs applied so far (gravity changes, pushes, velocities set, forces held): a look-ahead
    /// (the synctest's) knows its prediction holds only while this has not changed.
    public internal(set) var inputsApplied = 0
    /// Saves made of this world so far (`saveState()`, a restore's own included): a save of a
    /// large world costs, and a caller can check that it saves no more often than it means to.
    public internal(set) var statesSaved = 0
    /// Where Chipmunk notes contact events while `recordsContactEvents` is on (contact_events.h).
    var eventBuffer: UnsafeMutableRawPointer?
    /// The space's collision handler, the one place that decides what a contact does: the rules of
    /// contact, then the events (contact_hooks.h). Installed when the first is needed; a world
    /// without rules or events keeps Chipmunk's default handler.
    var contactHooks: UnsafeMutableRawPointer?
    /// The contact events of the last step, in report order (`ContactEvent.reportOrder`); empty
    /// unless `recordsContactEvents` is on.
    public internal(set) var contactEvents: [ContactEvent] = []
    var nextBodyID: UInt64 = 1
    /// How the space was made, for `copy()`.
    let iterations: Int
    let spaceOptions: SpaceOptions

    /// - Parameters:
    ///   - gravity: acceleration in px/s², y up.
    ///   - stepRate: steps per simulated second; each `step()` advances 1/stepRate s.
    ///   - iterations: solver iterations per step (`cpSpaceSetIterations`).
    ///   - options: the `space` argument: index and sleeping settings (default: Chipmunk's tree, no sleeping).
    /// - Throws: `PhysicsError.invalidValue` for values outside `Limits`.
    public init(gravity: Vec2, stepRate: Int = Scene.defaultStepRate, iterations: Int = Scene.defaultIterations,
                space options: SpaceOptions = SpaceOptions()) throws(PhysicsError) {
        var problems = World.gravityProblems(gravity)
        if !Limits.stepRate.contains(stepRate) { problems.append(FieldProblem("step_rate", "must be in \(Limits.stepRate), got \(stepRate)")) }
        if !Limits.iterations.contains(iterations) { problems.append(FieldProblem("iterations", "must be in \(Limits.iterations), got \(iterations)")) }
        if let hash = options.spatialHash, !(Limits.hashCellSize.contains(hash.cellSize) && Limits.hashCells.contains(hash.cells)) {
            problems.append(FieldProblem("spatial_hash", "cell size must be in \(Limits.hashCellSize) and cells in \(Limits.hashCells)"))
        }
        if let sleep = options.sleepTimeThreshold, !(sleep.isFinite && sleep > 0) {
            problems.append(FieldProblem("sleep_time", "must be > 0, got \(sleep)"))
        }
        guard problems.isEmpty else { throw .invalidValue(what: "world", problems: problems) }
        self.stepRate = stepRate
        self.iterations = iterations
        spaceOptions = options
        space = Chipmunk.spaceNew(gravity: gravity, iterations: iterations)
        if let hash = options.spatialHash { Chipmunk.spaceUseSpatialHash(space, cellSize: hash.cellSize, cells: hash.cells) }
        if let sleep = options.sleepTimeThreshold { Chipmunk.spaceSetSleepTimeThreshold(space, sleep) }
    }

    deinit {
        // Chipmunk's cpSpaceFree frees none of the bodies, shapes and constraints added to it, and
        // they point into the space, so take them all out first: constraints (which point at
        // bodies), shapes, then bodies, then the space.
        // Removing shapes ends their contacts: nothing is noted any more.
        // Constraints and bodies go in the order that finds each at once (one by one in the order
        // they were added, 100,000 joints took over a minute: `Chipmunk.spaceRemoveAllConstraints`).
        if let contactHooks { Chipmunk.eventsStop(contactHooks) }
        Chipmunk.spaceRemoveAllConstraints(space)
        for crate in crates { for shape in crate.shapes { Chipmunk.spaceRemoveShape(space, shape) } }
        for wall in walls { Chipmunk.spaceRemoveShape(space, wall.shape) }
        for tumbler in tumblers { for shape in tumbler.shapes { Chipmunk.spaceRemoveShape(space, shape) } }
        Chipmunk.spaceRemoveAllBodies(space)
        Chipmunk.spaceFree(space)
        if let contactHooks { Chipmunk.hooksFree(contactHooks) }
        for crate in crates {
            crate.world = nil
            crate.id = nil
        }
        for wall in walls { wall.world = nil }
        for tumbler in tumblers { tumbler.world = nil }
        for joint in joints {
            joint.world = nil
            joint.id = nil
        }
    }

    /// The length of one step in seconds.
    public var timeStep: Double { 1 / Double(stepRate) }

    // MARK: Crates

    /// Adds `crate` to the world and gives it the next `BodyID`.
    /// - Throws: `PhysicsError.crateAlreadyInWorld` if it is in this or another world.
    public func add(_ crate: Crate) throws(PhysicsError) {
        try add(crate, id: BodyID(nextBodyID))
    }

    /// Adds `crate` with `id` (a copy keeps its original's ids); later crates get ids after it.
    func add(_ crate: Crate, id: BodyID) throws(PhysicsError) {
        guard crate.world == nil else { throw .crateAlreadyInWorld }
        Chipmunk.spaceAddBody(space, crate.body)
        // A compound body's parts in order: Chipmunk sums their masses as each is added.
        for shape in crate.shapes {
            Chipmunk.spaceAddShape(space, shape)
            Chipmunk.shapeSetParty(shape, Int(truncatingIfNeeded: id.rawValue))
        }
        if let direction = crate.rules.oneWay { Chipmunk.hooksAddOneWay(hooks(), crate.collisionShape, direction) }
        crate.world = self
        crate.id = id
        nextBodyID = max(nextBodyID, id.rawValue &+ 1)
        crates.append(crate)
        rowBodies.append(crate.body)
        rowIDs.append(id)
    }

    /// Makes a crate from `spec` and adds it.
    @discardableResult
    public func addCrate(_ spec: CrateSpec) throws(PhysicsError) -> Crate {
        let crate = try Crate(spec)
        try add(crate)
        return crate
    }

    /// Takes `crate` out of the world: its shape, then its body. It can be added again later.
    /// - Throws: `PhysicsError.notInThisWorld` if it is not in this world; `crateHasJoints` while
    ///   a joint holds it (remove the joint first).
    public func remove(_ crate: Crate) throws(PhysicsError) {
        guard crate.world === self, let id = crate.id, let index = crateIndex(id), crates[index] === crate else { throw .notInThisWorld }
        guard !joints.contains(where: { $0.a === crate || $0.b === crate }) else { throw .crateHasJoints }
        // A drag is an input: it goes with its crate, as a held force does.
        release(id)
        for shape in crate.shapes { Chipmunk.spaceRemoveShape(space, shape) }
        Chipmunk.spaceRemoveBody(space, crate.body)
        crates.remove(at: index)
        rowBodies.remove(at: index)
        rowIDs.remove(at: index)
        heldForces.removeAll { $0.body == id }
        crate.world = nil
        crate.id = nil
    }

    // MARK: Walls

    /// Adds a static segment on the world's static body.
    /// - Throws: `PhysicsError.invalidValue` for a bad spec (zero length, non-finite, ...).
    @discardableResult
    public func addWall(_ spec: WallSpec) throws(PhysicsError) -> Wall {
        var problems = spec.problems()
        if walls.count >= Limits.walls.upperBound {
            problems.append(FieldProblem("walls", "the world holds \(walls.count) walls, the most it may"))
        }
        guard problems.isEmpty else { throw .invalidValue(what: "wall", problems: problems) }
        let wall = Wall(spec, staticBody: Chipmunk.spaceStaticBody(space))
        Chipmunk.spaceAddShape(space, wall.shape)
        if let direction = spec.rules.oneWay { Chipmunk.hooksAddOneWay(hooks(), wall.shape, direction) }
        wall.world = self
        walls.append(wall)
        // Walls are named by their place, a tumbler's after them: the new wall, and the tumblers'
        // four each (relabelling every wall on each add made building 100,000 walls take minutes).
        Chipmunk.shapeSetParty(wall.shape, -walls.count)
        if !tumblers.isEmpty { labelTumblerWalls() }
        return wall
    }

    /// - Throws: `PhysicsError.notInThisWorld` if `wall` is not in this world.
    public func remove(_ wall: Wall) throws(PhysicsError) {
        guard wall.world === self, let index = walls.lastIndex(where: { $0 === wall }) else { throw .notInThisWorld }
        Chipmunk.spaceRemoveShape(space, wall.shape)
        walls.remove(at: index)
        wall.world = nil
        labelWalls()
    }

    // MARK: Joints

    /// Joins `a` and `b` (crates of this world; nil for the world's static body) as `kind` says.
    /// Anchors are in each body's frame, the static body's being the world's; a pivot's point and
    /// a pin's length are taken from where the bodies are now.
    ///
    /// ```swift
    /// let hinge = try world.addJoint(.pivot(point: Vec2(300, 400)), a: nil, b: door)
    /// let motor = try world.addJoint(.simpleMotor(rate: 3), a: car, b: wheel, settings: JointSettings(maxForce: 5e6))
    /// ```
    /// - Throws: `PhysicsError.notInThisWorld` if a crate is not in this world; `invalidValue` for
    ///   a value out of range, a body joined to itself, two static ends or a pin of length 0.
    @discardableResult
    public func addJoint(_ kind: JointKind, a: Crate?, b: Crate?, settings: JointSettings = .standard) throws(PhysicsError) -> Joint {
        let joint = try makeJoint(kind, a: a, b: b, settings: settings)
        add(joint)
        return joint
    }

    /// - Throws: `PhysicsError.notInThisWorld` if `joint` is not in this world.
    public func remove(_ joint: Joint) throws(PhysicsError) {
        guard joint.world === self, let index = joints.lastIndex(where: { $0 === joint }) else { throw .notInThisWorld }
        Chipmunk.spaceRemoveConstraint(space, joint.constraint)
        joints.remove(at: index)
        jointIDs.remove(at: index)
        if joint.settings.breaks { breakableJoints -= 1 }
        joint.world = nil
        joint.id = nil
    }

    /// A checked joint of this world's bodies, not yet added.
    /// - Parameter replaying: a replayed log's joint, whose made values come from the log: where its
    ///   bodies are now (their scene places) decides nothing, so the check of where its anchors are is not made.
    func makeJoint(_ kind: JointKind, a: Crate?, b: Crate?, settings: JointSettings, replaying: Bool = false) throws(PhysicsError) -> Joint {
        func end(_ crate: Crate?) throws(PhysicsError) -> JointEnd {
            guard let crate else { return .world }
            guard crate.world === self, let id = crate.id, let index = crateIndex(id), crates[index] === crate else { throw .notInThisWorld }
            return .crate(index)
        }
        let spec = JointSpec(kind, a: try end(a), b: try end(b), settings: settings)
        var problems = spec.problems()
        if problems.isEmpty, !replaying, let (pointA, pointB) = spec.anchorsInWorld({ end in
            guard let index = end.crateIndex else { return (.zero, 0) }
            let state = crates[index].state
            return (state.position, state.angle)
        }), pointA == pointB {
            problems.append(FieldProblem("anchor_b", "the anchors are at the same point: a pin of length 0 cannot keep a direction; use a pivot joint"))
        }
        if problems.isEmpty, a?.bodyType != .dynamic, b?.bodyType != .dynamic {
            problems.append(FieldProblem("b", JointSpec.noDynamicEnd))
        }
        if problems.isEmpty, joints.count >= Limits.joints.upperBound {
            problems.append(FieldProblem("joints", "at most \(Limits.joints.upperBound) joints"))
        }
        guard problems.isEmpty else { throw .invalidValue(what: "joint", problems: problems) }
        return Joint(kind, a: a, b: b, settings: settings, staticBody: Chipmunk.spaceStaticBody(space))
    }

    /// Adds `joint` with the next `JointID` (or `id`, a copy's).
    @discardableResult
    func add(_ joint: Joint, id: JointID? = nil) -> JointID {
        let id = id ?? JointID(nextJointID)
        Chipmunk.spaceAddConstraint(space, joint.constraint)
        joint.world = self
        joint.id = id
        joints.append(joint)
        jointIDs.append(id)
        if joint.settings.breaks { breakableJoints += 1 }
        nextJointID = max(nextJointID, id.rawValue &+ 1)
        return id
    }

    // MARK: Tumblers

    /// Adds a turning box of walls (its kinematic body, then its four shapes).
    /// - Throws: `PhysicsError.invalidValue` for a bad spec.
    @discardableResult
    public func addTumbler(_ spec: TumblerSpec) throws(PhysicsError) -> Tumbler {
        let problems = spec.problems()
        guard problems.isEmpty else { throw .invalidValue(what: "tumbler", problems: problems) }
        let tumbler = Tumbler(spec)
        Chipmunk.spaceAddBody(space, tumbler.body)
        for shape in tumbler.shapes { Chipmunk.spaceAddShape(space, shape) }
        tumbler.world = self
        tumblers.append(tumbler)
        labelWalls()
        return tumbler
    }

    // MARK: Gravity and time

    public var gravity: Vec2 { Chipmunk.spaceGravity(space) }

    /// Whether `snapshot()` also copies out the contact points (for debug drawing); off by default,
    /// since it costs a walk over every body's arbiters.
    public var snapshotsIncludeContacts = false

    /// Sets gravity for the following steps.
    /// - Throws: `PhysicsError.invalidValue` if a component is not finite or beyond `Limits.gravity`.
    public func setGravity(_ gravity: Vec2) throws(PhysicsError) {
        let problems = World.gravityProblems(gravity)
        guard problems.isEmpty else { throw .invalidValue(what: "gravity", problems: problems) }
        Chipmunk.spaceSetGravity(space, gravity)
        inputsApplied += 1
    }

    /// Advances the world by exactly one fixed step of `timeStep` seconds, with the forces held
    /// on its crates.
    public func step() {
        if !spawners.isEmpty { releaseSpawns() }
        if !heldForces.isEmpty { applyHeldForces() }
        if let eventBuffer { Chipmunk.eventsClear(eventBuffer) }
        Chipmunk.spaceStep(space, dt: timeStep)
        stepCount += 1
        if let eventBuffer { contactEvents = readEvents(eventBuffer) }
        if breakableJoints > 0 { breakJoints() } else if !jointBreaks.isEmpty { jointBreaks = [] }
        if nonFinite == nil { nonFinite = firstNonFiniteBody() }
    }

    private static func gravityProblems(_ gravity: Vec2) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        for (field, value) in [("gravity[0]", gravity.x), ("gravity[1]", gravity.y)]
        where !(value.isFinite && abs(value) <= Limits.gravity) {
            problems.append(FieldProblem(field, "must be a finite number within ±\(Limits.gravity), got \(value)"))
        }
        return problems
    }
}
