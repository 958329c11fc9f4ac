/// Identifies a body across snapshots: unique within one world for its whole life, never reused.
public struct BodyID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: BodyID, b: BodyID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// The dynamic state of one crate at a step boundary, copied out of the physics world.
///
/// Units: pixels, seconds, radians. `position` is the centre of mass (a box's centre).
public struct BodyState: Sendable, Equatable, Codable {
    public var id: BodyID
    public var position: Vec2
    public var angle: Double
    public var velocity: Vec2
    public var angularVelocity: Double
    /// The body's shape; constant for its life, carried so drawing needs nothing else.
    public var shape: BodyShape

    public init(id: BodyID, position: Vec2, angle: Double, velocity: Vec2, angularVelocity: Double, shape: BodyShape) {
        self.id = id
        self.position = position
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
        self.shape = shape
    }
}

/// A static wall segment as drawn: endpoints and radius (half thickness).
public struct WallState: Sendable, Equatable, Codable {
    public var from: Vec2
    public var to: Vec2
    public var radius: Double

    public init(from: Vec2, to: Vec2, radius: Double) {
        self.from = from
        self.to = to
        self.radius = radius
    }
}

/// Everything after the physics world sees the world through this value, copied out at a step
/// boundary. Bodies are in creation order, which is also ascending `BodyID` order.
public struct WorldSnapshot: Sendable, Equatable, Codable {
    /// Steps taken since the world was built.
    public var step: Int
    public var bodies: [BodyState]
    /// Walls that move (the tumbler's), where they are at this step; static walls are drawn once
    /// from `World.wallStates()` and are not repeated here.
    public var movingWalls: [WallState]

    public init(step: Int, bodies: [BodyState], movingWalls: [WallState] = []) {
        self.step = step
        self.bodies = bodies
        self.movingWalls = movingWalls
    }
}
