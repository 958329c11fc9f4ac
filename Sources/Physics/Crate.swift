import SceneModel

/// A dynamic body: owns a Chipmunk body (`cpBody`) and its shape (a box or polygon:
/// `cpPolyShape`; a circle: `cpCircleShape`; a segment: `cpSegmentShape`).
///
/// A crate can live outside any world; `World.add(_:)` puts it in one, `World.remove(_:)` takes it
/// out again. The world holds its crates strongly; a crate only knows its world weakly, so it never
/// keeps a world alive, and a crate that outlives its world is detached by the world's `deinit`.
/// Not `Sendable`: it owns C state that Chipmunk does not lock.
public final class Crate {
    let body: OpaquePointer
    /// The body's Chipmunk shapes: one, or a compound body's parts in their order.
    let shapes: [OpaquePointer]
    /// The first (for a simple body, the only) shape.
    var collisionShape: OpaquePointer { shapes[0] }
    /// The body's shape, in its own frame (pixels).
    public let shape: BodyShape
    public let mass: Double
    public let friction: Double
    public let elasticity: Double
    public let collision: CollisionSettings
    /// One-way and conveyor rules for its contacts.
    public let rules: ContactRules
    /// Dynamic, or kinematic (moved only by its velocity; its `mass` is infinite).
    public let bodyType: BodyType
    /// How it is drawn; nil: the scene's crate colour. Physics ignores it.
    public let color: RGB?

    /// The world the crate is in, if any. Set only by `World`: by its adds and removals, and cleared by
    /// `World.deinit`, so it never dangles (`unowned(unsafe)`: Embedded Swift, the wasm core, has no `weak`).
    unowned(unsafe) var world: World?
    /// Assigned by the world when the crate is added; unique within that world.
    public internal(set) var id: BodyID?

    /// Creates a crate from `spec`, validated first so no bad value reaches Chipmunk.
    /// - Throws: `PhysicsError.invalidValue` naming every bad field.
    public convenience init(_ spec: CrateSpec) throws(PhysicsError) {
        let problems = spec.problems()
        guard problems.isEmpty else { throw .invalidValue(what: "crate", problems: problems) }
        self.init(checkedSpec: spec)
    }

    /// A crate of a checked scene's (`CheckedScene`), whose values are not checked again.
    init(checkedSpec spec: CrateSpec) {
        shape = spec.shape
        mass = spec.mass
        friction = spec.friction
        elasticity = spec.elasticity
        collision = spec.collision
        rules = spec.rules
        bodyType = spec.bodyType
        color = spec.color
        // The order the plain-C builds follow (docs/scenes.md, "Construction order"): body, shape,
        // position, angle, velocities, material.
        if case let .compound(parts) = spec.shape {
            // A compound body (docs/scenes.md, "Construction order"): a body of mass and moment 0,
            // then each part in order: its shape, mass, material and collision settings; then the
            // body's state. Chipmunk sums the parts' masses as the world adds the shapes.
            let body = Chipmunk.bodyNew(mass: 0, moment: 0)
            self.body = body
            shapes = parts.map { part in
                let shape = Chipmunk.partShapeNew(body: body, part: part)
                Chipmunk.shapeSetMass(shape, part.mass)
                Chipmunk.shapeSetMaterial(shape, friction: part.friction, elasticity: part.elasticity)
                Chipmunk.shapeSetCollision(shape, part.collision)
                return shape
            }
            Chipmunk.bodySetState(body, position: spec.center, angle: spec.angle, velocity: spec.velocity,
                                  angularVelocity: spec.angularVelocity)
            return
        }
        body = spec.bodyType == .kinematic ? Chipmunk.kinematicBodyNew() : Chipmunk.bodyNew(mass: spec.mass, shape: spec.shape)
        let collisionShape = Chipmunk.shapeNew(body: body, shape: spec.shape)
        shapes = [collisionShape]
        Chipmunk.bodySetState(body, position: spec.center, angle: spec.angle, velocity: spec.velocity,
                              angularVelocity: spec.angularVelocity)
        Chipmunk.shapeSetMaterial(collisionShape, friction: spec.friction, elasticity: spec.elasticity)
        Chipmunk.shapeSetCollision(collisionShape, spec.collision)
        if let velocity = spec.rules.surfaceVelocity { Chipmunk.shapeSetSurfaceVelocity(collisionShape, velocity) }
        // A one-way rule is the world's to number (`World.add`): it is set as the crate joins one.
    }

    deinit {
        // A world keeps its crates alive, so a crate being freed is never in a space: the shape
        // goes first because it points at the body.
        for shape in shapes { Chipmunk.shapeFree(shape) }
        Chipmunk.bodyFree(body)
    }

    /// Whether the crate is in a world now.
    public var isInWorld: Bool { world != nil }

    /// The body's mass, centre of gravity (in its own frame) and moment of inertia as Chipmunk
    /// holds them (`cpBodyGetMass`, `cpBodyGetCenterOfGravity`, `cpBodyGetMoment`): for a compound
    /// body, what Chipmunk accumulated from its parts once the crate is in a world.
    public var massProperties: (mass: Double, centerOfGravity: Vec2, moment: Double) { Chipmunk.bodyMassProperties(body) }

    /// The crate's current state, copied out of Chipmunk. `id` is `BodyID(0)` outside a world.
    public var state: BodyState {
        let s = Chipmunk.bodyState(body)
        return BodyState(id: id ?? BodyID(0), position: s.position, angle: s.angle, velocity: s.velocity,
                         angularVelocity: s.angularVelocity, sleeping: s.sleeping)
    }
}
