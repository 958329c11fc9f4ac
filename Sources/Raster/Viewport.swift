import SceneModel

/// Maps world coordinates (y up) to image pixels (y down), scaling the world to fit the image
/// while keeping its aspect ratio, centred.
public struct Viewport: Sendable, Equatable {
    public let scale: Double
    public let offsetX: Double
    public let offsetY: Double
    public let worldHeight: Double

    public init(world: Vec2, imageWidth: Int, imageHeight: Int) {
        scale = min(Double(imageWidth) / world.x, Double(imageHeight) / world.y)
        offsetX = (Double(imageWidth) - world.x * scale) / 2
        offsetY = (Double(imageHeight) - world.y * scale) / 2
        worldHeight = world.y
    }

    /// The image position of world point `p`, in pixels (pixel (i, j) covers [i, i+1) × [j, j+1)).
    public func imagePoint(_ p: Vec2) -> Vec2 {
        Vec2(offsetX + p.x * scale, offsetY + (worldHeight - p.y) * scale)
    }
}
