import SceneModel

/// A static wall: owns a Chipmunk segment shape (`cpSegmentShape`) or convex polygon
/// (`cpPolyShape`, in world coordinates) on its world's static body.
///
/// Walls are made by `World.addWall(_:)`, since their shape hangs off the world's static body; a
/// wall that outlives its world is inert and frees its shape safely.
public final class Wall {
    let shape: OpaquePointer
    public let spec: WallSpec
    /// The world the wall is in, if any. Set only by `World`: by its adds and removals, and cleared by
    /// `World.deinit`, so it never dangles (`unowned(unsafe)`: Embedded Swift, the wasm core, has no `weak`).
    unowned(unsafe) var world: World?

    init(_ spec: WallSpec, staticBody: OpaquePointer) {
        self.spec = spec
        switch spec.geometry {
        case let .segment(from, to): shape = Chipmunk.segmentShapeNew(body: staticBody, from: from, to: to, radius: spec.radius)
        case let .polygon(vertices): shape = Chipmunk.polygonShapeNew(body: staticBody, vertices: vertices, radius: spec.radius)
        }
        Chipmunk.shapeSetMaterial(shape, friction: spec.friction, elasticity: spec.elasticity)
        Chipmunk.shapeSetCollision(shape, spec.collision)
        if let velocity = spec.rules.surfaceVelocity { Chipmunk.shapeSetSurfaceVelocity(shape, velocity) }
    }

    deinit {
        // cpShapeFree never touches the body, so this is safe after the world has gone too.
        Chipmunk.shapeFree(shape)
    }

    public var isInWorld: Bool { world != nil }

    public var state: WallState { spec.state }
}
