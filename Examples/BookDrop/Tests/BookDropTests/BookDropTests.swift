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
}
