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
        switch save(world, to: path) {
        case .success: nil
        case let .failure(failure): failure
        }
    }

    /// Saves `world`'s state now to `path` and gives back the bytes written.
    func save(_ world: World, to path: String) -> Result<[UInt8], SaveStateFailure> {
        let state: WorldState
        do {
            state = try world.saveState()
        } catch {
            return .failure(.cannotSave(path: path, error))
        }
        let header = RunRecord.Header.thisProcess(sceneFile: sceneFile)
        let bytes = SavedStateFile(determinismClass: header.determinismClass, backend: header.backend, architecture: header.architecture,
                                   sceneFile: sceneFile, sceneText: sceneText, state: state).bytes
        do {
            try FileDescriptorIO.writeWhole([bytes], to: path)
        } catch {
            return .failure(.notWritten(path: path, error))
        }
        return .success(bytes)
    }
}

extension SaveStateFailure {
    /// As a run's problem: a file not written is the disk's fault; a world that cannot be saved,
    /// the library's (no saved states) or the request's (a world the format does not cover).
    var problem: RunProblem {
        switch self {
        case .notWritten: RunProblem(.inputOutput, self)
        case .cannotSave(_, .unsupportedBackend): RunProblem(.unavailable, self)
        case .cannotSave: RunProblem(.unsupported, self)
        }
    }
}
