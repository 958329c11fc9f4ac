import Foundation
import TestSupport
import Testing

/// `hash --save-state` and `hash STATE`: a state saved at step N and continued for M steps in a
/// new process prints exactly the lines N+1...N+M of one straight run, on the portable backend;
/// Debian's library refuses before any step (69); corrupt states are bad data (65).
@Suite struct SavedStateCommandTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)-\(name)").path
    }

    static var portable: Bool { (try? CLI.run(["platform"]).stdout.contains("portable backend")) == true }

    @Test(arguments: [("Scenes/pile-100.json", 301), ("Scenes/tumbler.json", 240)])
    func aContinuationPrintsTheStraightRunsLines(scene: String, at step: Int) throws {
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let saved = try CLI.run(["hash", scene, "--steps", String(step), "--save-state", state])
        guard Self.portable else {
            #expect(saved.status == 69 && saved.stdout.isEmpty && saved.stderr.contains("portable physics backend"))
            #expect(!FileManager.default.fileExists(atPath: state))
            return
        }
        #expect(saved.status == 0, "\(saved.stderr)")
        let continued = try CLI.run(["hash", state, "--steps", "300", "--every", "1"])
        let straight = try CLI.run(["hash", scene, "--steps", String(step + 300), "--every", "1"])
        #expect(continued.status == 0 && straight.status == 0)
        let expected = straight.stdout.split(separator: "\n").dropFirst(step)
        #expect(continued.stdout.split(separator: "\n") == Array(expected))
    }

    @Test func corruptTruncatedAndForeignStatesAreBadData() throws {
        guard Self.portable else { return }
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(try CLI.run(["hash", "Scenes/book.json", "--steps", "120", "--save-state", state]).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: state)))
        let broken = Self.temporary("broken.state")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x10
        for (variant, message) in [(flipped, "checksum does not match"), (Array(bytes.prefix(bytes.count - 9)), "corrupt or cut short"),
                                   (Array(bytes.prefix(12)), "cut short")] {
            try Data(variant).write(to: URL(fileURLWithPath: broken))
            let result = try CLI.run(["hash", broken, "--steps", "1"])
            #expect(result.status == 65 && result.stdout.isEmpty && result.stderr.contains(message), "\(result.stderr)")
        }
    }

    /// A gravity script continues from the saved step: lines before it are already in the state.
    @Test func gravityInputsContinueFromTheSavedStep() throws {
        guard Self.portable else { return }
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let tilt = Repository.path("Scenes/tilt.jsonl")
        #expect(try CLI.run(["hash", "Scenes/book.json", "--gravity", tilt, "--steps", "400", "--save-state", state]).status == 0)
        let continued = try CLI.run(["hash", state, "--gravity", tilt, "--steps", "500", "--every", "50"])
        let straight = try CLI.run(["hash", "Scenes/book.json", "--gravity", tilt, "--steps", "900", "--every", "50"])
        #expect(continued.status == 0)
        #expect(continued.stdout.split(separator: "\n") == Array(straight.stdout.split(separator: "\n").dropFirst(8)))
    }
}
