import FoundationEssentials
import SceneFile
import SceneModel

/// A keyframe of a run record (`--keyframes K`): the world's saved state after `step` steps, on
/// that step's checkpoint line as `"keyframe":"BASE64"`. The text is the base64 (RFC 4648, padded)
/// of a `SavedStateFile` whose scene text is left out, since the record holds the scene: one
/// format, one checksum, one set of checks for saved states and keyframes. Readers that predate
/// keyframes read the line as a plain checkpoint and pass over the key.
public struct RecordKeyframe: Sendable {
    /// Steps taken when the state was saved.
    public var step: Int
    /// The record's line that holds it (from 1), for messages.
    public var line: Int
    /// The state hash written beside it on its line: the restored world must hash to it.
    public var hash: StateHash
    public var file: SavedStateFile

    public init(step: Int, line: Int, hash: StateHash, file: SavedStateFile) {
        self.step = step
        self.line = line
        self.hash = hash
        self.file = file
    }

    /// The text a checkpoint line's `keyframe` holds for `file`.
    public static func text(of file: SavedStateFile) -> String { Data(file.bytes).base64EncodedString() }

    /// The bytes behind a `keyframe` text, or nil if it is not base64 (no spaces, padded).
    static func bytes(of text: String) -> [UInt8]? { Data(base64Encoded: text).map { [UInt8]($0) } }

    /// Why a keyframe's text is not one this record can hold: not base64, not a saved state (its
    /// own message), saved at another step, or made in another class or backend than the record.
    static func check(_ text: String, step: Int, header: RunRecord.Header) throws(Problem) -> SavedStateFile {
        guard let bytes = bytes(of: text) else { throw Problem("keyframe must be base64 text (RFC 4648, padded, no spaces)") }
        let file: SavedStateFile
        do {
            file = try SavedStateFile.parse(bytes)
        } catch {
            throw Problem("keyframe: \(error)")
        }
        guard file.state.step == step else {
            throw Problem("the keyframe holds the state after step \(file.state.step), not after step \(step): the record contradicts itself")
        }
        guard file.determinismClass == header.determinismClass, file.backend == header.backend else {
            let made = "class \(TerminalText.escaped(file.determinismClass)), \(TerminalText.escaped(file.backend)) backend"
            throw Problem("the keyframe was made in \(made), the record in \(header.origin): the record contradicts itself")
        }
        return file
    }

    /// What is wrong with a keyframe, for the record's `FILE:LINE:` message.
    struct Problem: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

extension SavedStateFile {
    /// A keyframe of a record made by `header`'s process: `state` with the record's origin and
    /// scene name, and without the scene's text (the record holds it).
    public init(keyframe state: WorldState, header: RunRecord.Header) {
        self.init(determinismClass: header.determinismClass, backend: header.backend, architecture: header.architecture,
                  sceneFile: header.sceneFile, sceneText: [], state: state)
    }
}
