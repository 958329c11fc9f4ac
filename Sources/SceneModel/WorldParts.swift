/// What drawing and tables need of a world's parts once its make-up has changed as it ran
/// (`StructuralChange`): each body's shape and colour, the walls and the joints. Snapshots carry
/// it from the first change on (`WorldSnapshot.parts`), the same value until the next change, so
/// what draws or writes them learns of a change when it happens, not by asking the world.
public struct WorldParts: Sendable, Equatable {
    /// The number of changes made so far: a new value has a higher one.
    public var version: Int
    public var bodyShapes: BodyShapes
    /// Bodies drawn in a colour of their own.
    public var bodyColors: [BodyID: RGB]
    public var walls: [WallState]
    public var joints: [JointLink]

    public init(version: Int, bodyShapes: BodyShapes, bodyColors: [BodyID: RGB], walls: [WallState], joints: [JointLink]) {
        self.version = version
        self.bodyShapes = bodyShapes
        self.bodyColors = bodyColors
        self.walls = walls
        self.joints = joints
    }
}
