import Physics
import SceneModel
import TestSupport
import Testing

/// Saving a world and continuing it: exact at every following step, in place and in a fresh
/// world; corrupt or foreign states refused, leaving the world as it was. On Debian's library
/// (no saved states) the refusal itself is what is tested.
@Suite struct SavedStateTests {
    static func stepped(_ name: String, steps: Int) throws -> World {
        let world = try World(scene: Repository.scene(name))
        for _ in 0..<steps { world.step() }
        return world
    }

    /// Hashes after each of `steps` more steps.
    static func trail(_ world: World, steps: Int) -> [StateHash] {
        (0..<steps).map { _ in
            world.step()
            return world.stateHash
        }
    }

    @Test func debiansLibraryRefusesClearly() throws {
        let world = try World(scene: Repository.scene("book"))
        if World.canSaveState {
            #expect(throws: Never.self) { _ = try world.saveState() }
        } else {
            #expect(throws: StateError.unsupportedBackend) { _ = try world.saveState() }
        }
    }

    /// The refusal speaks to a library user first (a Swift program linked without CrateDrop's
    /// Chipmunk): what to build with, and how to ask before saving; then to the command's user.
    @Test func theRefusalSaysWhatALibraryUserDoes() {
        let text = StateError.unsupportedBackend.description
        #expect(text.hasPrefix("saved states need CrateDrop's Chipmunk (the portable physics backend)"))
        for needed in ["this program loaded Debian's libchipmunk7", "scripts/chipmunk-library", #"-Xlinker -rpath -Xlinker "$lib""#,
                       "Use CrateDrop from Swift", "World.canSaveState", "scripts/install --chipmunk debian"] {
            #expect(text.contains(needed), "\(needed)")
        }
        #expect(text.firstRange(of: "scripts/chipmunk-library")!.lowerBound < text.firstRange(of: "scripts/install")!.lowerBound)
    }

    /// A settled pile and a tumbler mid-turn: saved at an odd, contact-dense step, restored into
    /// a fresh world built from the scene, the same hash at every one of the next steps.
    @Test(.needsSavedStates(World.canSaveState), arguments: [("pile-100", 601), ("tumbler", 457), ("barrels", 301), ("book", 1)])
    func aFreshWorldContinuesExactly(scene: String, at step: Int) throws {
        let original = try Self.stepped(scene, steps: step)
        let state = try original.saveState()
        let copy = try World(scene: Repository.scene(scene))
        try copy.restore(state)
        #expect(copy.stepCount == step && copy.stateHash == original.stateHash)
        let straight = Self.trail(original, steps: 200), continued = Self.trail(copy, steps: 200)
        let firstDifference = zip(straight, continued).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "parts \(firstDifference.map { $0 + 1 } ?? 0) steps after the restore")
        // The same state saves to the same bytes.
        #expect(try copy.saveState() == original.saveState())
    }

    /// Restored into the very world it came from, after that world went on: as if it never had.
    @Test(.needsSavedStates(World.canSaveState)) func aWorldRestoredInPlaceRewindsExactly() throws {
        let world = try Self.stepped("pile-100", steps: 250)
        let state = try world.saveState()
        let first = Self.trail(world, steps: 200)
        try world.restore(state)
        #expect(world.stepCount == 250)
        let again = Self.trail(world, steps: 200)
        let firstDifference = zip(first, again).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "parts \(firstDifference.map { $0 + 1 } ?? 0) steps after the restore")
    }

    /// Every truncation and a flip in every region of the bytes is refused, and the world goes on
    /// as an untouched twin does.
    @Test(.needsSavedStates(World.canSaveState)) func corruptStatesAreRefusedAndChangeNothing() throws {
        let world = try Self.stepped("pile-100", steps: 300), twin = try Self.stepped("pile-100", steps: 300)
        let state = try world.saveState()
        var refused = 0, accepted = 0
        let cuts = stride(from: 0, to: state.physics.count, by: max(1, state.physics.count / 97))
        for cut in cuts {
            var broken = state
            broken.physics = Array(state.physics.prefix(cut))
            do {
                try world.restore(broken)
                accepted += 1
            } catch {
                refused += 1
            }
        }
        #expect(refused == cuts.underestimatedCount || accepted == 0)
        var foreign = state
        foreign.fingerprint ^= 1
        #expect(throws: StateError.otherWorld) { try world.restore(foreign) }
        // Counts and indices out of range in the first bytes (the body count, after the layout
        // identifier) and past the end.
        var wrongCount = state
        wrongCount.physics[8] ^= 0x01
        #expect(throws: (any Error).self) { try world.restore(wrongCount) }
        var longer = state
        longer.physics.append(0)
        #expect(throws: (any Error).self) { try world.restore(longer) }
        #expect(world.stepCount == 300 && world.stateHash == twin.stateHash)
        #expect(Self.trail(world, steps: 100) == Self.trail(twin, steps: 100), "a refused state changed the world")
    }
}
