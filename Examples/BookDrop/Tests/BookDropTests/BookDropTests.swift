import BookDrop
import Foundation
import Physics
import SceneModel
import Testing

@Suite struct BookDropTests {
    /// The golden 1200-step hash of the book scene for the determinism class this runs in, from
    /// CrateDrop's own golden files.
    static func golden() throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = repository.appendingPathComponent("Tests/PhysicsTests/Golden/\(DeterminismClass.current.id)/book-hashes.txt")
        let text = try String(contentsOf: file, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("1200 ") })
        return String(line.dropFirst(5))
    }

    @Test func theBookSceneBuiltInCodeReachesTheGoldenHashAfter1200Steps() throws {
        let world = try makeBookWorld()
        let result = drive(world, seconds: DecimalSeconds("10")!)
        #expect(result.counters.stepsTaken == 1200 && result.counters.frames == 600)
        #expect(result.stateHash.description == (try Self.golden()))
    }

    /// Linked as the README's library section says (scripts/chipmunk-library and the linker
    /// flags), a package runs on CrateDrop's Chipmunk: it saves a world, restores it, continues it
    /// bit for bit, and prints nothing on stdout (Debian's debug build prints a banner there).
    @Test func linkedAsTheReadmeSaysItSavesRestoresAndPrintsNoBanner() async throws {
        #expect(PhysicsBackend.current.kind == .portable, "loaded \(PhysicsBackend.current.libraryPath ?? "no libchipmunk")")
        let world = try makeBookWorld()
        for _ in 0..<240 { world.step() }
        let saved = try world.saveState()
        for _ in 0..<120 { world.step() }
        let straight = world.stateHash
        try world.restore(saved)
        for _ in 0..<120 { world.step() }
        #expect(world.stateHash == straight)

        let printed = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            _ = try makeBookWorld()
            fflush(nil)
            exit(0)
        }
        // (The child's stdout also carries the test library's own bytes: look for the banner's words.)
        #expect(printed != nil && !String(decoding: printed?.standardOutputContent ?? [], as: UTF8.self).contains("Chipmunk"))
    }
}
