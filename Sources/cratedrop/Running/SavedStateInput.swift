import CLISupport
import FileIO
import Physics
import SceneFile
import SceneModel
import Script

/// A saved state as the commands read one (`hash STATE`, `run STATE`, `validate STATE`): told from
/// a scene by its first bytes, parsed, its embedded scene read, a state of another class noticed.
enum SavedStateInput {
    /// The state at `path`: nil when the file is not one (or cannot be read whole: the scene loader
    /// then says why, in its words), else the parsed file or why it is malformed.
    static func read(_ path: String) -> Result<SavedStateFile, SavedStateFile.FormatError>? {
        guard let bytes = try? FileBytes.read(path: path, limit: SavedStateFile.maxFileSize), SavedStateFile.startsWithMagic(bytes) else {
            return nil
        }
        return Result { () throws(SavedStateFile.FormatError) in try SavedStateFile.parse(bytes) }
    }

    /// The scene `file` carries, named in messages as `PATH: embedded scene FILE`.
    static func scene(of file: SavedStateFile, at path: String) throws(SceneLoadError) -> Scene {
        try SceneLoader.parse(file.sceneText, file: "\(path): embedded scene \(file.sceneFile)")
    }

    /// The scene `file` carries, checked (a world is built from it without checking again).
    static func checkedScene(of file: SavedStateFile, at path: String) throws(SceneLoadError) -> CheckedScene {
        try SceneLoader.parseChecked(file.sceneText, file: "\(path): embedded scene \(file.sceneFile)")
    }

    /// The warning for a state saved in another determinism class than this machine's, its text
    /// from the file escaped; nil for this class.
    static func otherClassWarning(_ file: SavedStateFile, at path: String) -> String? {
        guard file.determinismClass != DeterminismClass.current.id else { return nil }
        return "\(TerminalText.escaped(path)) was saved in determinism class \(TerminalText.escaped(file.determinismClass)) "
            + "(\(TerminalText.escaped(file.backend)) backend, \(TerminalText.escaped(file.architecture))); this machine is class "
            + "\(DeterminismClass.current.id): a continuation here will not match one made there"
    }
}
