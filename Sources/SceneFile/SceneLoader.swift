import SceneModel

/// Reads scene files: strict JSON, every value checked, every problem reported with file, line
/// and JSON path. Scenes from bytes here; from files in SceneLoader+Files.swift (native only).
public enum SceneLoader {
    /// Scene files larger than this are refused before parsing.
    public static let maxFileSize = 64 << 20

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
        let base = path.utf8.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) } ?? path
        return base.endsWithBytes(of: ".json") ? base.leadingBytes(base.utf8.count - 5) : base
    }
}
