import Foundation
import SceneFile
import SceneModel

/// Paths into the package checkout, found from this file's location so tests run from any directory.
public enum Repository {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Loads `Scenes/NAME.json`.
    public static func scene(_ name: String) throws -> Scene {
        try SceneLoader.load(path: path("Scenes/\(name).json"))
    }
}
