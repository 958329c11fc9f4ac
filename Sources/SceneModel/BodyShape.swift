#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif

/// The collision shape of a dynamic body, in the body's own frame (its origin is the body's
/// position and centre of mass). Units: pixels.
///
/// The seam for every question about a shape: a new kind adds a case here, and each concern
/// switches over this enum once (here: geometry, fingerprint, ranges and warnings; `Chipmunk.swift`: construction and moment; `FrameRenderer`: drawing; `BaselineScene`:
/// the C harnesses' description), so the compiler lists every Swift site. Overlap tests need
/// nothing: they work on `outline`, which every shape has. The files, C and JavaScript included:
/// docs/architecture.md, "Adding a body shape".
public enum BodyShape: Sendable, Hashable {
    /// An axis-aligned rectangle in the body frame: `size` is its width and height.
    case box(size: Vec2)
    /// A disc of `radius` around the centre of mass.
    case circle(radius: Double)
    /// A convex polygon, its vertices in order (either way round), rounded by `radius` (0: sharp
    /// corners). Chipmunk builds the convex hull of the points (`cpPolyShapeNew`), which for a
    /// valid polygon is the polygon itself.
    case polygon(vertices: [Vec2], radius: Double)
    /// A segment from `a` to `b` thickened by `radius` (a capsule): a plank or a stick.
    case segment(a: Vec2, b: Vec2, radius: Double)
    /// A body of several parts (`shapes` in scene files), each a simple shape placed in the body's
    /// frame with its own mass (`BodyPart`), in the order Chipmunk gets them.
    case compound(parts: [BodyPart])

    /// The shape kinds, by the names scene files and traces write (`compound`: a body written
    /// with `shapes`, never a `shape` name).
    public enum Kind: String, Sendable, CaseIterable {
        case box, circle, polygon, segment, compound
    }

    public var kind: Kind {
        switch self {
        case .box: .box
        case .circle: .circle
        case .polygon: .polygon
        case .segment: .segment
        case .compound: .compound
        }
    }

    /// The shape as a convex core (points in the body frame, in order) grown by a radius: what
    /// the overlap tests and generic drawing work on.
    public var outline: ConvexOutline {
        switch self {
        case let .box(size):
            let w = size.x / 2, h = size.y / 2
            return ConvexOutline(points: [Vec2(-w, -h), Vec2(w, -h), Vec2(w, h), Vec2(-w, h)], radius: 0)
        case let .circle(radius): return ConvexOutline(points: [.zero], radius: radius)
        case let .polygon(vertices, radius): return ConvexOutline(points: vertices, radius: radius)
        case let .segment(a, b, radius): return ConvexOutline(points: [a, b], radius: radius)
        case .compound:
            // One convex piece cannot be the body: the rectangle around its parts stands for it
            // where one outline is all a reader takes (the live page); overlap tests and frames
            // use `outlines`.
            let extent = halfExtents(angle: 0)
            return ConvexOutline(points: [Vec2(-extent.x, -extent.y), Vec2(extent.x, -extent.y), extent, Vec2(-extent.x, extent.y)],
                                 radius: 0)
        }
    }

    /// Width and height of the smallest body-frame rectangle around the shape centred on the
    /// body's origin (a box's size; twice the farthest reach of other shapes along each axis).
    public var boundingSize: Vec2 {
        switch self {
        case let .box(size): size
        case let .circle(radius): Vec2(2 * radius, 2 * radius)
        case .polygon, .segment, .compound: halfExtents(angle: 0) * 2
        }
    }

    /// How far across the shape can reach at any angle, for the spatial hash's cell check: a box's
    /// larger side times √2 (as the check always took it), a circle's diameter, twice the farthest
    /// corner of other shapes.
    public var reach: Double {
        switch self {
        case let .box(size): max(size.x, size.y) * 2.0.squareRoot()
        case let .circle(radius): 2 * radius
        case .polygon, .segment: 2 * (outline.points.map { $0.length }.max() ?? 0) + 2 * outline.radius
        case .compound: 2 * (outlines.map { ($0.points.map { $0.length }.max() ?? 0) + $0.radius }.max() ?? 0)
        }
    }

    /// Half the width and height of the smallest world-axis rectangle, centred on the body's
    /// position, around the shape turned by `angle` (radians): its bounding box's half extents.
    public func halfExtents(angle: Double) -> Vec2 {
        switch self {
        case let .box(size):
            let c = abs(cos(angle)), s = abs(sin(angle))
            return Vec2(c * size.x / 2 + s * size.y / 2, s * size.x / 2 + c * size.y / 2)
        case let .circle(radius):
            return Vec2(radius, radius)
        case .polygon, .segment:
            let outline = outline, c = cos(angle), s = sin(angle)
            var reach = Vec2.zero
            for p in outline.points {
                reach.x = max(reach.x, abs(p.x * c - p.y * s))
                reach.y = max(reach.y, abs(p.x * s + p.y * c))
            }
            return Vec2(reach.x + outline.radius, reach.y + outline.radius)
        case .compound:
            let c = cos(angle), s = sin(angle)
            var reach = Vec2.zero
            for outline in outlines {
                for p in outline.points {
                    reach.x = max(reach.x, abs(p.x * c - p.y * s) + outline.radius)
                    reach.y = max(reach.y, abs(p.x * s + p.y * c) + outline.radius)
                }
            }
            return reach
        }
    }

    /// The values a world's fingerprint hashes for this shape. Boxes and circles keep the values
    /// they always had (kind 0 or 1, bounding width and height), so states saved before the new
    /// kinds still match; the new kinds start with `ShapeFingerprint.marker`, a NaN that no valid
    /// value can be, so no two different shapes hash alike.
    public var fingerprintValues: [Double] {
        switch self {
        case let .box(size): [0, size.x, size.y]
        case let .circle(radius): [1, 2 * radius, 2 * radius]
        case let .polygon(vertices, radius):
            [ShapeFingerprint.marker, 2, Double(vertices.count)] + vertices.flatMap { [$0.x, $0.y] } + [radius]
        case let .segment(a, b, radius): [ShapeFingerprint.marker, 3, a.x, a.y, b.x, b.y, radius]
        case let .compound(parts): [ShapeFingerprint.marker, 4, Double(parts.count)] + parts.flatMap { $0.fingerprintValues }
        }
    }
}

extension BodyShape {
    // MARK: Checks

    /// Problems with the shape's own values, named by the scene file's keys (`size`, `radius`,
    /// `vertices[2]`, `a`): what must hold before any of it reaches Chipmunk.
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        switch self {
        case let .box(size): list.check("size", size, in: Limits.size)
        case let .circle(radius): list.check("radius", radius, in: Limits.circleRadius)
        case let .polygon(vertices, radius):
            list.check("radius", radius, in: Limits.roundingRadius)
            list.add(ConvexPolygonCheck.problems(vertices, field: "vertices", magnitude: Limits.size.upperBound))
        case let .segment(a, b, radius):
            list.check("a", a, magnitude: Limits.size.upperBound)
            list.check("b", b, magnitude: Limits.size.upperBound)
            list.check("radius", radius, in: Limits.roundingRadius)
            if a.isFinite, b.isFinite, (b - a).length < Limits.size.lowerBound {
                list.add("b", "a segment must be at least \(show(Limits.size.lowerBound)) px long, but a and b are "
                    + "\(show((b - a).length)) px apart")
            }
        case let .compound(parts): list.add(Self.compoundProblems(parts))
        }
        return list.problems
    }

    /// What is allowed but likely not meant: a polygon whose centroid is far from the body's
    /// position, which is its centre of mass in Chipmunk (as in pymunk, vertices are not shifted).
    /// - Parameter origins: where a compound body's parts came from when some are an outline's
    ///   pieces (`Scene.partOrigins`): they are named by their entry, and an outline's pieces are
    ///   not warned about against each other or for their centroids.
    public func warnings(origins: PartOrigins? = nil) -> [FieldProblem] {
        if case let .compound(parts) = self {
            guard problems().isEmpty else { return [] }
            return parts.enumerated().flatMap { j, part -> [FieldProblem] in
                if origins?.fromOutline[j] == true { return [] }
                let name = origins?.name(j) ?? "shapes[\(j)]"
                return part.shape.warnings().map { FieldProblem("\(name).\($0.field)", $0.message) }
            } + Self.compoundWarnings(parts, origins: origins)
        }
        guard case let .polygon(vertices, _) = self, problems().isEmpty,
              let centroid = ConvexPolygonCheck.centroid(vertices) else { return [] }
        let reach = vertices.map { $0.length }.max() ?? 0
        guard centroid.length > Self.centroidTolerance * reach else { return [] }
        return [FieldProblem("vertices", "the polygon's centroid is at [\(show(rounded(centroid.x))), \(show(rounded(centroid.y)))] "
            + "from center, which Chipmunk takes as its centre of mass: it will spin about that point, not its middle; "
            + "give vertices around [0, 0] to centre it")]
    }

    /// How far, as a share of the farthest vertex's distance, a polygon's centroid may lie from
    /// the body's position before `validate` warns.
    public static let centroidTolerance = 0.1

    private func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

/// Markers in a world's fingerprint that no value of a valid scene can be (scenes refuse non-finite
/// values): they open the values that earlier fingerprints did not have.
public enum ShapeFingerprint {
    /// Opens a shape kind added after boxes and circles.
    public static let marker = Double(bitPattern: 0x7FF8_0000_5348_4150)
    /// Opens a shape's collision settings (filter, sensor), when they are not the defaults.
    public static let settingsMarker = Double(bitPattern: 0x7FF8_0000_4649_4C54)
    /// Opens a kinematic body.
    public static let kinematicMarker = Double(bitPattern: 0x7FF8_0000_4B49_4E45)
    /// Opens a joint.
    public static let jointMarker = Double(bitPattern: 0x7FF8_0000_4A4F_494E)
    /// Opens a joint's breaking thresholds ("BREA").
    public static let breakMarker = Double(bitPattern: 0x7FF8_0000_4252_4541)
    /// Opens a spawner's values ("SPAW").
    public static let spawnerMarker = Double(bitPattern: 0x7FF8_0000_5350_4157)
    /// Opens a shape's rules of contact ("RULE").
    public static let rulesMarker = Double(bitPattern: 0x7FF8_0000_5255_4C45)
    /// Opens a terrain picture's digest ("TERR").
    public static let terrainMarker = Double(bitPattern: 0x7FF8_0000_5445_5252)
}

// Codable is native-only: Embedded Swift (the wasm core) has no Codable; the CLI's JSON reports use it.
#if !hasFeature(Embedded)
extension BodyShape: Codable {}
#endif
