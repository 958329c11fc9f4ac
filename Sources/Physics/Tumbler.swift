#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif
import SceneModel

/// A box of four walls on a kinematic body (`cpBody` of type kinematic) that turns at a constant
/// rate, tumbling the crates inside. Owns the body and its four segment shapes (`cpSegmentShape`).
/// Made by `World.addTumbler(_:)`; the world frees nothing of it, the tumbler's `deinit` does.
public final class Tumbler {
    let body: OpaquePointer
    let shapes: [OpaquePointer]
    public let spec: TumblerSpec
    /// The world the tumbler is in, if any. Set only by `World`: by its adds and removals, and cleared by
    /// `World.deinit`, so it never dangles (`unowned(unsafe)`: Embedded Swift, the wasm core, has no `weak`).
    unowned(unsafe) var world: World?

    init(_ spec: TumblerSpec) {
        self.spec = spec
        let body = Chipmunk.kinematicBodyNew(position: spec.center, angularVelocity: spec.angularVelocity)
        self.body = body
        shapes = spec.localWalls.map { wall in
            let shape = Chipmunk.segmentShapeNew(body: body, from: wall.from, to: wall.to, radius: spec.radius)
            Chipmunk.shapeSetMaterial(shape, friction: spec.friction, elasticity: spec.elasticity)
            return shape
        }
    }

    deinit {
        for shape in shapes { Chipmunk.shapeFree(shape) }
        Chipmunk.bodyFree(body)
    }

    /// The walls where they are now, in world coordinates.
    public var wallStates: [WallState] {
        let state = Chipmunk.bodyState(body)
        let c = cos(state.angle), s = sin(state.angle)
        func place(_ p: Vec2) -> Vec2 { Vec2(state.position.x + p.x * c - p.y * s, state.position.y + p.x * s + p.y * c) }
        return spec.localWalls.map { WallState(from: place($0.from), to: place($0.to), radius: spec.radius) }
    }
}
