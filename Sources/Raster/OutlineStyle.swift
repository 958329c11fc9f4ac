#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif
import SceneModel

/// How a shape is drawn in the plain look, and polygons and segments in any look: a flat fill
/// inside a rim of another colour, `rimWidth` image pixels wide (0: none).
struct OutlineStyle: Hashable {
    var fill: RGB
    var rim: RGB
    var rimWidth: Double

    /// A body's look in `color`: the plain look's fill is the colour itself and its rim a darker
    /// shade; the crate look's are its wood (`CratePalette`'s plank and frame).
    init(color: RGB, look: BodyLook, scale: Double, size: Double) {
        let palette = CratePalette(base: color)
        switch look {
        case .crate:
            fill = Self.rgb(palette.planks[0])
            rim = Self.rgb(palette.frame)
        case .plain:
            fill = color
            rim = Self.rgb((Double(color.r) * 0.55, Double(color.g) * 0.55, Double(color.b) * 0.55))
        }
        rimWidth = max(0.75, min(2, size * scale * 0.12))
    }

    /// One colour throughout (walls).
    init(solid color: RGB) {
        fill = color
        rim = color
        rimWidth = 0
    }

    private static func rgb(_ color: (Double, Double, Double)) -> RGB {
        RGB(UInt8(truncatingIfNeeded: Int(color.0 + 0.5)), UInt8(truncatingIfNeeded: Int(color.1 + 0.5)),
            UInt8(truncatingIfNeeded: Int(color.2 + 0.5)))
    }
}

extension Rasterizer {
    /// A convex outline (`points` in image pixels: one for a disc, two for a capsule, three or more
    /// in order for a polygon) grown by `radius` pixels, anti-aliased like every other shape: the
    /// coverage of a pixel is clamp(0.5 − d, 0, 1) for its centre's signed distance d.
    /// - Returns: the pixels visited (nil if none).
    @discardableResult
    static func drawOutline(_ image: inout RGBImage, points: [Vec2], radius: Double, style: OutlineStyle,
                            pen: MaskPen = .none, clip: PixelRect? = nil) -> PixelRect? {
        guard !points.isEmpty else { return nil }
        // Pixels are worked out one by one: drawing inside `clip` only gives them exactly.
        let bounds = clip ?? image.bounds
        var low = Vec2(Double.infinity, Double.infinity), high = Vec2(-Double.infinity, -Double.infinity)
        for p in points {
            low = Vec2(min(low.x, p.x), min(low.y, p.y))
            high = Vec2(max(high.x, p.x), max(high.y, p.y))
        }
        let minX = max(bounds.minX, pixel((low.x - radius - 1).rounded(.down)))
        let maxX = min(bounds.maxX, pixel((high.x + radius + 1).rounded(.up)))
        let minY = max(bounds.minY, pixel((low.y - radius - 1).rounded(.down)))
        let maxY = min(bounds.maxY, pixel((high.y + radius + 1).rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return nil }
        let fill = (Double(style.fill.r), Double(style.fill.g), Double(style.fill.b))
        let rim = (Double(style.rim.r), Double(style.rim.g), Double(style.rim.b))
        let width = image.width
        let area = points.count >= 3, count = points.count
        let reach = radius + 1
        // Unsafe buffers: the per-pixel loop reads the points without bounds checks or reference counting.
        points.withUnsafeBufferPointer { points in
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            for py in minY...maxY {
                let y = Double(py) + 0.5
                // Only the row's span of the shape grown by a pixel is visited.
                guard let span = rowSpan(points, y: y, reach: reach) else { continue }
                let first = max(minX, pixel((span.low - 0.5).rounded(.down))), last = min(maxX, pixel((span.high - 0.5).rounded(.up)))
                guard first <= last else { continue }
                for px in first...last {
                    let x = Double(px) + 0.5
                    // Distance to the core's boundary, negative inside a polygon's area.
                    var nearest = Double.infinity, inside = area, sign = 0.0
                    for i in 0..<count {
                        let a = points[i], b = points[count == 1 ? 0 : i + 1 == count ? 0 : i + 1]
                        let dx = b.x - a.x, dy = b.y - a.y, lengthSquared = dx * dx + dy * dy
                        let t = lengthSquared > 0 ? min(1, max(0, ((x - a.x) * dx + (y - a.y) * dy) / lengthSquared)) : 0
                        let ex = x - (a.x + t * dx), ey = y - (a.y + t * dy)
                        nearest = min(nearest, ex * ex + ey * ey)
                        if area {
                            let cross = dx * (y - a.y) - dy * (x - a.x)
                            if sign == 0 { sign = cross } else if cross != 0, (cross > 0) != (sign > 0) { inside = false }
                        }
                        if count == 2 { break }
                    }
                    let core = nearest.squareRoot()
                    let distance = (inside ? -core : core) - radius
                    let coverage = min(1, max(0, 0.5 - distance))
                    guard coverage > 0 else { continue }
                    let rimWeight = style.rimWidth > 0 ? min(1, max(0, distance + style.rimWidth + 0.5)) : 0
                    let color = rimWeight > 0 ? mix(fill, rim, rimWeight) : fill
                    blend(buffer, (py * width + px) * 3, color, coverage)
                    // The centre is inside (coverage at least ½): the mask's rule.
                    if distance <= 0 { pen.mark(py * width + px) }
                }
            }
        }
        }
        return PixelRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// Where the row at height `y` crosses the convex core grown by `reach`: the lowest and highest
    /// x of the grown shape's boundary on it (its pieces are each edge moved out by `reach` along
    /// either normal, and a circle of `reach` around each point); nil if it misses the row.
    private static func rowSpan(_ points: UnsafeBufferPointer<Vec2>, y: Double, reach: Double) -> (low: Double, high: Double)? {
        var low = Double.infinity, high = -Double.infinity
        for i in 0..<points.count {
            let a = points[i]
            let dy = y - a.y
            if abs(dy) <= reach {
                let half = (reach * reach - dy * dy).squareRoot()
                low = min(low, a.x - half)
                high = max(high, a.x + half)
            }
            guard points.count > 1 else { break }
            let b = points[(i + 1) % points.count]
            let dx = b.x - a.x, ey = b.y - a.y, length = (dx * dx + ey * ey).squareRoot()
            guard length > 0, ey != 0 else { continue }
            let nx = -ey / length * reach, ny = dx / length * reach
            for side in 0..<2 {
                let sign = side == 0 ? 1.0 : -1.0
                let t = (y - (a.y + sign * ny)) / ey
                if t >= 0, t <= 1 {
                    let x = a.x + sign * nx + t * dx
                    low = min(low, x)
                    high = max(high, x)
                }
            }
        }
        return low <= high ? (low, high) : nil
    }
}
