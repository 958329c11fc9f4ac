/// A saved state as a file (`--save-state FILE`): the world's state with what it needs to be
/// continued anywhere: the scene's text, the step, and where it was made. Little-endian and
/// fixed-width, with no struct images, so the bytes are the same on every CPU; checksummed.
///
///     "CDSTATE\n"  u32 format version (6)
///     string determinism class, string backend, string architecture, string scene file
///     bytes scene text
///     u64 step, f64 gravity x, f64 gravity y, u64 world fingerprint
///     bytes physics (the portable backend's part: bodies, joints, broadphase tree, contacts)
///     u32 held forces, each: u64 body id, f64 fx, f64 fy, u8 has a point, f64 x, f64 y, f64 torque, u64 steps left
///     u32 drags, each: u64 body id, f64 anchor x, f64 anchor y, f64 target x, f64 target y, f64 max force
///     u32 make-up changes, each: u64 step, u64 id made, u32 + u64s joints taken, u8 kind, its values (`MakeupChange`)
///     u64 FNV-1a 64 of every byte before it
///
/// A string or bytes field is a u32 length and that many bytes.
public struct SavedStateFile: Sendable, Equatable {
    public static let magic = Array("CDSTATE\n".utf8)
    /// 6: the make-up log after the drags. 5 (drags, no log) and 4 (held forces, no drags) are
    /// read too: they have none.
    /// 3 (the physics part begins with its layout identifier, CrateDrop's Chipmunk, patch 0001),
    /// 2 (the physics part's pairs by number, inner boxes only where needed, its index and hash
    /// widths) and 1 (the first saved states) are not read: their physics is not this library's.
    public static let formatVersion: UInt32 = 6
    /// The largest state file read, as for records (1 GiB: `Int`, 32 bits on wasm32, holds it).
    public static let maxFileSize = 1 << 30

    public var determinismClass: String
    public var backend: String
    public var architecture: String
    public var sceneFile: String
    public var sceneText: [UInt8]
    public var state: WorldState

    public init(determinismClass: String, backend: String, architecture: String, sceneFile: String, sceneText: [UInt8], state: WorldState) {
        self.determinismClass = determinismClass
        self.backend = backend
        self.architecture = architecture
        self.sceneFile = sceneFile
        self.sceneText = sceneText
        self.state = state
    }

    /// Whether `bytes` begin as a saved state does (how `hash` and `run` tell one from a scene).
    public static func startsWithMagic(_ bytes: [UInt8]) -> Bool { bytes.starts(with: magic) }

    public var bytes: [UInt8] {
        var writer = LittleEndianWriter(Self.magic)
        writer.u32(Self.formatVersion)
        for text in [determinismClass, backend, architecture, sceneFile] { writer.field(Array(text.utf8)) }
        writer.field(sceneText)
        state.append(to: &writer)
        writer.checksum()
        return writer.bytes
    }

    /// Why bytes are not a saved state; `description` names what is wrong.
    public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Reads a saved state, checking its magic, version, lengths and checksum.
    public static func parse(_ bytes: [UInt8]) throws(FormatError) -> SavedStateFile {
        guard startsWithMagic(bytes) else { throw FormatError(description: "not a CrateDrop saved state (it does not begin with CDSTATE)") }
        guard bytes.count >= magic.count + 4 + 8 else { throw FormatError(description: "the saved state is cut short") }
        var reader = LittleEndianReader(bytes, from: magic.count, end: bytes.count - 8)
        // Typed throws throughout (the core compiles as Embedded Swift, which has no `any Error`):
        // the reader's and the state's problems are said in their own words.
        func read<Value>(_ body: (inout LittleEndianReader) throws(WorldState.FormatError) -> Value) throws(FormatError) -> Value {
            do {
                return try body(&reader)
            } catch {
                throw FormatError(description: error.description)
            }
        }
        func text() throws(FormatError) -> String {
            guard let text = String(validating: try read { reader throws(WorldState.FormatError) in try reader.field() }, as: UTF8.self) else {
                throw FormatError(description: "a text field is not UTF-8")
            }
            return text
        }
        let version = try read { reader throws(WorldState.FormatError) in try reader.u32() }
        guard (4...formatVersion).contains(version) else {
            throw FormatError(description: "saved-state format \(version), which this CrateDrop (format \(formatVersion)) cannot read"
                              + (version < formatVersion ? ": save the state again with this CrateDrop" : ""))
        }
        guard LittleEndianReader.checksumMatches(bytes) else {
            throw FormatError(description: "the saved state is corrupt or cut short (its checksum does not match)")
        }
        let determinismClass = try text(), backend = try text(), architecture = try text(), sceneFile = try text()
        let sceneText = try read { reader throws(WorldState.FormatError) in try reader.field() }
        let state = try read { reader throws(WorldState.FormatError) in try WorldState.read(from: &reader, withDrags: version >= 5, withMakeup: version >= 6) }
        guard reader.isAtEnd else { throw FormatError(description: "the saved state has bytes after its end") }
        return SavedStateFile(determinismClass: determinismClass, backend: backend, architecture: architecture, sceneFile: sceneFile,
                              sceneText: sceneText, state: state)
    }
}
