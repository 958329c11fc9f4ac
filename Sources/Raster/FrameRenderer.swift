#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif
import SceneModel
import Synchronization

/// Draws world snapshots into images of one size. What never changes between frames (the
/// background and the walls) is drawn once into a static layer that each frame starts from;
/// each crate shape's style is worked out once and cached. Not thread-safe: one per drawing thread.
///
/// Every frame records where it was drawn over the static layer (`RGBImage.drawnRegions`), so a
/// frame can be recycled by putting back only those pixels (`render(_:into:)`), and a video writer
/// can convert only what may have changed.
public final class FrameRenderer {
    public let width: Int
    public let height: Int
    public let viewport: Viewport
    private(set) var staticLayer: RGBImage
    /// The static layer's mask (the walls' ids), when masks are drawn.
    private(set) var staticMask: InstanceMask?
    let overlays: Overlays
    let crateColor: RGB
    private(set) var crateColors: [BodyID: RGB]
    let wallColor: RGB
    private(set) var bodyShapes: BodyShapes
    private(set) var joints: [JointLink]
    let look: BodyLook
    private var styles: [StyleKey: CrateStyle] = [:]
    private var discStyles: [StyleKey: DiscStyle] = [:]
    private var outlineStyles: [StyleKey: OutlineStyle] = [:]
    /// This renderer's static layer, as `DrawnRegions.background` names it.
    private(set) var background: UInt64
    /// The walls in the static layer, and what drawing it again takes.
    private var staticWalls: [WallState]
    private let world: Vec2
    private let colors: RenderDefaults
    /// The version of the parts taken from snapshots (`WorldParts`); 0: the ones given at init.
    private var partsVersion = 0
    /// Moving walls' mask ids follow the static walls'.
    private(set) var staticWallCount: Int
    private static let backgroundsMade = Atomic<UInt64>(0)
    /// Draw only what changed since the frame drawn into held it (`FrameRenderer+Changes.swift`);
    /// false draws every frame whole, as a reference.
    let drawsChanges: Bool
    /// The recycled frame drawn last, whose items the next recycled frame catches up with first.
    var latest: RGBImage?
    /// Frames drawn by their changes only (for tests).
    var framesDrawnByChanges = 0

    /// A style is worked out once per colour and size (a box's sides; a disc's diameter; the
    /// bounding size of other shapes, which sets their rim).
    struct StyleKey: Hashable {
        var size: Vec2
        var color: RGB
    }

    /// - Parameters:
    ///   - world: the world's size; the whole world, or `colors.view`, is fitted into the image
    ///     keeping its aspect ratio.
    ///   - walls: drawn once into the static layer, each in its own colour or `colors.wall`.
    ///   - bodyShapes: each body's shape, by id (snapshots carry state only); a body missing
    ///     from it is not drawn.
    ///   - width: the frame's width in pixels.
    ///   - height: the frame's height in pixels.
    ///   - colors: background, crate and wall colours, the look, and the part of the world to show.
    ///   - crateColors: crates drawn in a colour of their own; others in `colors.crate`.
    ///   - overlays: debug drawing over each frame (`contacts` draws the snapshots' contact points).
    ///   - joints: the joints, drawn over the bodies as lines between their anchors.
    ///   - drawsMasks: every frame also gets an instance mask (`RGBImage.mask`), drawn in the same
    ///     pass as its colours. Bodies with ids past `InstanceMask.maxBodyID` are left out of it:
    ///     a run's setup refuses such worlds beforehand (`InstanceMask.refusal`).
    ///   - drawsChanges: a frame drawn into a recycled one (`render(_:into:)`) is drawn again only
    ///     where its items changed; the result is the same. False draws every frame whole.
    public init(world: Vec2, walls: [WallState], bodyShapes: BodyShapes, width: Int, height: Int, colors: RenderDefaults,
                crateColors: [BodyID: RGB] = [:], overlays: Overlays = [], joints: [JointLink] = [], drawsMasks: Bool = false,
                drawsChanges: Bool = true) {
        self.drawsChanges = drawsChanges
        self.bodyShapes = bodyShapes
        self.joints = joints.filter { $0.isDrawn }
        look = colors.look
        self.overlays = overlays
        self.width = width
        self.height = height
        let viewport = Viewport(view: colors.view ?? ViewRect(min: .zero, max: world), imageWidth: width, imageHeight: height)
        self.viewport = viewport
        crateColor = colors.crate
        self.crateColors = crateColors
        wallColor = colors.wall
        (staticLayer, staticMask) = Self.staticLayer(walls, world: world, width: width, height: height, viewport: viewport, colors: colors,
                                                     overlays: overlays, drawsMasks: drawsMasks)
        staticWalls = walls
        staticWallCount = walls.count
        background = Self.backgroundsMade.add(1, ordering: .relaxed).newValue
        self.world = world
        self.colors = colors
    }

    /// The background and `walls`, and their mask when masks are drawn.
    private static func staticLayer(_ walls: [WallState], world: Vec2, width: Int, height: Int, viewport: Viewport, colors: RenderDefaults,
                                    overlays: Overlays, drawsMasks: Bool) -> (RGBImage, InstanceMask?) {
        var layer = RGBImage(width: width, height: height, fill: colors.background)
        var mask = drawsMasks ? InstanceMask(width: width, height: height) : nil
        if overlays.contains(.grid) { drawGrid(&layer, viewport: viewport, world: world) }
        for (index, wall) in walls.enumerated() {
            _ = withPen(&mask, id: InstanceMask.wallID(index)) { pen in
                draw(wall, into: &layer, viewport: viewport, color: colors.wall, pen: pen)
            }
        }
        return (layer, mask)
    }

    /// Takes the parts of a world whose make-up has changed as it ran: new bodies' shapes and
    /// colours, the joints, and the walls (the static layer drawn again when they changed).
    private func adopt(_ parts: WorldParts, bodies: [BodyState]) {
        partsVersion = parts.version
        // Frames' items name bodies by id, whose shapes never change; should an id come back with
        // another shape (a run rewound and taken another way), no earlier frame is patched.
        let shapeChanged = bodies.contains { body in
            guard let old = bodyShapes[body.id], let new = parts.bodyShapes[body.id] else { return false }
            return old != new
        }
        bodyShapes = parts.bodyShapes
        crateColors = parts.bodyColors
        joints = parts.joints.filter { $0.isDrawn }
        if shapeChanged { background = Self.backgroundsMade.add(1, ordering: .relaxed).newValue }
        guard parts.walls != staticWalls else { return }
        (staticLayer, staticMask) = Self.staticLayer(parts.walls, world: world, width: width, height: height, viewport: viewport, colors: colors,
                                                     overlays: overlays, drawsMasks: staticMask != nil)
        staticWalls = parts.walls
        staticWallCount = parts.walls.count
        // Frames drawn over the old layer are not this one's to put back.
        background = Self.backgroundsMade.add(1, ordering: .relaxed).newValue
    }

    /// Draws `snapshot` over the static layer.
    public func render(_ snapshot: WorldSnapshot) -> RGBImage {
        var image = staticLayer
        draw(snapshot, into: &image)
        return image
    }

    /// Draws `snapshot` into `image`, reusing its memory. If `image` is a frame this renderer drew
    /// before, only what changed since is drawn again (`FrameRenderer+Changes.swift`), or only the
    /// pixels it drew over the static layer are put back first; anything else is replaced by the
    /// static layer whole. The result is the same image `render(_:)` gives.
    public func render(_ snapshot: WorldSnapshot, into image: inout RGBImage) {
        draw(snapshot, into: &image)
        // Kept to catch up with (shared, not copied): a recycled frame is the pipeline's, which
        // only reads it meanwhile. A frame returned by `render(_:)` is not kept, since its caller
        // may change it (which would then copy it).
        if drawsChanges { latest = image }
    }

    private func draw(_ snapshot: WorldSnapshot, into image: inout RGBImage) {
        if let parts = snapshot.parts, parts.version != partsVersion { adopt(parts, bodies: snapshot.bodies) }
        let items = self.items(of: snapshot)
        if drawChanges(items, into: &image) {
            framesDrawnByChanges += 1
        } else {
            renderWhole(snapshot, items, into: &image)
        }
    }

    /// Draws every item of `snapshot` over the static layer.
    private func renderWhole(_ snapshot: WorldSnapshot, _ items: [DrawnItem], into image: inout RGBImage) {
        // The mask is drawn beside the pixels, out of the image meanwhile (two buffers written at once).
        var mask = image.mask
        image.mask = nil
        if image.width == width, image.height == height, let drawn = image.drawnRegions, drawn.background == background {
            Self.copy(drawn.rects, from: staticLayer.pixels, to: &image.pixels, width: width, valuesPerPixel: 3)
            if let staticMask {
                if mask == nil {
                    mask = staticMask
                } else {
                    Self.copy(drawn.rects, from: staticMask.ids, to: &mask!.ids, width: width, valuesPerPixel: 1)
                }
            }
        } else {
            image = staticLayer
            mask = staticMask
        }
        var rects: [PixelRect] = []
        rects.reserveCapacity(items.count)
        for item in items {
            // The pixels visited, a tighter bound than the item's rectangle: what the next
            // recycling of this frame puts back.
            let drawn = Self.withPen(&mask, id: maskID(item.key)) { pen in draw(item, into: &image, pen: pen, clip: nil) }
            if let drawn { rects.append(drawn) }
        }
        let drawsOverlays = !overlays.subtracting(Self.overlaysInItems).isEmpty
        if drawsOverlays { drawOverlays(&image, snapshot, rects: &rects) }
        image.drawnRegions = DrawnRegions(background: background, rects: rects, items: drawsOverlays ? nil : items)
        image.mask = mask
    }

    /// Calls `draw` with a pen marking `mask` with `id`; with no pen when there is no mask (or no id).
    static func withPen<Result>(_ mask: inout InstanceMask?, id: UInt16?, _ draw: (MaskPen) -> Result) -> Result {
        guard mask != nil, let id else { return draw(.none) }
        return mask!.ids.withUnsafeMutableBufferPointer { draw(MaskPen(pixels: $0.baseAddress, id: id)) }
    }

    /// Copies the rows of `rects` from `layer` over `values` (an image's pixels, or a mask's ids,
    /// `valuesPerPixel` values a pixel, `width` pixels a row): what a recycled frame puts back of
    /// the static layer.
    static func copy<Value>(_ rects: [PixelRect], from layer: [Value], to values: inout [Value], width: Int, valuesPerPixel: Int) {
        let rowValues = width * valuesPerPixel
        layer.withUnsafeBufferPointer { layer in
            values.withUnsafeMutableBufferPointer { values in
                for rect in rects {
                    let count = (rect.maxX - rect.minX + 1) * valuesPerPixel
                    for y in rect.minY...rect.maxY {
                        let at = y * rowValues + rect.minX * valuesPerPixel
                        (values.baseAddress! + at).update(from: layer.baseAddress! + at, count: count)
                    }
                }
            }
        }
    }

    /// Bounding boxes, contacts and ids over the drawn frame; what they touch is added to `rects`.
    private func drawOverlays(_ image: inout RGBImage, _ snapshot: WorldSnapshot, rects: inout [PixelRect]) {
        func record(_ drawn: PixelRect?) { if let drawn { rects.append(drawn) } }
        if overlays.contains(.aabb) {
            for (index, body) in snapshot.bodies.enumerated() {
                guard let shape = bodyShapes.shape(of: body, at: index) else { continue }
                let box = viewport.pixelBox(of: shape, at: body)
                // From the bottom left corner, anticlockwise on screen.
                let corners = [Vec2(box.minX, box.maxY), Vec2(box.maxX, box.maxY), Vec2(box.maxX, box.minY), Vec2(box.minX, box.minY)]
                for i in 0..<4 {
                    record(Rasterizer.drawSegment(&image, from: corners[i], to: corners[(i + 1) % 4], radius: 0.5, color: Overlays.aabbColor))
                }
            }
        }
        if overlays.contains(.contacts) {
            for contact in snapshot.contacts {
                let point = viewport.imagePoint(contact.position)
                // The normal as a short tick through the point (its sign is arbitrary), 6 px each way.
                let tick = Vec2(contact.normal.x * 6, -contact.normal.y * 6)
                record(Rasterizer.drawSegment(&image, from: point - tick, to: point + tick, radius: 0.6, color: Overlays.contactColor))
                record(Rasterizer.drawSegment(&image, from: point, to: point, radius: 2, color: Overlays.contactColor))
            }
        }
        if overlays.contains(.ids) {
            let scale = max(1, min(3, Int(viewport.scale * 4)))
            for body in snapshot.bodies {
                let center = viewport.imagePoint(body.position)
                record(DigitFont.draw(&image, body.id.description, centerX: center.x, centerY: center.y, scale: scale,
                                      color: Overlays.idColor))
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

    /// Draws a wall: a segment as a capsule never thinner than about a pixel and a half (so walls
    /// stay visible in small images), a polygon filled and rounded by its radius.
    @discardableResult
    static func draw(_ wall: WallState, into image: inout RGBImage, viewport: Viewport, color: RGB, pen: MaskPen,
                     clip: PixelRect? = nil) -> PixelRect? {
        let color = wall.color ?? color
        switch wall.geometry {
        case let .segment(from, to):
            return Rasterizer.drawSegment(&image, from: viewport.imagePoint(from), to: viewport.imagePoint(to),
                                          radius: max(wall.radius * viewport.scale, 0.75), color: color, pen: pen, clip: clip)
        case let .polygon(vertices):
            return Rasterizer.drawOutline(&image, points: vertices.map(viewport.imagePoint), radius: wall.radius * viewport.scale,
                                          style: OutlineStyle(solid: color), pen: pen, clip: clip)
        }
    }

    func outlineStyle(_ key: StyleKey) -> OutlineStyle {
        if let cached = outlineStyles[key] { return cached }
        let style = OutlineStyle(color: key.color, look: look, scale: viewport.scale, size: min(key.size.x, key.size.y))
        outlineStyles[key] = style
        return style
    }

    func discStyle(radius: Double, color: RGB) -> DiscStyle {
        let key = StyleKey(size: Vec2(2 * radius, 2 * radius), color: color)
        if let cached = discStyles[key] { return cached }
        let style = DiscStyle(radius: radius, scale: viewport.scale, palette: CratePalette(base: color))
        discStyles[key] = style
        return style
    }

    func style(for key: StyleKey) -> CrateStyle {
        if let cached = styles[key] { return cached }
        let style = CrateStyle(size: key.size, scale: viewport.scale, palette: CratePalette(base: key.color))
        styles[key] = style
        return style
    }
}
