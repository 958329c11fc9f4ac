import Physics
import SceneFile
import SceneModel
import TestSupport
import Testing

/// Mutated scene files must be refused with diagnostics or run; never crash the process
/// (this Chipmunk aborts on bad values, so a crash here means a value slipped past validation).
@Suite struct SceneFuzzTests {
    static let extremes = ["0", "-0", "-1", "1e-300", "1e300", "-1e300", "1e6", "-1e6", "1e12", "1e-6", "0.01",
                           "100000", "99999.99", "1e999", "\"x\"", "null", "[]", "{}", "true", "[1e6, -1e6]", "[0, 0]"]

    /// Replaces each number in the book scene, one at a time, by each extreme value.
    @Test func everyNumberReplacedByExtremesNeverAborts() throws {
        let text = try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8)
        let numbers = text.matches(of: /-?\d+(\.\d+)?/).map(\.range)
        var ran = 0, refused = 0
        for range in numbers {
            for extreme in Self.extremes {
                var mutated = text
                mutated.replaceSubrange(range, with: extreme)
                if try runIfValid(mutated) { ran += 1 } else { refused += 1 }
            }
        }
        #expect(ran > 0 && refused > 0)
    }

    /// Random byte edits: deletions, duplications and replacements drawn from JSON's alphabet.
    @Test func randomByteEditsNeverAbort() throws {
        let original = Array(try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8).utf8)
        let alphabet = Array("{}[]\",:-+.0123456789eE \ntrufalsn".utf8)
        var random = SplitMix64(seed: 2024)
        var ran = 0, refused = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(bytes[at], at: at)
                default: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                }
            }
            let scene: Scene
            do {
                scene = try SceneLoader.parse(bytes, file: "fuzz.json")
            } catch {
                // Every refusal names the file and, for what was parsed, the line.
                #expect(error.description.hasPrefix("fuzz.json:"), "\(error.description)")
                refused += 1
                continue
            }
            let world = try World(scene: scene)
            for _ in 0..<30 { world.step() }
            ran += 1
        }
        // Both kinds occur: the edits reach the physics as well as the parser's refusals.
        #expect(ran > 0 && refused > 0 && ran + refused == 3000)
    }

    /// Returns whether the scene was valid; if so, it was built and stepped.
    private func runIfValid(_ text: String) throws -> Bool {
        guard let scene = try? SceneLoader.parse(Array(text.utf8), file: "fuzz.json") else { return false }
        let world = try World(scene: scene)
        for _ in 0..<30 { world.step() }
        return true
    }
}
