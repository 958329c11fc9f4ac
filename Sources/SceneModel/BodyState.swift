/// Identifies a body across snapshots: unique within one world for its whole life, never reused.
public struct BodyID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: BodyID, b: BodyID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// The dynamic state of one crate at a step boundary, copied out of the physics world.
///
/// Units: pixels, seconds, radians. `position` is the centre of mass (a box's centre).
public struct BodyState: Sendable, Equatable {
    public var id: BodyID
    public var position: Vec2
    public var angle: Double
    public var velocity: Vec2
    public var angularVelocity: Double
    /// Chipmunk has put the body to sleep (at rest for the scene's `sleep_time`). Not hashed: it
    /// follows from the state.
    public var sleeping: Bool

    public init(id: BodyID, position: Vec2, angle: Double, velocity: Vec2, angularVelocity: Double,
                sleeping: Bool = false) {
        self.id = id
        self.position = position
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
        self.sleeping = sleeping
    }
}

/// A wall as drawn: where it lies, its radius (half a segment's thickness; a polygon's rounding)
/// and its own colour, if it has one.
public struct WallState: Sendable, Equatable {
    public var geometry: WallGeometry
    public var radius: Double
    /// nil: the scene's wall colour.
    public var color: RGB?

    public init(geometry: WallGeometry, radius: Double, color: RGB? = nil) {
        self.geometry = geometry
        self.radius = radius
        self.color = color
    }

    /// A segment from `from` to `to`.
    public init(from: Vec2, to: Vec2, radius: Double, color: RGB? = nil) {
        self.init(geometry: .segment(from: from, to: to), radius: radius, color: color)
    }
}

/// Everything after the physics world sees the world through this value, copied out at a step
/// boundary. Bodies are in creation order, which is also ascending `BodyID` order.
public struct WorldSnapshot: Sendable, Equatable {
    /// Steps taken since the world was built.
    public var step: Int
    public var bodies: [BodyState]
    /// Walls that move (the tumbler's), where they are at this step; static walls are drawn once
    /// from `World.wallStates()` and are not repeated here.
    public var movingWalls: [WallState]
    /// Contact points, when the snapshot was taken for debug drawing (`World.snapshot(contacts:)`);
    /// empty otherwise.
    public var contacts: [ContactPoint]
    /// The world's parts, from its first structural change on (nil before: the parts are the
    /// scene's, as given once beside the snapshots). Not part of a snapshot's coded form.
    public var parts: WorldParts?

    public init(step: Int, bodies: [BodyState], movingWalls: [WallState] = [], contacts: [ContactPoint] = [], parts: WorldParts? = nil) {
        self.step = step
        self.bodies = bodies
        self.movingWalls = movingWalls
        self.contacts = contacts
        self.parts = parts
    }
}

// Codable is native-only: Embedded Swift (the wasm core) has no Codable; the CLI's JSON reports use it.
#if !hasFeature(Embedded)
extension BodyID: Codable {}
extension BodyState: Codable {}
extension WallState: Codable {}
extension WorldSnapshot: Codable {
    enum CodingKeys: String, CodingKey {
        case step, bodies, movingWalls, contacts
    }
}
#endif
