/// What drawing and tables need of a world's parts once its make-up has changed as it ran
/// (`StructuralChange`): each body's shape and colour, the walls and the joints. Snapshots carry
/// it from the first change on (`WorldSnapshot.parts`), the same value until the next change, so
/// what draws or writes them learns of a change when it happens, not by asking the world.
public struct WorldParts: Sendable, Equatable {
    /// Which value this is: every change of the parts (a structural change, a restore that took
    /// another make-up) gives a higher one, so a value kept by version is never stale.
    public var version: Int
    /// The structural changes the world has been through (its make-up log's length): 0 after a
    /// restore back to the scene's own make-up, and the same again after as many other changes.
    public var changes: Int
    public var bodyShapes: BodyShapes
    /// Bodies drawn in a colour of their own.
    public var bodyColors: [BodyID: RGB]
    /// Each dynamic body's mass (a kinematic one has none): what a push given as a change of
    /// velocity needs, for bodies the scene does not list (added, spawned).
    public var masses: [BodyID: Double]
    public var walls: [WallState]
    public var joints: [JointLink]

    public init(version: Int, changes: Int, bodyShapes: BodyShapes, bodyColors: [BodyID: RGB], masses: [BodyID: Double] = [:],
                walls: [WallState], joints: [JointLink]) {
        self.masses = masses
        self.version = version
        self.changes = changes
        self.bodyShapes = bodyShapes
        self.bodyColors = bodyColors
        self.walls = walls
        self.joints = joints
    }
}
