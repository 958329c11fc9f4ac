internal import CBaseline
import SceneModel

/// Compound bodies' parts as `cbaseline.h` takes them (`cbaseline_part`), with their polygons'
/// vertices: owned here, freed with it, so the C structs that point into them stay valid as long
/// as it lives.
final class BaselineParts {
    private var allocations: [UnsafeMutableRawPointer] = []

    /// A compound body's parts, copied into storage this object owns; nil for a simple shape.
    func store(_ shape: BodyShape) -> (UnsafePointer<cbaseline_part>, Int32)? {
        guard case let .compound(parts) = shape else { return nil }
        let buffer = UnsafeMutableBufferPointer<cbaseline_part>.allocate(capacity: max(1, parts.count))
        allocations.append(UnsafeMutableRawPointer(buffer.baseAddress!))
        for (index, part) in parts.enumerated() {
            var c = cbaseline_part()
            switch part.shape {
            case let .box(size):
                c.kind = Int32(CBASELINE_BOX)
                (c.width, c.height) = (size.x, size.y)
            case let .circle(radius):
                c.kind = Int32(CBASELINE_CIRCLE)
                c.radius = radius
            case let .polygon(vertices, radius):
                c.kind = Int32(CBASELINE_POLYGON)
                let flat = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(1, 2 * vertices.count))
                allocations.append(UnsafeMutableRawPointer(flat.baseAddress!))
                for (i, v) in vertices.enumerated() { (flat[2 * i], flat[2 * i + 1]) = (v.x, v.y) }
                (c.vertices, c.vertex_count, c.radius) = (UnsafePointer(flat.baseAddress!), Int32(vertices.count), radius)
            case let .segment(a, b, radius):
                c.kind = Int32(CBASELINE_SEGMENT)
                (c.ax, c.ay, c.bx, c.by, c.radius) = (a.x, a.y, b.x, b.y, radius)
            case .compound:
                preconditionFailure("a part cannot have parts (BodyPart.problems)")
            }
            (c.offset_x, c.offset_y, c.angle, c.mass) = (part.offset.x, part.offset.y, part.angle, part.mass)
            (c.friction, c.elasticity) = (part.friction, part.elasticity)
            c.collision = cbaseline_collision(group: part.collision.filter.group, categories: part.collision.filter.categories,
                                              mask: part.collision.filter.mask, sensor: part.collision.sensor ? 1 : 0)
            (buffer.baseAddress! + index).initialize(to: c)
        }
        return (UnsafePointer(buffer.baseAddress!), Int32(parts.count))
    }

    deinit { for allocation in allocations { allocation.deallocate() } }
}
