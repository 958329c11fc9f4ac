import CoreABI
import Physics
import SceneModel
import TestSupport
import Testing

/// What Python's package adds to the ABI: the input lines not yet applied (a copy or a pickle of a
/// world gives them to the new world) and gravity read back. In `CoreABITests`' suite: the ABI's
/// handle table and last result are one thread's.
extension CoreABITests {
    static func pending(_ handle: Int32) -> String {
        let count = cratedropWorldPendingInputs(handle)
        return count < 0 ? "error \(count)" : String(decoding: resultBytes(count), as: UTF8.self)
    }

    /// Lines wait until their step, untimed ones until the next step; applied lines leave the list.
    @Test func pendingInputsAreTheLinesNotYetApplied() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(Self.pending(handle) == "")
        #expect(Self.input(handle, #"{"step": 10, "gravity": [400, -600]}"#) == 0)
        #expect(Self.input(handle, "{\"step\": 20, \"body\": 1, \"impulse\": [0, 4000]}\n") == 0)
        #expect(Self.pending(handle) == "{\"step\": 10, \"gravity\": [400, -600]}\n{\"step\": 20, \"body\": 1, \"impulse\": [0, 4000]}")
        #expect(cratedropWorldStep(handle, 15) == 0)
        #expect(Self.pending(handle) == #"{"step": 20, "body": 1, "impulse": [0, 4000]}"#)
        #expect(Self.input(handle, #"{"gravity": [0, 900]}"#) == 0)
        #expect(Self.pending(handle).hasSuffix("\n{\"gravity\": [0, 900]}"))
        #expect(cratedropWorldStep(handle, 10) == 0)
        #expect(Self.pending(handle) == "")
        #expect(cratedropWorldPendingInputs(handle + 100) == -64)
    }

    /// A world given its scene, another's saved state and its pending lines goes on as that one does.
    @Test(.needsSavedStates(World.canSaveState)) func pendingInputsMakeACopyGoOnAlike() throws {
        let original = try Self.book(), copy = try Self.book()
        defer { _ = cratedropWorldFree(original); _ = cratedropWorldFree(copy) }
        #expect(Self.input(original, #"{"step": 5, "gravity": [-900, 0]}"#) == 0)
        #expect(Self.input(original, #"{"step": 40, "gravity": [900, 0]}"#) == 0)
        #expect(cratedropWorldStep(original, 20) == 0)
        let saved = Self.resultBytes(cratedropWorldSave(original))
        let lines = Self.pending(original).split(separator: "\n").map(String.init)
        #expect(Self.restore(copy, saved) == 0)
        for line in lines { #expect(Self.input(copy, line) == 0) }
        #expect(cratedropWorldStep(original, 60) == 0 && cratedropWorldStep(copy, 60) == 0)
        #expect(cratedropWorldHash(copy) == cratedropWorldHash(original))
    }

    /// An action in one call (TiltEnv's) is the line, the steps, the state and the hash taken one
    /// call each: the same rows, the same hash; a refused line takes no step.
    @Test func anActionIsItsFourCallsInOne() throws {
        let single = try Self.book(), separate = try Self.book()
        defer { _ = cratedropWorldFree(single); _ = cratedropWorldFree(separate) }
        let rows = Int(cratedropWorldBodyCount(single))
        for (k, line) in [#"{"step": 0, "accel": [0.5, -1, 0]}"#, #"{"step": 4, "accel": [-0.25, -0.5, 0]}"#].enumerated() {
            var acted = [Double](repeating: .nan, count: rows * 7), stated = acted
            var hash: UInt64 = 0
            let written = Array(line.utf8).withUnsafeBufferPointer { text in
                acted.withUnsafeMutableBufferPointer { cratedropWorldAct(single, text.baseAddress, Int32(text.count), 4, $0.baseAddress, Int32(rows), &hash) }
            }
            #expect(written == Int32(rows), "action \(k): \(Self.result())")
            #expect(Self.input(separate, line) == 0 && cratedropWorldStep(separate, 4) == 0)
            #expect(stated.withUnsafeMutableBufferPointer { cratedropWorldState(separate, $0.baseAddress, Int32(rows)) } == Int32(rows))
            #expect(acted == stated && hash == cratedropWorldHash(separate) && hash == cratedropWorldHash(single), "action \(k)")
        }
        var hash: UInt64 = 0
        var room = [Double](repeating: 0, count: rows * 7)
        let refused = Array("{not json".utf8).withUnsafeBufferPointer { text in
            room.withUnsafeMutableBufferPointer { cratedropWorldAct(single, text.baseAddress, Int32(text.count), 4, $0.baseAddress, Int32(rows), &hash) }
        }
        #expect(refused == -65 && cratedropWorldStepCount(single) == 8, "\(Self.result())")
        #expect(cratedropWorldAct(single, nil, 0, 4, nil, 0, nil) == -64)
        // No room for the state: refused before the line or a step.
        let line = #"{"step": 8, "accel": [1, 0, 0]}"#
        let noRoom = Array(line.utf8).withUnsafeBufferPointer { cratedropWorldAct(single, $0.baseAddress, Int32($0.count), 4, nil, 0, &hash) }
        #expect(noRoom == -64 && Self.result() == "no buffer for the state" && cratedropWorldStepCount(single) == 8 && Self.pending(single) == "")
    }

    /// Gravity reads back as the scene's, then as the line that set it once its step has come.
    @Test func gravityReadsBackAfterALineSetsIt() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        var gravity = [Double](repeating: .nan, count: 2)
        #expect(gravity.withUnsafeMutableBufferPointer { cratedropWorldGravity(handle, $0.baseAddress) } == 0)
        let scene = try Repository.scene("book")
        #expect(gravity == [scene.gravity.x, scene.gravity.y])
        #expect(Self.input(handle, #"{"step": 2, "gravity": [400, -600]}"#) == 0)
        #expect(cratedropWorldStep(handle, 3) == 0)
        #expect(gravity.withUnsafeMutableBufferPointer { cratedropWorldGravity(handle, $0.baseAddress) } == 0)
        #expect(gravity == [400, -600])
        #expect(cratedropWorldGravity(handle, nil) == -64)
        #expect(cratedropWorldGravity(handle + 100, nil) == -64)
    }
}

/// The space queries and contact events through the ABI: the Swift world's answers, as rows.
extension CoreABITests {
    /// A party as the ABI codes it: a body's id, or -(wall index + 1).
    static func code(_ party: ContactParty) -> Double {
        switch party {
        case let .body(id): Double(id.rawValue)
        case let .wall(index): -Double(index) - 1
        }
    }

    static func rows(_ count: Int32, columns: Int) -> [Double] {
        guard count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: cratedropResult()!.assumingMemoryBound(to: Double.self), count: Int(count) * columns))
    }

    /// Point, segment, ray and box queries give the Swift world's hits, parties coded as ids and -(wall + 1).
    @Test func queriesAreTheSwiftWorldsAsRows() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        let world = try World(scene: try Repository.scene("book"))
        #expect(cratedropWorldStep(handle, 120) == 0)
        for _ in 0..<120 { world.step() }
        let body = world.snapshot().bodies[0]
        let points = try world.query(point: body.position, within: 5)
        let pointRows = Self.rows(cratedropWorldQueryPoint(handle, body.position.x, body.position.y, 5), columns: 7)
        #expect(pointRows.count == points.count * 7 && !points.isEmpty)
        #expect(pointRows.first == 1 && pointRows[4] == points[0].distance && pointRows[2] == points[0].point.x)
        let across = try world.query(segmentFrom: Vec2(0, 1), to: Vec2(10_000, 1))
        let segmentRows = Self.rows(cratedropWorldQuerySegment(handle, 0, 1, 10_000, 1, 0, 0), columns: 7)
        #expect(segmentRows.count == across.count * 7 && !across.isEmpty)
        #expect(zip(stride(from: 0, to: segmentRows.count, by: 7), across).allSatisfy { segmentRows[$0] == Self.code($1.party) && segmentRows[$0 + 6] == $1.alpha })
        let ray = Self.rows(cratedropWorldQuerySegment(handle, 0, 1, 10_000, 1, 0, 1), columns: 7)
        let firstHit = try world.firstHit(from: Vec2(0, 1), to: Vec2(10_000, 1))
        #expect(ray.count == 7 && ray[0] == firstHit.map { Self.code($0.party) } && ray[6] == firstHit?.alpha)
        let box = Self.rows(cratedropWorldQueryBox(handle, -1e4, -1e4, 1e4, 1e4), columns: 1)
        #expect(box == (try world.query(boxFrom: Vec2(-1e4, -1e4), to: Vec2(1e4, 1e4))).map(Self.code))
        #expect(box.contains(-1) && box.contains(1))
        #expect(cratedropWorldQueryPoint(handle, .nan, 0, 0) == -65)
        #expect(Self.result().hasPrefix("point[0]: "))
        #expect(cratedropWorldQueryBox(handle, 10, 10, 0, 0) == -65)
    }

    /// Kept events are the Swift world's events of every step, read once; keeping changes no hash.
    @Test func keptEventsAreEveryStepsEventsReadOnce() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        let world = try World(scene: try Repository.scene("book"))
        world.recordsContactEvents = true
        var expected: [ContactEvent] = []
        for _ in 0..<90 {
            world.step()
            expected += world.contactEvents
        }
        #expect(cratedropWorldEvents(handle) == 0)
        #expect(cratedropWorldKeepEvents(handle, 1) == 0)
        #expect(cratedropWorldStep(handle, 90) == 0)
        let rows = Self.rows(cratedropWorldEvents(handle), columns: 11)
        #expect(rows.count == expected.count * 11 && !expected.isEmpty)
        #expect(zip(stride(from: 0, to: rows.count, by: 11), expected).allSatisfy { start, event in
            rows[start] == Double(event.step) && rows[start + 1] == Double(ContactEvent.Kind.allCases.firstIndex(of: event.kind)!) && rows[start + 2] == Self.code(event.a)
                && rows[start + 3] == Self.code(event.b) && rows[start + 8] == event.normalImpulse
        })
        #expect(cratedropWorldEvents(handle) == 0)
        #expect(cratedropWorldHash(handle) == world.stateHash.value)
        #expect(cratedropWorldDroppedEvents(handle) == 0)
        #expect(cratedropWorldKeepEvents(handle, 0) == 0 && cratedropWorldStep(handle, 10) == 0 && cratedropWorldEvents(handle) == 0)
    }
}

/// A world whose record was dropped steps as one that keeps it, and refuses its record.
extension CoreABITests {
    @Test func aDroppedRecordChangesNoStepAndIsRefused() throws {
        let kept = try Self.book(), dropped = try Self.book()
        defer { _ = cratedropWorldFree(kept); _ = cratedropWorldFree(dropped) }
        #expect(cratedropWorldStep(dropped, 10) == 0 && cratedropWorldDropRecord(dropped) == 0)
        #expect(cratedropWorldRecordSteps(dropped) == -1)
        #expect(cratedropWorldRecord(dropped) == -64)
        #expect(Self.result() == "this world keeps no record: it was dropped at step 10 (cratedrop_world_drop_record)")
        #expect(cratedropWorldStep(dropped, 110) == 0 && cratedropWorldStep(kept, 120) == 0)
        #expect(cratedropWorldHash(dropped) == cratedropWorldHash(kept))
        #expect(cratedropWorldRecord(kept) > 0)
        #expect(cratedropWorldDropRecord(dropped) == 0)
        #expect(cratedropWorldDropRecord(dropped + 100) == -64)
    }
}
