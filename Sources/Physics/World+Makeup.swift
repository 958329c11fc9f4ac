import SceneModel

/// A body's make-up as the world built it: its parts (an outline's convex pieces among them, as
/// decomposed) and the mass, centre of gravity and moment Chipmunk holds for it. A value copied out
/// of the world; what `cratedrop validate --explain` prints.
public struct BodyMakeup: Sendable, Equatable {
    /// The body's id in its world.
    public var id: BodyID
    /// Its shape: one simple shape, or `.compound(parts:)` with every part in the order Chipmunk got them.
    public var shape: BodyShape
    /// `cpBodyGetMass` (infinite for a kinematic body).
    public var mass: Double
    /// `cpBodyGetCenterOfGravity`: in the body's own frame, relative to its position (pixels).
    public var centerOfGravity: Vec2
    /// `cpBodyGetMoment` (px²·mass units; infinite for a kinematic body).
    public var moment: Double

    public init(id: BodyID, shape: BodyShape, mass: Double, centerOfGravity: Vec2, moment: Double) {
        self.id = id
        self.shape = shape
        self.mass = mass
        self.centerOfGravity = centerOfGravity
        self.moment = moment
    }
}

extension World {
    /// Every body's make-up (`BodyMakeup`), in creation order (the scene's crates, then the
    /// generator's, then any added since).
    public func makeups() -> [BodyMakeup] {
        crates.map { crate in
            let properties = crate.massProperties
            return BodyMakeup(id: crate.id ?? BodyID(0), shape: crate.shape, mass: properties.mass,
                              centerOfGravity: properties.centerOfGravity, moment: properties.moment)
        }
    }
}
