import SceneModel

extension World {
    /// The state of every crate, copied out at this step boundary, in creation order; with the
    /// contact points too when `snapshotsIncludeContacts` is on.
    public func snapshot() -> WorldSnapshot {
        var bodies: [BodyState] = []
        bodies.reserveCapacity(rowIDs.count)
        for (body, id) in zip(rowBodies, rowIDs) {
            let s = Chipmunk.bodyState(body!)
            bodies.append(BodyState(id: id, position: s.position, angle: s.angle, velocity: s.velocity,
                                    angularVelocity: s.angularVelocity, sleeping: s.sleeping))
        }
        return WorldSnapshot(step: stepCount, bodies: bodies, movingWalls: tumblers.isEmpty ? [] : tumblers.flatMap { $0.wallStates },
                             contacts: snapshotsIncludeContacts ? contactPoints() : [], parts: changedParts)
    }

    /// Contact pairs (colliding shape pairs) and contact points now, each pair counted once.
    public func contactCounts() -> (pairs: Int, points: Int) {
        Chipmunk.spaceContacts(space, out: nil, capacity: 0)
    }

    /// Every contact point now, for debug drawing: midway between the two surfaces, with the
    /// pair's unit normal turned to point up (or right, when level), so that neither depends on
    /// which body Chipmunk lists first; sorted by position, so the list does not depend on the
    /// order Chipmunk meets the pairs in.
    public func contactPoints() -> [ContactPoint] {
        var rows = [Double](repeating: 0, count: 4 * 64)
        while true {
            let capacity = rows.count / 4
            let counts = rows.withUnsafeMutableBufferPointer { Chipmunk.spaceContacts(space, out: $0.baseAddress, capacity: capacity) }
            if counts.points <= capacity {
                return (0..<counts.points).map { i in
                    var normal = Vec2(rows[4 * i + 2], rows[4 * i + 3])
                    if normal.y < 0 || (normal.y == 0 && normal.x < 0) { normal = Vec2(-normal.x, -normal.y) }
                    return ContactPoint(position: Vec2(rows[4 * i], rows[4 * i + 1]), normal: normal)
                }.sorted { ($0.position.x, $0.position.y, $0.normal.x, $0.normal.y) < ($1.position.x, $1.position.y, $1.normal.x, $1.normal.y) }
            }
            rows = [Double](repeating: 0, count: 4 * counts.points)
        }
    }

    /// Crates not asleep now.
    public var awakeCrateCount: Int { rowBodies.count { !Chipmunk.bodyIsSleeping($0!) } }

    /// The kinetic energy of the crates now, ½·m·v² + ½·I·ω² summed (mass units · px²/s²).
    public var kineticEnergy: Double { Chipmunk.spaceKineticEnergy(space) }

    /// Each crate's shape by its id, for what draws or writes the snapshots (which carry state only).
    public var bodyShapes: BodyShapes { BodyShapes(crates.map { ($0.id ?? BodyID(0), $0.shape) }) }

    /// The joints as drawn (their bodies and anchors), for what draws the snapshots.
    public var jointLinks: [JointLink] { joints.map { $0.link } }

    /// The walls as drawn; they change only when walls are added or removed.
    public func wallStates() -> [WallState] { walls.map { $0.state } }

    /// The first body, in ascending id, with a value that is not finite now; nil when all are.
    /// Runs after every step, so the bodies are scanned in C (`Chipmunk.firstNonFiniteBody`):
    /// a getter call a value cost about 1% of a pile's step.
    func firstNonFiniteBody() -> NonFiniteBody? {
        guard let index = Chipmunk.firstNonFiniteBody(rowBodies) else { return nil }
        let s = Chipmunk.bodyState(rowBodies[index]!)
        return NonFiniteBody.first(in: BodyState(id: rowIDs[index], position: s.position, angle: s.angle, velocity: s.velocity,
                                                 angularVelocity: s.angularVelocity, sleeping: s.sleeping), step: stepCount)
    }

    /// The documented state hash of the world now (see `StateHash`).
    public var stateHash: StateHash { StateHash(snapshot()) }
}
