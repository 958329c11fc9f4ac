internal import CChipmunk
import SceneModel

// Chipmunk's convex decomposition for concave outlines (autogeometry.h). Every outline was checked
// by `OutlineDecomposer` first: nothing unchecked reaches the C call.
enum OutlineDecomposition {
    /// The convex pieces of the counter-clockwise polygon `vertices`, as `cpPolylineConvexDecomposition`
    /// gives them with `tolerance`: in the order it pushes them, each counter-clockwise from its
    /// point of least x (least y among equals), without repeating the first point at the end.
    static func pieces(_ vertices: [Vec2], tolerance: Double) -> [[Vec2]] {
        let points = vertices.map { cpv($0.x, $0.y) }
        let set = points.withUnsafeBufferPointer { CChipmunk_OutlineDecompose($0.baseAddress, Int32($0.count), tolerance) }
        guard let set else { preconditionFailure("out of memory decomposing an outline") }
        defer { cpPolylineSetFree(set, 1) }
        let lines = set.pointee
        return (0..<Int(lines.count)).map { index in
            let line = lines.lines[index]!
            let verts = CChipmunk_PolylineVerts(line)!
            // Closed: the last point repeats the first.
            return (0..<Int(line.pointee.count) - 1).map { Vec2(verts[$0].x, verts[$0].y) }
        }
    }
}
