import SceneModel

/// What is where, now (between steps): Chipmunk's space queries, with every filter (sensors are
/// met too), each hit naming a body by id or a wall by its place (as contact events do). Results
/// come in a fixed order whatever order Chipmunk met the shapes in.
extension World {
    /// The shapes within `maxDistance` of `point` (0: those containing it), nearest first
    /// (`cpSpacePointQuery`).
    ///
    /// ```swift
    /// let under = try world.query(point: Vec2(120, 40)).first?.party   // .body(BodyID(3)), or nil
    /// ```
    /// - Throws: `PhysicsError.invalidValue` for a point or distance out of range.
    public func query(point: Vec2, within maxDistance: Double = 0) throws(PhysicsError) -> [PointQueryHit] {
        var list = QueryChecks()
        list.point("point", point)
        list.length("within", maxDistance)
        try list.throwIfAny()
        return Chipmunk.queryShapes(space, .point(point, maxDistance: maxDistance)).map { hit in
            let row = hit.row, party = Self.party(row[0])
            return PointQueryHit(party: party, point: Vec2(row[1], row[2]), distance: row[3], gradient: Vec2(row[4], row[5]),
                                 part: part(of: hit.shape, in: party))
        }.sorted { ($0.distance, $0.party, $0.part ?? -1) < ($1.distance, $1.party, $1.part ?? -1) }
    }

    /// Every shape the segment from `start` to `end`, thickened by `radius`, meets, nearest its
    /// start first (by `alpha`; ties by party: bodies by id, then walls).
    ///
    /// A segment of radius 0 is `cpSpaceSegmentQuery`. A thicker one is not, since Chipmunk's
    /// indexes prune by the thin segment and miss shapes within the radius: every shape whose
    /// bounding box meets the thick segment's (`cpSpaceBBQuery`) is tested as
    /// `cpSpaceSegmentQuery` tests it (`cpShapeSegmentQuery`), so each shape within `radius` of
    /// the segment is met, with the same point, normal and alpha.
    /// - Throws: `PhysicsError.invalidValue` for a point or radius out of range.
    public func query(segmentFrom start: Vec2, to end: Vec2, radius: Double = 0) throws(PhysicsError) -> [SegmentQueryHit] {
        try checkSegment(start, end, radius)
        return Chipmunk.queryShapes(space, .segment(start, end, radius: radius)).map(segmentHit)
            .sorted { ($0.alpha, $0.party, $0.part ?? -1) < ($1.alpha, $1.party, $1.part ?? -1) }
    }

    /// The first shape a ray from `start` towards `end` meets (`cpSpaceSegmentQueryFirst`), or nil.
    /// A ray thickened by `radius` > 0 gives the first of `query(segmentFrom:to:radius:)`'s hits
    /// (Chipmunk's own first-hit query misses what that one would).
    ///
    /// ```swift
    /// if let hit = try world.firstHit(from: Vec2(0, 300), to: Vec2(600, 300)) { print(hit.party, hit.point) }
    /// ```
    /// - Throws: `PhysicsError.invalidValue` for a point or radius out of range.
    public func firstHit(from start: Vec2, to end: Vec2, radius: Double = 0) throws(PhysicsError) -> SegmentQueryHit? {
        if radius > 0 { return try query(segmentFrom: start, to: end, radius: radius).first }
        try checkSegment(start, end, radius)
        return Chipmunk.queryShapes(space, .segmentFirst(start, end, radius: radius)).first.map(segmentHit)
    }

    /// The shapes whose bounding boxes overlap the box from `min` to `max` (`cpSpaceBBQuery`: a
    /// broad answer, by boxes), in order: bodies by id, then walls.
    /// - Throws: `PhysicsError.invalidValue` for a corner out of range, or `min` beyond `max`.
    public func query(boxFrom min: Vec2, to max: Vec2) throws(PhysicsError) -> [ContactParty] {
        var list = QueryChecks()
        list.point("min", min)
        list.point("max", max)
        if min.x > max.x || min.y > max.y { list.problems.append(FieldProblem("max", "must be at least min in x and y")) }
        try list.throwIfAny()
        return Chipmunk.query(space, .box(min: min, max: max)).map { Self.party($0[0]) }.sorted()
    }

    private func checkSegment(_ start: Vec2, _ end: Vec2, _ radius: Double) throws(PhysicsError) {
        var list = QueryChecks()
        list.point("from", start)
        list.point("to", end)
        list.length("radius", radius)
        try list.throwIfAny()
    }

    private func segmentHit(_ hit: (row: [Double], shape: OpaquePointer)) -> SegmentQueryHit {
        let row = hit.row, party = Self.party(row[0])
        return SegmentQueryHit(party: party, point: Vec2(row[1], row[2]), normal: Vec2(row[3], row[4]), alpha: row[5],
                               part: part(of: hit.shape, in: party))
    }

    /// The index of `shape` among a compound body's parts; nil for a wall or a body of one shape.
    private func part(of shape: OpaquePointer, in party: ContactParty) -> Int? {
        guard case let .body(id) = party, let crate = crate(id), crate.shapes.count > 1 || crate.shape.kind == .compound else { return nil }
        return crate.shapes.firstIndex(of: shape)
    }

    static func party(_ code: Double) -> ContactParty { code > 0 ? .body(BodyID(UInt64(code))) : .wall(Int(-code) - 1) }
}

/// A query's values, each finite and within the world's limits before Chipmunk sees it.
private struct QueryChecks {
    var problems: [FieldProblem] = []

    mutating func point(_ field: String, _ point: Vec2) {
        for (axis, value) in [("[0]", point.x), ("[1]", point.y)] where !(value.isFinite && abs(value) <= Limits.coordinate) {
            problems.append(FieldProblem(field + axis, "must be a finite number within ±\(Int(Limits.coordinate)), got \(value)"))
        }
    }

    mutating func length(_ field: String, _ value: Double) {
        if !(value.isFinite && value >= 0 && value <= Limits.coordinate) {
            problems.append(FieldProblem(field, "must be a finite number in 0...\(Int(Limits.coordinate)), got \(value)"))
        }
    }

    func throwIfAny() throws(PhysicsError) {
        if !problems.isEmpty { throw .invalidValue(what: "query", problems: problems) }
    }
}
