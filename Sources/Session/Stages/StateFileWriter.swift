import FileIO
import Physics
import SceneModel
import Script

/// Writes a world's state as a saved-state file (`SavedStateFile`) naming the run's scene and
/// this process's determinism class, replacing the target atomically: a reader never sees half a
/// state, and a failed write leaves an earlier file of that name whole.
struct StateFileWriter {
    let sceneFile: String
    let sceneText: [UInt8]

    /// Saves `world`'s state now to `path`; returns what went wrong, if anything.
    func write(_ world: World, to path: String) -> SaveStateFailure? {
        let state: WorldState
        do {
            state = try world.saveState()
        } catch {
            return .cannotSave(path: path, error)
        }
        let header = RunRecord.Header.thisProcess(sceneFile: sceneFile)
        let file = SavedStateFile(determinismClass: header.determinismClass, backend: header.backend, architecture: header.architecture,
                                  sceneFile: sceneFile, sceneText: sceneText, state: state)
        do {
            try FileDescriptorIO.writeWhole([file.bytes], to: path)
        } catch {
            return .notWritten(path: path, reason: error.description)
        }
        return nil
    }
}
