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
