/// A world's complete state between two steps: what a continuation needs to go on exactly as the
/// world would have (docs/determinism.md, "Saved states"). A value: copy it, keep it, send it
/// across threads; restore it into the world it came from or one built from the same scene.
public struct WorldState: Sendable, Equatable {
    /// Steps the world had taken.
    public var step: Int
    public var gravity: Vec2
    /// Identifies the world's make-up (step rate, bodies' shapes, masses and surfaces, walls): a
    /// state is refused by a world of another make-up.
    public var fingerprint: UInt64
    /// Chipmunk's part: bodies, the broadphase tree and its pairs, cached contacts with their
    /// impulses; little-endian and fixed-width, the same bytes on every CPU.
    public var physics: [UInt8]

    public init(step: Int, gravity: Vec2, fingerprint: UInt64, physics: [UInt8]) {
        self.step = step
        self.gravity = gravity
        self.fingerprint = fingerprint
        self.physics = physics
    }
}
