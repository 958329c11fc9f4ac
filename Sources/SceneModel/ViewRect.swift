/// A rectangle of the world, in world coordinates (pixels, y up): what an image shows.
public struct ViewRect: Sendable, Equatable, Hashable {
    public var min: Vec2
    public var max: Vec2

    public init(min: Vec2, max: Vec2) {
        self.min = min
        self.max = max
    }

    public var size: Vec2 { max - min }

    /// Why this is no view rectangle, if it is not: non-finite, beyond the coordinate limit, or
    /// empty (min must be below and left of max).
    public var problem: String? {
        guard min.isFinite, max.isFinite else { return "must be finite numbers" }
        guard [min.x, min.y, max.x, max.y].allSatisfy({ abs($0) <= Limits.coordinate }) else {
            return "must be within ±\(Limits.coordinate)"
        }
        guard min.x < max.x, min.y < max.y else { return "min must be below and left of max" }
        return nil
    }
}
