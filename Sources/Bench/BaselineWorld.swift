import CBaseline
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

    var stateHash: StateHash { StateHash(value: cbaseline_state_hash(world)) }
}
