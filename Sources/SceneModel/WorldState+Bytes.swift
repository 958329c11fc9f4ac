/// A world state as bytes, to keep or send anywhere (a file, a socket, another process), and back.
extension WorldState {
    public static let magic = Array("CDWORLD\n".utf8)
    /// 2: held forces after the physics; 3: drags after them; 4: the make-up log after them.
    public static let formatVersion: UInt32 = 4
    /// The latest step a state may be at: 2^53 (some 2.4 million years at 120 steps a second).
    /// With `hash --steps` bounded the same way, a run from any state stays far inside `Int`.
    /// 64 bits on every CPU: `Int` is 32 bits on wasm32.
    public static let maxStep: Int64 = 1 << 53

    /// Why bytes are not a world state; `description` names what is wrong.
    public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String

        /// What a read past the end of the bytes throws.
        package static let cutShort = FormatError(description: "the world state is cut short")
    }

    /// The state as bytes: "CDWORLD\n", the format version (u32), the state's fields as a saved
    /// state file holds them (step, gravity, fingerprint, physics) and an FNV-1a 64 checksum; all
    /// little-endian and fixed-width, the same bytes on every CPU.
    public var bytes: [UInt8] {
        var writer = LittleEndianWriter(Self.magic)
        writer.u32(Self.formatVersion)
        append(to: &writer)
        writer.checksum()
        return writer.bytes
    }

    /// Reads a state from `bytes`, checking its magic, version, lengths and checksum.
    public init(bytes: [UInt8]) throws(FormatError) {
        guard bytes.starts(with: Self.magic) else { throw FormatError(description: "not a CrateDrop world state (it does not begin with CDWORLD)") }
        guard LittleEndianReader.checksumMatches(bytes) else {
            throw FormatError(description: "the world state is corrupt or cut short (its checksum does not match)")
        }
        var reader = LittleEndianReader(bytes, from: Self.magic.count, end: bytes.count - 8)
        let version = try reader.u32()
        guard (2...Self.formatVersion).contains(version) else {
            throw FormatError(description: "world-state format \(version), which this CrateDrop (format \(Self.formatVersion)) cannot read")
        }
        self = try Self.read(from: &reader, withDrags: version >= 3, withMakeup: version >= 4)
        guard reader.isAtEnd else { throw FormatError(description: "the world state has bytes after its end") }
    }

    /// The state's fields: step (u64), gravity (2 × f64), fingerprint (u64), physics (u32 length +
    /// bytes), held forces (u32 count; each body id u64, force 2 × f64, whether it has a point u8,
    /// point 2 × f64, torque f64, steps remaining u64), drags (u32 count; each body id u64, anchor
    /// 2 × f64, target 2 × f64, max force f64; in ascending body id), the make-up log (u32 count;
    /// each as `MakeupChange.append(to:)` writes it).
    package func append(to writer: inout LittleEndianWriter) {
        writer.u64(UInt64(step))
        writer.f64(gravity.x)
        writer.f64(gravity.y)
        writer.u64(fingerprint)
        writer.field(physics)
        writer.u32(UInt32(clamping: heldForces.count))
        for held in heldForces {
            writer.u64(held.body.rawValue)
            writer.f64(held.force.x)
            writer.f64(held.force.y)
            writer.u8(held.at == nil ? 0 : 1)
            writer.f64(held.at?.x ?? 0)
            writer.f64(held.at?.y ?? 0)
            writer.f64(held.torque)
            writer.u64(UInt64(held.remaining))
        }
        writer.u32(UInt32(clamping: drags.count))
        for drag in drags {
            writer.u64(drag.body.rawValue)
            for value in [drag.anchor.x, drag.anchor.y, drag.target.x, drag.target.y, drag.maxForce] { writer.f64(value) }
        }
        writer.u32(UInt32(clamping: makeup.count))
        for change in makeup { change.append(to: &writer) }
    }

    /// Reads the fields `append(to:)` writes; `withDrags` false for the formats before drags
    /// (their states hold none), `withMakeup` for those before the make-up log (none either).
    package static func read(from reader: inout LittleEndianReader, withDrags: Bool = true, withMakeup: Bool = true) throws(FormatError) -> WorldState {
        let step = try reader.u64()
        guard step <= UInt64(maxStep), let step = Int(exactly: step) else {
            throw FormatError(description: "the state's step count \(step) is out of range (at most 2^53 = \(maxStep))")
        }
        let gravity = Vec2(try reader.f64(), try reader.f64())
        var state = WorldState(step: step, gravity: gravity, fingerprint: try reader.u64(), physics: try reader.field())
        let count = try reader.u32()
        // Each takes 57 bytes: a count beyond what is left is a corrupt one, refused before any allocation.
        guard Int(count) <= reader.remaining / 57 else { throw FormatError(description: "the state's held forces are cut short") }
        for _ in 0..<count {
            let body = try reader.u64(), force = Vec2(try reader.f64(), try reader.f64())
            let hasPoint = try reader.u8(), at = Vec2(try reader.f64(), try reader.f64())
            let torque = try reader.f64(), remaining = try reader.u64()
            let input = BodyInput.hold(force: force, at: hasPoint == 1 ? at : nil, torque: torque,
                                       steps: remaining <= UInt64(Limits.heldSteps.upperBound) ? Int(remaining) : 0)
            guard hasPoint <= 1, body >= 1, input.problems().isEmpty else {
                throw FormatError(description: "a held force of the state is out of range (body \(body))")
            }
            state.heldForces.append(HeldForce(body: BodyID(body), force: force, at: hasPoint == 1 ? at : nil, torque: torque,
                                              remaining: Int(remaining)))
        }
        let dragCount = withDrags ? try reader.u32() : 0
        // Each takes 48 bytes.
        guard Int(dragCount) <= reader.remaining / 48 else { throw FormatError(description: "the state's drags are cut short") }
        for _ in 0..<dragCount {
            let body = try reader.u64()
            let drag = Drag(body: BodyID(body), anchor: Vec2(try reader.f64(), try reader.f64()), target: Vec2(try reader.f64(), try reader.f64()),
                            maxForce: try reader.f64())
            guard body >= 1, drag.problems().isEmpty, state.drags.last.map({ $0.body < drag.body }) ?? true else {
                throw FormatError(description: "a drag of the state is out of range or out of order (body \(body))")
            }
            state.drags.append(drag)
        }
        let changes = withMakeup ? try reader.u32() : 0
        // Each takes at least 33 bytes (a removal).
        guard Int(changes) <= reader.remaining / 33 else { throw FormatError(description: "the state's make-up log is cut short") }
        for _ in 0..<changes {
            let change = try MakeupChange.read(from: &reader)
            guard state.makeup.last.map({ $0.step <= change.step }) ?? true, change.step <= state.step else {
                throw FormatError(description: "the state's make-up log is out of order (a change at step \(change.step))")
            }
            state.makeup.append(change)
        }
        return state
    }
}
