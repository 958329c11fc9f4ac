import Foundation
import TestSupport
import Testing

/// The shipped scenes of polygons, segments, polygon walls, filters and sensors, through the
/// command line: each validates, hashes alike in two processes and as the plain C baseline builds
/// it, continues bit for bit from a saved state, and renders what it holds.
@Suite struct ShapeSceneCommandTests {
    static let scenes = ["galton", "domino", "seesaw"]

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("shapes-\(UUID().uuidString)-\(name)").path
    }

    @Test(arguments: zip(scenes, ["60 crates, 133 walls", "18 crates, 5 walls", "4 crates, 5 walls"]))
    func eachSceneValidatesAndHashesAlikeInTwoProcesses(name: String, counts: String) throws {
        let validated = try CLI.run(["validate", "Scenes/\(name).json"])
        #expect(validated.status == 0 && validated.stdout == "Scenes/\(name).json: ok (\(counts))\n" && validated.stderr.isEmpty,
                "\(validated.stderr)")
        let first = try CLI.run(["hash", "Scenes/\(name).json", "--steps", "600", "--every", "100"])
        let second = try CLI.run(["hash", "Scenes/\(name).json", "--steps", "600", "--every", "100"])
        #expect(first.status == 0 && first.stdout.split(separator: "\n").count == 6 && first.stdout == second.stdout)
    }

    /// The C baseline builds polygons, segments, polygon walls, filters and sensors with its own
    /// calls, in the documented construction order, and reaches the same hash.
    @Test func theCBaselineReachesTheSameHashes() throws {
        let result = try CLI.run(["bench", "--quick", "--json"] + Self.scenes.map { "Scenes/\($0).json" })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "\"hashes_match\":true").count == Self.scenes.count + 1)
        #expect(!result.stdout.contains("\"hashes_match\":false"))
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable), arguments: zip(scenes, [200, 157, 301]))
    func aSavedStateContinuesBitForBit(name: String, step: Int) throws {
        let state = Self.temporary("s.state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let scene = "Scenes/\(name).json"
        #expect(try CLI.run(["hash", scene, "--steps", String(step), "--save-state", state]).status == 0)
        let continued = try CLI.run(["hash", state, "--steps", "300", "--every", "1"])
        let straight = try CLI.run(["hash", scene, "--steps", String(step + 300), "--every", "1"])
        #expect(continued.status == 0 && straight.status == 0, "\(continued.stderr)")
        #expect(continued.stdout.split(separator: "\n") == Array(straight.stdout.split(separator: "\n").dropFirst(step)))
    }

    /// The Galton board's balls fall through the sensor that fills the bin left of the centre
    /// divider (it never pushes) and come to rest on the floor inside it, drawn over the sensor's
    /// own colour; the dividers either side are drawn whole.
    @Test func theGaltonBoardsSensorLetsBallsThrough() throws {
        let directory = Self.temporary("galton")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try CLI.run(["run", "Scenes/galton.json", "--seconds", "5", "--every", "300", "--out", directory, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try PPMImage.readFile([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/frame-00001.ppm"))))
        // The frame is 400x600 for the 400x600 world: the sensor's bin is x 173.5...198.5, y 2...60.
        var sensor = 0, ball = 0
        for y in (600 - 58)..<(600 - 4) {
            for x in 176..<197 {
                let i = (y * image.width + x) * 3
                let pixel = (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
                if pixel == (0xe9, 0xdf, 0xc8) { sensor += 1 }
                if pixel == (0xc8, 0x55, 0x3d) { ball += 1 }
            }
        }
        #expect(sensor > 200, "the sensor is drawn in its colour")
        #expect(ball > 100, "balls lie inside the sensor's bin")
        // The divider at x = 200 (radius 1.5) shows its wall colour at y 10...60 (no sensor drawn over it).
        let divider = (600 - 60..<600 - 10).filter { y in
            let i = (y * image.width + 200) * 3
            return (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) != (0xe9, 0xdf, 0xc8)
        }
        #expect(divider.count == 50)
    }

    /// The seesaw's plank (a dynamic segment) tips: after two seconds one end is well below the
    /// other; the trace names its shape and its bounding size about its position.
    @Test func theSeesawsPlankTipsAndItsTraceNamesItsShape() throws {
        let trace = Self.temporary("seesaw.csv")
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let run = try CLI.run(["hash", "Scenes/seesaw.json", "--seconds", "2", "--trace", trace])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let last = rows.last { $0.hasPrefix("240,") && $0.split(separator: ",")[2] == "1" }.map { $0.split(separator: ",").map(String.init) }
        #expect(last?[3] == "segment" && last?[4] == "330.0" && last?[5] == "10.0")
        let angle = Double(last?[8] ?? "") ?? 0
        #expect(abs(angle) > 0.2, "the plank tipped: angle \(angle)")
    }
}

/// Sweeps take axes over the new keys like any other: a generator's shape, a polygon's vertex, a
/// wall's filter; a value that makes a bad shape is refused at `plan` with the scene's reason.
@Suite struct ShapeSweepTests {
    @Test func axesOverShapesAndFiltersRunAndBadOnesAreRefusedAtPlan() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shape-sweep-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            {
              "scene": "\(Repository.path("Scenes/seesaw.json"))",
              "seconds": 2,
              "axes": [
                { "field": "crates[3].vertices[2][0]", "values": [30, 40, 50] },
                { "field": "walls[0].filter.mask", "values": [0, 4294967295] }
              ],
              "outputs": { "hash_every": 60 }
            }
            """.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let run = try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"])
        #expect(run.status == 0, "\(run.stderr)")
        let merged = try CLI.run(["sweep", "merge", "\(folder)/out"])
        #expect(merged.status == 0 && merged.stdout.contains(#""complete":6"#), "\(merged.stdout)")
        // A mask of 0 lets the plank fall through the triangle, and the hexagon's shape changes how
        // it lands: all six samples part.
        let manifest = try String(contentsOfFile: "\(folder)/out/manifest.jsonl", encoding: .utf8)
        let hashes = manifest.split(separator: "\n").compactMap { line in line.range(of: #""hash":""#).map { line[$0.upperBound...].prefix(16) } }
        #expect(Set(hashes).count == 6, "\(hashes)")

        try """
            {
              "scene": "\(Repository.path("Scenes/seesaw.json"))",
              "seconds": 0.5,
              "axes": [{ "field": "crates[3].vertices[2][0]", "values": [30, -30] }],
              "outputs": { "hash_every": 60 }
            }
            """.write(toFile: "\(folder)/bad.json", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["sweep", "plan", "\(folder)/bad.json"])
        #expect(bad.status == 65 && bad.stderr.contains("axes[0].values[1]: the scene refuses it: crates[3].vertices[2]: makes the polygon concave"),
                "\(bad.stderr)")
    }
}
