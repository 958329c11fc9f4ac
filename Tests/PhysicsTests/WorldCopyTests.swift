import Physics
import SceneModel
import TestSupport
import Testing

/// The library's in-memory copies and state bytes: a copy goes on exactly as its original and
/// apart from it; a state survives bytes and another thread; bad bytes are refused by name.
@Suite struct WorldCopyTests {
    @Test func aCopyGoesOnExactlyAsItsOriginalAndApartFromIt() throws {
        let original = try SavedStateTests.stepped("pile-100", steps: 601)
        guard World.canSaveState else {
            #expect(throws: StateError.unsupportedBackend) { _ = try original.copy() }
            return
        }
        let copy = try original.copy()
        #expect(copy !== original && copy.stepCount == 601 && copy.stateHash == original.stateHash)
        #expect(copy.crates.map(\.id) == original.crates.map(\.id) && copy.gravity == original.gravity)
        // The copy alone goes on: the original stays where it was.
        let ahead = SavedStateTests.trail(copy, steps: 150)
        #expect(original.stepCount == 601)
        #expect(SavedStateTests.trail(original, steps: 150) == ahead)
    }

    /// A planner's loop: copies of one world, each given another gravity, part ways; a copy with
    /// the original's gravity does not.
    @Test(.needsSavedStates(World.canSaveState)) func copiesTriedWithOtherInputsPartWaysAndTheSameInputAgrees() throws {
        let world = try SavedStateTests.stepped("book", steps: 120)
        let outcomes = try [Vec2(0, -980), Vec2(300, -900), Vec2(-300, -900)].map { gravity in
            let trial = try world.copy()
            try trial.setGravity(gravity)
            for _ in 0..<120 { trial.step() }
            return trial.stateHash
        }
        #expect(Set(outcomes).count == 3)
        try world.setGravity(Vec2(0, -980))
        for _ in 0..<120 { world.step() }
        #expect(world.stateHash == outcomes[0])
    }

    @Test(.needsSavedStates(World.canSaveState)) func aStateGoesThroughBytesAndToAnotherThread() async throws {
        let world = try SavedStateTests.stepped("tumbler", steps: 333)
        let bytes = try world.saveState().bytes
        #expect(bytes.starts(with: Array("CDWORLD\n".utf8)))
        let expected = SavedStateTests.trail(world, steps: 100)
        let continued = try await Task.detached {
            let state = try WorldState(bytes: bytes)
            let elsewhere = try World(scene: Repository.scene("tumbler"))
            try elsewhere.restore(state)
            return SavedStateTests.trail(elsewhere, steps: 100)
        }.value
        #expect(continued == expected)
    }

    @Test func badBytesAreRefusedByName() throws {
        let state = WorldState(step: 7, gravity: Vec2(0, -980), fingerprint: 42, physics: [1, 2, 3])
        let bytes = state.bytes
        #expect(try WorldState(bytes: bytes) == state)
        var flipped = bytes
        flipped[12] ^= 1
        let cases: [([UInt8], String)] = [(Array("CDSTATE\n".utf8) + bytes.dropFirst(8), "does not begin with CDWORLD"),
                                          (flipped, "checksum does not match"), (Array(bytes.dropLast(3)), "checksum does not match"),
                                          (Array(bytes.prefix(5)), "does not begin with CDWORLD")]
        for (bad, message) in cases {
            #expect {
                _ = try WorldState(bytes: bad)
            } throws: { error in
                (error as? WorldState.FormatError)?.description.contains(message) == true
            }
        }
    }
}

/// Contacts are known by the shapes' Chipmunk ids, which follow the order shapes were added: a
/// state fits only a world built in the same order, and says so rather than going on wrongly.
@Suite struct StateShapeOrderTests {
    @Test(.needsSavedStates(World.canSaveState)) func aWorldBuiltInAnotherOrderIsRefusedAndLeftAsItWas() throws {
        let scene = try Repository.scene("book")
        let saved = try SavedStateTests.stepped("book", steps: 200)
        let state = try saved.saveState()
        // The same make-up, crates added before the walls.
        let reordered = try World(gravity: scene.gravity, stepRate: scene.stepRate, iterations: scene.iterations, space: scene.space)
        for crate in scene.allCrates() { try reordered.addCrate(crate) }
        for wall in scene.allWalls() { try reordered.addWall(wall) }
        #expect(reordered.fingerprint == saved.fingerprint)
        let before = reordered.stateHash
        #expect {
            try reordered.restore(state)
        } throws: { error in
            guard case let .malformed(reason) = error as? StateError else { return false }
            return reason.contains("added in another order")
        }
        #expect(reordered.stateHash == before && reordered.stepCount == 0)
    }
}

/// A world restored at every step (a synctest, a rewinding page) stays the same size: the restored
/// contacts reuse the space's contact buffers (each restore once took about 60 KB more for
/// pile-100, 0.6 MB for pile-1000, until the world was dropped).
@Suite struct RestoreMemoryTests {
    static var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return pages * 4096
    }

    @Test(.needsSavedStates(World.canSaveState)) func restoringAtEveryStepDoesNotGrowTheWorld() throws {
        let world = try SavedStateTests.stepped("pile-100", steps: 601)
        func cycles(_ count: Int) throws {
            for _ in 0..<count {
                let state = try world.saveState()
                world.step()
                try world.restore(state)
            }
        }
        try cycles(50)
        let before = Self.residentBytes
        try cycles(400)
        let grown = Self.residentBytes - before
        #expect(before > 0 && grown < 8 << 20, "grew \(grown >> 10) KB over 400 restores")
    }
}
