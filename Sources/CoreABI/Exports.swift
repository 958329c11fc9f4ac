import Driver
import Physics
import SceneModel

// CrateDrop's C ABI: what the wasm page (Backends/wasm/cratedrop.js) and Python call. Every
// function returns at once; failures return the CLI's exit code negated, with the message at
// `cratedrop_result()`. Byte and text results are left there too, their length returned.
// Bodies' states are copied into the caller's buffer, one row a body (columns in `stateColumns`).

/// id, x, y, angle, vx, vy, angular velocity: the trace's columns (docs/outputs.md).
let stateColumns = 7

@_cdecl("cratedrop_alloc")
public func cratedropAlloc(_ size: Int32) -> UnsafeMutableRawPointer? {
    guard size >= 0 else { return nil }
    return UnsafeMutableRawPointer.allocate(byteCount: max(Int(size), 1), alignment: 16)
}

@_cdecl("cratedrop_free")
public func cratedropFree(_ pointer: UnsafeMutableRawPointer?) {
    pointer?.deallocate()
}

@_cdecl("cratedrop_result")
public func cratedropResult() -> UnsafeMutableRawPointer? {
    LastResult.pointer.map { UnsafeMutableRawPointer($0) }
}

/// The length of the last result: a failure's message, say.
@_cdecl("cratedrop_result_length")
public func cratedropResultLength() -> Int32 {
    Int32(clamping: LastResult.count)
}

/// Builds the world of the scene file's bytes; `name` is the file's name in messages.
/// Returns a handle (≥ 1), or the CLI's exit code negated (65: the scene is wrong, with every
/// problem as `FILE:LINE: FIELD: reason` lines).
@_cdecl("cratedrop_world_load")
public func cratedropWorldLoad(_ scene: UnsafePointer<UInt8>?, _ sceneLength: Int32, _ name: UnsafePointer<UInt8>?, _ nameLength: Int32) -> Int32 {
    do throws(CoreError) {
        return Handles.add(try CoreRun(scene: bytes(scene, sceneLength), file: text(name, nameLength, or: "scene.json")))
    } catch {
        return LastResult.fail(error)
    }
}

@_cdecl("cratedrop_world_free")
public func cratedropWorldFree(_ handle: Int32) -> Int32 {
    Handles.remove(handle) ? 0 : noSuchWorld(handle)
}

/// Names the world's input stream in messages (default `inputs`).
@_cdecl("cratedrop_world_name_inputs")
public func cratedropWorldNameInputs(_ handle: Int32, _ name: UnsafePointer<UInt8>?, _ length: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    run.nameInputs(text(name, length, or: "inputs"))
    return 0
}

/// Gives the world the next line of its input stream (the CLI's input grammar).
@_cdecl("cratedrop_world_input")
public func cratedropWorldInput(_ handle: Int32, _ line: UnsafePointer<UInt8>?, _ length: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(CoreError) {
        try run.input(bytes(line, length))
        return 0
    } catch {
        return LastResult.fail(error)
    }
}

/// Takes `count` fixed steps.
@_cdecl("cratedrop_world_step")
public func cratedropWorldStep(_ handle: Int32, _ count: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    guard count >= 0 else { return LastResult.fail(CoreError(code: .usage, message: "steps must be >= 0, got \(count)")) }
    do throws(CoreError) {
        try run.step(Int(count))
        return 0
    } catch {
        return LastResult.fail(error)
    }
}

/// Steps taken since the scene's start (a double: exact up to 2^53, `WorldState.maxStep`).
@_cdecl("cratedrop_world_step_count")
public func cratedropWorldStepCount(_ handle: Int32) -> Double {
    Handles.run(handle).map { Double($0.world.stepCount) } ?? -1
}

/// The state hash `cratedrop hash` prints (docs/determinism.md, "State hash"); 0 for no world.
@_cdecl("cratedrop_world_hash")
public func cratedropWorldHash(_ handle: Int32) -> UInt64 {
    Handles.run(handle)?.world.stateHash.value ?? 0
}

@_cdecl("cratedrop_world_body_count")
public func cratedropWorldBodyCount(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    return Int32(clamping: run.world.crates.count)
}

/// Copies up to `rows` bodies' states into `out` (`rows` × 7 doubles, row-major); returns the
/// rows written, in ascending body id.
@_cdecl("cratedrop_world_state")
public func cratedropWorldState(_ handle: Int32, _ out: UnsafeMutablePointer<Double>?, _ rows: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    return write(run.world.snapshot(), into: out, rows: rows)
}

/// Up to `rows` bodies of `snapshot` into `out`, `stateColumns` doubles a row.
func write(_ snapshot: WorldSnapshot, into out: UnsafeMutablePointer<Double>?, rows: Int32) -> Int32 {
    guard let out, rows >= 0 else { return LastResult.fail(CoreError(code: .usage, message: "no buffer for the state")) }
    let bodies = snapshot.bodies.prefix(Int(rows))
    // Stored one by one, not through an array a row: Python reads 1,000 bodies in microseconds.
    var cell = out
    for body in bodies {
        cell[0] = Double(body.id.rawValue)
        cell[1] = body.position.x
        cell[2] = body.position.y
        cell[3] = body.angle
        cell[4] = body.velocity.x
        cell[5] = body.velocity.y
        cell[6] = body.angularVelocity
        cell += stateColumns
    }
    return Int32(bodies.count)
}

/// The clock of every world's frames (one thread: see `Handles`).
nonisolated(unsafe) private let stopwatch = HostStopwatch()

/// Advances to the display's frame at `milliseconds` (requestAnimationFrame's time: any fixed
/// origin, never going back) with the fixed-step accumulator and death-spiral guard of
/// docs/driver.md: returns the steps taken (at most 8; time owed beyond the guard's debt is dropped,
/// `cratedrop_world_dropped_seconds`). Steps taken or a state restored otherwise start the count afresh.
@_cdecl("cratedrop_world_frame")
public func cratedropWorldFrame(_ handle: Int32, _ milliseconds: Double) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    // Up to about 31 years of frames: far inside Int64 nanoseconds and the driver's step count.
    guard milliseconds.isFinite, abs(milliseconds) <= 1e12 else {
        return LastResult.fail(CoreError(code: .usage, message: "a frame's time must be a finite number of milliseconds within ±1e12, got \(milliseconds)"))
    }
    do throws(CoreError) {
        return Int32(clamping: try run.frame(at: Int64((milliseconds * 1e6).rounded()), stopwatch: stopwatch))
    } catch {
        return LastResult.fail(error)
    }
}

/// Seconds of simulated time the death-spiral guard has dropped since the frames began.
@_cdecl("cratedrop_world_dropped_seconds")
public func cratedropWorldDroppedSeconds(_ handle: Int32) -> Double {
    Handles.run(handle)?.frames?.driver.droppedSeconds ?? 0
}

/// As `cratedrop_world_state`, the bodies as the last frame shows them: between the last two
/// steps by the fraction of a step the frame is past the last (never before the earlier, never
/// past the later).
@_cdecl("cratedrop_world_frame_state")
public func cratedropWorldFrameState(_ handle: Int32, _ out: UnsafeMutablePointer<Double>?, _ rows: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    return write(run.frameSnapshot, into: out, rows: rows)
}

/// Saves the world's state: its bytes (the CLI's `WorldState` bytes) are the result.
@_cdecl("cratedrop_world_save")
public func cratedropWorldSave(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(CoreError) {
        return LastResult.set(try run.save())
    } catch {
        return LastResult.fail(error)
    }
}

/// Restores a state saved from the same scene (by this ABI or natively): world-state bytes
/// (`cratedrop_world_save`) or a saved-state file (`cratedrop_world_save_file`, the CLI's
/// `--save-state`). The world's record ends there (`cratedrop_world_record`). Returns 0, or for a
/// file saved in another determinism class the CLI's warning as the result (its length, above 0).
@_cdecl("cratedrop_world_restore")
public func cratedropWorldRestore(_ handle: Int32, _ state: UnsafePointer<UInt8>?, _ length: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    do throws(CoreError) {
        guard let warning = try run.restore(bytes(state, length)) else { return 0 }
        return LastResult.set(warning)
    } catch {
        return LastResult.fail(error)
    }
}

/// The input lines given but not yet applied (timed lines whose step has not come, untimed lines
/// waiting for the next step), in the order given, one a line, as the result: with the scene and
/// the saved state, what a copy of the world needs (Python's `World.copy` and pickles).
@_cdecl("cratedrop_world_pending_inputs")
public func cratedropWorldPendingInputs(_ handle: Int32) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    var text: [UInt8] = []
    for line in run.pendingInputs {
        if !text.isEmpty { text.append(10) }
        text.append(contentsOf: line.filter { $0 != 10 && $0 != 13 })
    }
    return LastResult.set(text)
}

/// The world's gravity now (px/s², y up) into `out[0]`, `out[1]`: the scene's, or the last input
/// line's that set it.
@_cdecl("cratedrop_world_gravity")
public func cratedropWorldGravity(_ handle: Int32, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    guard let run = Handles.run(handle) else { return noSuchWorld(handle) }
    guard let out else { return LastResult.fail(CoreError(code: .usage, message: "no buffer for the gravity")) }
    let gravity = run.world.gravity
    out[0] = gravity.x
    out[1] = gravity.y
    return 0
}

/// The determinism class (`cratedrop platform`'s 12 hex digits) as the result.
@_cdecl("cratedrop_determinism_class")
public func cratedropDeterminismClass() -> Int32 {
    LastResult.set(DeterminismClass.current.id)
}

func noSuchWorld(_ handle: Int32) -> Int32 {
    LastResult.fail(CoreError(code: .usage, message: "no world has handle \(handle)"))
}

func bytes(_ pointer: UnsafePointer<UInt8>?, _ length: Int32) -> [UInt8] {
    guard let pointer, length > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: Int(length)))
}

func text(_ pointer: UnsafePointer<UInt8>?, _ length: Int32, or fallback: String) -> String {
    let given = bytes(pointer, length)
    return given.isEmpty ? fallback : String(decoding: given, as: UTF8.self)
}
