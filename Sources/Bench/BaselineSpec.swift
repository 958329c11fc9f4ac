internal import CBaseline
import SceneModel

/// A scene as text for the C baseline's cross-architecture harness (`Tests/CrossArch/trail.c`),
/// which builds it with `cbaseline_create` on another CPU. Every double is written as its 64-bit
/// pattern in 16 hex digits, so nothing is lost to decimal conversion. Walls and bodies are the C
/// structs' fields in order, whatever their kind, so a new shape kind needs no change here or in
/// the harness's reader. Lines:
///
///     config GX GY ITERATIONS STEP_RATE HASH_CELL_SIZE HASH_CELLS SLEEP_TIME HAS_TUMBLER TCX TCY TW TH TOMEGA TRADIUS TFRICTION TELASTICITY
///     wall KIND AX AY BX BY RADIUS FRICTION ELASTICITY GROUP CATEGORIES MASK SENSOR N X0 Y0 … XN-1 YN-1 RULES
///     body KIND KINEMATIC CX CY W H ANGLE VX VY W MASS FRICTION ELASTICITY RADIUS AX AY BX BY GROUP CATEGORIES MASK SENSOR N X0 Y0 … RULES
///                                           (RULES: HAS_ONE_WAY OX OY HAS_SURFACE_VELOCITY SVX SVY)
///     joint KIND A B P0 … P6 MAX_FORCE MAX_BIAS ERROR_BIAS COLLIDE_BODIES BREAK_IMPULSE BREAK_FORCE
///                                           (a threshold NaN: none)
///     gravity STEP GX GY                    (acts on step STEP, counted from 0)
///     input STEP KIND INDEX X Y HAS_POINT PX PY TORQUE STEPS
///                                           (a body's input before step STEP: KIND cbaseline.h's
///                                            CBASELINE_INPUT_*: 0 impulse, 1 velocity,
///                                            2 angular velocity X, 3 a force and torque held STEPS steps,
///                                            4 a grab at X Y (TORQUE: its max force, NaN the default),
///                                            5 a drag's move to X Y, 6 a release;
///                                            INDEX the crate's, from 0: its id less one)
///     addbody STEP <a body line's fields>   (structural changes before step STEP, in file order with
///     addwall STEP <a wall line's fields>    the inputs: a crate added (it takes the next index), a
///     addjoint STEP <a joint line's fields>  wall, a joint (the next joint index; A and B crate
///     removebody STEP INDEX                  indices, its id less one), a crate removed with its
///     removejoint STEP INDEX                 joints, a joint removed (INDEX its id less one); a
///                                            spawner's crate is an addbody line at its step, after
///                                            that step's input lines, spawners in file order)
///     probe SEED ANGLES CONTACT_STEPS       (the determinism probe: angle seed and count, contact steps)
///
/// KIND is `cbaseline.h`'s shape or joint kind; A and B a joint's crate indices (−1: static);
/// integers are decimal. Crates and joints keep their index for ever: one removed (or a joint
/// broken, which the harness does as `cbaseline_step` does) leaves its index unused
/// (`cbaseline_add_crate`). The spawners' crates are written out with the values CrateDrop
/// works out for them (`BaselineScene.spawned(_:)`), every one whatever the run's length: the
/// harness has no crowding check, so a crate CrateDrop refuses makes the trails part.
package enum BaselineSpec {
    package static func text(scene: Scene, inputs: [(step: Int, action: InputAction)] = [],
                            probe: (seed: UInt64, angles: Int, contactSteps: Int)? = nil) -> String {
        let baseline = BaselineScene(scene)
        // The structs point into the scene's vertex storage, freed with it: keep it alive to the end.
        return withExtendedLifetime(baseline) {
            let c = baseline.config
            func bits(_ values: Double...) -> String { values.map(hex).joined(separator: " ") }
            func tail(_ collision: cbaseline_collision, _ count: Int32, _ xy: UnsafePointer<Double>?) -> String {
                "\(collision.group) \(collision.categories) \(collision.mask) \(collision.sensor) \(count)"
                    + (0..<(2 * Int(count))).map { " " + hex(xy![$0]) }.joined()
            }
            /// The rules of contact that end a wall's or body's fields (a compound body's parts have none of their own).
            func tail(_ collision: cbaseline_collision, _ count: Int32, _ xy: UnsafePointer<Double>?, _ r: cbaseline_rules) -> String {
                tail(collision, count, xy) + " \(r.has_one_way) \(bits(r.one_way_x, r.one_way_y)) \(r.has_surface_velocity) \(bits(r.surface_vx, r.surface_vy))"
        }
        var lines = ["config \(bits(c.gravity_x, c.gravity_y)) \(c.iterations) \(c.step_rate) \(bits(c.hash_cell_size)) \(c.hash_cells) "
            + "\(bits(c.sleep_time)) \(c.has_tumbler) \(bits(c.tumbler_cx, c.tumbler_cy, c.tumbler_width, c.tumbler_height))"
            + " \(bits(c.tumbler_omega, c.tumbler_radius, c.tumbler_friction, c.tumbler_elasticity))"]
        /// A wall's, body's or joint's fields, as its line and a change's line write them.
        func fields(_ w: cbaseline_wall) -> String {
            "\(w.kind) \(bits(w.ax, w.ay, w.bx, w.by, w.radius, w.friction, w.elasticity)) " + tail(w.collision, w.vertex_count, w.vertices, w.rules)
        }
        func fields(_ k: cbaseline_crate) -> String {
            "\(k.kind) \(k.kinematic) \(bits(k.cx, k.cy, k.width, k.height, k.angle, k.vx, k.vy, k.angular_velocity, k.mass))"
                + " \(bits(k.friction, k.elasticity, k.radius, k.ax, k.ay, k.bx, k.by)) " + tail(k.collision, k.vertex_count, k.vertices, k.rules)
                + (k.kind == Int32(CBASELINE_COMPOUND) ? " \(k.part_count)" + (0..<Int(k.part_count)).map { " " + fields(k.parts[$0]) }.joined() : "")
        }
        /// A compound body's part, after its body's fields.
        func fields(_ p: cbaseline_part) -> String {
            "\(p.kind) \(bits(p.width, p.height, p.radius, p.ax, p.ay, p.bx, p.by, p.offset_x, p.offset_y, p.angle, p.mass, p.friction, p.elasticity)) "
                + tail(p.collision, p.vertex_count, p.vertices)
        }
        func fields(_ j: cbaseline_joint) -> String {
            let p = j.params
            return "\(j.kind) \(j.a) \(j.b) \(bits(p.0, p.1, p.2, p.3, p.4, p.5, p.6)) \(bits(j.max_force, j.max_bias, j.error_bias))"
                + " \(j.collide_bodies) \(bits(j.break_impulse, j.break_force))"
        }
        /// The spawners' crates not yet written, in release order: each goes after every input
        /// line of its step (the stream's steps never go down).
        var spawns = baseline.spawns[...]
        func spawnLines(before step: Int?) {
            while let (at, crate) = spawns.first, step.map({ at < $0 }) ?? true {
                lines.append("addbody \(at) " + fields(crate))
                spawns = spawns.dropFirst()
            }
        }
        for w in baseline.walls { lines.append("wall " + fields(w)) }
        for k in baseline.crates { lines.append("body " + fields(k)) }
        for j in baseline.joints { lines.append("joint " + fields(j)) }
        for (step, action) in inputs {
            spawnLines(before: step)
            switch action {
            case let .gravity(gravity): lines.append("gravity \(step) \(bits(gravity.x, gravity.y))")
            case let .body(id, input):
                let kind = BaselineScene.inputKind(input)
                let (value, at, torque, steps): (Vec2, Vec2?, Double, Int) = switch input {
                case let .impulse(impulse, at): (impulse, at, 0, 0)
                case let .velocity(velocity): (velocity, nil, 0, 0)
                case let .angularVelocity(rate): (Vec2(rate, 0), nil, 0, 0)
                case let .hold(force, at, torque, steps): (force, at, torque, steps)
                // A grab's max force goes where a force's torque would (NaN: the default pull).
                case let .grab(at, maxForce): (at, nil, maxForce ?? .nan, 0)
                case let .dragTo(target): (target, nil, 0, 0)
                case .release: (.zero, nil, 0, 0)
                }
                lines.append("input \(step) \(kind) \(BaselineScene.index(id.rawValue)) \(bits(value.x, value.y)) \(at == nil ? 0 : 1) "
                    + "\(bits(at?.x ?? 0, at?.y ?? 0, torque)) \(steps)")
            case let .change(change):
                switch change {
                case let .addCrate(spec): lines.append("addbody \(step) " + BaselineScene.withCrate(spec, fields))
                case let .addWall(spec): lines.append("addwall \(step) " + BaselineScene.withWall(spec, fields))
                case let .addJoint(kind, a, b, settings):
                    lines.append("addjoint \(step) " + fields(BaselineScene.joint(kind, a: BaselineScene.index(a), b: BaselineScene.index(b),
                                                                                   settings: settings)))
                case let .removeBody(id): lines.append("removebody \(step) \(BaselineScene.index(id.rawValue))")
                case let .removeJoint(id): lines.append("removejoint \(step) \(BaselineScene.index(id.rawValue))")
                }
            }
        }
        spawnLines(before: nil)
        if let probe { lines.append("probe \(probe.seed) \(probe.angles) \(probe.contactSteps)") }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    private static func hex(_ value: Double) -> String {
        let digits = String(value.bitPattern, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
