import CoreABI
import Foundation
import Physics
import SceneFile
import SceneModel
import TestSupport
import Testing

/// The C ABI the wasm page and Python call, called natively: the same worlds, hashes, states and
/// messages as the Swift API and the CLI (scripts/wasm-test checks the wasm build of it). Serialized:
/// the ABI is one thread's (its last result is shared).
@Suite(.serialized) struct CoreABITests {
    static func load(_ text: [UInt8], name: String) -> Int32 {
        text.withUnsafeBufferPointer { scene in
            Array(name.utf8).withUnsafeBufferPointer { file in
                cratedropWorldLoad(scene.baseAddress, Int32(scene.count), file.baseAddress, Int32(file.count))
            }
        }
    }

    static func book() throws -> Int32 {
        let handle = load(Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/book.json")))), name: "Scenes/book.json")
        try #require(handle > 0, "\(result())")
        return handle
    }

    static func result() -> String {
        let count = Int(cratedropResultLength())
        guard count > 0, let pointer = cratedropResult() else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    static func resultBytes(_ count: Int32) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: cratedropResult(), count: Int(count)))
    }

    static func input(_ handle: Int32, _ line: String) -> Int32 {
        Array(line.utf8).withUnsafeBufferPointer { cratedropWorldInput(handle, $0.baseAddress, Int32($0.count)) }
    }

    /// A world stepped through the ABI hashes as the Swift API's world of the same scene.
    @Test func stepsAndHashesAsTheSwiftWorld() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        let world = try World(scene: try Repository.scene("book"))
        #expect(cratedropWorldStep(handle, 120) == 0)
        for _ in 0..<120 { world.step() }
        #expect(cratedropWorldStepCount(handle) == 120)
        #expect(cratedropWorldHash(handle) == world.stateHash.value)
        var rows = [Double](repeating: .nan, count: 7 * 8)
        let written = rows.withUnsafeMutableBufferPointer { cratedropWorldState(handle, $0.baseAddress, 8) }
        let bodies = world.snapshot().bodies
        #expect(Int(written) == bodies.count)
        #expect(rows[0] == 1 && rows[1] == bodies[0].position.x && rows[3] == bodies[0].angle && rows[6] == bodies[0].angularVelocity)
    }

    /// Input lines apply at their steps: a tilt at step 10 gives the Swift world's hash with the same tilt.
    @Test func inputLinesApplyAtTheirSteps() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(Self.input(handle, #"{"step": 10, "gravity": [400, -600]}"#) == 0)
        #expect(cratedropWorldStep(handle, 60) == 0)
        let world = try World(scene: try Repository.scene("book"))
        for step in 0..<60 {
            if step == 10 { try world.setGravity(Vec2(400, -600)) }
            world.step()
        }
        #expect(cratedropWorldHash(handle) == world.stateHash.value)
    }

    /// A bad scene: the CLI's exit code (65) negated, every problem as `FILE:LINE: FIELD: reason`.
    @Test func aBadSceneIsRefusedWithTheCLIsMessage() {
        let scene = Array("{\n  \"world\": [640, 480],\n  \"gravity\": [0, -900],\n  \"crates\": [{\"center\": [10, 10], \"size\": [-4, 4], \"mass\": 1}]\n}\n".utf8)
        #expect(Self.load(scene, name: "bad.json") == -65)
        #expect(Self.result().hasPrefix("bad.json:4: crates[0].size"))
    }

    /// A line naming a body the world has not is refused at its step, with its line number.
    @Test func aLineThatCannotApplyStopsTheSteps() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(Self.input(handle, #"{"step": 3, "body": 99, "impulse": [0, 1]}"#) == 0)
        #expect(cratedropWorldStep(handle, 5) == -65)
        #expect(Self.result() == "inputs:1: body 99 is not a body of this world (its bodies are 1...5)")
        #expect(cratedropWorldStepCount(handle) == 3)
        #expect(Self.input(handle, "{") == -65)
        #expect(cratedropWorldFree(handle + 100) == -64)
    }

    /// Saved at step 60 and restored into a fresh world, the steps after are the straight run's.
    @Test(.needsSavedStates(World.canSaveState)) func aSavedStateContinuesBitForBit() throws {
        let straight = try Self.book(), fresh = try Self.book()
        defer { _ = cratedropWorldFree(straight); _ = cratedropWorldFree(fresh) }
        #expect(cratedropWorldStep(straight, 60) == 0)
        let count = cratedropWorldSave(straight)
        let saved = Self.resultBytes(count)
        #expect(saved.starts(with: WorldState.magic))
        #expect(saved.withUnsafeBufferPointer { cratedropWorldRestore(fresh, $0.baseAddress, Int32($0.count)) } == 0)
        #expect(cratedropWorldStepCount(fresh) == 60)
        #expect(cratedropWorldStep(straight, 60) == 0 && cratedropWorldStep(fresh, 60) == 0)
        #expect(cratedropWorldHash(fresh) == cratedropWorldHash(straight))
        #expect(Array("not a state".utf8).withUnsafeBufferPointer { cratedropWorldRestore(fresh, $0.baseAddress, Int32($0.count)) } == -65)
        #expect(Self.result() == "not a CrateDrop world state (it does not begin with CDWORLD)")
    }
}

/// Frames paced by the display, through the fixed-step driver: what the page calls each frame.
/// In `CoreABITests`' suite: a second suite would run beside it, and the ABI's handle table and
/// last result are one thread's (two tests once stepped one world from two threads).
extension CoreABITests {
    /// 60 frames a second for 2 s take 240 steps at 120 Hz: the hash `cratedrop hash --steps 240` prints.
    @Test func framesAtTheDisplaysRateTakeTheStepsTheirTimeOwes() throws {
        let handle = try CoreABITests.book()
        defer { _ = cratedropWorldFree(handle) }
        var taken = 0
        for frame in 0...120 { taken += Int(cratedropWorldFrame(handle, 1000 + Double(frame) * 1000 / 60)) }
        #expect(taken == 240)
        let world = try World(scene: try Repository.scene("book"))
        for _ in 0..<240 { world.step() }
        #expect(cratedropWorldHash(handle) == world.stateHash.value)
        #expect(cratedropWorldDroppedSeconds(handle) == 0)
    }

    /// A frame 2 s late takes at most 8 steps; the time beyond the guard's debt is dropped and counted.
    @Test func aLateFrameIsCappedAndItsTimeDropped() throws {
        let handle = try CoreABITests.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(cratedropWorldFrame(handle, 0) == 0)
        #expect(cratedropWorldFrame(handle, 2000) == 8)
        // 240 steps owed: 8 taken, 8 carried as debt, 224 dropped.
        #expect(cratedropWorldDroppedSeconds(handle) == 224.0 / 120)
        #expect(cratedropWorldStepCount(handle) == 8)
        #expect(cratedropWorldFrame(handle, 1999) == -64)
        #expect(CoreABITests.result().hasPrefix("frame times must not go back"))
        #expect(cratedropWorldFrame(handle, .nan) == -64)
    }

    /// Drawn between the last two steps: never before the earlier, never past the later.
    @Test func theFramesStateLiesBetweenTheLastTwoSteps() throws {
        let handle = try CoreABITests.book()
        defer { _ = cratedropWorldFree(handle) }
        for frame in 0...60 { _ = cratedropWorldFrame(handle, Double(frame) * 1000 / 60) }
        let before = try World(scene: try Repository.scene("book"))
        for _ in 0..<119 { before.step() }
        let earlier = before.snapshot().bodies[0].position.y
        before.step()
        let later = before.snapshot().bodies[0].position.y
        // 1,004 ms: 120.48 steps owed, 120 taken, the frame 0.48 of a step past the last.
        #expect(cratedropWorldFrame(handle, 1004) == 0)
        var rows = [Double](repeating: .nan, count: 7)
        #expect(rows.withUnsafeMutableBufferPointer { cratedropWorldFrameState(handle, $0.baseAddress, 1) } == 1)
        #expect(earlier != later && (min(earlier, later)...max(earlier, later)).contains(rows[2]))
        #expect(rows[2] != later)
        #expect(cratedropWorldStepCount(handle) == 120)
    }
}
