import CBaseline
import SceneModel

/// A scene as the C baseline takes it (`Sources/CBaseline/include/cbaseline.h`): one config,
/// the walls in creation order (bounds first), the crates in creation order.
struct BaselineScene {
    var config = cbaseline_config()
    var walls: [cbaseline_wall]
    var crates: [cbaseline_crate]

    init(_ scene: Scene) {
        config.gravity_x = scene.gravity.x
        config.gravity_y = scene.gravity.y
        config.iterations = Int32(scene.iterations)
        config.step_rate = Int32(scene.stepRate)
        if let hash = scene.space.spatialHash {
            config.hash_cell_size = hash.cellSize
            config.hash_cells = Int32(hash.cells)
        }
        config.sleep_time = scene.space.sleepTimeThreshold ?? 0
        if let tumbler = scene.tumbler {
            config.has_tumbler = 1
            config.tumbler_cx = tumbler.center.x
            config.tumbler_cy = tumbler.center.y
            config.tumbler_width = tumbler.size.x
            config.tumbler_height = tumbler.size.y
            config.tumbler_omega = tumbler.angularVelocity
            config.tumbler_radius = tumbler.radius
            config.tumbler_friction = tumbler.friction
            config.tumbler_elasticity = tumbler.elasticity
        }
        walls = scene.allWalls().map {
            cbaseline_wall(ax: $0.from.x, ay: $0.from.y, bx: $0.to.x, by: $0.to.y, radius: $0.radius,
                           friction: $0.friction, elasticity: $0.elasticity)
        }
        crates = scene.allCrates().map { crate in
            let (width, height, radius): (Double, Double, Double)
            switch crate.shape {
            case let .box(size): (width, height, radius) = (size.x, size.y, 0)
            case let .circle(r): (width, height, radius) = (0, 0, r)
            }
            return cbaseline_crate(cx: crate.center.x, cy: crate.center.y, width: width, height: height, angle: crate.angle,
                                   vx: crate.velocity.x, vy: crate.velocity.y, angular_velocity: crate.angularVelocity, mass: crate.mass,
                                   friction: crate.friction, elasticity: crate.elasticity, radius: radius)
        }
    }
}
