import Foundation
import Raster
import SceneModel
import Testing

/// Instance masks drawn in the same pass as the frames (`FrameRenderer` with `drawsMasks`): a
/// pixel holds the id of the last thing drawn whose shape covers its centre.
@Suite struct InstanceMaskTests {
    static let world = Vec2(100, 60)
    static let walls = [WallState(from: Vec2(0, 2), to: Vec2(100, 2), radius: 1.5),
                        WallState(geometry: .polygon(vertices: [Vec2(80, 0), Vec2(100, 0), Vec2(100, 20)]), radius: 0.5)]
    static let shapes = BodyShapes([
        (BodyID(1), .box(size: Vec2(14, 9))),
        (BodyID(2), .circle(radius: 6)),
        (BodyID(3), .polygon(vertices: [Vec2(-6, -4), Vec2(7, -3), Vec2(0, 6)], radius: 0.8)),
        (BodyID(4), .segment(a: Vec2(-8, 0), b: Vec2(8, 1), radius: 1.2)),
        (BodyID(5), .box(size: Vec2(10, 10))),
        // A body of parts: every part is marked with the body's id.
        (BodyID(6), .compound(parts: [BodyPart(shape: .box(size: Vec2(12, 4)), mass: 1),
                                      BodyPart(shape: .box(size: Vec2(4, 10)), offset: Vec2(-4, 7), angle: 0.3, mass: 1),
                                      BodyPart(shape: .circle(radius: 3), offset: Vec2(7, 3), mass: 1, color: RGB(40, 160, 90))])),
    ])

    static func renderer(look: BodyLook = .crate, masks: Bool = true) -> FrameRenderer {
        let colors = RenderDefaults(background: RGB(240, 235, 225), crate: RGB(181, 131, 74), wall: RGB(60, 60, 60), look: look)
        return FrameRenderer(world: world, walls: walls, bodyShapes: shapes, width: 211, height: 131, colors: colors,
                             crateColors: [BodyID(2): RGB(40, 90, 200), BodyID(4): RGB(200, 40, 60)], drawsMasks: masks)
    }

    /// Frame `n`: every kind of shape turning and moving, overlapping one another and the walls.
    static func snapshot(_ n: Int) -> WorldSnapshot {
        let t = Double(n)
        let bodies = [
            body(1, Vec2(20 + 2.9 * t, 20), 0.23 * t),
            body(2, Vec2(35, 18 + 0.7 * t), -0.4 * t),
            body(3, Vec2(60 - 1.1 * t, 30), 0.31 * t),
            body(4, Vec2(50, 40 - 1.9 * t), 0.17 * t),
            body(5, Vec2(84 + 0.5 * t, 9), 0.05 * t),
            body(6, Vec2(25 + 1.3 * t, 45 - t), -0.21 * t),
        ]
        return WorldSnapshot(step: n, bodies: bodies, movingWalls: [WallState(from: Vec2(10 + t, 55), to: Vec2(40, 48 - t), radius: 0.9)])
    }

    static func body(_ id: UInt64, _ position: Vec2, _ angle: Double) -> BodyState {
        BodyState(id: BodyID(id), position: position, angle: angle, velocity: .zero, angularVelocity: 0)
    }

    @Test(arguments: [BodyLook.crate, .plain])
    func drawingMasksLeavesTheFramesAsTheyWere(look: BodyLook) {
        let withMasks = Self.renderer(look: look), without = Self.renderer(look: look, masks: false)
        for n in 0..<12 {
            let frame = withMasks.render(Self.snapshot(n))
            #expect(frame == without.render(Self.snapshot(n)), "frame \(n)")
            #expect(frame.mask != nil && without.render(Self.snapshot(n)).mask == nil)
        }
    }

    /// Each body drawn alone: its mask pixels are exactly the pixels whose centre its shape covers
    /// (worked out here from the world's geometry, independently of the rasterizer), and every
    /// pixel its drawing changed that is not in its mask is on its rim, beside a mask pixel.
    @Test(arguments: [BodyLook.crate, .plain])
    func aBodysMaskIsThePixelsItsShapeCoversAtTheirCentre(look: BodyLook) throws {
        let renderer = Self.renderer(look: look)
        let empty = renderer.render(WorldSnapshot(step: 0, bodies: []))
        let viewport = renderer.viewport
        for n in [0, 3, 7] {
            for (index, body) in Self.snapshot(n).bodies.enumerated() {
                let frame = renderer.render(WorldSnapshot(step: n, bodies: [body]))
                let mask = try #require(frame.mask)
                let shape = try #require(Self.shapes.shape(of: body, at: index))
                let id = UInt16(body.id.rawValue)
                var marked = 0, changedOffRim = 0, unchangedMarked = 0
                for y in 0..<frame.height {
                    for x in 0..<frame.width {
                        let at = y * frame.width + x
                        let world = Vec2(viewport.left + (Double(x) + 0.5 - viewport.offsetX) / viewport.scale,
                                         viewport.top - (Double(y) + 0.5 - viewport.offsetY) / viewport.scale)
                        let distance = Self.signedDistance(world, to: shape, at: body) * viewport.scale
                        let isBody = mask.ids[at] == id
                        if abs(distance) > 1e-6 {
                            #expect(isBody == (distance < 0),
                                    "body \(id) frame \(n) pixel (\(x), \(y)): distance \(distance), mask \(mask.ids[at])")
                        }
                        if isBody { marked += 1 }
                        let changed = frame.pixels[3 * at..<3 * at + 3] != empty.pixels[3 * at..<3 * at + 3]
                        if isBody, !changed { unchangedMarked += 1 }
                        if changed, !isBody, !Self.neighbours(x, y, of: mask, width: frame.width, height: frame.height).contains(id) {
                            changedOffRim += 1
                        }
                    }
                }
                #expect(marked > 20, "body \(id) frame \(n)")
                #expect(unchangedMarked == 0, "body \(id) frame \(n)")
                #expect(changedOffRim == 0, "body \(id) frame \(n)")
            }
        }
    }

    /// Where bodies overlap, the mask names the one drawn last, and inside its mask (away from the
    /// rim) the frame shows exactly that body as it looks alone.
    @Test func theMaskNamesTheBodyTheFrameShows() throws {
        let renderer = Self.renderer()
        let crowded = WorldSnapshot(step: 0, bodies: [Self.body(1, Vec2(40, 30), 0.3), Self.body(2, Vec2(46, 32), 0),
                                                      Self.body(3, Vec2(42, 26), 1), Self.body(5, Vec2(50, 24), 0.7)])
        let frame = renderer.render(crowded)
        let mask = try #require(frame.mask)
        var alone: [UInt16: RGBImage] = [:]
        for body in crowded.bodies { alone[UInt16(body.id.rawValue)] = renderer.render(WorldSnapshot(step: 0, bodies: [body])) }
        var seen: Set<UInt16> = [], compared = 0
        for y in 1..<frame.height - 1 {
            for x in 1..<frame.width - 1 {
                let id = mask.ids[y * frame.width + x]
                guard let only = alone[id], Self.neighbours(x, y, of: mask, width: frame.width, height: frame.height) == [id] else { continue }
                seen.insert(id)
                compared += 1
                let at = 3 * (y * frame.width + x)
                #expect(frame.pixels[at..<at + 3] == only.pixels[at..<at + 3], "pixel (\(x), \(y)) of body \(id)")
            }
        }
        #expect(seen == [1, 2, 3, 5] && compared > 500)
        // The later bodies hide part of body 1: fewer of its pixels than alone.
        let ones = mask.ids.count { $0 == 1 }, onesAlone = try #require(alone[1]?.mask).ids.count { $0 == 1 }
        #expect(ones < onesAlone)
    }

    @Test func wallsHaveIdsOfTheirOwnInTheirOrder() throws {
        let frame = Self.renderer().render(Self.snapshot(2))
        let mask = try #require(frame.mask)
        let ids = Set(mask.ids)
        #expect(ids.isSuperset(of: [0, 0xF000, 0xF001, 0xF002, 1, 2, 3, 4, 5, 6]))
        #expect(ids.allSatisfy { $0 <= 6 || (0xF000...0xF002).contains($0) })
        // The floor's centre line, away from the bodies.
        let floorRow = Int(renderer: Self.renderer(), worldY: 2)
        #expect(mask.ids[floorRow * frame.width + 3] == 0xF000)
    }

    @Test func aRecycledFramesMaskEqualsAFreshOne() throws {
        let renderer = Self.renderer()
        var recycled = renderer.render(WorldSnapshot(step: 0, bodies: []))
        for n in 0..<12 {
            renderer.render(Self.snapshot(n), into: &recycled)
            #expect(recycled.mask == renderer.render(Self.snapshot(n)).mask, "frame \(n)")
        }
        // A frame drawn without a mask, then recycled by a renderer drawing masks, gets one.
        var plain = Self.renderer(masks: false).render(Self.snapshot(1))
        renderer.render(Self.snapshot(5), into: &plain)
        #expect(plain.mask == renderer.render(Self.snapshot(5)).mask)
    }

    @Test func bodiesPastSixteenBitIdsAreRefusedWithTheLimit() throws {
        #expect(InstanceMask.refusal(highestBodyID: BodyID(0xEFFF)) == nil)
        #expect(InstanceMask.refusal(highestBodyID: nil) == nil)
        let refusal = try #require(InstanceMask.refusal(highestBodyID: BodyID(0xF000)))
        #expect(refusal.contains("61440") && refusal.contains("61439"))
    }

    static func neighbours(_ x: Int, _ y: Int, of mask: InstanceMask, width: Int, height: Int) -> Set<UInt16> {
        var ids: Set<UInt16> = []
        for dy in -1...1 {
            for dx in -1...1 where (0..<width).contains(x + dx) && (0..<height).contains(y + dy) {
                ids.insert(mask.ids[(y + dy) * width + x + dx])
            }
        }
        return ids
    }

    /// The signed distance from `point` to the shape of `body` in world units, negative inside.
    static func signedDistance(_ point: Vec2, to shape: BodyShape, at body: BodyState) -> Double {
        let c = cos(body.angle), s = sin(body.angle)
        let d = point - body.position
        let local = Vec2(c * d.x + s * d.y, -s * d.x + c * d.y)
        switch shape {
        case let .compound(parts):
            // The nearest part's: each part is its shape at the body's place moved by its offset.
            return parts.map { part in
                var placed = body
                placed.position = body.position + Vec2(c * part.offset.x - s * part.offset.y, s * part.offset.x + c * part.offset.y)
                placed.angle = body.angle + part.angle
                return signedDistance(point, to: part.shape, at: placed)
            }.min() ?? .infinity
        case let .box(size):
            return max(abs(local.x) - size.x / 2, abs(local.y) - size.y / 2)
        case let .circle(radius):
            return (local.x * local.x + local.y * local.y).squareRoot() - radius
        case let .segment(a, b, radius):
            return ConvexOutline.distance(from: local, toSegment: a, b) - radius
        case let .polygon(vertices, radius):
            var nearest = Double.infinity, inside = true
            for i in vertices.indices {
                let a = vertices[i], b = vertices[(i + 1) % vertices.count]
                nearest = min(nearest, ConvexOutline.distance(from: local, toSegment: a, b))
                if (b.x - a.x) * (local.y - a.y) - (b.y - a.y) * (local.x - a.x) < 0 { inside = false }
            }
            return (inside ? -nearest : nearest) - radius
        }
    }
}

private extension Int {
    /// The image row holding world height `worldY`.
    init(renderer: FrameRenderer, worldY: Double) {
        self = Int(renderer.viewport.imagePoint(Vec2(0, worldY)).y)
    }
}
