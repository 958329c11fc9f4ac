import Foundation
import TestSupport
import Testing

/// `hash SCENE --synctest K`: passes on every shipped scene without changing a printed hash, is
/// refused before any step by Debian's library (69), and checks its argument (64).
@Suite struct SyncTestCommandTests {
    static let shippedScenes = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("Scenes")))?
        .filter { $0.hasSuffix(".json") }.sorted().map { "Scenes/\($0)" } ?? []

    /// Steps per scene, fewer for the big piles so the debug build checks each in seconds.
    static func steps(_ scene: String) -> Int {
        scene.contains("5000") ? 12 : scene.contains("1000") ? 60 : 240
    }

    @Test func everyShippedSceneIsFound() {
        #expect(Self.shippedScenes.count >= 9 && Self.shippedScenes.contains("Scenes/barrels.json"))
    }

    @Test(arguments: shippedScenes)
    func passesOnEveryShippedSceneAndPrintsThePlainRunsHashes(scene: String) throws {
        let steps = String(Self.steps(scene))
        let plain = try CLI.run(["hash", scene, "--steps", steps, "--every", "6"])
        let tested = try CLI.run(["hash", scene, "--steps", steps, "--every", "6", "--synctest", "2"])
        #expect(plain.status == 0)
        guard SavedStateCommandTests.portable else {
            #expect(tested.status == 69 && tested.stdout.isEmpty && tested.stderr.contains("portable physics backend"))
            return
        }
        #expect(tested.status == 0, "\(tested.stderr)")
        #expect(tested.stdout == plain.stdout && !plain.stdout.isEmpty)
    }

    /// A settled pile, every cached contact in use: the continuation of a saved state passes too.
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func passesFromASavedSettledPile() throws {
        let state = SavedStateCommandTests.temporary("pile.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "601", "--save-state", state]).status == 0)
        let tested = try CLI.run(["hash", state, "--steps", "60", "--synctest", "8"])
        #expect(tested.status == 0 && tested.stdout.split(separator: "\n").last?.hasPrefix("661 ") == true, "\(tested.stderr)")
    }

    @Test(arguments: ["0", "-1", "1001", "x"])
    func aBadDepthIsBadUsage(depth: String) throws {
        let result = try CLI.run(["hash", "Scenes/book.json", "--synctest", depth])
        #expect(result.status == 64 && result.stdout.isEmpty && result.stderr.contains("synctest"), "\(result.stderr)")
    }
}
