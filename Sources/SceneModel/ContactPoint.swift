/// One contact point between two shapes at a step boundary, copied out of Chipmunk's arbiters.
/// Units: pixels; `normal` is a unit vector from the pair's first body to its second.
public struct ContactPoint: Sendable, Equatable {
    public var position: Vec2
    public var normal: Vec2

    public init(position: Vec2, normal: Vec2) {
        self.position = position
        self.normal = normal
    }
}

// Codable is native-only: Embedded Swift (the wasm core) has no Codable; the CLI's JSON reports use it.
#if !hasFeature(Embedded)
extension ContactPoint: Codable {}
#endif
