/// A make-up log as bytes, inside a world state (`WorldState+Bytes`): each entry's step, what it
/// made, the joints it took, and the change with every value that defines the part, little-endian
/// and fixed-width. Reading checks lengths and tags only; the values are checked as the log is
/// replayed into a world (`World.restore`), as every input is.
extension MakeupChange {
    /// The tags, one per `StructuralChange` case.
    private enum Tag: UInt8 {
        case addCrate = 1, addWall, addJoint, removeBody, removeJoint
        /// A joint that broke: removed as `removeJoint` is.
        case breakJoint
        /// A crate or wall with rules of contact: written as `addCrate` or `addWall`, then the
        /// rules (tags of their own, so a part without rules keeps its earlier bytes).
        case addCrateWithRules, addWallWithRules
    }

    package func append(to writer: inout LittleEndianWriter) {
        writer.u64(UInt64(step))
        writer.u64(made ?? 0)
        writer.u32(UInt32(clamping: jointsRemoved.count))
        for joint in jointsRemoved { writer.u64(joint.rawValue) }
        writer.u32(UInt32(clamping: madeValues.count))
        for value in madeValues { writer.f64(value) }
        switch change {
        case let .addCrate(spec):
            writer.u8(spec.rules == .none ? Tag.addCrate.rawValue : Tag.addCrateWithRules.rawValue)
            Self.write(spec.shape, to: &writer)
            for value in [spec.center.x, spec.center.y, spec.angle, spec.velocity.x, spec.velocity.y, spec.angularVelocity, spec.mass,
                          spec.friction, spec.elasticity] { writer.f64(value) }
            Self.write(spec.collision, to: &writer)
            Self.write(spec.color, to: &writer)
            writer.u8(spec.bodyType == .kinematic ? 1 : 0)
            if spec.rules != .none { Self.write(spec.rules, to: &writer) }
        case let .addWall(spec):
            writer.u8(spec.rules == .none ? Tag.addWall.rawValue : Tag.addWallWithRules.rawValue)
            switch spec.geometry {
            case let .segment(from, to):
                writer.u8(0)
                for value in [from.x, from.y, to.x, to.y] { writer.f64(value) }
            case let .polygon(vertices):
                writer.u8(1)
                Self.write(vertices, to: &writer)
            }
            for value in [spec.radius, spec.friction, spec.elasticity] { writer.f64(value) }
            Self.write(spec.collision, to: &writer)
            Self.write(spec.color, to: &writer)
            if spec.rules != .none { Self.write(spec.rules, to: &writer) }
        case let .addJoint(kind, a, b, settings):
            writer.u8(Tag.addJoint.rawValue)
            writer.u8(UInt8(kind.number))
            let parameters = kind.parameters
            writer.u32(UInt32(parameters.count))
            for value in parameters { writer.f64(value) }
            writer.u64(a?.rawValue ?? 0)
            writer.u64(b?.rawValue ?? 0)
            for value in [settings.maxForce, settings.maxBias, settings.errorBias, settings.breakImpulse, settings.breakForce] {
                writer.u8(value == nil ? 0 : 1)
                writer.f64(value ?? 0)
            }
            writer.u8(settings.collideBodies ? 1 : 0)
        case let .removeBody(id):
            writer.u8(Tag.removeBody.rawValue)
            writer.u64(id.rawValue)
        case let .removeJoint(id):
            writer.u8(broke ? Tag.breakJoint.rawValue : Tag.removeJoint.rawValue)
            writer.u64(id.rawValue)
        }
    }

    /// Reads what `append(to:)` writes.
    package static func read(from reader: inout LittleEndianReader) throws(WorldState.FormatError) -> MakeupChange {
        func malformed(_ what: String) -> WorldState.FormatError { WorldState.FormatError(description: "the state's make-up log: \(what)") }
        let step = try reader.u64()
        guard step <= UInt64(WorldState.maxStep), let step = Int(exactly: step) else { throw malformed("a change's step is out of range") }
        let made = try reader.u64()
        let removedCount = try reader.u32()
        guard Int(removedCount) <= reader.remaining / 8 else { throw malformed("cut short") }
        var jointsRemoved: [JointID] = []
        for _ in 0..<removedCount { jointsRemoved.append(JointID(try reader.u64())) }
        let madeCount = try reader.u32()
        guard madeCount <= 4 else { throw malformed("a joint's made values are too many") }
        let madeValues = try reader.f64s(Int(madeCount))
        let change: StructuralChange
        let tag = Tag(rawValue: try reader.u8())
        switch tag {
        case .addCrate, .addCrateWithRules:
            let shape = try readShape(&reader)
            let values = try reader.f64s(9)
            let collision = try readCollision(&reader), color = try readColor(&reader)
            let kinematic = try reader.u8()
            guard kinematic <= 1 else { throw malformed("a body type is unknown") }
            var spec = CrateSpec(center: Vec2(values[0], values[1]), shape: shape, angle: values[2], velocity: Vec2(values[3], values[4]),
                                 angularVelocity: values[5], mass: values[6], friction: values[7], elasticity: values[8],
                                 collision: collision, color: color, bodyType: kinematic == 1 ? .kinematic : .dynamic)
            if tag == .addCrateWithRules { spec.rules = try readRules(&reader) }
            change = .addCrate(spec)
        case .addWall, .addWallWithRules:
            let geometry: WallGeometry
            switch try reader.u8() {
            case 0: geometry = .segment(from: Vec2(try reader.f64(), try reader.f64()), to: Vec2(try reader.f64(), try reader.f64()))
            case 1: geometry = .polygon(vertices: try readVertices(&reader))
            default: throw malformed("a wall's kind is unknown")
            }
            let radius = try reader.f64(), friction = try reader.f64(), elasticity = try reader.f64()
            var spec = WallSpec(geometry: geometry, radius: radius, friction: friction, elasticity: elasticity,
                                collision: try readCollision(&reader), color: try readColor(&reader))
            if tag == .addWallWithRules { spec.rules = try readRules(&reader) }
            change = .addWall(spec)
        case .addJoint:
            let number = Int(try reader.u8())
            let count = try reader.u32()
            guard count <= 8 else { throw malformed("a joint has too many values") }
            let parameters = try reader.f64s(Int(count))
            guard let kind = JointKind(number: number, parameters: parameters) else { throw malformed("a joint's kind or values are unknown") }
            let a = try reader.u64(), b = try reader.u64()
            var optionals: [Double?] = []
            for _ in 0..<5 {
                let given = try reader.u8(), value = try reader.f64()
                guard given <= 1 else { throw malformed("a joint's setting is unknown") }
                optionals.append(given == 1 ? value : nil)
            }
            let collide = try reader.u8()
            guard collide <= 1 else { throw malformed("a joint's setting is unknown") }
            change = .addJoint(kind, a: a == 0 ? nil : BodyID(a), b: b == 0 ? nil : BodyID(b),
                               settings: JointSettings(maxForce: optionals[0], maxBias: optionals[1], errorBias: optionals[2],
                                                       collideBodies: collide == 1, breakImpulse: optionals[3], breakForce: optionals[4]))
        case .removeBody: change = .removeBody(BodyID(try reader.u64()))
        case .removeJoint, .breakJoint: change = .removeJoint(JointID(try reader.u64()))
        case nil: throw malformed("a change's kind is unknown")
        }
        var entry = MakeupChange(step: step, change: change, made: made == 0 ? nil : made, jointsRemoved: jointsRemoved, madeValues: madeValues)
        entry.broke = tag == .breakJoint
        return entry
    }

    // MARK: Parts

    private static func write(_ shape: BodyShape, to writer: inout LittleEndianWriter) {
        switch shape {
        case let .box(size):
            writer.u8(0)
            writer.f64(size.x)
            writer.f64(size.y)
        case let .circle(radius):
            writer.u8(1)
            writer.f64(radius)
        case let .polygon(vertices, radius):
            writer.u8(2)
            write(vertices, to: &writer)
            writer.f64(radius)
        case let .segment(a, b, radius):
            writer.u8(3)
            for value in [a.x, a.y, b.x, b.y, radius] { writer.f64(value) }
        case let .compound(parts):
            writer.u8(4)
            writer.u32(UInt32(clamping: parts.count))
            for part in parts {
                write(part.shape, to: &writer)
                for value in [part.offset.x, part.offset.y, part.angle, part.mass, part.friction, part.elasticity] { writer.f64(value) }
                write(part.collision, to: &writer)
                write(part.color, to: &writer)
            }
        }
    }

    /// - Parameter inPart: a part's shape, which cannot itself have parts.
    private static func readShape(_ reader: inout LittleEndianReader, inPart: Bool = false) throws(WorldState.FormatError) -> BodyShape {
        switch try reader.u8() {
        case 0: return .box(size: Vec2(try reader.f64(), try reader.f64()))
        case 1: return .circle(radius: try reader.f64())
        case 2:
            let vertices = try readVertices(&reader)
            return .polygon(vertices: vertices, radius: try reader.f64())
        case 3: return .segment(a: Vec2(try reader.f64(), try reader.f64()), b: Vec2(try reader.f64(), try reader.f64()), radius: try reader.f64())
        case 4 where !inPart:
            let count = try reader.u32()
            guard count <= UInt32(Limits.compoundParts.upperBound) else {
                throw WorldState.FormatError(description: "the state's make-up log: a body has more than \(Limits.compoundParts.upperBound) parts")
            }
            return .compound(parts: try (0..<Int(count)).map { _ throws(WorldState.FormatError) in
                let shape = try readShape(&reader, inPart: true)
                let v = try reader.f64s(6)
                return BodyPart(shape: shape, offset: Vec2(v[0], v[1]), angle: v[2], mass: v[3], friction: v[4], elasticity: v[5],
                                collision: try readCollision(&reader), color: try readColor(&reader))
            })
        default: throw WorldState.FormatError(description: "the state's make-up log: a shape's kind is unknown")
        }
    }

    private static func write(_ vertices: [Vec2], to writer: inout LittleEndianWriter) {
        writer.u32(UInt32(clamping: vertices.count))
        for vertex in vertices {
            writer.f64(vertex.x)
            writer.f64(vertex.y)
        }
    }

    private static func readVertices(_ reader: inout LittleEndianReader) throws(WorldState.FormatError) -> [Vec2] {
        let count = try reader.u32()
        guard count <= UInt32(Limits.polygonVertices.upperBound) else {
            throw WorldState.FormatError(description: "the state's make-up log: a polygon has more than \(Limits.polygonVertices.upperBound) vertices")
        }
        return try (0..<Int(count)).map { _ throws(WorldState.FormatError) in Vec2(try reader.f64(), try reader.f64()) }
    }

    private static func write(_ collision: CollisionSettings, to writer: inout LittleEndianWriter) {
        writer.u32(collision.filter.group)
        writer.u32(collision.filter.categories)
        writer.u32(collision.filter.mask)
        writer.u8(collision.sensor ? 1 : 0)
    }

    private static func readCollision(_ reader: inout LittleEndianReader) throws(WorldState.FormatError) -> CollisionSettings {
        let filter = ShapeFilter(group: try reader.u32(), categories: try reader.u32(), mask: try reader.u32())
        let sensor = try reader.u8()
        guard sensor <= 1 else { throw WorldState.FormatError(description: "the state's make-up log: a sensor flag is unknown") }
        return CollisionSettings(filter: filter, sensor: sensor == 1)
    }

    /// Each rule as a flag (0 or 1) and its two values (0 when absent).
    private static func write(_ rules: ContactRules, to writer: inout LittleEndianWriter) {
        for vector in [rules.oneWay, rules.surfaceVelocity] {
            writer.u8(vector == nil ? 0 : 1)
            writer.f64(vector?.x ?? 0)
            writer.f64(vector?.y ?? 0)
        }
    }

    private static func readRules(_ reader: inout LittleEndianReader) throws(WorldState.FormatError) -> ContactRules {
        var vectors: [Vec2?] = []
        for _ in 0..<2 {
            let given = try reader.u8(), x = try reader.f64(), y = try reader.f64()
            guard given <= 1 else { throw WorldState.FormatError(description: "the state's make-up log: a rule of contact is unknown") }
            vectors.append(given == 1 ? Vec2(x, y) : nil)
        }
        return ContactRules(oneWay: vectors[0], surfaceVelocity: vectors[1])
    }

    private static func write(_ color: RGB?, to writer: inout LittleEndianWriter) {
        writer.u8(color == nil ? 0 : 1)
        for channel in [color?.r ?? 0, color?.g ?? 0, color?.b ?? 0] { writer.u8(channel) }
    }

    private static func readColor(_ reader: inout LittleEndianReader) throws(WorldState.FormatError) -> RGB? {
        let given = try reader.u8(), r = try reader.u8(), g = try reader.u8(), b = try reader.u8()
        guard given <= 1 else { throw WorldState.FormatError(description: "the state's make-up log: a colour is unknown") }
        return given == 1 ? RGB(r, g, b) : nil
    }
}

extension JointKind {
    /// The kind numbered `number` (`JointKind.number`) with these `parameters` (`JointKind.parameters`),
    /// or nil when the number is unknown or the count is not the kind's.
    public init?(number: Int, parameters p: [Double]) {
        func vec(_ i: Int) -> Vec2 { Vec2(p[i], p[i + 1]) }
        let counts = [4, 6, 2, 4, 6, 7, 3, 2, 2, 2, 1]
        guard (0..<counts.count).contains(number), p.count == counts[number] else { return nil }
        switch number {
        case 0: self = .pin(anchorA: vec(0), anchorB: vec(2))
        case 1: self = .slide(anchorA: vec(0), anchorB: vec(2), min: p[4], max: p[5])
        case 2: self = .pivot(point: vec(0))
        case 3: self = .pivotAnchors(anchorA: vec(0), anchorB: vec(2))
        case 4: self = .groove(grooveA: vec(0), grooveB: vec(2), anchorB: vec(4))
        case 5: self = .dampedSpring(anchorA: vec(0), anchorB: vec(2), restLength: p[4], stiffness: p[5], damping: p[6])
        case 6: self = .dampedRotarySpring(restAngle: p[0], stiffness: p[1], damping: p[2])
        case 7: self = .rotaryLimit(min: p[0], max: p[1])
        case 8: self = .ratchet(phase: p[0], ratchet: p[1])
        case 9: self = .gear(phase: p[0], ratio: p[1])
        default: self = .simpleMotor(rate: p[0])
        }
    }
}
