import Physics
import Script

extension RunRecord.Header {
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
