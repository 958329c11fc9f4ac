internal import CChipmunk
import SceneModel

// Chipmunk's autogeometry for terrain: the marching and joining run in C (autogeometry.h), the
// simplification here, one polyline at a time. Every value was checked by TerrainTracer first.
enum TerrainMarch {
    /// The outlines of `samples` at `threshold`, each simplified by `cpPolylineSimplifyCurves`
    /// with `tolerance`, in the order Chipmunk's polyline set holds them.
    static func trace(_ samples: TerrainSamples, threshold: Double, tolerance: Double) -> TerrainTrace {
        // solidity / 255 once per value: the same doubles on every CPU (IEEE division).
        let levels = (0...255).map { Double($0) / 255 }
        return samples.solidity.withUnsafeBufferPointer { solidity in
            levels.withUnsafeBufferPointer { levels in
                var terrain = CChipmunk_Terrain(
                    solidity: solidity.baseAddress, width: samples.width, height: samples.height, levels: levels.baseAddress,
                    segments: 0, maxSegments: TerrainLimits.maxContourSegments, maxOutlines: Int32(TerrainLimits.maxOutlines),
                    stopped: 0, set: nil)
                CChipmunk_TerrainMarch(&terrain, threshold)
                defer { cpPolylineSetFree(terrain.set, 1) }
                switch terrain.stopped {
                case 1: return .tooManySegments
                case 2: return .tooManyOutlines
                default: break
                }
                let set = terrain.set!.pointee
                var polylines: [[Vec2]] = []
                polylines.reserveCapacity(Int(set.count))
                for index in 0..<Int(set.count) {
                    let simplified = cpPolylineSimplifyCurves(set.lines[index], tolerance)!
                    defer { cpPolylineFree(simplified) }
                    let verts = CChipmunk_PolylineVerts(simplified)!
                    polylines.append((0..<Int(simplified.pointee.count)).map { Vec2(verts[$0].x, verts[$0].y) })
                }
                return .polylines(polylines)
            }
        }
    }
}
