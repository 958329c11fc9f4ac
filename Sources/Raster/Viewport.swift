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

/// A body's axis-aligned bounding box in image pixels (x right, y down), as floating point.
public struct PixelBox: Sendable, Equatable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double
}

extension Viewport {
    /// The bounding box of `shape` placed as `body` is, in this viewport's pixels: the box the
    /// `aabb` overlay draws and a sweep's trace writes, through the transform the frames use. A
    /// body without a shape gets its centre as an empty box.
    public func pixelBox(of shape: BodyShape?, at body: BodyState) -> PixelBox {
        let extent = shape?.halfExtents(angle: body.angle) ?? .zero
        let low = imagePoint(body.position - extent), high = imagePoint(body.position + extent)
        return PixelBox(minX: min(low.x, high.x), minY: min(low.y, high.y), maxX: max(low.x, high.x), maxY: max(low.y, high.y))
    }
}
