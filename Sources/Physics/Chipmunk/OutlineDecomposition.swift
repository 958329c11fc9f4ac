internal import CChipmunk
import SceneModel

// Chipmunk's convex decomposition for concave outlines (autogeometry.h). Every outline was checked
// by `OutlineDecomposer` first, and is given to Chipmunk only once its dry run has ended: nothing
// unchecked reaches the C call.
enum OutlineDecomposition {
    /// Why Chipmunk's decomposition of an outline would not end well (`CChipmunk_OutlineDryRun`).
    enum Stop: Error, Equatable {
        /// It recurses deeper than `OutlineLimits.cutDepth` cuts.
        case tooDeep
        /// A cut from the notch at this vertex has length 0: Chipmunk would cut the piece into itself forever.
        case zeroLengthCut(Vec2)
        /// No side is met by the cut from the notch at this vertex: Chipmunk would keep the piece's hull.
        case noCut(Vec2)
        /// More than `maxPieces` pieces.
        case tooManyPieces
    }

    /// The convex pieces of the counter-clockwise polygon `vertices`, as `cpPolylineConvexDecomposition`
    /// gives them with `tolerance`: in the order it pushes them, each counter-clockwise from its
    /// point of least x (least y among equals), without repeating the first point at the end; or
    /// why its dry run stopped, in which case Chipmunk is not called.
    static func pieces(_ vertices: [Vec2], tolerance: Double, maxPieces: Int) -> Result<[[Vec2]], Stop> {
        let points = vertices.map { cpv($0.x, $0.y) }
        var run = CChipmunk_OutlineRun(pieces: 0, maxPieces: Int32(clamping: maxPieces), depth: 0, maxDepth: Int32(OutlineLimits.cutDepth),
                                       stopped: 0, where: cpvzero)
        points.withUnsafeBufferPointer { CChipmunk_OutlineDryRun(&run, $0.baseAddress, Int32($0.count), tolerance) }
        switch run.stopped {
        case 0: break
        case 1: return .failure(.tooDeep)
        case 2: return .failure(.zeroLengthCut(Vec2(run.where.x, run.where.y)))
        case 3: return .failure(.noCut(Vec2(run.where.x, run.where.y)))
        default: return .failure(.tooManyPieces)
        }
        let set = points.withUnsafeBufferPointer { CChipmunk_OutlineDecompose($0.baseAddress, Int32($0.count), tolerance) }
        guard let set else { preconditionFailure("out of memory decomposing an outline") }
        defer { cpPolylineSetFree(set, 1) }
        let lines = set.pointee
        precondition(Int(lines.count) == Int(run.pieces), "Chipmunk's decomposition made \(lines.count) pieces, its dry run \(run.pieces)")
        return .success((0..<Int(lines.count)).map { index in
            let line = lines.lines[index]!
            let verts = CChipmunk_PolylineVerts(line)!
            // Closed: the last point repeats the first.
            return (0..<Int(line.pointee.count) - 1).map { Vec2(verts[$0].x, verts[$0].y) }
        })
    }
}
