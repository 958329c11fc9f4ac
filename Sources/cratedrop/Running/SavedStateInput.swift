import CLISupport
import FileIO
import Physics
import SceneFile
import SceneModel
import Script

/// A saved state as the commands read one (`hash STATE`, `run STATE`, `validate STATE`): told from
/// a scene by its first bytes, parsed, its embedded scene read, a state of another class noticed.
enum SavedStateInput {
    /// Why a file that begins as a saved state is not one this command can take.
    enum Failure: Error, CustomStringConvertible {
        /// It cannot be read whole (too large, a read error).
        case unreadable(FileFailure)
        case malformed(SavedStateFile.FormatError)

        var description: String {
            switch self {
            case let .unreadable(failure): "cannot read the saved state: \(failure)"
            case let .malformed(error): error.description
            }
        }
    }

    /// The state at `path`: nil when the file does not begin as one (its first bytes are read,
    /// not the whole file), else the parsed file or why it cannot be taken.
    static func read(_ path: String) -> Result<SavedStateFile, Failure>? {
        guard let prefix = try? FileBytes.readPrefix(path: path, limit: SavedStateFile.magic.count),
              SavedStateFile.startsWithMagic(prefix) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, limit: SavedStateFile.maxFileSize)
        } catch {
            return .failure(.unreadable(error))
        }
        do {
            return .success(try SavedStateFile.parse(bytes))
        } catch {
            return .failure(.malformed(error))
        }
    }

    /// The scene `file` carries, named in messages as `PATH: embedded scene FILE`, checked as it is
    /// decoded (a world is built from it without checking again: `World(checked:)`).
    static func checkedScene(of file: SavedStateFile, at path: String) throws(SceneLoadError) -> CheckedScene {
        try SceneLoader.parseChecked(file.sceneText, file: "\(path): embedded scene \(file.sceneFile)", imagesBeside: file.sceneFile)
    }

    /// The warning for a state saved in another determinism class than this machine's, its text
    /// from the file escaped; nil for this class.
    static func otherClassWarning(_ file: SavedStateFile, at path: String) -> String? {
        file.otherClassWarning(named: path, thisClass: DeterminismClass.current.id)
    }
}
