import Foundation
import TestSupport
import Testing

/// The shipped scene with boxes and circles, through the command line: it validates, hashes the
/// same in two processes and as the plain C baseline builds it, and renders discs.
@Suite struct CircleCommandTests {
    @Test func theBarrelsSceneValidatesAndHashesAlikeInTwoProcesses() throws {
        let validated = try CLI.run(["validate", "Scenes/barrels.json"])
        #expect(validated.status == 0 && validated.stdout == "Scenes/barrels.json: ok (7 crates, 5 walls)\n" && validated.stderr.isEmpty)
        let first = try CLI.run(["hash", "Scenes/barrels.json", "--steps", "1200", "--every", "100"])
        let second = try CLI.run(["hash", "Scenes/barrels.json", "--steps", "1200", "--every", "100"])
        #expect(first.status == 0 && first.stdout.split(separator: "\n").count == 12 && first.stdout == second.stdout)
    }

    /// The C baseline builds circles with its own calls (walls first, then bodies in file order)
    /// and reaches the same hash.
    @Test func theCBaselineReachesTheSameHash() throws {
        let result = try CLI.run(["bench", "--quick", "--json", "Scenes/barrels.json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"hashes_match\":true") && !result.stdout.contains("\"hashes_match\":false"))
    }

    /// The last frame shows the blue circle at rest in the bottom-right corner, drawn round.
    @Test func framesAndVideosShowTheDiscs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("barrels-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let frames = try CLI.run(["run", "Scenes/barrels.json", "--seconds", "3", "--every", "180", "--out", directory, "--quiet"])
        #expect(frames.status == 0, "\(frames.stderr)")
        let image = try PPMImage.readFile([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/frame-00001.ppm"))))
        // Blue-dominated pixels (the circle's own colour #6f8fb5 and its shades), and how round they are.
        var blue: [(Int, Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 3
                let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
                if b > r + 30, b > g { blue.append((x, y)) }
            }
        }
        #expect(blue.count > 500)
        let cx = Double(blue.map(\.0).reduce(0, +)) / Double(blue.count), cy = Double(blue.map(\.1).reduce(0, +)) / Double(blue.count)
        let farthest = blue.map { point -> Double in
            let dx = Double(point.0) - cx, dy = Double(point.1) - cy
            return dx * dx + dy * dy
        }.max() ?? 0
        // Radius 16 px at this frame's scale of 1: every blue pixel within it (a box would reach 16√2).
        #expect(farthest.squareRoot() < 17.5, "\(farthest.squareRoot())")
        #expect(cx > 340 && cy > 250)
        let video = "\(directory).mp4"
        defer { try? FileManager.default.removeItem(atPath: video) }
        let made = try CLI.run(["run", "Scenes/barrels.json", "--seconds", "1", "--out", video, "--quiet"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try VideoProbe(video).frames == 60)
    }
}
