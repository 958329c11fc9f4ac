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
    private let crateColor: RGB
    private let crateColors: [BodyID: RGB]
    private let wallColor: RGB
    private var styles: [StyleKey: CrateStyle] = [:]

    private struct StyleKey: Hashable {
        var shape: BodyShape
        var color: RGB
    }

    /// - Parameters:
    ///   - world: the world's size; the whole world, or `colors.view`, is fitted into the image
    ///     keeping its aspect ratio.
    ///   - walls: drawn once into the static layer.
    ///   - crateColors: crates drawn in a colour of their own; others in `colors.crate`.
    public init(world: Vec2, walls: [WallState], width: Int, height: Int, colors: RenderDefaults, crateColors: [BodyID: RGB] = [:]) {
        self.width = width
        self.height = height
        viewport = Viewport(view: colors.view ?? ViewRect(min: .zero, max: world), imageWidth: width, imageHeight: height)
        crateColor = colors.crate
        self.crateColors = crateColors
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
            case .box:
                let style = style(for: StyleKey(shape: body.shape, color: crateColors[body.id] ?? crateColor))
                Rasterizer.drawCrate(&image, center: center, angle: body.angle, style: style)
            }
        }
        return image
    }

    private func style(for key: StyleKey) -> CrateStyle {
        if let cached = styles[key] { return cached }
        let style = CrateStyle(size: key.shape.boundingSize, scale: viewport.scale, palette: CratePalette(base: key.color))
        styles[key] = style
        return style
    }
}
