import SceneModel

extension World {
    /// Whether each step notes the contacts that begin and end in it, and sensors' overlaps
    /// (`contactEvents`). Off by default: noting costs a little in every step (docs/performance.md).
    /// Changes nothing the world computes.
    ///
    /// ```swift
    /// world.recordsContactEvents = true
    /// world.step()
    /// for event in world.contactEvents where event.kind == .begin { print(event.a, event.b, event.normalImpulse) }
    /// ```
    public var recordsContactEvents: Bool {
        get { eventBuffer != nil }
        set {
            if newValue, eventBuffer == nil {
                eventBuffer = Chipmunk.eventsStart(hooks())
                labelWalls()
            } else if !newValue, eventBuffer != nil, let contactHooks {
                Chipmunk.eventsStop(contactHooks)
                eventBuffer = nil
                contactEvents = []
            }
        }
    }

    /// The contact hooks, installed on first use: events and rules are one chain on the space's
    /// default handler, so neither can replace the other (contact_hooks.h).
    func hooks() -> UnsafeMutableRawPointer {
        if let contactHooks { return contactHooks }
        let made = Chipmunk.hooksInstall(space)
        contactHooks = made
        return made
    }

    /// Names each wall shape by its place (walls, then tumblers' walls) for contact events.
    func labelWalls() {
        for (index, wall) in walls.enumerated() { Chipmunk.shapeSetParty(wall.shape, -(index + 1)) }
        labelTumblerWalls()
    }

    /// Names the tumblers' walls, which follow the world's walls.
    func labelTumblerWalls() {
        for (index, shape) in tumblers.flatMap({ $0.shapes }).enumerated() { Chipmunk.shapeSetParty(shape, -(walls.count + index + 1)) }
    }

    /// The events Chipmunk noted in the step just taken, each pair in order (`a` before `b`, its
    /// normal turned to point from `a` to `b`), sorted into report order.
    func readEvents(_ buffer: UnsafeMutableRawPointer) -> [ContactEvent] {
        let (rows, _) = Chipmunk.eventsRows(buffer)
        let fields = Chipmunk.eventFields
        guard !rows.isEmpty else { return [] }
        var events: [ContactEvent] = []
        events.reserveCapacity(rows.count / fields)
        for start in stride(from: 0, to: rows.count, by: fields) {
            let kinds: [ContactEvent.Kind] = [.begin, .end, .sensorEnter, .sensorExit]
            var a = Self.party(rows[start + 1]), b = Self.party(rows[start + 2])
            var normal = rows[start + 5].isNaN ? nil : Vec2(rows[start + 5], rows[start + 6])
            if b < a {
                swap(&a, &b)
                normal = normal.map { Vec2(-$0.x, -$0.y) }
            }
            events.append(ContactEvent(step: stepCount, kind: kinds[Int(rows[start])], a: a, b: b,
                                       point: rows[start + 3].isNaN ? nil : Vec2(rows[start + 3], rows[start + 4]), normal: normal,
                                       normalImpulse: rows[start + 7], tangentImpulse: rows[start + 8]))
        }
        events.sort(by: ContactEvent.reportOrder)
        return events
    }
}
