import SceneModel

/// How far a drawn crate may move before any of its pixels could change: what lets a frame keep a
/// crate that moved a millionth of a pixel instead of drawing it again, while staying exactly the
/// frame a full redraw gives.
///
/// A pixel's colour is a function of its crate coordinates (u, v) that is constant, or rounds to
/// the same bytes, except near a few thresholds: a weight (coverage, brace, frame) crossing 0 or
/// 1, a plank boundary, a byte's rounding boundary. Each weight and the plank height change by at
/// most d when (u, v) moves by d; a byte's value before rounding by at most 255·d per weight
/// between 0 and 1. `Rasterizer.drawCrate` keeps the least distance to any of these over the
/// pixels it draws (the margin); moving the crate by less than that, with the same pixels under
/// it, gives the same bytes. Moving it by (Δcentre, Δangle) moves every (u, v) within `reach` of
/// the centre by at most |Δcentre| + |Δangle|·`reach` (`motion`).
enum CrateStillness {
    /// Pixels drawn from solid runs, and pixels beyond the sides that are not visited, lie at least
    /// `SolidRuns.margin` from their thresholds; half of it leaves room for the stepping's rounding.
    static let runMargin = SolidRuns.margin / 2

    /// Added to a motion for the rounding of coordinates and colours worked out again (about
    /// 1e-12 pixel at the sizes drawn).
    static let slack = 1e-9

    /// Distance of a weight from 0 and 1, where its use changes.
    @inline(__always)
    static func weightMargin(_ weight: Double) -> Double {
        min(abs(weight), abs(weight - 1))
    }

    /// Distance of a plank height from the two plank boundaries.
    @inline(__always)
    static func plankMargin(height: Double, _ style: CrateGeometry) -> Double {
        min(abs(height - style.plankHeight), abs(height - 2 * style.plankHeight))
    }

    /// How far (u, v) may move before one of three values rounded down to bytes (each in [0, 256))
    /// could round otherwise, when `weights` weights between 0 and 1 moved them.
    @inline(__always)
    static func roundingMargin(_ x: (Double, Double, Double), weights: Int) -> Double {
        @inline(__always) func distance(_ x: Double) -> Double {
            let fraction = x - Double(Rasterizer.truncatedByte(x))
            return min(fraction, 1 - fraction)
        }
        let nearest = min(distance(x.0), min(distance(x.1), distance(x.2)))
        return (nearest - slack) / (255 * Double(max(1, weights)))
    }

    /// A bound on how far the crate coordinates of any pixel within `reach` of the centre move
    /// between two placements of a crate (image pixels, radians).
    static func motion(from a: (center: Vec2, angle: Double), to b: (center: Vec2, angle: Double), reach: Double) -> Double {
        let dx = b.center.x - a.center.x, dy = b.center.y - a.center.y
        return (dx * dx + dy * dy).squareRoot() + abs(b.angle - a.angle) * reach + slack
    }
}
