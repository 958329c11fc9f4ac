#if canImport(Glibc)
import FileIO
import Glibc
#endif
import SceneModel

/// Reads scene files: strict JSON, every value checked, every problem reported with file, line
/// and JSON path.
public enum SceneLoader {
    /// Scene files larger than this are refused before parsing.
    public static let maxFileSize = 64 << 20

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

    /// Parses and checks `bytes` as the scene file `file`: the checked scene.
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - file: its name in messages (and the default scene name).
    ///   - imagesBeside: the scene file whose folder the scene's relative picture paths are read
    ///     from (`file` when nil: an embedded scene names its original file).
    public static func parseChecked(_ bytes: [UInt8], file: String, imagesBeside: String? = nil) throws(SceneLoadError) -> CheckedScene {
        CheckedScene(decoded: try parse(bytes, file: file, imagesBeside: imagesBeside))
    }

    /// Parses `bytes` as the scene file `file` (the name is used in messages and as the default scene name).
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - file: its name in messages (and the default scene name).
    ///   - imagesBeside: the scene file whose folder the scene's relative picture paths are read
    ///     from (`file` when nil: an embedded scene names its original file).
    public static func parse(_ bytes: [UInt8], file: String, imagesBeside: String? = nil) throws(SceneLoadError) -> Scene {
        try check(bytes, file: file, imagesBeside: imagesBeside).scene
    }

    /// Parses `bytes` as the scene file `file`, returning its warnings too.
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - file: its name in messages (and the default scene name).
    ///   - imagesBeside: the scene file whose folder the scene's relative picture paths are read
    ///     from (`file` when nil: an embedded scene names its original file).
    /// - Throws: `.unreadable` naming the place when a terrain picture cannot be read, as for the scene file.
    public static func check(_ bytes: [UInt8], file: String, imagesBeside: String? = nil) throws(SceneLoadError)
        -> (scene: Scene, warnings: [SceneDiagnostic]) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .invalid([SceneDiagnostic(file: file, line: error.line, path: "",
                                            message: "column \(error.column): invalid JSON: \(error.message)")])
        }
        var decoder = SceneDecoder(file: file, imagesBeside: imagesBeside)
        let decoded = decoder.decode(root, defaultName: sceneName(fromPath: file))
        if let unreadable = decoder.unreadableImage { throw .unreadable(file: unreadable.place, reason: unreadable.reason) }
        guard let scene = decoded else { throw .invalid(decoder.diagnostics) }
        return (scene, decoder.diagnostics.filter { $0.severity == .warning })
    }

    /// `Scenes/book.json` -> `book`.
    static func sceneName(fromPath path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }
}
