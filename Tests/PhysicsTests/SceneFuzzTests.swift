#if canImport(Glibc)
import Glibc
#endif
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

    /// Replaces each number in a scene, one at a time, by each extreme value: the book scene, and
    /// the seesaw's polygons, segment, polygon wall and their radii.
    @Test(arguments: ["book", "seesaw"])
    func everyNumberReplacedByExtremesNeverAborts(scene name: String) throws {
        let text = try String(contentsOfFile: Repository.path("Scenes/\(name).json"), encoding: .utf8)
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

    /// Random polygons (random points, in random numbers, at random scales) as bodies and walls:
    /// refused with a reason, or built and stepped; never an abort in Chipmunk.
    @Test func randomPolygonsAreRefusedOrRunNeverAbort() throws {
        var random = SplitMix64(seed: 32)
        var ran = 0, refused = 0
        for _ in 0..<600 {
            let count = Int(random.next() % 7) + 1
            let scale = [1e-4, 0.01, 1, 30, 1e5, 1e7][Int(random.next() % 6)]
            func point() -> String { "[\(random.next(in: -1...1) * scale), \(random.next(in: -1...1) * scale)]" }
            // Sorted by angle half the time, so convex ones occur as well as random orders.
            var points = (0..<count).map { _ in (random.next(in: -1...1) * scale, random.next(in: -1...1) * scale) }
            if random.next() % 2 == 0 { points.sort { atan2($0.1, $0.0) < atan2($1.1, $1.0) } }
            let vertices = "[" + points.map { "[\($0.0), \($0.1)]" }.joined(separator: ", ") + "]"
            let radius = [0, 0.5, 3, -1][Int(random.next() % 4)]
            let wall = random.next() % 2 == 0
            let part = wall ? #""walls": [{"shape": "polygon", "vertices": \#(vertices), "radius": \#(radius)}]"#
                : #""crates": [{"shape": "polygon", "center": [500, 500], "vertices": \#(vertices), "radius": \#(radius), "mass": 1}, {"shape": "segment", "center": [500, 900], "a": \#(point()), "b": \#(point()), "mass": 1}]"#
            let text = #"{"world": [1000, 1000], "gravity": [0, -1000], "bounds": {"radius": 1}, \#(part)}"#
            if try runIfValid(text) { ran += 1 } else { refused += 1 }
        }
        #expect(ran > 50 && refused > 50, "ran \(ran), refused \(refused)")
    }

    /// Returns whether the scene was valid; if so, it was built and stepped.
    private func runIfValid(_ text: String) throws -> Bool {
        guard let scene = try? SceneLoader.parse(Array(text.utf8), file: "fuzz.json") else { return false }
        let world = try World(scene: scene)
        for _ in 0..<30 { world.step() }
        return true
    }
}
