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
    public var physics: [UInt8] {
        didSet {
            physicsAsSaved = false
            bodyTransforms = []
        }
    }
    /// Whether `physics` holds exactly what this process's physics library wrote when it saved a
    /// world (set by `World.saveState()`, cleared by any change to the bytes): their consistency
    /// is then known, and a restore does not check it again. Bytes from anywhere else (a file, a
    /// peer, an edit) are checked in full.
    package private(set) var physicsAsSaved = false
    /// With bytes as saved, each body's transform as the physics library kept it then (six
    /// doubles a body): derived from the bytes (the cosine and sine of each angle), so never
    /// written out, but a restore of these bytes takes them instead of computing them again.
    package private(set) var bodyTransforms: [Double] = []

    public init(step: Int, gravity: Vec2, fingerprint: UInt64, physics: [UInt8]) {
        self.step = step
        self.gravity = gravity
        self.fingerprint = fingerprint
        self.physics = physics
    }

    /// A state whose `physics` are the bytes the physics library has just saved, with the bodies'
    /// transforms it gave beside them.
    package init(step: Int, gravity: Vec2, fingerprint: UInt64, savedPhysics: [UInt8], bodyTransforms: [Double]) {
        self.init(step: step, gravity: gravity, fingerprint: fingerprint, physics: savedPhysics)
        physicsAsSaved = true
        self.bodyTransforms = bodyTransforms
    }

    /// What the state takes in memory, near enough: its bytes and the transforms kept beside them.
    package var memoryBytes: Int { physics.count + MemoryLayout<Double>.stride * bodyTransforms.count }

    /// Equal states hold the same values, wherever their bytes came from.
    public static func == (lhs: WorldState, rhs: WorldState) -> Bool {
        lhs.step == rhs.step && lhs.gravity == rhs.gravity && lhs.fingerprint == rhs.fingerprint && lhs.physics == rhs.physics
    }
}
