import SceneModel

/// What tracing a picture's terrain found.
public enum TerrainTrace: Sendable, Equatable {
    /// The simplified outlines, in picture coordinates (pixel (i, j), j from the bottom row, at
    /// (i, j)), in Chipmunk's order: each a polyline of at least two points; a closed one ends
    /// where it starts.
    case polylines([[Vec2]])
    /// The marching emitted more than `TerrainLimits.maxContourSegments` segments.
    case tooManySegments
    /// Joining held more than `TerrainLimits.maxOutlines` polylines at once.
    case tooManyOutlines
}

/// Terrain from a picture with Chipmunk's autogeometry, as pymunk's `autogeometry` wraps it:
/// marching squares (`cpMarchSoft`) over the picture's solidity with one empty sample around it,
/// so every outline closes; the segments joined into polylines (`cpPolylineSetCollectSegment`),
/// each simplified by Douglas–Peucker (`cpPolylineSimplifyCurves`). Only +, −, ×, ÷, `sqrt` and
/// comparisons touch the coordinates, in an order Chipmunk fixes, so the same picture gives the
/// same outlines on every CPU whose Chipmunk is built without fused multiply-add (the portable
/// backend's `-ffp-contract=off`).
public enum TerrainTracer {
    /// Traces `samples` along `threshold`.
    /// - Parameters:
    ///   - samples: the picture's solidity, row 0 at the bottom.
    ///   - threshold: the solidity (0...1, as `solidity / 255`) the outlines follow; within
    ///     `TerrainLimits.threshold`, not 0 or 1.
    ///   - tolerance: how far the simplified outlines may stray, in picture pixels, within `TerrainLimits.tolerance`.
    /// - Returns: the outlines, or which limit tracing passed.
    public static func trace(_ samples: TerrainSamples, threshold: Double, tolerance: Double) -> TerrainTrace {
        precondition(threshold > TerrainLimits.threshold.lowerBound && threshold < TerrainLimits.threshold.upperBound,
                     "terrain threshold \(threshold) out of range")
        precondition(TerrainLimits.tolerance.contains(tolerance), "terrain tolerance \(tolerance) out of range")
        return TerrainMarch.trace(samples, threshold: threshold, tolerance: tolerance)
    }
}
