import Physics
import Script

extension RunRecord.Header {
    /// The header of a record made by this process: its determinism class and backend.
    public static func thisProcess(sceneFile: String) -> RunRecord.Header {
        let backend = PhysicsBackend.current
        return RunRecord.Header(sceneFile: sceneFile, determinismClass: DeterminismClass.current.id,
                                backend: backend.kind.rawValue, architecture: backend.architecture, libc: backend.libcVersion)
    }

    /// The warning to print when a record made in another determinism class is replayed here, or
    /// nil when the classes match.
    public var crossClassWarning: String? {
        let here = DeterminismClass.current.id
        guard determinismClass != here else { return nil }
        return "this record was made in determinism \(origin); this machine is class \(here): "
            + "bit-exact replay is promised only within one class. For replays that match on every machine, "
            + "record and replay with CrateDrop's Chipmunk, the portable class (the default of scripts/install; docs/determinism.md)"
    }
}
