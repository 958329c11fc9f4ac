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
            cbaseline_create(&baseline.config, baseline.walls, Int32(baseline.walls.count), baseline.crates, Int32(baseline.crates.count),
                             baseline.joints, Int32(baseline.joints.count))
        }
    }

    deinit { cbaseline_destroy(world) }

    func step(_ count: Int) { cbaseline_step(world, Int32(count)) }

    /// Applies an input line's action as CrateDrop's world does (a body by its id: crate id − 1).
    func apply(_ action: InputAction) {
        switch action {
        case let .gravity(gravity): cbaseline_set_gravity(world, gravity.x, gravity.y)
        case let .body(id, input):
            let index = Int32(truncatingIfNeeded: id.rawValue - 1)
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
        case .change:
            preconditionFailure("the bench refuses structural changes before they reach the C baseline (baselineInputs)")
        }
    }

    var stateHash: StateHash { StateHash(value: cbaseline_state_hash(world)) }
}
