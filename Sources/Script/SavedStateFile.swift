import SceneModel

/// A saved state as a file (`--save-state FILE`): the world's state with what it needs to be
/// continued anywhere: the scene's text, the step, and where it was made. Little-endian and
/// fixed-width, with no struct images, so the bytes are the same on every CPU; checksummed.
///
///     "CDSTATE\n"  u32 format version (1)
///     string determinism class, string backend, string architecture, string scene file
///     bytes scene text
///     u64 step, f64 gravity x, f64 gravity y, u64 world fingerprint
///     bytes physics (the portable backend's part: bodies, broadphase tree, contacts)
///     u64 FNV-1a 64 of every byte before it
///
/// A string or bytes field is a u32 length and that many bytes.
public struct SavedStateFile: Sendable, Equatable {
    public static let magic = Array("CDSTATE\n".utf8)
    public static let formatVersion: UInt32 = 1
    /// The largest state file read, as for records.
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
        var out = Self.magic
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func field(_ b: [UInt8]) { u32(UInt32(b.count)); out.append(contentsOf: b) }
        u32(Self.formatVersion)
        for text in [determinismClass, backend, architecture, sceneFile] { field(Array(text.utf8)) }
        field(sceneText)
        u64(UInt64(state.step))
        u64(state.gravity.x.bitPattern)
        u64(state.gravity.y.bitPattern)
        u64(state.fingerprint)
        field(state.physics)
        var hasher = FNV1a64()
        for byte in out { hasher.combine(byte: byte) }
        u64(hasher.value)
        return out
    }

    /// Why bytes are not a saved state; `description` names what is wrong.
    public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Reads a saved state, checking its magic, version, lengths and checksum.
    public static func parse(_ bytes: [UInt8]) throws(FormatError) -> SavedStateFile {
        guard startsWithMagic(bytes) else { throw FormatError(description: "not a CrateDrop saved state (it does not begin with CDSTATE)") }
        guard bytes.count >= magic.count + 4 + 8 else { throw FormatError(description: "the saved state is cut short") }
        var hasher = FNV1a64()
        for byte in bytes.dropLast(8) { hasher.combine(byte: byte) }
        var at = magic.count
        func take(_ count: Int) throws(FormatError) -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count - 8 - at >= count else { throw FormatError(description: "the saved state is cut short") }
            defer { at += count }
            return bytes[at..<(at + count)]
        }
        func u32() throws(FormatError) -> UInt32 { try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        func u64() throws(FormatError) -> UInt64 { try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        func field() throws(FormatError) -> [UInt8] { Array(try take(Int(try u32()))) }
        func text() throws(FormatError) -> String {
            let raw = try field()
            guard let text = String(validating: raw, as: UTF8.self) else { throw FormatError(description: "a text field is not UTF-8") }
            return text
        }
        let version = try u32()
        guard version == formatVersion else {
            throw FormatError(description: "saved-state format \(version), which this CrateDrop (format \(formatVersion)) cannot read")
        }
        let stored = bytes.suffix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard stored == hasher.value else { throw FormatError(description: "the saved state is corrupt or cut short (its checksum does not match)") }
        let determinismClass = try text(), backend = try text(), architecture = try text(), sceneFile = try text()
        let sceneText = try field()
        let step = try u64()
        let gravity = Vec2(Double(bitPattern: try u64()), Double(bitPattern: try u64()))
        let fingerprint = try u64()
        let physics = try field()
        guard at == bytes.count - 8 else { throw FormatError(description: "the saved state has bytes after its end") }
        guard step <= UInt64(Int.max) else { throw FormatError(description: "the saved state's step count is out of range") }
        return SavedStateFile(determinismClass: determinismClass, backend: backend, architecture: architecture, sceneFile: sceneFile,
                              sceneText: sceneText,
                              state: WorldState(step: Int(step), gravity: gravity, fingerprint: fingerprint, physics: physics))
    }
}
