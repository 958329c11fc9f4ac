import SceneModel

extension World {
    /// The state of every crate, copied out at this step boundary, in creation order.
    public func snapshot() -> WorldSnapshot {
        var bodies: [BodyState] = []
        bodies.reserveCapacity(snapshotRows.count)
        for row in snapshotRows {
            let s = Chipmunk.bodyState(row.body)
            bodies.append(BodyState(id: row.id, position: s.position, angle: s.angle, velocity: s.velocity,
                                    angularVelocity: s.angularVelocity, shape: row.shape))
        }
        return WorldSnapshot(step: stepCount, bodies: bodies, movingWalls: tumblers.isEmpty ? [] : tumblers.flatMap(\.wallStates))
    }

    /// The walls as drawn; they change only when walls are added or removed.
    public func wallStates() -> [WallState] { walls.map(\.state) }

    /// The documented state hash of the world now (see `StateHash`).
    public var stateHash: StateHash { StateHash(snapshot()) }
}
