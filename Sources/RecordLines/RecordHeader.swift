import Physics
import SceneFile

/// A run record's first line: where and how the record was made (docs/determinism.md, "Records").
/// `RunRecord.Header` (Script) is this type.
public struct RecordHeader: Sendable, Equatable {
    public static let formatVersion = 1
    public var sceneFile: String
    public var determinismClass: String
    public var backend: String
    public var architecture: String
    public var libc: String
    /// Steps between keyframes (`--keyframes K`), if the record was made with them.
    public var keyframeEvery: Int?

    public init(sceneFile: String, determinismClass: String, backend: String, architecture: String, libc: String,
                keyframeEvery: Int? = nil) {
        self.sceneFile = sceneFile
        self.determinismClass = determinismClass
        self.backend = backend
        self.architecture = architecture
        self.libc = libc
        self.keyframeEvery = keyframeEvery
    }

    /// The header of a record made by this process: its determinism class, backend, architecture
    /// and C library as `cratedrop platform` names them. In the wasm core: the portable backend
    /// (CrateDrop's Chipmunk, the same sources and patches), `wasm32`, and the maths it links.
    public static func thisProcess(sceneFile: String) -> RecordHeader {
        let backend = PhysicsBackend.current
        return RecordHeader(sceneFile: sceneFile, determinismClass: DeterminismClass.current.id,
                            backend: backend.kind.rawValue, architecture: backend.architecture, libc: backend.libcVersion)
    }

    /// The record's first line (`RecordLine.header`).
    package func jsonLine(stateRows: Int) -> String {
        var fields: [(key: String, value: JSONOutput)] = [
            ("record", "cratedrop"), ("version", .integer(Self.formatVersion)),
            ("scene_file", .string(sceneFile)), ("determinism_class", .string(determinismClass)),
            ("backend", .string(backend)), ("architecture", .string(architecture)),
            ("libc", .string(libc)), ("state_rows", .integer(stateRows)),
        ]
        if let keyframeEvery { fields.append(("keyframes", .integer(keyframeEvery))) }
        return JSONOutput.object(fields).text
    }

    /// "class 69213486605c (system library, x86_64, glibc 2.36)", each field as read from
    /// the file, control characters escaped (`TerminalText`): it goes into messages.
    public var origin: String {
        let (id, backend, architecture, libc) = (TerminalText.escaped(determinismClass), TerminalText.escaped(self.backend),
                                                 TerminalText.escaped(self.architecture), TerminalText.escaped(self.libc))
        return "class \(id) (\(backend) backend, \(architecture), \(libc))"
    }
}
