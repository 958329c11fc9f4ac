#if canImport(Glibc)
import Glibc
#endif
import SceneModel

/// Draws world snapshots into images of one size. What never changes between frames (the
/// background and the walls) is drawn once into a static layer that each frame starts from;
/// each crate shape's style is worked out once and cached. Not thread-safe: one per drawing thread.
public final class FrameRenderer {
    public let width: Int
    public let height: Int
    public let viewport: Viewport
    private let staticLayer: RGBImage
    private let palette: CratePalette
    private let wallColor: RGB
    private var styles: [BodyShape: CrateStyle] = [:]

    /// - Parameters:
    ///   - world: the world's size, fitted into the image keeping its aspect ratio.
    ///   - walls: drawn once into the static layer.
    public init(world: Vec2, walls: [WallState], width: Int, height: Int, colors: RenderDefaults) {
        self.width = width
        self.height = height
        viewport = Viewport(world: world, imageWidth: width, imageHeight: height)
        palette = CratePalette(base: colors.crate)
        wallColor = colors.wall
        var layer = RGBImage(width: width, height: height, fill: colors.background)
        for wall in walls {
            // Never thinner than about a pixel and a half, so walls stay visible in small images.
            let radius = max(wall.radius * viewport.scale, 0.75)
            Rasterizer.drawSegment(&layer, from: viewport.imagePoint(wall.from), to: viewport.imagePoint(wall.to),
                                   radius: radius, color: colors.wall)
        }
        staticLayer = layer
    }

    /// Draws `snapshot` over the static layer.
    public func render(_ snapshot: WorldSnapshot) -> RGBImage {
        var image = staticLayer
        for wall in snapshot.movingWalls {
            Rasterizer.drawSegment(&image, from: viewport.imagePoint(wall.from), to: viewport.imagePoint(wall.to),
                                   radius: max(wall.radius * viewport.scale, 0.75), color: wallColor)
        }
        for body in snapshot.bodies {
            let center = viewport.imagePoint(body.position)
            switch body.shape {
            case .box: Rasterizer.drawCrate(&image, center: center, angle: body.angle, style: style(for: body.shape))
            }
        }
        return image
    }

    private func style(for shape: BodyShape) -> CrateStyle {
        if let cached = styles[shape] { return cached }
        let style = CrateStyle(size: shape.boundingSize, scale: viewport.scale, palette: palette)
        styles[shape] = style
        return style
    }
}
