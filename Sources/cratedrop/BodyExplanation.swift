import Physics
import SceneModel

/// `validate --explain`'s lines: each body the scene builds, its parts as Chipmunk got them (an
/// outline's convex pieces among them) and the mass, centre of gravity (in the body's frame) and
/// moment Chipmunk accumulated; then each wall written as an outline, its convex pieces. Numbers
/// are written as the shortest decimals that read back to the same doubles.
enum BodyExplanation {
    static func lines(_ scene: Scene, world: World) -> [String] {
        var lines: [String] = []
        for (index, makeup) in world.makeups().enumerated() {
            let name = index < scene.crates.count ? "crates[\(index)]" : "generator[\(index - scene.crates.count)]"
            let origins = index < scene.crates.count ? scene.partOrigins[index] : nil
            let properties = "mass \(number(makeup.mass)), centre of gravity \(point(makeup.centerOfGravity)), moment \(number(makeup.moment))"
            guard case let .compound(parts) = makeup.shape else {
                lines.append("  \(name) (body \(makeup.id)): \(shape(makeup.shape)), \(properties)")
                continue
            }
            lines.append("  \(name) (body \(makeup.id)): \(parts.count) part\(parts.count == 1 ? "" : "s"), \(properties)")
            for (k, part) in parts.enumerated() {
                var text = "    \(origins?.name(k) ?? "shapes[\(k)]"): \(shape(part.shape))"
                if part.offset != .zero { text += ", offset \(point(part.offset))" }
                if part.angle != 0 { text += ", angle \(number(part.angle))" }
                lines.append(text + ", mass \(number(part.mass))")
            }
        }
        // Walls written as outlines: their convex pieces, numbered as contact events and queries
        // number walls (the bounds' four first).
        let boundsCount = scene.allWalls().count - scene.walls.count
        for outline in scene.wallOutlines {
            let first = boundsCount + outline.walls.lowerBound, last = boundsCount + outline.walls.upperBound - 1
            let pieces = outline.walls.count == 1 ? "1 convex piece, wall \(first)" : "\(outline.walls.count) convex pieces, walls \(first)-\(last)"
            lines.append("  walls[\(outline.entry)]: outline of \(pieces)")
            for (k, index) in outline.walls.enumerated() {
                guard case let .polygon(vertices) = scene.walls[index].geometry else { continue }
                lines.append("    outline part \(k): polygon [\(vertices.map { point($0) }.joined(separator: ", "))]")
            }
        }
        return lines
    }

    private static func shape(_ shape: BodyShape) -> String {
        switch shape {
        case let .box(size): "box \(point(size))"
        case let .circle(radius): "circle of radius \(number(radius))"
        case let .polygon(vertices, radius):
            "polygon [\(vertices.map { point($0) }.joined(separator: ", "))]" + (radius == 0 ? "" : " rounded by \(number(radius))")
        case let .segment(a, b, radius): "segment \(point(a)) to \(point(b)) of radius \(number(radius))"
        case let .compound(parts): "\(parts.count) parts"
        }
    }

    private static func point(_ p: Vec2) -> String { "[\(number(p.x)), \(number(p.y))]" }

    private static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
