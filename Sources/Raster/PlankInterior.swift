/// Where along each image row a crate's pixels lie well inside its planks: fully covered, off the
/// frame and off the brace. There `Rasterizer.shade` would only pick a plank's ready-made colour,
/// so the rasterizer fills those runs directly.
///
/// The runs are solved from the exact crate coordinates with a margin (`margin`, in pixels) far
/// larger than the rounding the rasterizer's stepped coordinates gather along a row, so every pixel
/// in a run would take `shade`'s solid branch anyway and frames stay bit-identical. Pixels near a
/// threshold are left to `shade`. Worked out once per crate; each row then costs a few operations.
struct PlankInterior {
    static let margin = 1e-3

    /// The dx (pixel centre minus crate centre, along a row) where |slope·dx + k·dy| <= limit: an
    /// interval centred on `centre·dy` of half-width `radius`, or, for a slope too small to solve
    /// with, every dx or none depending on the row.
    private struct Band {
        let slope: Double
        let k: Double
        let limit: Double
        let centre: Double
        let radius: Double

        init(slope: Double, k: Double, limit: Double) {
            (self.slope, self.k, self.limit) = (slope, k, limit)
            let solvable = abs(slope) >= 1e-9
            centre = solvable ? -k / slope : 0
            radius = solvable ? limit / abs(slope) : 0
        }

        /// Nil when empty. A flat band counts as all or nothing, `margin / 2` being more than the
        /// slope could add across an image.
        @inline(__always)
        func range(dy: Double) -> (low: Double, high: Double)? {
            guard limit >= 0 else { return nil }
            if abs(slope) < 1e-9 {
                return abs(k * dy) <= limit - PlankInterior.margin / 2 ? (-Double.infinity, Double.infinity) : nil
            }
            let middle = centre * dy
            return (middle - radius, middle + radius)
        }
    }

    /// Off the frame: |u| and |v| within the half sides less border and ½ (less the margin).
    private let across: Band
    private let along: Band
    /// The brace's band, grown by ½ and the margin: pixels there are left to `shade`.
    private let brace: Band

    /// - Parameters:
    ///   - style: the crate's geometry.
    ///   - cos: cosine of the crate's angle, as `Rasterizer.drawCrate` steps it.
    ///   - sin: sine of the crate's angle.
    init(style: CrateStyle, cos c: Double, sin s: Double) {
        // As in `Rasterizer.drawCrate`: u = c·dx − s·dy, v = −s·dx − c·dy (so |v| = |s·dx + c·dy|),
        // and the brace distance w = u·nx + v·ny = (c·nx − s·ny)·dx − (s·nx + c·ny)·dy.
        let inset = style.border + 0.5 + Self.margin
        across = Band(slope: c, k: -s, limit: style.halfWidth - inset)
        along = Band(slope: s, k: c, limit: style.halfHeight - inset)
        let nx = style.braceNormalX, ny = style.braceNormalY
        brace = Band(slope: c * nx - s * ny, k: -(s * nx + c * ny), limit: style.braceHalfWidth + 0.5 + Self.margin)
    }

    /// A row's interior columns and the columns the brace may reach among them.
    struct Row {
        let first: Int
        let last: Int
        let braceFirst: Int
        let braceLast: Int
        static let none = Row(first: 1, last: 0, braceFirst: 1, braceLast: 0)

        /// The run of columns from `px` (at most `end`) that are all interior or all not.
        @inline(__always)
        func run(from px: Int, to end: Int) -> (interior: Bool, last: Int) {
            if px < first { return (false, min(end, first - 1)) }
            if px > last { return (false, end) }
            let braced = braceFirst <= braceLast
            if braced, px >= braceFirst, px <= braceLast { return (false, min(end, braceLast)) }
            if braced, px < braceFirst { return (true, min(end, last, braceFirst - 1)) }
            return (true, min(end, last))
        }
    }

    /// The interior columns of the row whose pixel centres lie `dy` below the crate centre at
    /// image x `centerX`.
    @inline(__always)
    func row(dy: Double, centerX: Double) -> Row {
        guard let a = across.range(dy: dy), let b = along.range(dy: dy) else { return .none }
        // Pixel px has dx = px + ½ − centerX: whole columns inside [low, high] (NaN: none) ...
        let low = max(a.low, b.low) + centerX - 0.5, high = min(a.high, b.high) + centerX - 0.5
        guard low <= high else { return .none }
        // ... less every column the brace's band touches.
        guard let band = brace.range(dy: dy) else { return Row(first: Self.columnAtOrAfter(low), last: Self.columnAtOrBefore(high), braceFirst: 1, braceLast: 0) }
        return Row(first: Self.columnAtOrAfter(low), last: Self.columnAtOrBefore(high),
                   braceFirst: Self.columnAtOrBefore(band.low + centerX - 0.5), braceLast: Self.columnAtOrAfter(band.high + centerX - 0.5))
    }

    // Column bounds without a rounding call (x86-64's baseline has no rounding instruction):
    // possibly one column further out than ceil or floor, which only moves a pixel to `shade`.
    // Columns below 0 or from 2^40 are never drawn, so results are clamped there.

    /// A column at or after ceil(x).
    @inline(__always)
    private static func columnAtOrAfter(_ x: Double) -> Int {
        x > 0 ? (x < 0x1p40 ? Int(x) + 1 : 1 << 40) : 0
    }

    /// A column at or before floor(x) (−1 when that is below 0; NaN too).
    @inline(__always)
    private static func columnAtOrBefore(_ x: Double) -> Int {
        x >= 0 ? (x < 0x1p40 ? Int(x) : 1 << 40) : -1
    }
}
