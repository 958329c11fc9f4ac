#if canImport(Glibc)
import Glibc
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
    private var staticLayer: RGBImage
    /// The static layer's mask (the walls' ids), when masks are drawn.
    private var staticMask: InstanceMask?
    private let overlays: Overlays
    private let crateColor: RGB
    private var crateColors: [BodyID: RGB]
    private let wallColor: RGB
    private var bodyShapes: BodyShapes
    private var joints: [JointLink]
    private let look: BodyLook
    private var styles: [StyleKey: CrateStyle] = [:]
    private var discStyles: [StyleKey: DiscStyle] = [:]
    private var outlineStyles: [StyleKey: OutlineStyle] = [:]
    /// This renderer's static layer, as `DrawnRegions.background` names it.
    private var background: UInt64
    /// The walls in the static layer, and what drawing it again takes.
    private var staticWalls: [WallState]
    private let world: Vec2
    private let colors: RenderDefaults
    /// The version of the parts taken from snapshots (`WorldParts`); 0: the ones given at init.
    private var partsVersion = 0
    /// Moving walls' mask ids follow the static walls'.
    private var staticWallCount: Int
    private static let backgroundsMade = Atomic<UInt64>(0)

    /// A style is worked out once per colour and size (a box's sides; a disc's diameter; the
    /// bounding size of other shapes, which sets their rim).
    private struct StyleKey: Hashable {
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
    public init(world: Vec2, walls: [WallState], bodyShapes: BodyShapes, width: Int, height: Int, colors: RenderDefaults,
                crateColors: [BodyID: RGB] = [:], overlays: Overlays = [], joints: [JointLink] = [], drawsMasks: Bool = false) {
        self.bodyShapes = bodyShapes
        self.joints = joints.filter(\.isDrawn)
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
    private func adopt(_ parts: WorldParts) {
        partsVersion = parts.version
        bodyShapes = parts.bodyShapes
        crateColors = parts.bodyColors
        joints = parts.joints.filter(\.isDrawn)
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
        render(snapshot, into: &image)
        return image
    }

    /// Draws `snapshot` into `image`, reusing its memory. If `image` is a frame this renderer drew
    /// before, only the pixels it drew over the static layer are put back first; anything else is
    /// replaced by the static layer whole. The result is the same image `render(_:)` gives.
    public func render(_ snapshot: WorldSnapshot, into image: inout RGBImage) {
        if let parts = snapshot.parts, parts.version != partsVersion { adopt(parts) }
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
        rects.reserveCapacity(snapshot.bodies.count + snapshot.movingWalls.count)
        for (index, wall) in snapshot.movingWalls.enumerated() {
            let drawn = Self.withPen(&mask, id: InstanceMask.wallID(staticWallCount + index)) { pen in
                Self.draw(wall, into: &image, viewport: viewport, color: wallColor, pen: pen)
            }
            if let drawn { rects.append(drawn) }
        }
        for (index, body) in snapshot.bodies.enumerated() {
            guard let shape = bodyShapes.shape(of: body, at: index) else { continue }
            let drawn = Self.withPen(&mask, id: InstanceMask.id(of: body.id)) { pen in draw(body, shape, into: &image, pen: pen) }
            if let drawn { rects.append(drawn) }
        }
        if !joints.isEmpty { drawJoints(&image, snapshot, rects: &rects) }
        if !overlays.isEmpty { drawOverlays(&image, snapshot, rects: &rects) }
        image.drawnRegions = DrawnRegions(background: background, rects: rects)
        image.mask = mask
    }

    /// Draws one body in its look.
    private func draw(_ body: BodyState, _ shape: BodyShape, into image: inout RGBImage, pen: MaskPen) -> PixelRect? {
        let center = viewport.imagePoint(body.position)
        let asleep = overlays.contains(.sleeping) && body.sleeping
        let color = asleep ? Overlays.sleepingColor : crateColors[body.id] ?? crateColor
        switch shape {
        case let .box(size) where look == .crate:
            return Rasterizer.drawCrate(&image, center: center, angle: body.angle, style: style(for: StyleKey(size: size, color: color)),
                                        pen: pen)
        case let .circle(radius) where look == .crate:
            return Rasterizer.drawDisc(&image, center: center, angle: body.angle, style: discStyle(radius: radius, color: color), pen: pen)
        case .box, .circle, .polygon, .segment:
            return drawOutline(shape.outline, of: body, size: shape.boundingSize, color: color, into: &image, pen: pen)
        case let .compound(parts):
            // Each part in its own colour (the body's when it has none), in part order; the mask
            // marks every part with the body's id.
            var drawn: PixelRect?
            for part in parts {
                let partColor = asleep ? Overlays.sleepingColor : part.color ?? color
                if let rect = drawOutline(part.outline, of: body, size: part.shape.boundingSize, color: partColor, into: &image, pen: pen) {
                    drawn = drawn.map { $0.union(rect) } ?? rect
                }
            }
            return drawn
        }
    }

    /// Draws `outline` (in the body's frame) placed at the body, in the outline look.
    private func drawOutline(_ outline: ConvexOutline, of body: BodyState, size: Vec2, color: RGB, into image: inout RGBImage,
                             pen: MaskPen) -> PixelRect? {
        let outline = outline.placed(at: body.position, angle: body.angle)
        // A thin segment never thinner than a wall is drawn (about a pixel and a half).
        let radius = outline.points.count < 3 ? max(outline.radius * viewport.scale, 0.75) : outline.radius * viewport.scale
        return Rasterizer.drawOutline(&image, points: outline.points.map(viewport.imagePoint), radius: radius,
                                      style: outlineStyle(StyleKey(size: size, color: color)), pen: pen)
    }

    /// Calls `draw` with a pen marking `mask` with `id`; with no pen when there is no mask (or no id).
    private static func withPen<Result>(_ mask: inout InstanceMask?, id: UInt16?, _ draw: (MaskPen) -> Result) -> Result {
        guard mask != nil, let id else { return draw(.none) }
        return mask!.ids.withUnsafeMutableBufferPointer { draw(MaskPen(pixels: $0.baseAddress, id: id)) }
    }

    /// Copies the rows of `rects` from `layer` over `values` (an image's pixels, or a mask's ids,
    /// `valuesPerPixel` values a pixel, `width` pixels a row): what a recycled frame puts back of
    /// the static layer.
    private static func copy<Value>(_ rects: [PixelRect], from layer: [Value], to values: inout [Value], width: Int, valuesPerPixel: Int) {
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

    /// Each joint as a line between its anchors with a dot at each (a groove also as its groove; the
    /// rotary kinds as a thin line between their bodies' centres); a joint to a body the snapshot
    /// lacks is not drawn.
    private func drawJoints(_ image: inout RGBImage, _ snapshot: WorldSnapshot, rects: inout [PixelRect]) {
        var states: [BodyID: BodyState] = [:]
        states.reserveCapacity(snapshot.bodies.count)
        for body in snapshot.bodies { states[body.id] = body }
        let radius = max(0.6, min(1.5, viewport.scale))
        func record(_ drawn: PixelRect?) { if let drawn { rects.append(drawn) } }
        for joint in joints {
            let stateA = joint.a.flatMap { states[$0] }, stateB = joint.b.flatMap { states[$0] }
            guard (joint.a == nil || stateA != nil), (joint.b == nil || stateB != nil) else { continue }
            let a = viewport.imagePoint(JointLink.place(joint.anchorA, on: stateA))
            let b = viewport.imagePoint(JointLink.place(joint.anchorB, on: stateB))
            guard joint.hasAnchors else {
                record(Rasterizer.drawSegment(&image, from: a, to: b, radius: radius * 0.5, color: Overlays.jointColor))
                continue
            }
            if let grooveA = joint.grooveA, let grooveB = joint.grooveB {
                record(Rasterizer.drawSegment(&image, from: viewport.imagePoint(JointLink.place(grooveA, on: stateA)),
                                              to: viewport.imagePoint(JointLink.place(grooveB, on: stateA)), radius: radius,
                                              color: Overlays.jointColor))
            } else {
                record(Rasterizer.drawSegment(&image, from: a, to: b, radius: radius * 0.6,
                                              color: joint.kind == .dampedSpring ? Overlays.springColor : Overlays.jointColor))
                record(Rasterizer.drawSegment(&image, from: a, to: a, radius: radius * 2, color: Overlays.jointColor))
            }
            record(Rasterizer.drawSegment(&image, from: b, to: b, radius: radius * 2, color: Overlays.jointColor))
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
    private static func draw(_ wall: WallState, into image: inout RGBImage, viewport: Viewport, color: RGB, pen: MaskPen) -> PixelRect? {
        let color = wall.color ?? color
        switch wall.geometry {
        case let .segment(from, to):
            return Rasterizer.drawSegment(&image, from: viewport.imagePoint(from), to: viewport.imagePoint(to),
                                          radius: max(wall.radius * viewport.scale, 0.75), color: color, pen: pen)
        case let .polygon(vertices):
            return Rasterizer.drawOutline(&image, points: vertices.map(viewport.imagePoint), radius: wall.radius * viewport.scale,
                                          style: OutlineStyle(solid: color), pen: pen)
        }
    }

    private func outlineStyle(_ key: StyleKey) -> OutlineStyle {
        if let cached = outlineStyles[key] { return cached }
        let style = OutlineStyle(color: key.color, look: look, scale: viewport.scale, size: min(key.size.x, key.size.y))
        outlineStyles[key] = style
        return style
    }

    private func discStyle(radius: Double, color: RGB) -> DiscStyle {
        let key = StyleKey(size: Vec2(2 * radius, 2 * radius), color: color)
        if let cached = discStyles[key] { return cached }
        let style = DiscStyle(radius: radius, scale: viewport.scale, palette: CratePalette(base: color))
        discStyles[key] = style
        return style
    }

    private func style(for key: StyleKey) -> CrateStyle {
        if let cached = styles[key] { return cached }
        let style = CrateStyle(size: key.size, scale: viewport.scale, palette: CratePalette(base: key.color))
        styles[key] = style
        return style
    }
}
