internal import CBodyScan
internal import CChipmunk
import SceneModel
#if canImport(Glibc)
import Glibc
#endif

// The only file that calls Chipmunk. Handles are `OpaquePointer`s (Chipmunk's structs are opaque
// to Swift), so no C type appears in any other file's signatures. Callers validate every value
// first: this build of Chipmunk aborts on bad input.

/// Namespace for the raw Chipmunk calls used by World, Crate and Wall.
enum Chipmunk {
    /// Creates and frees one space with stdout pointed at /dev/null, so the debug build's
    /// banner (printed by the first `cpSpaceNew` of a process) goes nowhere.
    static func printBannerToNowhere() {
        cpSpaceFree(CChipmunk_SpaceNewQuietly())
    }

    // MARK: Space (`cpSpace`)

    static func spaceNew(gravity: Vec2, iterations: Int) -> OpaquePointer {
        let space = cpSpaceNew()!
        cpSpaceSetGravity(space, cpv(gravity.x, gravity.y))
        cpSpaceSetIterations(space, Int32(iterations))
        return space
    }

    static func spaceFree(_ space: OpaquePointer) { cpSpaceFree(space) }

    static func spaceUseSpatialHash(_ space: OpaquePointer, cellSize: Double, cells: Int) {
        cpSpaceUseSpatialHash(space, cellSize, Int32(cells))
    }

    static func spaceSetSleepTimeThreshold(_ space: OpaquePointer, _ seconds: Double) {
        cpSpaceSetSleepTimeThreshold(space, seconds)
    }
    static func spaceStep(_ space: OpaquePointer, dt: Double) { cpSpaceStep(space, dt) }
    static func spaceStaticBody(_ space: OpaquePointer) -> OpaquePointer { cpSpaceGetStaticBody(space) }
    static func bodyWorldToLocal(_ body: OpaquePointer, _ point: Vec2) -> Vec2 {
        let local = cpBodyWorldToLocal(body, cpv(point.x, point.y))
        return Vec2(local.x, local.y)
    }
    /// Moves a pivot joint's anchor on its first body (the static body's: a world point).
    static func pivotSetAnchorA(_ constraint: OpaquePointer, _ point: Vec2) { cpPivotJointSetAnchorA(constraint, cpv(point.x, point.y)) }

    static func spaceSetGravity(_ space: OpaquePointer, _ gravity: Vec2) {
        cpSpaceSetGravity(space, cpv(gravity.x, gravity.y))
    }

    static func spaceGravity(_ space: OpaquePointer) -> Vec2 {
        let g = cpSpaceGetGravity(space)
        return Vec2(g.x, g.y)
    }

    /// Counts the space's contact pairs and points, copying up to `capacity` points into `out`
    /// as (x, y, nx, ny) rows (`CChipmunk_SpaceContacts`, over `cpBodyEachArbiter`).
    static func spaceContacts(_ space: OpaquePointer, out: UnsafeMutablePointer<Double>?, capacity: Int) -> (pairs: Int, points: Int) {
        var contacts = CChipmunk_Contacts(pairs: 0, points: 0, out: out, capacity: Int32(clamping: capacity))
        CChipmunk_SpaceContacts(space, &contacts)
        return (Int(contacts.pairs), Int(contacts.points))
    }

    static func spaceKineticEnergy(_ space: OpaquePointer) -> Double { CChipmunk_SpaceKineticEnergy(space) }

    static func spaceAddBody(_ space: OpaquePointer, _ body: OpaquePointer) { cpSpaceAddBody(space, body) }
    static func spaceAddShape(_ space: OpaquePointer, _ shape: OpaquePointer) { cpSpaceAddShape(space, shape) }
    static func spaceRemoveBody(_ space: OpaquePointer, _ body: OpaquePointer) { cpSpaceRemoveBody(space, body) }
    static func spaceRemoveShape(_ space: OpaquePointer, _ shape: OpaquePointer) { cpSpaceRemoveShape(space, shape) }

    // MARK: Teardown

    // cpSpaceRemoveConstraint and cpSpaceRemoveBody find what they remove by a search of the
    // space's array from its start, and move the array's last entry into its place
    // (cpArrayDeleteObj). Removed in the order they were added, each is found further in: 100,000
    // joints took over a minute (audit round 5, finding 4). Taking the first entry and then, each
    // time, the one just moved into first place (the array's last) finds each at once. A
    // constraint is also unlinked from its bodies' lists, which hold them newest first and are
    // walked from the head (cpBodyRemoveConstraint): the first walks them whole (a recursion in
    // Debian's library; patch 0008 makes it a loop in CrateDrop's), and each after it, while the
    // array is in the order they were added, is its bodies' newest.

    /// Takes every constraint out of `space`, in time linear in their number.
    static func spaceRemoveAllConstraints(_ space: OpaquePointer) {
        var constraints: [OpaquePointer] = []
        withUnsafeMutablePointer(to: &constraints) { list in
            cpSpaceEachConstraint(space, { constraint, list in
                list!.assumingMemoryBound(to: [OpaquePointer].self).pointee.append(constraint!)
            }, list)
        }
        for constraint in frontFirst(constraints) { cpSpaceRemoveConstraint(space, constraint) }
    }

    /// Takes every body (but its own static one) out of `space`, in time linear in their number.
    static func spaceRemoveAllBodies(_ space: OpaquePointer) {
        var bodies: [OpaquePointer] = []
        withUnsafeMutablePointer(to: &bodies) { list in
            cpSpaceEachBody(space, { body, list in
                list!.assumingMemoryBound(to: [OpaquePointer].self).pointee.append(body!)
            }, list)
        }
        for body in frontFirst(bodies) { cpSpaceRemoveBody(space, body) }
    }

    /// The order that empties an array searched from its start with the last moved into each hole
    /// (cpArrayDeleteObj) finding each entry first: the first, then the rest from the last.
    private static func frontFirst(_ entries: [OpaquePointer]) -> [OpaquePointer] {
        guard let first = entries.first else { return [] }
        return [first] + entries.dropFirst().reversed()
    }

    // MARK: Bodies (`cpBody`)

    /// A dynamic body of `mass` with the moment of inertia of `shape` of uniform density, about the
    /// body's position (its origin): `cpMomentForBox`, `cpMomentForCircle(m, 0, r, 0)`,
    /// `cpMomentForPoly(m, n, vertices as written, 0, r)` (which ignores `r` in 7.0.3) or
    /// `cpMomentForSegment(m, a, b, r)`.
    static func bodyNew(mass: Double, shape: BodyShape) -> OpaquePointer {
        let moment: Double
        switch shape {
        case let .box(size): moment = cpMomentForBox(mass, size.x, size.y)
        case let .circle(radius): moment = cpMomentForCircle(mass, 0, radius, cpvzero)
        case let .polygon(vertices, radius):
            moment = withPoints(vertices) { cpMomentForPoly(mass, $1, $0, cpvzero, radius) }
        case let .segment(a, b, radius): moment = cpMomentForSegment(mass, cpv(a.x, a.y), cpv(b.x, b.y), radius)
        case .compound: preconditionFailure("a compound body is made with bodyNew(mass: 0, moment: 0) and its parts' masses")
        }
        return cpBodyNew(mass, moment)!
    }

    /// `cpBodyNew(mass, moment)`: a compound body starts at 0 and 0 and gets both from its shapes.
    static func bodyNew(mass: Double, moment: Double) -> OpaquePointer { cpBodyNew(mass, moment)! }

    /// Mass, centre of gravity (body frame) and moment (`cpBodyGetMass`, `cpBodyGetCenterOfGravity`,
    /// `cpBodyGetMoment`).
    static func bodyMassProperties(_ body: OpaquePointer) -> (mass: Double, centerOfGravity: Vec2, moment: Double) {
        let cog = cpBodyGetCenterOfGravity(body)
        return (cpBodyGetMass(body), Vec2(cog.x, cog.y), cpBodyGetMoment(body))
    }

    /// `cpShapeSetMass`: the shape's share of its body's mass, which Chipmunk accumulates into the
    /// body when the shape is added to a space (and again on each later add).
    static func shapeSetMass(_ shape: OpaquePointer, _ mass: Double) { cpShapeSetMass(shape, mass) }

    static func bodyFree(_ body: OpaquePointer) { cpBodyFree(body) }

    /// A kinematic body (moved by its velocity, unaffected by collisions), `cpBodyNewKinematic`.
    static func kinematicBodyNew() -> OpaquePointer { cpBodyNewKinematic()! }

    /// A kinematic body (moved by its velocity, unaffected by collisions) turning at a constant rate.
    static func kinematicBodyNew(position: Vec2, angularVelocity: Double) -> OpaquePointer {
        let body = cpBodyNewKinematic()!
        cpBodySetPosition(body, cpv(position.x, position.y))
        cpBodySetAngularVelocity(body, angularVelocity)
        return body
    }

    static func bodySetState(_ body: OpaquePointer, position: Vec2, angle: Double, velocity: Vec2, angularVelocity: Double) {
        cpBodySetPosition(body, cpv(position.x, position.y))
        cpBodySetAngle(body, angle)
        cpBodySetVelocity(body, cpv(velocity.x, velocity.y))
        cpBodySetAngularVelocity(body, angularVelocity)
    }

    /// Sets `body`'s angle (`cpBodySetAngle`, which computes its rotation with the library's cos and
    /// sin, as every step does) and returns that rotation (`cpBodyGetRotation`: cos, sin).
    static func bodyRotation(_ body: OpaquePointer, settingAngle angle: Double) -> Vec2 {
        cpBodySetAngle(body, angle)
        let rotation = cpBodyGetRotation(body)
        return Vec2(rotation.x, rotation.y)
    }

    /// `cpBodyApplyImpulseAtWorldPoint` at `point`, or at the body's position when nil.
    static func bodyApplyImpulse(_ body: OpaquePointer, _ impulse: Vec2, at point: Vec2?) {
        let at = point.map { cpv($0.x, $0.y) } ?? cpBodyGetPosition(body)
        cpBodyApplyImpulseAtWorldPoint(body, cpv(impulse.x, impulse.y), at)
    }

    /// `cpBodyApplyForceAtWorldPoint` at `point` (or the body's position), then the torque added
    /// to what the body holds (`cpBodySetTorque`): both cleared by the next step.
    static func bodyApplyForce(_ body: OpaquePointer, _ force: Vec2, at point: Vec2?, torque: Double) {
        let at = point.map { cpv($0.x, $0.y) } ?? cpBodyGetPosition(body)
        cpBodyApplyForceAtWorldPoint(body, cpv(force.x, force.y), at)
        if torque != 0 { cpBodySetTorque(body, cpBodyGetTorque(body) + torque) }
    }

    static func bodySetVelocity(_ body: OpaquePointer, _ velocity: Vec2) { cpBodySetVelocity(body, cpv(velocity.x, velocity.y)) }
    static func bodySetPosition(_ body: OpaquePointer, _ position: Vec2) { cpBodySetPosition(body, cpv(position.x, position.y)) }
    static func bodySetAngularVelocity(_ body: OpaquePointer, _ rate: Double) { cpBodySetAngularVelocity(body, rate) }

    /// Position, angle, velocity and angular velocity of `body`, read in one call.
    static func bodyIsSleeping(_ body: OpaquePointer) -> Bool { cpBodyIsSleeping(body) != 0 }

    static func bodyState(_ body: OpaquePointer) -> (position: Vec2, angle: Double, velocity: Vec2, angularVelocity: Double, sleeping: Bool) {
        let p = cpBodyGetPosition(body)
        let v = cpBodyGetVelocity(body)
        return (Vec2(p.x, p.y), cpBodyGetAngle(body), Vec2(v.x, v.y), cpBodyGetAngularVelocity(body), cpBodyIsSleeping(body) != 0)
    }

    /// The index of the first of `bodies` whose position, angle, velocity or angular velocity is
    /// not finite (Sources/CBodyScan), or nil.
    static func firstNonFiniteBody(_ bodies: [OpaquePointer?]) -> Int? {
        let index = bodies.withUnsafeBufferPointer { rows in
            rows.withMemoryRebound(to: UnsafeMutableRawPointer?.self) { cbodyscan_first_non_finite($0.baseAddress, $0.count) }
        }
        return index < 0 ? nil : index
    }

    // MARK: Shapes (`cpShape`)

    /// `shape` on `body`, in the body's frame: a box (`cpBoxShapeNew`, a `cpPolyShape`), a circle
    /// (`cpCircleShapeNew`), a polygon (`cpPolyShapeNew`: the convex hull of the vertices) or a
    /// segment (`cpSegmentShapeNew`).
    static func shapeNew(body: OpaquePointer, shape: BodyShape) -> OpaquePointer {
        switch shape {
        case let .box(size): cpBoxShapeNew(body, size.x, size.y, 0)!
        case let .circle(radius): cpCircleShapeNew(body, radius, cpvzero)!
        case let .polygon(vertices, radius): polygonShapeNew(body: body, vertices: vertices, radius: radius)
        case let .segment(a, b, radius): segmentShapeNew(body: body, from: a, to: b, radius: radius)
        case .compound: preconditionFailure("a compound body's shapes are made part by part (partShapeNew)")
        }
    }

    /// A compound body's part in `body`'s frame, placed by its offset and angle: a box or polygon
    /// through `cpPolyShapeNew` with the transform `cpTransformRigid(offset, angle)` builds (a box
    /// as its four corners from bottom-left, counter-clockwise), a circle at its offset, a
    /// segment's ends turned and moved here (x' = c·x − s·y + dx, y' = s·x + c·y + dy, each operation
    /// rounded as the C harness rounds it). c and s are the library's cos and sin
    /// (`CChipmunk_LibraryRotation`), not this program's libm, so a part's angle turns it alike on
    /// every CPU, as Chipmunk turns a body.
    static func partShapeNew(body: OpaquePointer, part: BodyPart) -> OpaquePointer {
        let offset = cpv(part.offset.x, part.offset.y)
        // cpTransformRigid's matrix, from the library's rotation.
        func placement() -> cpTransform {
            let rotation = CChipmunk_LibraryRotation(part.angle)
            return cpTransformNewTranspose(rotation.x, -rotation.y, offset.x, rotation.y, rotation.x, offset.y)
        }
        switch part.shape {
        case let .box(size):
            let w = size.x / 2, h = size.y / 2
            let transform = placement()
            return withPoints([Vec2(-w, -h), Vec2(w, -h), Vec2(w, h), Vec2(-w, h)]) {
                cpPolyShapeNew(body, $1, $0, transform, 0)!
            }
        case let .circle(radius): return cpCircleShapeNew(body, radius, offset)!
        case let .polygon(vertices, radius):
            let transform = placement()
            return withPoints(vertices) { cpPolyShapeNew(body, $1, $0, transform, radius)! }
        case let .segment(a, b, radius):
            let rotation = CChipmunk_LibraryRotation(part.angle)
            let c = rotation.x, s = rotation.y
            func placed(_ p: Vec2) -> Vec2 {
                let x = c * p.x, y = s * p.y, u = s * p.x, v = c * p.y
                return Vec2((x - y) + part.offset.x, (u + v) + part.offset.y)
            }
            return segmentShapeNew(body: body, from: placed(a), to: placed(b), radius: radius)
        case .compound: preconditionFailure("a part cannot have parts (BodyPart.problems)")
        }
    }

    /// A convex polygon (`cpPolyShapeNew` with the identity transform) in `body`'s frame.
    static func polygonShapeNew(body: OpaquePointer, vertices: [Vec2], radius: Double) -> OpaquePointer {
        withPoints(vertices) { cpPolyShapeNew(body, $1, $0, cpTransformIdentity, radius)! }
    }

    static func segmentShapeNew(body: OpaquePointer, from: Vec2, to: Vec2, radius: Double) -> OpaquePointer {
        cpSegmentShapeNew(body, cpv(from.x, from.y), cpv(to.x, to.y), radius)!
    }

    static func shapeSetMaterial(_ shape: OpaquePointer, friction: Double, elasticity: Double) {
        cpShapeSetFriction(shape, friction)
        cpShapeSetElasticity(shape, elasticity)
    }

    /// Sets what `shape` collides with and whether it only senses (`cpShapeSetFilter`,
    /// `cpShapeSetSensor`); the defaults are left untouched, as a shape is made with them.
    static func shapeSetCollision(_ shape: OpaquePointer, _ collision: CollisionSettings) {
        let filter = collision.filter
        if filter != .all {
            cpShapeSetFilter(shape, cpShapeFilter(group: cpGroup(filter.group), categories: cpBitmask(filter.categories),
                                                  mask: cpBitmask(filter.mask)))
        }
        if collision.sensor { cpShapeSetSensor(shape, 1) }
    }

    static func shapeFree(_ shape: OpaquePointer) { cpShapeFree(shape) }

    // MARK: Queries (Sources/CChipmunk/queries.h)

    enum Query {
        case point(Vec2, maxDistance: Double)
        case segment(Vec2, Vec2, radius: Double)
        case segmentFirst(Vec2, Vec2, radius: Double)
        case box(min: Vec2, max: Vec2)
        case shape(OpaquePointer)
    }

    /// The shapes a query meets, each as its row of numbers (its party first; queries.h says the rest).
    static func query(_ space: OpaquePointer, _ query: Query) -> [[Double]] { queryShapes(space, query).map { $0.row } }

    /// The shapes a query meets, each as its row and the shape itself (which part of a body it is).
    static func queryShapes(_ space: OpaquePointer, _ query: Query) -> [(row: [Double], shape: OpaquePointer)] {
        var hits = CChipmunk_Hits(rows: nil, count: 0, capacity: 0, fields: 1, lost: 0, shapes: nil)
        switch query {
        case let .point(point, maxDistance): CChipmunk_QueryPoint(space, cpv(point.x, point.y), maxDistance, &hits)
        case let .segment(a, b, radius): CChipmunk_QuerySegment(space, cpv(a.x, a.y), cpv(b.x, b.y), radius, &hits)
        case let .segmentFirst(a, b, radius): CChipmunk_QuerySegmentFirst(space, cpv(a.x, a.y), cpv(b.x, b.y), radius, &hits)
        case let .box(low, high): CChipmunk_QueryBox(space, cpBBNew(low.x, low.y, high.x, high.y), &hits)
        case let .shape(shape): CChipmunk_QueryShape(space, shape, &hits)
        }
        defer {
            free(hits.rows)
            free(hits.shapes)
        }
        let fields = Int(hits.fields)
        return (0..<Int(hits.count)).map { i in ((0..<fields).map { hits.rows[i * fields + $0] }, hits.shapes[i]!) }
    }

    /// `cpShapeSetSurfaceVelocity`: a conveyor's surface, px/s in world coordinates.
    static func shapeSetSurfaceVelocity(_ shape: OpaquePointer, _ velocity: Vec2) {
        cpShapeSetSurfaceVelocity(shape, cpv(velocity.x, velocity.y))
    }

    // MARK: Contact hooks (Sources/CChipmunk/contact_hooks.h): the rules, then the events

    /// Installs the contact hooks as the space's default collision handler.
    static func hooksInstall(_ space: OpaquePointer) -> UnsafeMutableRawPointer {
        guard let hooks = CChipmunk_HooksInstall(space) else { preconditionFailure("out of memory for the contact hooks") }
        return UnsafeMutableRawPointer(hooks)
    }

    /// Frees the hooks; only after the space is freed (removing shapes calls them).
    static func hooksFree(_ hooks: UnsafeMutableRawPointer) {
        CChipmunk_HooksFree(hooks.assumingMemoryBound(to: CChipmunk_ContactHooks.self))
    }

    /// Gives `shape` a one-way rule of `direction` (world coordinates, not zero): its collision type.
    static func hooksAddOneWay(_ hooks: UnsafeMutableRawPointer, _ shape: OpaquePointer, _ direction: Vec2) {
        guard CChipmunk_HooksAddOneWay(hooks.assumingMemoryBound(to: CChipmunk_ContactHooks.self), shape,
                                       cpv(direction.x, direction.y)) != 0 else { preconditionFailure("out of memory for a one-way rule") }
    }

    // MARK: Contact events (Sources/CChipmunk/contact_events.h)

    /// Numbers per event row: kind, party a, party b, point x, y, normal x, y, normal and tangent impulse.
    static let eventFields = Int(CCHIPMUNK_EVENT_FIELDS)

    /// Who `shape` is in contact events: a crate's id, or −(wall index + 1).
    static func shapeSetParty(_ shape: OpaquePointer, _ code: Int) { CChipmunk_ShapeSetParty(shape, code) }

    /// Starts noting contact events through the hooks; their buffer, or nil without memory.
    static func eventsStart(_ hooks: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        let hooks = hooks.assumingMemoryBound(to: CChipmunk_ContactHooks.self)
        guard CChipmunk_HooksStartEvents(hooks) != 0 else { return nil }
        return UnsafeMutableRawPointer(hooks.pointee.events)
    }

    /// Stops noting contact events and frees their buffer.
    static func eventsStop(_ hooks: UnsafeMutableRawPointer) {
        CChipmunk_HooksStopEvents(hooks.assumingMemoryBound(to: CChipmunk_ContactHooks.self))
    }

    static func eventsClear(_ events: UnsafeMutableRawPointer) {
        let buffer = events.assumingMemoryBound(to: CChipmunk_Events.self)
        buffer.pointee.count = 0
        buffer.pointee.lost = 0
    }

    /// The events noted since the last clear, as rows of `CCHIPMUNK_EVENT_FIELDS` numbers, and
    /// whether memory ran out for some.
    static func eventsRows(_ events: UnsafeMutableRawPointer) -> (rows: UnsafeBufferPointer<Double>, lost: Bool) {
        let buffer = events.assumingMemoryBound(to: CChipmunk_Events.self).pointee
        let count = Int(buffer.count) * eventFields
        return (UnsafeBufferPointer(start: buffer.rows, count: buffer.rows == nil ? 0 : count), buffer.lost != 0)
    }

    // MARK: Constraints (`cpConstraint`)

    /// The constraint `kind` describes between bodies `a` and `b` (`cp…New`, parameters as given).
    static func constraintNew(_ kind: JointKind, a: OpaquePointer, b: OpaquePointer) -> OpaquePointer {
        func v(_ p: Vec2) -> cpVect { cpv(p.x, p.y) }
        return switch kind {
        case let .pin(anchorA, anchorB): cpPinJointNew(a, b, v(anchorA), v(anchorB))!
        case let .slide(anchorA, anchorB, min, max): cpSlideJointNew(a, b, v(anchorA), v(anchorB), min, max)!
        case let .pivot(point): cpPivotJointNew(a, b, v(point))!
        case let .pivotAnchors(anchorA, anchorB): cpPivotJointNew2(a, b, v(anchorA), v(anchorB))!
        case let .groove(grooveA, grooveB, anchorB): cpGrooveJointNew(a, b, v(grooveA), v(grooveB), v(anchorB))!
        case let .dampedSpring(anchorA, anchorB, restLength, stiffness, damping):
            cpDampedSpringNew(a, b, v(anchorA), v(anchorB), restLength, stiffness, damping)!
        case let .dampedRotarySpring(restAngle, stiffness, damping): cpDampedRotarySpringNew(a, b, restAngle, stiffness, damping)!
        case let .rotaryLimit(min, max): cpRotaryLimitJointNew(a, b, min, max)!
        case let .ratchet(phase, ratchet): cpRatchetJointNew(a, b, phase, ratchet)!
        case let .gear(phase, ratio): cpGearJointNew(a, b, phase, ratio)!
        case let .simpleMotor(rate): cpSimpleMotorNew(a, b, rate)!
        }
    }

    /// Sets the settings given, in this order: max force, max bias, error bias, collide bodies
    /// (only when false); those not given keep the values `cp…New` gave.
    static func constraintSetSettings(_ constraint: OpaquePointer, _ settings: JointSettings) {
        if let maxForce = settings.maxForce { cpConstraintSetMaxForce(constraint, maxForce) }
        if let maxBias = settings.maxBias { cpConstraintSetMaxBias(constraint, maxBias) }
        if let errorBias = settings.errorBias { cpConstraintSetErrorBias(constraint, errorBias) }
        if !settings.collideBodies { cpConstraintSetCollideBodies(constraint, 0) }
    }

    /// The two anchors of a joint that has them, in each body's own frame, as Chipmunk keeps them
    /// (a pivot made at a world point has them computed); a groove's anchor A is its groove's middle.
    static func constraintAnchors(_ constraint: OpaquePointer, _ kind: JointKind) -> (Vec2, Vec2)? {
        func p(_ v: cpVect) -> Vec2 { Vec2(v.x, v.y) }
        switch kind {
        case .pin: return (p(cpPinJointGetAnchorA(constraint)), p(cpPinJointGetAnchorB(constraint)))
        case .slide: return (p(cpSlideJointGetAnchorA(constraint)), p(cpSlideJointGetAnchorB(constraint)))
        case .pivot, .pivotAnchors: return (p(cpPivotJointGetAnchorA(constraint)), p(cpPivotJointGetAnchorB(constraint)))
        case let .groove(grooveA, grooveB, _):
            return ((grooveA + grooveB) * 0.5, p(cpGrooveJointGetAnchorB(constraint)))
        case .dampedSpring: return (p(cpDampedSpringGetAnchorA(constraint)), p(cpDampedSpringGetAnchorB(constraint)))
        case .dampedRotarySpring, .rotaryLimit, .ratchet, .gear, .simpleMotor: return nil
        }
    }

    /// Gives `constraint` what `original` (of the same kind) worked out when it was made from where
    /// its bodies were then: a pin's length, a pivot's anchors, a ratchet's notch angle.
    static func constraintTakeMadeValues(_ constraint: OpaquePointer, from original: OpaquePointer, _ kind: JointKind) {
        switch kind {
        case .pin: cpPinJointSetDist(constraint, cpPinJointGetDist(original))
        case .pivot, .pivotAnchors:
            cpPivotJointSetAnchorA(constraint, cpPivotJointGetAnchorA(original))
            cpPivotJointSetAnchorB(constraint, cpPivotJointGetAnchorB(original))
        case .ratchet: cpRatchetJointSetAngle(constraint, cpRatchetJointGetAngle(original))
        case .slide, .groove, .dampedSpring, .dampedRotarySpring, .rotaryLimit, .gear, .simpleMotor: break
        }
    }

    /// What a constraint of `kind` worked out from where its bodies were when it was made: a
    /// pin's length, a pivot's anchors, a ratchet's angle (empty for the other kinds).
    static func constraintMadeValues(_ constraint: OpaquePointer, _ kind: JointKind) -> [Double] {
        switch kind {
        case .pin: [cpPinJointGetDist(constraint)]
        case .pivot, .pivotAnchors:
            { (a: cpVect, b: cpVect) in [a.x, a.y, b.x, b.y] }(cpPivotJointGetAnchorA(constraint), cpPivotJointGetAnchorB(constraint))
        case .ratchet: [cpRatchetJointGetAngle(constraint)]
        case .slide, .groove, .dampedSpring, .dampedRotarySpring, .rotaryLimit, .gear, .simpleMotor: []
        }
    }

    /// Sets what `constraintMadeValues` reads; values of another count are ignored.
    static func constraintSetMadeValues(_ constraint: OpaquePointer, _ kind: JointKind, _ values: [Double]) {
        switch (kind, values.count) {
        case (.pin, 1): cpPinJointSetDist(constraint, values[0])
        case (.pivot, 4), (.pivotAnchors, 4):
            cpPivotJointSetAnchorA(constraint, cpv(values[0], values[1]))
            cpPivotJointSetAnchorB(constraint, cpv(values[2], values[3]))
        case (.ratchet, 1): cpRatchetJointSetAngle(constraint, values[0])
        default: break
        }
    }

    /// The impulse the constraint applied in the last step (`cpConstraintGetImpulse`).
    static func constraintImpulse(_ constraint: OpaquePointer) -> Double { cpConstraintGetImpulse(constraint) }

    static func spaceAddConstraint(_ space: OpaquePointer, _ constraint: OpaquePointer) { cpSpaceAddConstraint(space, constraint) }
    static func spaceRemoveConstraint(_ space: OpaquePointer, _ constraint: OpaquePointer) { cpSpaceRemoveConstraint(space, constraint) }
    static func constraintFree(_ constraint: OpaquePointer) { cpConstraintFree(constraint) }

    /// Calls `body` with `points` as Chipmunk vectors and their count.
    private static func withPoints<Result>(_ points: [Vec2], _ body: (UnsafePointer<cpVect>, Int32) -> Result) -> Result {
        let vectors = points.map { cpv($0.x, $0.y) }
        return vectors.withUnsafeBufferPointer { body($0.baseAddress!, Int32($0.count)) }
    }
}
