import FileIO
import SceneFile
import SceneModel
import Script

/// A command's input file (`run`, `hash`), read once and told apart by its first bytes: a run
/// record, a saved state or a scene. A file of up to `sniffLimit` bytes is read whole in that one
/// read and parsed from those bytes, so what was told apart is what is parsed; a longer scene or
/// state is then read whole, and a record is streamed from the file (`RunRecord.load`).
enum RunInput {
    case record
    case state([UInt8])
    /// A file that begins as a saved state but cannot be read whole (too large, a read error).
    case unreadableState(FileFailure)
    case scene([UInt8])

    /// Bytes read to tell the kind: more than any record's header line or a typical scene.
    static let sniffLimit = 1 << 16

    /// The input at `path`; nil when it cannot be read (the scene loader then says why, in its words).
    static func read(_ path: String) -> RunInput? {
        guard let prefix = try? FileBytes.readPrefix(path: path, limit: sniffLimit + 1) else { return nil }
        if RunRecord.startsAsRecord(prefix) { return .record }
        let whole = prefix.count <= sniffLimit
        if SavedStateFile.startsWithMagic(prefix) {
            if whole { return .state(prefix) }
            do {
                return .state(try FileBytes.read(path: path, limit: SavedStateFile.maxFileSize))
            } catch {
                return .unreadableState(error)
            }
        }
        if whole { return .scene(prefix) }
        return (try? FileBytes.read(path: path, limit: SceneLoader.maxFileSize)).map(RunInput.scene)
    }
}
