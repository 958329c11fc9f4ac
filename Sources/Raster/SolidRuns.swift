/// Where along each image row a crate's pixels take one of its style's ready-made colours, so that
/// the rasterizer fills those runs without `Rasterizer.shade`'s per-pixel tests:
/// - frame: fully covered and deep inside the frame's band: `CrateStyle.frameBytes`;
/// - planks: fully covered, off the frame and off the brace: the plank's colour by height;
/// - brace: fully covered, off the frame and deep inside the brace: `CrateStyle.braceBytes`.
///
/// The runs are solved from the exact crate coordinates with a margin (`margin`, in pixels) far
/// larger than the rounding the rasterizer's stepped coordinates gather along a row, so every pixel
/// in a run would get that colour from `shade` anyway and frames stay bit-identical. Pixels near a
/// threshold (the soft edges) are left to `shade`. Worked out once per crate; each row then costs a
/// few operations.
struct SolidRuns {
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
                return abs(k * dy) <= limit - SolidRuns.margin / 2 ? (-Double.infinity, Double.infinity) : nil
            }
            let middle = centre * dy
            return (middle - radius, middle + radius)
        }
    }

    /// A rectangle of crate coordinates, |u| <= half width − inset and |v| <= half height − inset,
    /// as two bands.
    private struct Box {
        let across: Band
        let along: Band

        init(_ style: CrateStyle, cos c: Double, sin s: Double, inset: Double) {
            // As in `Rasterizer.drawCrate`: u = c·dx − s·dy, v = −s·dx − c·dy (so |v| = |s·dx + c·dy|).
            across = Band(slope: c, k: -s, limit: style.halfWidth - inset)
            along = Band(slope: s, k: c, limit: style.halfHeight - inset)
        }

        @inline(__always)
        func range(dy: Double) -> (low: Double, high: Double)? {
            guard let a = across.range(dy: dy), let b = along.range(dy: dy) else { return nil }
            let low = max(a.low, b.low), high = min(a.high, b.high)
            return low <= high ? (low, high) : nil
        }
    }

    /// Fully covered: depth inside the outline at least ½ (and the margin).
    private let covered: Box
    /// Where the frame is not solid: depth less than the border − ½ (grown by the margin).
    private let insideFrame: Box
    /// Off the frame: depth at least the border + ½ (and the margin).
    private let interior: Box
    /// The brace's band grown by ½ and the margin: planks stop there.
    private let braceReach: Band
    /// The brace's band shrunk by ½ and the margin: solid brace.
    private let braceCore: Band
    private let fillsFrame: Bool
    private let fillsBrace: Bool

    /// - Parameters:
    ///   - style: the crate's geometry and colours.
    ///   - cos: cosine of the crate's angle, as `Rasterizer.drawCrate` steps it.
    ///   - sin: sine of the crate's angle.
    init(style: CrateStyle, cos c: Double, sin s: Double) {
        let m = Self.margin
        covered = Box(style, cos: c, sin: s, inset: 0.5 + m)
        insideFrame = Box(style, cos: c, sin: s, inset: style.border - 0.5 - m)
        interior = Box(style, cos: c, sin: s, inset: style.border + 0.5 + m)
        // The brace distance w = u·nx + v·ny = (c·nx − s·ny)·dx − (s·nx + c·ny)·dy.
        let nx = style.braceNormalX, ny = style.braceNormalY
        braceReach = Band(slope: c * nx - s * ny, k: -(s * nx + c * ny), limit: style.braceHalfWidth + 0.5 + m)
        braceCore = Band(slope: c * nx - s * ny, k: -(s * nx + c * ny), limit: style.braceHalfWidth - 0.5 - m)
        // A frame thinner than a pixel and a bit has no solid part.
        fillsFrame = style.frameBytes != nil && style.border >= 1 + 4 * m
        fillsBrace = style.braceBytes != nil
    }

    enum Kind { case frame, plank, brace }

    /// Columns `first...last` (none when first > last).
    struct Run {
        var first = 1
        var last = 0
    }

    /// A row's runs, in column order (any may be empty); the columns between them are shaded.
    struct Row {
        var frameLeft = Run()
        var plankLeft = Run()
        var brace = Run()
        var plankRight = Run()
        var frameRight = Run()
        static let none = Row()
        static let count = 5

        @inline(__always)
        func run(_ k: Int) -> (run: Run, kind: Kind) {
            switch k {
            case 0: (frameLeft, .frame)
            case 1: (plankLeft, .plank)
            case 2: (brace, .brace)
            case 3: (plankRight, .plank)
            default: (frameRight, .frame)
            }
        }
    }

    /// The runs of the row whose pixel centres lie `dy` below the crate centre at image x `centerX`.
    @inline(__always)
    func row(dy: Double, centerX: Double) -> Row {
        var row = Row()
        guard let covered = covered.range(dy: dy) else { return row }
        // Pixel px has dx = px + ½ − centerX: the whole columns inside [low, high].
        @inline(__always) func columns(_ low: Double, _ high: Double) -> Run {
            guard low <= high else { return Run() }
            return Run(first: Self.columnAtOrAfter(low + centerX - 0.5), last: Self.columnAtOrBefore(high + centerX - 0.5))
        }
        if fillsFrame {
            if let inside = insideFrame.range(dy: dy) {
                row.frameLeft = columns(covered.low, min(covered.high, inside.low))
                row.frameRight = columns(max(covered.low, inside.high), covered.high)
            } else {
                row.frameLeft = columns(covered.low, covered.high)
            }
        }
        guard let interior = interior.range(dy: dy) else { return row }
        guard let reach = braceReach.range(dy: dy) else {
            row.plankLeft = columns(interior.low, interior.high)
            return row
        }
        row.plankLeft = columns(interior.low, min(interior.high, reach.low))
        row.plankRight = columns(max(interior.low, reach.high), interior.high)
        if fillsBrace, let core = braceCore.range(dy: dy) {
            row.brace = columns(max(interior.low, core.low), min(interior.high, core.high))
        }
        return row
    }

    // Column bounds without a rounding call (x86-64's baseline has no rounding instruction):
    // possibly one column further in than ceil or floor, which only moves a pixel to `shade`.
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
