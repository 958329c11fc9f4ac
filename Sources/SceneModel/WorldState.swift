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
            restoreAid = []
        }
    }
    /// Whether `physics` holds exactly what this process's physics library wrote when it saved a
    /// world (set by `World.saveState()`, cleared by any change to the bytes): their consistency
    /// is then known, and a restore does not check it again. Bytes from anywhere else (a file, a
    /// peer, an edit) are checked in full.
    package private(set) var physicsAsSaved = false
    /// With bytes as saved, what the physics library handed back beside them for restoring them
    /// (each body's transform, the pair lists and contacts indexed as a restore reads them): all
    /// of it derived from the bytes, so never written out, but a restore of these bytes takes it
    /// instead of working it out again. Opaque here (cpStateFormat.h in Backends/portable/patches/0001-state-format.patch, AidHeader).
    package private(set) var restoreAid: [UInt64] = []
    /// Forces held on bodies over the next steps (inputs with `"steps"`), in the order they act.
    public var heldForces: [HeldForce]
    /// Bodies held by drags, in ascending body id (their joints' impulses are in `physics`).
    public var drags: [Drag]
    /// The structural changes the world had been through since it was built from its scene, in
    /// order: a world built from the same scene replays them before the rest of the state is put
    /// in (`World.restore`), so a state saved after a change restores into the scene it came from.
    public var makeup: [MakeupChange] = []

    public init(step: Int, gravity: Vec2, fingerprint: UInt64, physics: [UInt8], heldForces: [HeldForce] = [], drags: [Drag] = []) {
        self.step = step
        self.gravity = gravity
        self.fingerprint = fingerprint
        self.physics = physics
        self.heldForces = heldForces
        self.drags = drags
    }

    /// A state whose `physics` are the bytes the physics library has just saved, with the restore
    /// aid it gave beside them: only for exactly those (`World.saveState()`), since a restore of
    /// the state then takes both on trust.
    package init(step: Int, gravity: Vec2, fingerprint: UInt64, savedPhysics: [UInt8], restoreAid: [UInt64], heldForces: [HeldForce] = [],
                 drags: [Drag] = []) {
        self.init(step: step, gravity: gravity, fingerprint: fingerprint, physics: savedPhysics, heldForces: heldForces, drags: drags)
        physicsAsSaved = true
        self.restoreAid = restoreAid
    }

    /// The same state without its restore aid (which takes about half as much memory again as
    /// the bytes): for states kept long, where a restore's speed matters less than their memory.
    package var withoutRestoreAid: WorldState {
        var state = self
        state.restoreAid = []
        return state
    }

    /// What the state takes in memory, near enough: its bytes and the aid kept beside them.
    package var memoryBytes: Int { physics.count + MemoryLayout<UInt64>.stride * restoreAid.count }

    /// Equal states hold the same values, wherever their bytes came from.
    public static func == (lhs: WorldState, rhs: WorldState) -> Bool {
        lhs.step == rhs.step && lhs.gravity == rhs.gravity && lhs.fingerprint == rhs.fingerprint && lhs.physics == rhs.physics
            && lhs.heldForces == rhs.heldForces && lhs.drags == rhs.drags && lhs.makeup == rhs.makeup
    }
}
