import Physics
import SceneModel

// What is where, and what touched: the world's space queries and its contact events, as rows of
// doubles in the result (8-byte native-endian doubles; the call returns the rows). A party (who was
// hit or touched) is one number: a body's id (> 0), or -(index + 1) for a wall (walls, then
// tumblers' walls, as contact events name them); a part is the index of a compound body's shape
// hit, or -1.

/// Point query rows: party, part, x, y, distance, gradient x, gradient y.
let pointHitColumns = 7
/// Segment query rows: party, part, x, y, normal x, normal y, alpha.
let segmentHitColumns = 7
/// Event rows: step, kind (0 begin, 1 end, 2 sensor_enter, 3 sensor_exit, 4 joint_broke), a, b,
/// x, y, normal x, normal y (NaN when the event has none), normal impulse, tangent impulse, joint id (or -1).
let eventColumns = 11

/// The shapes within `within` of (`x`, `y`) (0: containing it), nearest first; 65 for a point or
/// distance out of range.
@_cdecl("cratedrop_world_query_point")
public func cratedropWorldQueryPoint(_ handle: Int32, _ x: Double, _ y: Double, _ within: Double) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(PhysicsError) {
        var rows: [Double] = []
        for hit in try run.world.query(point: Vec2(x, y), within: within) {
            rows += [partyCode(hit.party), Double(hit.part ?? -1), hit.point.x, hit.point.y, hit.distance, hit.gradient.x, hit.gradient.y]
        }
        return LastResult.set(rows: rows, columns: pointHitColumns)
    } catch {
        return LastResult.fail(queryError(error))
    }
}

/// The shapes the segment from (`x0`, `y0`) to (`x1`, `y1`), thickened by `radius`, meets, nearest
/// its start first; with `first` non-zero, only the first (a ray cast).
@_cdecl("cratedrop_world_query_segment")
public func cratedropWorldQuerySegment(_ handle: Int32, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ radius: Double,
                                       _ first: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(PhysicsError) {
        let start = Vec2(x0, y0), end = Vec2(x1, y1)
        let hits = first != 0 ? (try run.world.firstHit(from: start, to: end, radius: radius)).map { [$0] } ?? []
            : try run.world.query(segmentFrom: start, to: end, radius: radius)
        var rows: [Double] = []
        for hit in hits {
            rows += [partyCode(hit.party), Double(hit.part ?? -1), hit.point.x, hit.point.y, hit.normal.x, hit.normal.y, hit.alpha]
        }
        return LastResult.set(rows: rows, columns: segmentHitColumns)
    } catch {
        return LastResult.fail(queryError(error))
    }
}

/// The parties whose shapes' bounding boxes overlap the box from (`x0`, `y0`) to (`x1`, `y1`):
/// bodies by id, then walls; one column.
@_cdecl("cratedrop_world_query_box")
public func cratedropWorldQueryBox(_ handle: Int32, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(PhysicsError) {
        return LastResult.set(rows: try run.world.query(boxFrom: Vec2(x0, y0), to: Vec2(x1, y1)).map(partyCode), columns: 1)
    } catch {
        return LastResult.fail(queryError(error))
    }
}

/// Keeps the contact events of every step from now on (`on` non-zero), for `cratedrop_world_events`,
/// or stops and forgets them. Keeping changes nothing the world computes.
@_cdecl("cratedrop_world_keep_events")
public func cratedropWorldKeepEvents(_ handle: Int32, _ on: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    run.keepEvents(on != 0)
    return 0
}

/// The events kept since the last call, in step order, as rows (`eventColumns`); the world then
/// keeps none of them. Beyond `CoreRun.maxKeptEvents` unread events the oldest are dropped:
/// `cratedrop_world_dropped_events` counts them.
@_cdecl("cratedrop_world_events")
public func cratedropWorldEvents(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    var rows: [Double] = []
    let events = run.takeEvents()
    rows.reserveCapacity(events.count * eventColumns)
    for event in events {
        rows += [Double(event.step), eventKindCode(event.kind), partyCode(event.a), partyCode(event.b),
                 event.point?.x ?? .nan, event.point?.y ?? .nan, event.normal?.x ?? .nan, event.normal?.y ?? .nan,
                 event.normalImpulse, event.tangentImpulse, event.joint.map { Double($0.rawValue) } ?? -1]
    }
    return LastResult.set(rows: rows, columns: eventColumns)
}

/// Events dropped unread since events were kept (see `cratedrop_world_events`).
@_cdecl("cratedrop_world_dropped_events")
public func cratedropWorldDroppedEvents(_ handle: Int32) -> Double {
    Handles.run(handle).map { Double($0.droppedEvents) } ?? -1
}

func partyCode(_ party: ContactParty) -> Double {
    switch party {
    case let .body(id): Double(id.rawValue)
    case let .wall(index): -Double(index + 1)
    }
}

func eventKindCode(_ kind: ContactEvent.Kind) -> Double {
    switch kind {
    case .begin: 0
    case .end: 1
    case .sensorEnter: 2
    case .sensorExit: 3
    case .jointBroke: 4
    }
}

/// A query's refusal as the CLI words a bad value: `FIELD: reason`, 65.
func queryError(_ error: PhysicsError) -> CoreError {
    let message = if case let .invalidValue(_, problems) = error { problems.map { $0.description }.joined(separator: "; ") }
        else { error.description }
    return CoreError(code: .dataError, message: message)
}

/// One action of an environment in one call (Python's `TiltEnv`, every action): the input line
/// `line` given (as `cratedrop_world_input`), `count` steps taken (as `cratedrop_world_step`), then
/// up to `rows` bodies written to `out` (as `cratedrop_world_state`) and the state hash of that
/// same snapshot to `hash` (as `cratedrop_world_hash`). Returns the rows written; the first
/// failure's code, negated, with nothing after it done (a refused line takes no step).
@_cdecl("cratedrop_world_act")
public func cratedropWorldAct(_ handle: Int32, _ line: UnsafePointer<UInt8>?, _ length: Int32, _ count: Int32,
                              _ out: UnsafeMutablePointer<Double>?, _ rows: Int32, _ hash: UnsafeMutablePointer<UInt64>?) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    guard count >= 0 else { return LastResult.fail(CoreError(code: .usage, message: "steps must be >= 0, got \(count)")) }
    guard let hash else { return LastResult.fail(CoreError(code: .usage, message: "no buffer for the hash")) }
    // Checked before anything is done, so a refusal leaves the world as it was.
    guard out != nil, rows >= 0 else { return LastResult.fail(CoreError(code: .usage, message: "no buffer for the state")) }
    do throws(CoreError) {
        try run.input(bytes(line, length))
        try run.step(Int(count))
    } catch {
        return LastResult.fail(error)
    }
    let snapshot = run.world.snapshot()
    hash.pointee = StateHash(snapshot).value
    return write(snapshot, into: out, rows: rows)
}
