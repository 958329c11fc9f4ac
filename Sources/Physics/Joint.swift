import SceneModel

/// A joint between two crates of one world, or a crate and the world's static body: owns a
/// Chipmunk constraint (`cpConstraint`).
///
/// Joints are made by `World.addJoint(_:a:b:settings:)`, since a joint hangs off bodies of one
/// space. A joint keeps its crates alive, and its world takes it out of the space before any of
/// their bodies (a crate with joints cannot be removed before them). Not `Sendable`.
public final class Joint {
    let constraint: OpaquePointer
    public let kind: JointKind
    public let settings: JointSettings
    /// The crates joined; nil for the world's static body.
    public let a: Crate?
    public let b: Crate?
    /// The anchors in each body's frame as Chipmunk keeps them (nil for kinds without anchors).
    let anchors: (Vec2, Vec2)?
    /// The world the joint is in, if any. Set only by `World`: by its adds and removals, and cleared by
    /// `World.deinit`, so it never dangles (`unowned(unsafe)`: Embedded Swift, the wasm core, has no `weak`).
    unowned(unsafe) var world: World?
    /// Assigned by the world when the joint is added; never another joint's in that world.
    public internal(set) var id: JointID?

    init(_ kind: JointKind, a: Crate?, b: Crate?, settings: JointSettings, staticBody: OpaquePointer) {
        self.kind = kind
        self.settings = settings
        self.a = a
        self.b = b
        // The order the plain-C builds follow (docs/scenes.md, "Construction order"): the
        // constraint, then its settings, then it is added.
        constraint = Chipmunk.constraintNew(kind, a: a?.body ?? staticBody, b: b?.body ?? staticBody)
        Chipmunk.constraintSetSettings(constraint, settings)
        anchors = Chipmunk.constraintAnchors(constraint, kind)
    }

    /// A joint like `original` between other bodies (a copy's), with what the original worked out
    /// when it was made (a pin's length, a pivot's anchors), not what where its bodies are now gives.
    init(copying original: Joint, a: Crate?, b: Crate?, staticBody: OpaquePointer) {
        kind = original.kind
        settings = original.settings
        self.a = a
        self.b = b
        constraint = Chipmunk.constraintNew(kind, a: a?.body ?? staticBody, b: b?.body ?? staticBody)
        Chipmunk.constraintSetSettings(constraint, settings)
        Chipmunk.constraintTakeMadeValues(constraint, from: original.constraint, kind)
        anchors = original.anchors
    }

    deinit {
        // The world took it out of its space before letting go of it.
        Chipmunk.constraintFree(constraint)
    }

    public var isInWorld: Bool { world != nil }

    /// The impulse the joint applied in the last step (`cpConstraintGetImpulse`: N·s, or N·px·s
    /// for the rotary kinds).
    public var impulse: Double { Chipmunk.constraintImpulse(constraint) }

    /// How the joint is drawn: its bodies by id and its anchors in their frames.
    var link: JointLink {
        let (anchorA, anchorB) = anchors ?? (.zero, .zero)
        var groove: (Vec2, Vec2)?
        if case let .groove(grooveA, grooveB, _) = kind { groove = (grooveA, grooveB) }
        return JointLink(kind: kind.name, a: a?.id, anchorA: anchorA, b: b?.id, anchorB: anchorB, grooveA: groove?.0, grooveB: groove?.1,
                         hasAnchors: anchors != nil)
    }
}
