// Scene files by path: native only (the wasm core is given the scene's bytes).
#if !hasFeature(Embedded)
import FileIO
import SceneModel

extension SceneLoader {
    /// Reads and checks the scene file at `path`.
    /// - Throws: `.unreadable` (missing, a directory, too large) or `.invalid` with every problem found.
    public static func load(path: String) throws(SceneLoadError) -> Scene {
        try loadWithText(path: path).scene
    }

    /// Reads and checks the scene file at `path`, returning the file's bytes too (a run record
    /// embeds them, so the scene travels exactly as written).
    public static func loadWithText(path: String) throws(SceneLoadError) -> (scene: Scene, text: [UInt8]) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, limit: maxFileSize)
        } catch {
            throw .unreadable(file: path, reason: error.description)
        }
        return (try parse(bytes, file: path), bytes)
    }

    /// Reads and checks the scene file at `path`, returning its warnings too (bodies placed
    /// across walls): what `cratedrop validate` prints.
    /// - Throws: as `load(path:)`; `.invalid` lists warnings beside the errors.
    public static func check(path: String) throws(SceneLoadError) -> (scene: Scene, warnings: [SceneDiagnostic]) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, limit: maxFileSize)
        } catch {
            throw .unreadable(file: path, reason: error.description)
        }
        return try check(bytes, file: path)
    }

    /// Reads and checks the scene file at `path`: the checked scene (a world is built from it
    /// without checking again) and the file's bytes.
    public static func loadChecked(path: String) throws(SceneLoadError) -> (scene: CheckedScene, text: [UInt8]) {
        let (scene, text) = try loadWithText(path: path)
        return (CheckedScene(decoded: scene), text)
    }
}
#endif
