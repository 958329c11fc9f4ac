extension WorldSnapshot {
    /// The state `alpha` of the way from `previous` to `current` (alpha in [0, 1]), for drawing
    /// between two steps. A body missing from `previous` (added in between) is shown as it is in
    /// `current`, never blended with another body: no interpolation across a teleport.
    ///
    /// Both snapshots list bodies in ascending `BodyID` order, so bodies are matched in one pass.
    public static func interpolated(from previous: WorldSnapshot, to current: WorldSnapshot, alpha: Double) -> WorldSnapshot {
        guard alpha > 0, previous.step != current.step else { return current }
        var result = current
        var j = 0
        for i in result.bodies.indices {
            let body = current.bodies[i]
            while j < previous.bodies.count, previous.bodies[j].id < body.id { j += 1 }
            guard j < previous.bodies.count, previous.bodies[j].id == body.id else { continue }
            let before = previous.bodies[j]
            result.bodies[i].position = before.position + (body.position - before.position) * alpha
            result.bodies[i].angle = before.angle + (body.angle - before.angle) * alpha
            result.bodies[i].velocity = before.velocity + (body.velocity - before.velocity) * alpha
            result.bodies[i].angularVelocity = before.angularVelocity + (body.angularVelocity - before.angularVelocity) * alpha
        }
        return result
    }
}
