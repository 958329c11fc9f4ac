import CoreABI
import Foundation
import Physics
import SceneModel
import TestSupport
import Testing

/// The page's record and state files through the ABI, checked by the built CLI: a record of input
/// lines and page commands verifies with `cratedrop replay --verify`, a saved-state file from the
/// ABI continues in `cratedrop hash` to the ABI's own hashes, and one the CLI saved restores here.
/// In `CoreABITests`' suite: the ABI's last result is one thread's.
extension CoreABITests {
    static func command(_ handle: Int32, _ text: String) -> Int32 {
        Array(text.utf8).withUnsafeBufferPointer { cratedropWorldCommand(handle, $0.baseAddress, Int32($0.count)) }
    }

    static func restore(_ handle: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBufferPointer { cratedropWorldRestore(handle, $0.baseAddress, Int32($0.count)) }
    }

    /// Where body `id` is now (its row of `cratedrop_world_state`).
    static func position(_ handle: Int32, of id: Int) -> (x: Double, y: Double) {
        var rows = [Double](repeating: .nan, count: 7 * 64)
        let count = rows.withUnsafeMutableBufferPointer { cratedropWorldState(handle, $0.baseAddress, 64) }
        let row = (0..<Int(count)).first { rows[$0 * 7] == Double(id) }!
        return (rows[row * 7 + 1], rows[row * 7 + 2])
    }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("coreabi-\(UUID().uuidString)-\(name)").path
    }

    static func hashText(_ handle: Int32) -> String { StateHash(value: cratedropWorldHash(handle)).description }

    /// Input lines and the page's commands (a tilt, a drop, a push, a grab dragged and released)
    /// over 160 steps: the record the ABI gives verifies natively, every checkpoint, and ends at
    /// the world's step and hash; asking for it leaves the record going on.
    @Test(.needsSavedStates(World.canSaveState)) func aPagesRecordVerifiesWithTheCLI() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(Self.input(handle, #"{"step": 10, "gravity": [400, -600]}"#) == 0)
        #expect(Self.input(handle, #"{"step": 20, "body": 2, "impulse": [0, 30000]}"#) == 0)
        #expect(cratedropWorldStep(handle, 30) == 0)
        #expect(Self.command(handle, #"{"gravity":[300,-900]}"#) == 0, "\(Self.result())")
        #expect(cratedropWorldStep(handle, 20) == 0)
        #expect(Self.command(handle, #"{"drop":{"at":[150,250]}}"#) == 0, "\(Self.result())")
        #expect(cratedropWorldStep(handle, 30) == 0)
        let one = Self.position(handle, of: 1)
        #expect(Self.command(handle, #"{"push":{"body":1,"velocity":[50,200],"at":[\#(one.x),\#(one.y)]}}"#) == 0, "\(Self.result())")
        #expect(cratedropWorldStep(handle, 10) == 0)
        let at = Self.position(handle, of: 3)
        #expect(Self.command(handle, #"{"grab":{"body":3,"at":[\#(at.x),\#(at.y)]}}"#) == 0, "\(Self.result())")
        for move in 1...10 {
            #expect(Self.command(handle, #"{"drag_to":{"body":3,"at":[\#(at.x + Double(move) * 4),\#(at.y + Double(move) * 3)]}}"#) == 0)
            #expect(cratedropWorldStep(handle, 2) == 0)
        }
        #expect(Self.command(handle, #"{"release":{"body":3}}"#) == 0, "\(Self.result())")
        #expect(cratedropWorldStep(handle, 50) == 0)
        // A command applied after the last step acts on the next: the record ends before it.
        #expect(Self.command(handle, #"{"gravity":[0,-1000]}"#) == 0)

        let count = cratedropWorldRecord(handle)
        try #require(count > 0, "\(Self.result())")
        let record = Self.resultBytes(count)
        let lines = String(decoding: record, as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.hasPrefix(#"{"record":"cratedrop","version":1,"scene_file":"Scenes/book.json","determinism_class":""#) == true)
        #expect(lines.last == #"{"end":true,"steps":160,"hash":"\#(Self.hashText(handle))"}"#)
        let dropped = lines.contains { $0.hasPrefix(#"{"step":50,"add":{"#) }
        let pushed = lines.contains { $0.hasPrefix(#"{"step":80,"body":1,"impulse":["#) }
        let grabbed = lines.contains { $0.hasPrefix(#"{"step":90,"body":3,"grab":["#) }
        let released = lines.contains(#"{"step":110,"body":3,"release":true}"#)
        #expect(dropped && pushed && grabbed && released)
        #expect(!lines.contains(#"{"step":160,"gravity":[0.0,-1000.0]}"#))
        #expect(cratedropWorldRecordSteps(handle) == 160)

        let path = Self.temporary("page.rec")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(record).write(to: URL(fileURLWithPath: path))
        let replay = try CLI.run(["replay", path, "--verify"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let fields = try JSONFields(replay.stdout.trimmingCharacters(in: .newlines))
        #expect(fields.bool("verified") == true)
        #expect(fields.number("checkpoints_verified") == 160)
        #expect(fields.string("state_hash") == Self.hashText(handle))

        // The record goes on: 10 more steps, and the next record ends after them.
        #expect(cratedropWorldStep(handle, 10) == 0)
        let later = String(decoding: Self.resultBytes(cratedropWorldRecord(handle)), as: UTF8.self).split(separator: "\n")
        #expect(later.last == #"{"end":true,"steps":170,"hash":"\#(Self.hashText(handle))"}"#)
        let tilted = later.contains(#"{"step":160,"gravity":[0.0,-1000.0]}"#)
        #expect(tilted)
    }

    /// After a restore the record is refused, saying why; a fresh load records again.
    @Test(.needsSavedStates(World.canSaveState)) func aRestoreEndsTheRecord() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(cratedropWorldStep(handle, 20) == 0)
        let saved = Self.resultBytes(cratedropWorldSave(handle))
        #expect(Self.restore(handle, saved) == 0)
        #expect(cratedropWorldRecord(handle) == -64)
        #expect(Self.result().hasPrefix("no record since a state was restored (at step 20)"))
        #expect(cratedropWorldRecordSteps(handle) == -1)
    }

    /// A saved-state file from the ABI (CDSTATE) continues in `cratedrop hash` to the ABI's own
    /// hash; one saved by the CLI restores here at its step and goes on to the same hash.
    @Test(.needsSavedStates(World.canSaveState)) func stateFilesGoBothWaysWithTheCLI() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(Self.input(handle, #"{"step": 10, "gravity": [400, -600]}"#) == 0)
        #expect(cratedropWorldStep(handle, 60) == 0)
        let count = cratedropWorldSaveFile(handle)
        try #require(count > 0, "\(Self.result())")
        let file = Self.resultBytes(count)
        #expect(file.starts(with: SavedStateFile.magic))
        let parsed = try SavedStateFile.parse(file)
        #expect(parsed.sceneFile == "Scenes/book.json" && parsed.state.step == 60)
        #expect(parsed.determinismClass == DeterminismClass.current.id)
        let path = Self.temporary("page.state")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(file).write(to: URL(fileURLWithPath: path))
        #expect(cratedropWorldStep(handle, 60) == 0)
        let continued = try CLI.run(["hash", path, "--steps", "60"])
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stdout == "120 \(Self.hashText(handle))\n")

        // And back: the CLI's state at step 60 of the same run restores in a fresh world.
        let tilt = Self.temporary("tilt.jsonl"), cliState = Self.temporary("cli.state")
        defer { try? FileManager.default.removeItem(atPath: tilt); try? FileManager.default.removeItem(atPath: cliState) }
        try Data(#"{"step": 10, "gravity": [400, -600]}"#.utf8 + [10]).write(to: URL(fileURLWithPath: tilt))
        let saved = try CLI.run(["hash", "Scenes/book.json", "--inputs", tilt, "--steps", "60", "--save-state", cliState])
        #expect(saved.status == 0, "\(saved.stderr)")
        let fresh = try Self.book()
        defer { _ = cratedropWorldFree(fresh) }
        #expect(Self.restore(fresh, Array(try Data(contentsOf: URL(fileURLWithPath: cliState)))) == 0, "\(Self.result())")
        #expect(cratedropWorldStepCount(fresh) == 60)
        #expect(cratedropWorldStep(fresh, 60) == 0)
        #expect(Self.hashText(fresh) == Self.hashText(handle))
        // A saved-state file of another scene is refused with the world's reason.
        let pile = Self.load(Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/pile-100.json")))), name: "pile-100.json")
        defer { _ = cratedropWorldFree(pile) }
        #expect(Self.restore(pile, file) == -65)
    }

    /// A saved-state file from another determinism class restores, with the CLI's warning as the
    /// result (its length returned), as `cratedrop hash FILE` warns on stderr.
    @Test(.needsSavedStates(World.canSaveState)) func aStateFileFromAnotherClassRestoresWithTheCLIsWarning() throws {
        let handle = try Self.book()
        defer { _ = cratedropWorldFree(handle) }
        #expect(cratedropWorldStep(handle, 30) == 0)
        var file = try SavedStateFile.parse(Self.resultBytes(cratedropWorldSaveFile(handle)))
        #expect(Self.restore(handle, file.bytes) == 0)
        file.determinismClass = "0123456789ab"
        let fresh = try Self.book()
        defer { _ = cratedropWorldFree(fresh) }
        let warning = Self.restore(fresh, file.bytes)
        #expect(warning > 0)
        #expect(Self.result() == "the state file was saved in determinism class 0123456789ab (\(file.backend) backend, \(file.architecture)); "
            + "this machine is class \(DeterminismClass.current.id): a continuation here will not match one made there")
        #expect(cratedropWorldStepCount(fresh) == 30)
    }
}
