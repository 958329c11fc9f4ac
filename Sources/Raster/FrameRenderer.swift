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
    private let overlays: Overlays
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
    ///   - overlays: debug drawing over each frame (`contacts` draws the snapshots' contact points).
    public init(world: Vec2, walls: [WallState], width: Int, height: Int, colors: RenderDefaults, crateColors: [BodyID: RGB] = [:],
                overlays: Overlays = []) {
        self.overlays = overlays
        self.width = width
        self.height = height
        viewport = Viewport(view: colors.view ?? ViewRect(min: .zero, max: world), imageWidth: width, imageHeight: height)
        crateColor = colors.crate
        self.crateColors = crateColors
        wallColor = colors.wall
        var layer = RGBImage(width: width, height: height, fill: colors.background)
        if overlays.contains(.grid) { Self.drawGrid(&layer, viewport: viewport, world: world) }
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
                let asleep = overlays.contains(.sleeping) && body.sleeping
                let color = asleep ? Overlays.sleepingColor : crateColors[body.id] ?? crateColor
                Rasterizer.drawCrate(&image, center: center, angle: body.angle, style: style(for: StyleKey(shape: body.shape, color: color)))
            }
        }
        if !overlays.isEmpty { drawOverlays(&image, snapshot) }
        return image
    }

    /// Bounding boxes, contacts and ids over the drawn frame.
    private func drawOverlays(_ image: inout RGBImage, _ snapshot: WorldSnapshot) {
        if overlays.contains(.aabb) {
            for body in snapshot.bodies {
                let half = body.shape.boundingSize * 0.5
                let c = abs(cos(body.angle)), s = abs(sin(body.angle))
                let extent = Vec2(c * half.x + s * half.y, s * half.x + c * half.y)
                let low = viewport.imagePoint(body.position - extent), high = viewport.imagePoint(body.position + extent)
                let corners = [Vec2(low.x, low.y), Vec2(high.x, low.y), Vec2(high.x, high.y), Vec2(low.x, high.y)]
                for i in 0..<4 {
                    Rasterizer.drawSegment(&image, from: corners[i], to: corners[(i + 1) % 4], radius: 0.5, color: Overlays.aabbColor)
                }
            }
        }
        if overlays.contains(.contacts) {
            for contact in snapshot.contacts {
                let point = viewport.imagePoint(contact.position)
                // The normal as a short tick through the point (its sign is arbitrary), 6 px each way.
                let tick = Vec2(contact.normal.x * 6, -contact.normal.y * 6)
                Rasterizer.drawSegment(&image, from: point - tick, to: point + tick, radius: 0.6, color: Overlays.contactColor)
                Rasterizer.drawSegment(&image, from: point, to: point, radius: 2, color: Overlays.contactColor)
            }
        }
        if overlays.contains(.ids) {
            let scale = max(1, min(3, Int(viewport.scale * 4)))
            for body in snapshot.bodies {
                let center = viewport.imagePoint(body.position)
                DigitFont.draw(&image, body.id.description, centerX: center.x, centerY: center.y, scale: scale, color: Overlays.idColor)
            }
        }
    }

    /// Grid lines every `Overlays.gridSpacing` world pixels across the world.
    private static func drawGrid(_ image: inout RGBImage, viewport: Viewport, world: Vec2) {
        var x = 0.0
        while x <= world.x {
            Rasterizer.drawSegment(&image, from: viewport.imagePoint(Vec2(x, 0)), to: viewport.imagePoint(Vec2(x, world.y)),
                                   radius: 0.5, color: Overlays.gridColor)
            x += Overlays.gridSpacing
        }
        var y = 0.0
        while y <= world.y {
            Rasterizer.drawSegment(&image, from: viewport.imagePoint(Vec2(0, y)), to: viewport.imagePoint(Vec2(world.x, y)),
                                   radius: 0.5, color: Overlays.gridColor)
            y += Overlays.gridSpacing
        }
    }

    private func style(for key: StyleKey) -> CrateStyle {
        if let cached = styles[key] { return cached }
        let style = CrateStyle(size: key.shape.boundingSize, scale: viewport.scale, palette: CratePalette(base: key.color))
        styles[key] = style
        return style
    }
}
