import Foundation
import SceneModel
import Script
import TestSupport
import Testing

/// A state made in another determinism class is warned about with the file's own text escaped,
/// by every command that reads one: a crafted file cannot send escape sequences to the terminal.
@Suite struct SavedStateWarningTests {
    @Test(arguments: [["validate"], ["hash", "--steps", "1"]])
    func anotherClassIsWarnedAboutWithItsTextEscaped(command: [String]) throws {
        let scene = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/book.json"))))
        let file = SavedStateFile(determinismClass: "0000\u{1b}[31mred", backend: "portable", architecture: "x86_64",
                                  sceneFile: "Scenes/book.json", sceneText: scene,
                                  state: WorldState(step: 3, gravity: Vec2(0, -1000), fingerprint: 1, physics: [0]))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("class-\(UUID().uuidString).state").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run([command[0], path] + command.dropFirst())
        #expect(result.stderr.contains("cratedrop: warning: \(path) was saved in determinism class 0000\\u001b[31mred (portable backend, x86_64)"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1b}") && !result.stdout.contains("\u{1b}"))
        // The physics part is no world's: refused (65) where states restore, 69 for hash on Debian's library.
        #expect([0, 65, 69].contains(result.status) && result.status < 128)
    }
}
