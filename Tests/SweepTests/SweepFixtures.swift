import Foundation
import SceneFile
import Sweep
import TestSupport

/// Specs written into a fresh temporary folder, naming the shipped scenes by absolute path.
struct SweepFixture {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// A small pile (20 crates) as a scene file in the folder: quick samples.
    func smallPile() throws -> String {
        let path = "\(folder)/pile.json"
        try """
        {
          "world": [200, 200],
          "gravity": [0, -1000],
          "bounds": { "radius": 2, "friction": 0.7, "elasticity": 0.1 },
          "generator": { "count": 20, "seed": 1, "size": [10, 20], "density": 0.01, "friction": 0.7, "elasticity": 0.1 }
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Writes `text` as the spec `name` in the folder and returns its path.
    func spec(_ text: String, name: String = "spec.json") throws -> String {
        let path = "\(folder)/\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Loads a spec written from `text`.
    func load(_ text: String) throws -> SweepSpec {
        let path = try spec(text)
        return try SweepSpecLoader.load(path: path)
    }

    /// The problems a spec written from `text` is refused with, one per line.
    func problems(_ text: String) throws -> [String] {
        let path = try spec(text)
        do {
            _ = try SweepSpecLoader.load(path: path)
            return []
        } catch {
            return error.description.split(separator: "\n").map(String.init)
        }
    }
}
