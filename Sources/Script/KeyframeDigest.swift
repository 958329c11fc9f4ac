import SceneModel

/// What `replay --verify` keeps of a record's keyframe: its step, its line, and an FNV-1a 64 digest
/// of the saved state (gravity and the physics bytes), compared with a save of the replayed world
/// at that step. A keyframe altered with its checksum made right (a body moved, an impulse
/// tripled) then fails the check instead of passing it and misleading `--from` (audit round 4,
/// finding 12).
public struct KeyframeDigest: Sendable, Equatable {
    public var step: Int
    /// The record's line that holds it (from 1).
    public var line: Int
    public var digest: UInt64

    public init(step: Int, line: Int, state: WorldState) {
        self.step = step
        self.line = line
        digest = Self.digest(of: state)
    }

    /// The digest of a state's gravity and physics bytes.
    public static func digest(of state: WorldState) -> UInt64 {
        var hasher = FNV1a64()
        hasher.combine(state.gravity.x)
        hasher.combine(state.gravity.y)
        for byte in state.physics { hasher.combine(byte: byte) }
        return hasher.value
    }
}
