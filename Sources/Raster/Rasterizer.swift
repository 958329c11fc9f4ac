#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif
import SceneModel

/// Draws anti-aliased crates and walls into an `RGBImage`. Coverage comes from signed distances
/// evaluated at pixel centres: clamp(0.5 − distance, 0, 1) blends one pixel wide along each edge.
/// Work is limited to each shape's bounding box, so cost follows the pixels covered.
enum Rasterizer {
    /// An image coordinate as a pixel index, clamped so that a body far outside the view (or a
    /// non-finite value) can never trap the conversion: off-image values land just outside it.
    @inline(__always)
    static func pixel(_ value: Double) -> Int {
        guard value.isFinite else { return value > 0 ? 1 << 40 : -1 }
        return Int(min(max(value, -1), 0x1p40))
    }

    /// A thick segment with round ends (a capsule), `radius` in pixels.
    /// - Returns: the pixels visited (nil if none), so that the renderer knows what it drew over.
    @discardableResult
    static func drawSegment(_ image: inout RGBImage, from a: Vec2, to b: Vec2, radius: Double, color: RGB,
                            pen: MaskPen = .none, clip: PixelRect? = nil) -> PixelRect? {
        // Pixels are worked out one by one: drawing inside `clip` only gives them exactly.
        let bounds = clip ?? image.bounds
        let minX = max(bounds.minX, pixel((min(a.x, b.x) - radius - 1).rounded(.down)))
        let maxX = min(bounds.maxX, pixel((max(a.x, b.x) + radius + 1).rounded(.up)))
        let minY = max(bounds.minY, pixel((min(a.y, b.y) - radius - 1).rounded(.down)))
        let maxY = min(bounds.maxY, pixel((max(a.y, b.y) + radius + 1).rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return nil }
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let paint = (Double(color.r), Double(color.g), Double(color.b))
        let width = image.width
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            for py in minY...maxY {
                let y = Double(py) + 0.5
                for px in minX...maxX {
                    let x = Double(px) + 0.5
                    let t = lengthSquared > 0 ? min(1, max(0, ((x - a.x) * dx + (y - a.y) * dy) / lengthSquared)) : 0
                    let ex = x - (a.x + t * dx), ey = y - (a.y + t * dy)
                    let distance = (ex * ex + ey * ey).squareRoot() - radius
                    let coverage = min(1, max(0, 0.5 - distance))
                    guard coverage > 0 else { continue }
                    blend(buffer, (py * width + px) * 3, paint, coverage)
                    // The centre is inside (coverage at least ½): the mask's rule.
                    if distance <= 0 { pen.mark(py * width + px) }
                }
            }
        }
        return PixelRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// A wooden crate centred at image point `center`, turned by `angle` radians counter-clockwise
    /// on screen: dark frame, three planks in alternating shades, a diagonal brace.
    ///
    /// Each row visits only the span where the crate (grown by `reach` for the soft edge) can be,
    /// and steps its crate coordinates by constant increments along the row.
    /// - Parameters:
    ///   - fillsRuns: false shades every pixel in full (for tests: the result is the same).
    ///   - reach: how far beyond the sides, in pixels, pixel centres are visited (for tests: any
    ///     more than the default changes nothing).
    ///   - pen: marks the pixels whose centre is inside the crate.
    ///   - clip: draw only these pixels. They come out exactly as when the whole crate is drawn:
    ///     each row still steps its coordinates from the row's first pixel.
    /// - Returns: the pixels visited (nil if none), so that the renderer knows what it drew over.
    @discardableResult
    static func drawCrate(_ image: inout RGBImage, center: Vec2, angle: Double, style: CrateStyle, fillsRuns: Bool = true,
                          reach: Double = 0.5 + SolidRuns.margin, pen: MaskPen = .none, clip: PixelRect? = nil) -> PixelRect? {
        let bounds = clip ?? image.bounds
        let c = cos(angle), s = sin(angle)
        let hw = style.halfWidth, hh = style.halfHeight
        // A pixel is touched only if its centre lies within ½ of the sides in crate coordinates
        // (coverage > 0): inside the crate grown by `reach`, whose default margin covers the
        // rounding of the stepped coordinates.
        let extentY = abs(s) * (hw + reach) + abs(c) * (hh + reach)
        let minY = max(bounds.minY, pixel((center.y - extentY).rounded(.down)))
        let maxY = min(bounds.maxY, pixel((center.y + extentY).rounded(.up)))
        guard minY <= maxY else { return nil }
        let width = image.width
        var left = Int.max, right = Int.min, top = Int.max, bottom = Int.min
        // The style's numbers as local values: the compiler keeps them in registers instead of
        // reloading them after every pixel store.
        let geometry = CrateGeometry(style)
        let runs = SolidRuns(style: style, cos: c, sin: s)
        let frameBytes = style.frameBytes ?? (0, 0, 0), braceBytes = style.braceBytes ?? (0, 0, 0)
        style.solidColors.withUnsafeBufferPointer { solid in
            image.pixels.withUnsafeMutableBufferPointer { buffer in
                for py in minY...maxY {
                    let dy = Double(py) + 0.5 - center.y
                    // Crate coordinates along the row: u = c·dx − s·dy, v = −s·dx − c·dy. Solve
                    // |u| <= hw + reach and |v| <= hh + reach for dx to get the row's span.
                    var low = -Double.infinity, high = Double.infinity
                    Self.clip(&low, &high, slope: c, offset: -s * dy, limit: hw + reach)
                    Self.clip(&low, &high, slope: -s, offset: -c * dy, limit: hh + reach)
                    guard low <= high else { continue }
                    let minX = max(0, pixel((center.x + low - 0.5).rounded(.down)))
                    let maxX = min(width - 1, pixel((center.x + high - 0.5).rounded(.up)))
                    let firstX = max(minX, bounds.minX), lastX = min(maxX, bounds.maxX)
                    guard firstX <= lastX else { continue }
                    (left, right, top, bottom) = (min(left, firstX), max(right, lastX), min(top, py), max(bottom, py))
                    let dx0 = Double(minX) + 0.5 - center.x
                    // Pixels in a solid run (see `SolidRuns`) only take its colour; the rest are shaded.
                    let solidRuns = fillsRuns ? runs.row(dy: dy, centerX: center.x) : .none
                    // The coordinates step by constant increments, pixel by pixel through the runs
                    // too, so that every shaded pixel sees the same values whatever the runs, and
                    // from the row's first pixel even when the clip starts later.
                    var u = dx0 * c - dy * s
                    var v = -(dx0 * s + dy * c)
                    for _ in minX..<firstX { (u, v) = (u + c, v - s) }
                    let row = py * width
                    var pixel = buffer.baseAddress! + (row + firstX) * 3
                    var px = firstX
                    for k in 0..<SolidRuns.Row.count {
                        let (run, kind) = solidRuns.run(k)
                        let first = max(run.first, px), last = min(run.last, lastX)
                        guard first <= last else { continue }
                        while px < first {
                            if shade(pixel, u: u, v: v, geometry, solid: solid.baseAddress!) { pen.mark(row + px) }
                            (u, v, pixel, px) = (u + c, v - s, pixel + 3, px + 1)
                        }
                        // A run lies wholly inside the crate.
                        pen.mark(row: row, first, last)
                        switch kind {
                        case .plank:
                            while px <= last {
                                plank(pixel, v: v, geometry, solid: solid.baseAddress!)
                                (u, v, pixel, px) = (u + c, v - s, pixel + 3, px + 1)
                            }
                        case .frame, .brace:
                            let bytes = kind == .frame ? frameBytes : braceBytes
                            while px <= last {
                                (pixel[0], pixel[1], pixel[2]) = bytes
                                (u, v, pixel, px) = (u + c, v - s, pixel + 3, px + 1)
                            }
                        }
                    }
                    while px <= lastX {
                        if shade(pixel, u: u, v: v, geometry, solid: solid.baseAddress!) { pen.mark(row + px) }
                        (u, v, pixel, px) = (u + c, v - s, pixel + 3, px + 1)
                    }
                }
            }
        }
        return top <= bottom ? PixelRect(minX: left, minY: top, maxX: right, maxY: bottom) : nil
    }

    /// Narrows [low, high] to the dx where |slope·dx + offset| <= limit.
    @inline(__always)
    private static func clip(_ low: inout Double, _ high: inout Double, slope: Double, offset: Double, limit: Double) {
        if abs(slope) < 1e-12 {
            if abs(offset) > limit { low = 1; high = 0 }
            return
        }
        let a = (-limit - offset) / slope, b = (limit - offset) / slope
        low = max(low, min(a, b))
        high = min(high, max(a, b))
    }

    /// Colours a plank-run pixel (see `SolidRuns`) with its plank's colour: what `shade` gives
    /// it, without the tests.
    @inline(__always)
    private static func plank(_ pixel: UnsafeMutablePointer<UInt8>, v: Double, _ style: CrateGeometry, solid: UnsafePointer<UInt8>) {
        // As in `shade`.
        let height = v + style.halfHeight - style.border
        let plank = height < style.plankHeight ? 0 : height < 2 * style.plankHeight ? 1 : 2
        let colour = solid + CrateStyle.solidIndex(plank: plank, brace: false, frame: false)
        pixel[0] = colour[0]
        pixel[1] = colour[1]
        pixel[2] = colour[2]
    }

    /// Colours one pixel of a crate from its crate coordinates (u, v).
    /// - Returns: whether the pixel's centre is inside the crate (the mask's rule).
    @inline(__always)
    private static func shade(_ pixel: UnsafeMutablePointer<UInt8>, u: Double, v: Double, _ style: CrateGeometry,
                              solid: UnsafePointer<UInt8>) -> Bool {
        let outside = max(abs(u) - style.halfWidth, abs(v) - style.halfHeight)
        let coverage = min(1, max(0, 0.5 - outside))
        if coverage <= 0 { return false }
        let depth = -outside
        // Which plank: three bands of plankHeight above the bottom border.
        let height = v + style.halfHeight - style.border
        let plank = height < style.plankHeight ? 0 : height < 2 * style.plankHeight ? 1 : 2
        let brace = style.braceHalfWidth + 0.5 - abs(u * style.braceNormalX + v * style.braceNormalY)
        let frame = style.border + 0.5 - depth
        if coverage >= 1, brace <= 0 || brace >= 1, frame <= 0 || frame >= 1 {
            // Most pixels: fully inside the crate and fully on or off the brace and the frame. The
            // colour below then mixes with weights 0 or 1 only: `CrateStyle.solidColors` holds it.
            let colour = solid + CrateStyle.solidIndex(plank: plank, brace: brace > 0, frame: frame > 0)
            pixel[0] = colour[0]
            pixel[1] = colour[1]
            pixel[2] = colour[2]
            return true
        }
        var color = plank == 0 ? style.plank0 : plank == 1 ? style.plank1 : style.plank2
        if brace > 0 { color = mix(color, style.brace, min(1, brace)) }
        if frame > 0 { color = mix(color, style.frame, min(1, frame)) }
        if coverage >= 1 {
            pixel[0] = truncatedByte(color.0 + 0.5)
            pixel[1] = truncatedByte(color.1 + 0.5)
            pixel[2] = truncatedByte(color.2 + 0.5)
        } else {
            blend(pixel, color, coverage)
        }
        return outside <= 0
    }

    /// The integer part of `x`, for x in [0, 256): what `UInt8(x)` gives, without its trap checks
    /// (a third of the cost of a blended pixel). Adding 2^52 rounds x to the nearest integer, which
    /// lands in the sum's low significand bits; one less when that rounded up.
    @inline(__always)
    static func truncatedByte(_ x: Double) -> UInt8 {
        let shifted = x + 0x1p52
        let rounded = shifted - 0x1p52
        return UInt8(truncatingIfNeeded: shifted.bitPattern) &- (rounded > x ? 1 : 0)
    }

    @inline(__always)
    static func mix(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ t: Double) -> (Double, Double, Double) {
        (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    @inline(__always)
    static func blend(_ buffer: UnsafeMutableBufferPointer<UInt8>, _ index: Int, _ color: (Double, Double, Double), _ coverage: Double) {
        blend(buffer.baseAddress! + index, color, coverage)
    }

    @inline(__always)
    static func blend(_ pixel: UnsafeMutablePointer<UInt8>, _ color: (Double, Double, Double), _ coverage: Double) {
        // Colours stay within 0...255, so every value converted lies well inside [0, 256).
        let r = Double(pixel[0]), g = Double(pixel[1]), b = Double(pixel[2])
        pixel[0] = truncatedByte(r + (color.0 - r) * coverage + 0.5)
        pixel[1] = truncatedByte(g + (color.1 - g) * coverage + 0.5)
        pixel[2] = truncatedByte(b + (color.2 - b) * coverage + 0.5)
    }
}
