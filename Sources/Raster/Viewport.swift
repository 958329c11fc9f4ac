import SceneModel

/// Maps world coordinates (y up) to image pixels (y down), scaling a rectangle of the world (the
/// whole world, or a scene's `render.view`) to fit the image while keeping its aspect ratio,
/// centred. What lies outside the rectangle is cut off at the image's edges.
public struct Viewport: Sendable, Equatable {
    public let scale: Double
    public let offsetX: Double
    public let offsetY: Double
    /// The shown rectangle's left edge and top edge, in world coordinates.
    public let left: Double
    public let top: Double

    /// The whole world, from (0, 0) to `world`.
    public init(world: Vec2, imageWidth: Int, imageHeight: Int) {
        self.init(view: ViewRect(min: .zero, max: world), imageWidth: imageWidth, imageHeight: imageHeight)
    }

    public init(view: ViewRect, imageWidth: Int, imageHeight: Int) {
        let size = view.size
        scale = min(Double(imageWidth) / size.x, Double(imageHeight) / size.y)
        offsetX = (Double(imageWidth) - size.x * scale) / 2
        offsetY = (Double(imageHeight) - size.y * scale) / 2
        left = view.min.x
        top = view.max.y
    }

    /// The image position of world point `p`, in pixels (pixel (i, j) covers [i, i+1) × [j, j+1)).
    public func imagePoint(_ p: Vec2) -> Vec2 {
        Vec2(offsetX + (p.x - left) * scale, offsetY + (top - p.y) * scale)
    }
}
