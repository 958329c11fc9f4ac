internal import CBaseline
import SceneModel

/// The same scene built and stepped by plain C (`Sources/CBaseline`) against the same libchipmunk:
/// the yardstick CrateDrop's world is measured against. Owns the C world.
///
/// Create a Physics `World` first in the process: it silences the banner that this debug build of
/// Chipmunk prints on stdout at the first `cpSpaceNew`.
final class BaselineWorld {
    private let world: OpaquePointer

    init(scene: Scene) {
        let baseline = BaselineScene(scene)
        world = withExtendedLifetime(baseline) {
            // NULL: a kind BaselineScene wrote that cbaseline.h does not list (the two disagree).
            guard let world = cbaseline_create(&baseline.config, baseline.walls, Int32(baseline.walls.count), baseline.crates,
                                               Int32(baseline.crates.count), baseline.joints, Int32(baseline.joints.count)) else {
                preconditionFailure("the C baseline refused a wall, crate, part or joint of a kind cbaseline.h does not list")
            }
            // The spawners' crates, held by the C world for their steps (it copies the vertices).
            for (step, crate) in baseline.spawns {
                Self.check(withUnsafePointer(to: crate) { cbaseline_spawn(world, Int64(step), $0) })
            }
            return world
        }
    }

    deinit { cbaseline_destroy(world) }

    func step(_ count: Int) { cbaseline_step(world, Int32(count)) }

    /// Applies an input line's action as CrateDrop's world does (a body by its id: crate id − 1).
    func apply(_ action: InputAction) {
        switch action {
        case let .gravity(gravity): cbaseline_set_gravity(world, gravity.x, gravity.y)
        case let .body(id, input):
            let index = BaselineScene.index(id.rawValue)
            switch input {
            case let .impulse(impulse, at):
                cbaseline_apply_impulse(world, index, impulse.x, impulse.y, at == nil ? 0 : 1, at?.x ?? 0, at?.y ?? 0)
            case let .velocity(velocity): cbaseline_set_velocity(world, index, velocity.x, velocity.y)
            case let .angularVelocity(rate): cbaseline_set_angular_velocity(world, index, rate)
            case let .hold(force, at, torque, steps):
                cbaseline_hold_force(world, index, force.x, force.y, at == nil ? 0 : 1, at?.x ?? 0, at?.y ?? 0, torque, Int32(steps))
            case let .grab(at, maxForce): cbaseline_grab(world, index, at.x, at.y, maxForce ?? .nan)
            case let .dragTo(target): cbaseline_drag_to(world, index, target.x, target.y)
            case .release: cbaseline_release(world, index)
            }
        case let .change(change): make(change)
        }
    }

    /// Makes a structural change as CrateDrop's world does (`World.apply(_:)`): bodies by id
    /// (crate index = id − 1), joints by id (joint index = id − 1); an added joint works out its
    /// made values from where its bodies are now. A change naming a part not in the world does
    /// nothing (CrateDrop refuses it when its line applies).
    private func make(_ change: StructuralChange) {
        switch change {
        case let .addCrate(spec):
            Self.check(BaselineScene.withCrate(spec) { crate in withUnsafePointer(to: crate) { cbaseline_add_crate(world, $0) } })
        case let .addWall(spec): Self.check(BaselineScene.withWall(spec) { wall in withUnsafePointer(to: wall) { cbaseline_add_wall(world, $0) } })
        case let .addJoint(kind, a, b, settings):
            var joint = BaselineScene.joint(kind, a: BaselineScene.index(a), b: BaselineScene.index(b), settings: settings)
            Self.check(cbaseline_add_joint(world, &joint, nil))
        case let .removeBody(id): cbaseline_remove_body(world, BaselineScene.index(id.rawValue))
        case let .removeJoint(id): cbaseline_remove_joint(world, BaselineScene.index(id.rawValue))
        }
    }

    /// Stops on a C call's CBASELINE_UNKNOWN_KIND: BaselineScene wrote a kind `cbaseline.h` does not
    /// list, a mistake in this program, never a scene's (other results, such as a joint's missing
    /// end, are the C world's to ignore).
    private static func check(_ result: Int32) {
        precondition(result != CBASELINE_UNKNOWN_KIND, "the C baseline refused a part of a kind cbaseline.h does not list")
    }

    var stateHash: StateHash { StateHash(value: cbaseline_state_hash(world)) }

    /// The crates in the C world now: CrateDrop's `World.crates.count` when both made the same
    /// (a spawned crate CrateDrop refused is one more here).
    var crateCount: Int { Int(cbaseline_crate_count(world)) }
}
