#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif
import SceneModel

/// A frame's items (`DrawnItem`): what a snapshot draws over the static layer, and drawing one.
extension FrameRenderer {
    /// Overlays that draw nothing beyond the items: the grid is in the static layer, and the
    /// sleeping colour is part of a body's look.
    static let overlaysInItems: Overlays = [.grid, .sleeping]

    /// Pixels around a shape's bounding box that drawing it may still touch: the soft edge, the
    /// rasterizers' rounding out to whole pixels, and a thin segment's least width.
    private static let edgeAllowance = 3.0

    /// The items `snapshot` draws, in drawing order: moving walls, bodies, joints.
    func items(of snapshot: WorldSnapshot) -> [DrawnItem] {
        var items: [DrawnItem] = []
        items.reserveCapacity(snapshot.movingWalls.count + snapshot.bodies.count + joints.count)
        for (index, wall) in snapshot.movingWalls.enumerated() {
            let scale = viewport.scale
            let points: [Vec2] = switch wall.geometry {
            case let .segment(from, to): [viewport.imagePoint(from), viewport.imagePoint(to)]
            case let .polygon(vertices): vertices.map(viewport.imagePoint)
            }
            items.append(DrawnItem(key: .wall(index), look: .wall(wall), rect: rect(around: points, reach: wall.radius * scale + 1)))
        }
        for (index, body) in snapshot.bodies.enumerated() {
            guard let shape = bodyShapes.shape(of: body, at: index) else { continue }
            let asleep = overlays.contains(.sleeping) && body.sleeping
            let placement = BodyPlacement(position: body.position, angle: body.angle,
                                          color: asleep ? Overlays.sleepingColor : crateColors[body.id] ?? crateColor, asleep: asleep)
            let box = viewport.pixelBox(of: shape, at: body)
            let rect = rect(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, reach: Self.edgeAllowance)
            items.append(DrawnItem(key: .body(body.id), look: .body(placement), rect: rect, shape: shape))
        }
        if !joints.isEmpty {
            var states: [BodyID: BodyState] = [:]
            states.reserveCapacity(snapshot.bodies.count)
            for body in snapshot.bodies { states[body.id] = body }
            for (index, joint) in joints.enumerated() {
                guard let placement = placement(of: joint, states: states) else { continue }
                var points = [placement.a, placement.b]
                if let grooveA = placement.grooveA, let grooveB = placement.grooveB { points += [grooveA, grooveB] }
                items.append(DrawnItem(key: .joint(index), look: .joint(placement), rect: rect(around: points, reach: jointRadius * 2 + 1)))
            }
        }
        return items
    }

    /// The image pixels within `reach` (plus the allowance) of `points`' bounding box.
    private func rect(around points: [Vec2], reach: Double) -> PixelRect? {
        var low = Vec2(Double.infinity, Double.infinity), high = Vec2(-Double.infinity, -Double.infinity)
        for p in points {
            low = Vec2(min(low.x, p.x), min(low.y, p.y))
            high = Vec2(max(high.x, p.x), max(high.y, p.y))
        }
        return rect(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y, reach: reach + Self.edgeAllowance)
    }

    /// The whole pixels within `reach` of a box in image coordinates, inside the image; the whole
    /// image when a coordinate is not finite (whatever drawing does then, it stays inside).
    private func rect(minX: Double, minY: Double, maxX: Double, maxY: Double, reach: Double) -> PixelRect? {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, reach.isFinite else {
            return PixelRect(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1)
        }
        return PixelRect(minX: Rasterizer.pixel((minX - reach).rounded(.down)), minY: Rasterizer.pixel((minY - reach).rounded(.down)),
                         maxX: Rasterizer.pixel((maxX + reach).rounded(.up)), maxY: Rasterizer.pixel((maxY + reach).rounded(.up)))
            .intersection(PixelRect(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1))
    }

    /// The instance mask's id for an item's pixels (joints are not in the mask).
    func maskID(_ key: DrawnItem.Key) -> UInt16? {
        switch key {
        case let .wall(index): InstanceMask.wallID(staticWallCount + index)
        case let .body(id): InstanceMask.id(of: id)
        case .joint: nil
        }
    }

    /// Draws `item` as its look says, only inside `clip` when given.
    /// - Returns: the pixels visited.
    @discardableResult
    func draw(_ item: DrawnItem, into image: inout RGBImage, pen: MaskPen, clip: PixelRect?) -> PixelRect? {
        switch item.look {
        case let .wall(wall):
            return Self.draw(wall, into: &image, viewport: viewport, color: wallColor, pen: pen, clip: clip)
        case let .body(placement):
            guard let shape = item.shape else { return nil }
            return draw(placement, shape, into: &image, pen: pen, clip: clip)
        case let .joint(placement):
            return draw(placement, into: &image, clip: clip)
        }
    }

    /// Draws one body in its look.
    private func draw(_ body: BodyPlacement, _ shape: BodyShape, into image: inout RGBImage, pen: MaskPen, clip: PixelRect?) -> PixelRect? {
        let center = viewport.imagePoint(body.position)
        let color = body.color
        switch shape {
        case let .box(size) where look == .crate:
            return Rasterizer.drawCrate(&image, center: center, angle: body.angle, style: style(for: StyleKey(size: size, color: color)),
                                        pen: pen, clip: clip)
        case let .circle(radius) where look == .crate:
            return Rasterizer.drawDisc(&image, center: center, angle: body.angle, style: discStyle(radius: radius, color: color), pen: pen,
                                       clip: clip)
        case .box, .circle, .polygon, .segment:
            return drawOutline(shape.outline, of: body, size: shape.boundingSize, color: color, into: &image, pen: pen, clip: clip)
        case let .compound(parts):
            // Each part in its own colour (the body's when it has none), in part order; the mask
            // marks every part with the body's id.
            var drawn: PixelRect?
            for part in parts {
                let partColor = body.asleep ? Overlays.sleepingColor : part.color ?? color
                if let rect = drawOutline(part.outline, of: body, size: part.shape.boundingSize, color: partColor, into: &image, pen: pen,
                                          clip: clip) {
                    drawn = drawn.map { $0.union(rect) } ?? rect
                }
            }
            return drawn
        }
    }

    /// Draws `outline` (in the body's frame) placed at the body, in the outline look.
    private func drawOutline(_ outline: ConvexOutline, of body: BodyPlacement, size: Vec2, color: RGB, into image: inout RGBImage,
                             pen: MaskPen, clip: PixelRect?) -> PixelRect? {
        let outline = outline.placed(at: body.position, angle: body.angle)
        // A thin segment never thinner than a wall is drawn (about a pixel and a half).
        let radius = outline.points.count < 3 ? max(outline.radius * viewport.scale, 0.75) : outline.radius * viewport.scale
        return Rasterizer.drawOutline(&image, points: outline.points.map(viewport.imagePoint), radius: radius,
                                      style: outlineStyle(StyleKey(size: size, color: color)), pen: pen, clip: clip)
    }

    /// Joints' line radius in pixels.
    private var jointRadius: Double { max(0.6, min(1.5, viewport.scale)) }

    /// Where a joint's lines go: between its anchors (a groove also along its groove; the rotary
    /// kinds between their bodies' centres); nil for a joint to a body the snapshot lacks.
    private func placement(of joint: JointLink, states: [BodyID: BodyState]) -> JointPlacement? {
        let stateA = joint.a.flatMap { states[$0] }, stateB = joint.b.flatMap { states[$0] }
        guard joint.a == nil || stateA != nil, joint.b == nil || stateB != nil else { return nil }
        let grooves = joint.grooveA.flatMap { a in joint.grooveB.map { b in (a, b) } }
        return JointPlacement(a: viewport.imagePoint(JointLink.place(joint.anchorA, on: stateA)),
                              b: viewport.imagePoint(JointLink.place(joint.anchorB, on: stateB)),
                              grooveA: grooves.map { viewport.imagePoint(JointLink.place($0.0, on: stateA)) },
                              grooveB: grooves.map { viewport.imagePoint(JointLink.place($0.1, on: stateA)) },
                              hasAnchors: joint.hasAnchors, isSpring: joint.kind == .dampedSpring)
    }

    /// Each joint as a line between its anchors with a dot at each (a groove also as its groove; the
    /// rotary kinds as a thin line between their bodies' centres).
    private func draw(_ joint: JointPlacement, into image: inout RGBImage, clip: PixelRect?) -> PixelRect? {
        let radius = jointRadius
        var drawn: PixelRect?
        func record(_ rect: PixelRect?) { if let rect { drawn = drawn.map { $0.union(rect) } ?? rect } }
        let (a, b) = (joint.a, joint.b)
        guard joint.hasAnchors else {
            return Rasterizer.drawSegment(&image, from: a, to: b, radius: radius * 0.5, color: Overlays.jointColor, clip: clip)
        }
        if let grooveA = joint.grooveA, let grooveB = joint.grooveB {
            record(Rasterizer.drawSegment(&image, from: grooveA, to: grooveB, radius: radius, color: Overlays.jointColor, clip: clip))
        } else {
            record(Rasterizer.drawSegment(&image, from: a, to: b, radius: radius * 0.6,
                                          color: joint.isSpring ? Overlays.springColor : Overlays.jointColor, clip: clip))
            record(Rasterizer.drawSegment(&image, from: a, to: a, radius: radius * 2, color: Overlays.jointColor, clip: clip))
        }
        record(Rasterizer.drawSegment(&image, from: b, to: b, radius: radius * 2, color: Overlays.jointColor, clip: clip))
        return drawn
    }
}
