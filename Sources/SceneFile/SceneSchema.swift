import SceneModel

/// The scene file format as a JSON Schema (draft 2020-12), built from the same `Limits` that
/// validation uses, so the two cannot drift apart. `Scenes/schema/scene.schema.json` is this text
/// (`cratedrop validate --schema` prints it; a test compares). Scene files may name it with
/// `"$schema"` so editors complete and check keys. The schema checks keys, types and ranges;
/// what involves several values (crates inside the world, counts, overlaps) only `validate` checks.
public enum SceneSchema {
    public static var text: String { document.indentedText + "\n" }

    static var document: JSONOutput {
        let crateProperties: [(String, JSONOutput)] = [
            ("center", vector(magnitude: Limits.coordinate, "position and centre of mass, px")),
            ("shape", described(["enum": .array(simpleKinds)], "body shape; default \"box\"")),
            ("size", vector(Limits.size, "a box's width and height, px")),
            ("radius", number(0...Limits.circleRadius.upperBound,
                              "a circle's radius (\(plain(Limits.circleRadius.lowerBound))...\(plain(Limits.circleRadius.upperBound))), "
                                + "or a polygon's or segment's rounding (0...\(plain(Limits.roundingRadius.upperBound)), default 0), px")),
            ("vertices", outlineVertices(magnitude: Limits.size.upperBound,
                                         "a polygon's convex vertices, or an outline's (any simple polygon), in order, relative to center, px")),
            ("tolerance", tolerance),
            ("a", vector(magnitude: Limits.size.upperBound, "a segment's first end, relative to center, px")),
            ("b", vector(magnitude: Limits.size.upperBound, "a segment's other end, relative to center, px")),
            ("angle", number(magnitude: Limits.angle, "radians, counter-clockwise; default 0")),
            ("velocity", vector(magnitude: Limits.speed, "px/s; default [0, 0]")),
            ("angular_velocity", number(magnitude: Limits.angularSpeed, "rad/s; default 0")),
            ("mass", number(Limits.mass, "mass units (a dynamic body's; a kinematic body has none)")),
            ("body_type", described(["enum": .array(BodyType.allCases.map { .string($0.rawValue) })],
                                    "\"dynamic\" (the default) or \"kinematic\": moved only by its velocity and angular_velocity")),
        ] + surface + collision + rules + [("color", described(color, "how it is drawn; default: render.crate"))]
        let crateKinds: JSONOutput = [
                kindKeys("body_type", "dynamic", isDefault: true, required: ["mass"], forbidden: []),
                kindKeys("body_type", "kinematic", required: [], forbidden: ["mass"]),
                kindKeys("shape", "box", isDefault: true, required: ["size"], forbidden: ["radius", "vertices", "a", "b", "tolerance"]),
                kindKeys("shape", "circle", required: ["radius"], forbidden: ["size", "vertices", "a", "b", "tolerance"],
                         radius: Limits.circleRadius),
                kindKeys("shape", "polygon", required: ["vertices"], forbidden: ["size", "a", "b", "tolerance"], radius: Limits.roundingRadius,
                         vertices: Limits.polygonVertices),
                kindKeys("shape", "segment", required: ["a", "b"], forbidden: ["size", "vertices", "tolerance"], radius: Limits.roundingRadius),
                // An outline becomes a body of its convex parts: dynamic, without rules of contact.
                kindKeys("shape", "outline", required: ["vertices"],
                         forbidden: ["size", "a", "b", "radius", "body_type", "one_way", "surface_velocity"]),
            ]
        let simpleCrate = object(required: ["center"], crateProperties).adding("allOf", crateKinds)
        let compound = compoundCrate(crateProperties)
        let crate: JSONOutput = ["if": ["required": ["shapes"]], "then": compound, "else": simpleCrate]
        // A spawner's crate: as a scene's, placed at the spawner's `at` (no center of its own).
        let spawnedCrate: JSONOutput = [
            "if": ["required": ["shapes"]], "then": withoutCenter(compound),
            "else": object(required: [], crateProperties.filter { $0.0 != "center" }).adding("allOf", crateKinds),
        ]
        let wall = object(required: [], [
            ("shape", described(["enum": ["segment", "polygon", "outline"]], "wall shape; default \"segment\"")),
            ("from", vector(magnitude: Limits.coordinate, "a segment's first end, px")),
            ("to", vector(magnitude: Limits.coordinate, "a segment's other end, px; not equal to from")),
            ("vertices", outlineVertices(magnitude: Limits.coordinate,
                                         "a polygon's convex vertices, or an outline's (any simple polygon), in order, world coordinates, px")),
            ("tolerance", tolerance),
            ("radius", number(Limits.wallRadius, "half a segment's thickness, or a polygon's rounding (default 0), px")),
        ] + surface + collision + rules + [("color", described(color, "how it is drawn; default: render.wall"))])
            .adding("allOf", [
                kindKeys("shape", "segment", isDefault: true, required: ["from", "to", "radius"], forbidden: ["vertices", "tolerance"]),
                kindKeys("shape", "polygon", required: ["vertices"], forbidden: ["from", "to", "tolerance"], vertices: Limits.polygonVertices),
                kindKeys("shape", "outline", required: ["vertices"], forbidden: ["from", "to", "radius"]),
            ])
        let point = vector(0...Limits.coordinate, "px")
        // A `walls` entry with `image` is a picture's terrain; any other is one wall.
        let wallEntry: JSONOutput = ["if": ["required": ["image"]], "then": terrainWall, "else": wall]
        return document(crate: crate, wall: wallEntry, point: point, spawnedCrate: spawnedCrate)
    }

    /// Terrain from a picture: a PNG traced into segment walls (docs/scenes.md, "Terrain from a picture").
    static var terrainWall: JSONOutput {
        object(required: ["image", "radius"], [
            ("image", described(["type": "string", "minLength": 1], "a PNG file, relative to the scene file")),
            ("threshold", described(["type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1],
                                    "the solidity the outline follows, strictly between 0 and 1; default \(plain(TerrainLimits.defaultThreshold))")),
            ("channel", described(["enum": .array(TerrainChannel.allCases.map { .string($0.rawValue) })],
                                  "what is solid: \"luminance\" (the default: dark pixels) or \"alpha\" (opaque pixels)")),
            ("scale", number(TerrainLimits.scale, "world px per picture pixel; default 1")),
            ("origin", vector(magnitude: Limits.coordinate, "where the centre of the picture's bottom-left pixel lies, px; default [0, 0]")),
            ("tolerance", number(TerrainLimits.tolerance,
                                 "how far the simplified outline may stray, picture pixels; default \(plain(TerrainLimits.defaultTolerance))")),
            ("radius", number(Limits.wallRadius, "the segment walls' radius, px")),
        ] + surface + collision + [("color", described(color, "how it is drawn; default: render.wall"))])
    }

    /// The `shape` names (a body of parts is written with `shapes`; an outline becomes one).
    static var simpleKinds: [JSONOutput] { BodyShape.Kind.allCases.filter { $0 != .compound }.map { .string($0.rawValue) } + ["outline"] }

    /// An outline's tolerance (docs/scenes.md, "Keys": concave outlines).
    static var tolerance: JSONOutput {
        number(OutlineLimits.tolerance, "an outline's: the deepest notch its convex parts may fill in, px; default \(plain(OutlineLimits.defaultTolerance))")
    }

    /// A body of parts: `shapes` (1 to `Limits.compoundParts` parts, each a simple shape with an
    /// offset, angle and mass of its own) and the body's keys but `shape`, its geometry and `mass`.
    static func compoundCrate(_ crateProperties: [(String, JSONOutput)]) -> JSONOutput {
        let geometry = ["shape", "size", "radius", "vertices", "tolerance", "a", "b"]
        let partKinds: JSONOutput = [
            kindKeys("shape", "box", isDefault: true, required: ["size"], forbidden: ["radius", "vertices", "a", "b", "tolerance"]),
            kindKeys("shape", "circle", required: ["radius"], forbidden: ["size", "vertices", "a", "b", "tolerance"], radius: Limits.circleRadius),
            kindKeys("shape", "polygon", required: ["vertices"], forbidden: ["size", "a", "b", "tolerance"], radius: Limits.roundingRadius,
                     vertices: Limits.polygonVertices),
            kindKeys("shape", "segment", required: ["a", "b"], forbidden: ["size", "vertices", "tolerance"], radius: Limits.roundingRadius),
            kindKeys("shape", "outline", required: ["vertices"], forbidden: ["size", "a", "b", "radius"]),
        ]
        let part = object(required: ["mass"], crateProperties.filter { geometry.contains($0.0) } + [
            ("offset", vector(magnitude: Limits.size.upperBound, "where the part lies in the body's frame, px; default [0, 0]")),
            ("angle", number(magnitude: Limits.angle, "how far the part is turned in the body's frame, radians; default 0")),
            ("mass", number(0...Limits.mass.upperBound, "the part's mass (0: none); the parts' masses add up to the body's, which must be > 0")),
        ] + surface + collision + [("color", described(color, "how it is drawn; default: the body's colour"))]).adding("allOf", partKinds)
        let body = crateProperties.filter { !geometry.contains($0.0) && $0.0 != "mass" && $0.0 != "body_type" }
        return object(required: ["center", "shapes"], body + [
            ("shapes", described(["type": "array", "minItems": .integer(Limits.compoundParts.lowerBound),
                                  "maxItems": .integer(Limits.compoundParts.upperBound), "items": part],
                                 "a body of parts, added to Chipmunk in this order; its mass, centre of gravity and moment are theirs")),
            ("body_type", described(["enum": ["dynamic"]], "a body of parts is dynamic")),
        ])
    }

    /// `schema` (an object's) without `center` among its properties and required keys.
    static func withoutCenter(_ schema: JSONOutput) -> JSONOutput {
        guard case let .object(fields) = schema else { return schema }
        return .object(fields.map { field in
            switch (field.key, field.value) {
            case let ("required", .array(keys)): (key: field.key, value: .array(keys.filter { if case .string("center") = $0 { false } else { true } }))
            case let ("properties", .object(properties)): (key: field.key, value: .object(properties.filter { $0.key != "center" }))
            default: field
            }
        })
    }

    /// A joint: its kind, its two ends, the kind's own keys and the settings every joint has.
    static var joint: JSONOutput {
        let byIndex: JSONOutput = ["type": "object", "properties": ["index": ["type": "integer", "minimum": 0]], "required": ["index"],
                                   "additionalProperties": false]
        let byID: JSONOutput = ["type": "object", "properties": ["id": ["type": "integer", "minimum": 1]], "required": ["id"],
                                "additionalProperties": false]
        let end = described(["oneOf": [["type": "integer", "minimum": 0], byIndex, byID, ["const": "static"]]],
                            "a crate's index (from 0: `crates`, then generated ones), {\"index\": N} (the same, said), {\"id\": N} (a body's id, "
                                + "from 1, as input lines and traces name bodies) or \"static\", the world's static body")
        let anchor = vector(magnitude: Limits.coordinate, "in its body's frame (static: world coordinates), px; default [0, 0]")
        let bound = Limits.jointRatio.upperBound
        let nonZero: JSONOutput = ["type": "number", "minimum": .number(-bound), "maximum": .number(bound), "not": ["const": 0]]
        let own: [(kind: JointKind.Name, required: [String], keys: [String])] = [
            (.pin, [], ["anchor_a", "anchor_b"]),
            (.slide, ["min", "max"], ["anchor_a", "anchor_b", "min", "max"]),
            (.pivot, [], ["pivot", "anchor_a", "anchor_b"]),
            (.groove, ["groove_a", "groove_b", "anchor_b"], ["groove_a", "groove_b", "anchor_b"]),
            (.dampedSpring, ["rest_length", "stiffness", "damping"], ["anchor_a", "anchor_b", "rest_length", "stiffness", "damping"]),
            (.dampedRotarySpring, ["rest_angle", "stiffness", "damping"], ["rest_angle", "stiffness", "damping"]),
            (.rotaryLimit, ["min", "max"], ["min", "max"]),
            (.ratchet, ["ratchet"], ["phase", "ratchet"]),
            (.gear, ["ratio"], ["phase", "ratio"]),
            (.simpleMotor, ["rate"], ["rate"]),
        ]
        let allKeys = ["anchor_a", "anchor_b", "pivot", "groove_a", "groove_b", "min", "max", "rest_length", "stiffness", "damping",
                       "rest_angle", "phase", "ratchet", "ratio", "rate"]
        return object(required: ["kind", "a", "b"], [
            ("kind", described(["enum": .array(JointKind.Name.allCases.map { .string($0.rawValue) })], "what the joint does (Chipmunk's constraints)")),
            ("a", end), ("b", end),
            ("anchor_a", anchor), ("anchor_b", anchor),
            ("pivot", vector(magnitude: Limits.coordinate, "a pivot's world point (or give anchor_a and anchor_b), px")),
            ("groove_a", vector(magnitude: Limits.coordinate, "a groove's first end, in a's frame, px")),
            ("groove_b", vector(magnitude: Limits.coordinate, "a groove's other end, in a's frame, px")),
            ("min", number(magnitude: max(Limits.angle, Limits.jointLength.upperBound),
                           "a slide's least distance (0...\(plain(Limits.jointLength.upperBound)) px) or a rotary limit's least angle (rad)")),
            ("max", number(magnitude: max(Limits.angle, Limits.jointLength.upperBound), "the greatest, at least min")),
            ("rest_length", number(Limits.jointLength, "a spring's rest length, px")),
            ("stiffness", number(Limits.springConstant, "a spring's stiffness")),
            ("damping", number(Limits.springConstant, "a spring's damping")),
            ("rest_angle", number(magnitude: Limits.angle, "a rotary spring's rest angle, rad")),
            ("phase", number(magnitude: Limits.angle, "a ratchet's or gear's phase, rad; default 0")),
            ("ratchet", described(nonZero, "a ratchet's notch, rad: not 0, at least \(plain(Limits.jointRatio.lowerBound)) either way")),
            ("ratio", described(nonZero, "a gear's ratio: not 0, at least \(plain(Limits.jointRatio.lowerBound)) either way")),
            ("rate", number(magnitude: Limits.angularSpeed, "a motor's rate, rad/s")),
            ("max_force", number(Limits.jointForce, "the most force it applies; default unlimited")),
            ("max_bias", number(Limits.jointBias, "the fastest it corrects its error; default unlimited")),
            ("error_bias", number(Limits.errorBias, "the share of its error left after a second; default 0.9^60")),
            ("collide_bodies", described(["type": "boolean"], "whether its two bodies collide with each other; default true")),
            ("break_impulse", number(0...Limits.impulse,
                                     "it breaks (is removed at the step's end) when the impulse it applied in a step is more than this; default never")),
            ("break_force", number(Limits.jointForce, "it breaks when its impulse in a step over the step's length is more than this; default never")),
        ]).adding("allOf", .array(own.map { kind in
            kindKeys("kind", kind.kind.rawValue, required: kind.required, forbidden: allKeys.filter { !kind.keys.contains($0) })
        }))
    }

    /// A spawner: where, how often and how many, and the crate it drops.
    static func spawner(crate: JSONOutput) -> JSONOutput {
        let seconds: JSONOutput = ["type": "number", "minimum": 0, "maximum": 1_000_000_000]
        return object(required: ["at", "every", "count", "crate"], [
            ("at", vector(0...Limits.coordinate, "where its crates appear (inside the world), px")),
            ("every", described(seconds.adding("exclusiveMinimum", 0), "seconds between two crates (rounded up to whole steps; a plain decimal)")),
            ("start", described(seconds, "seconds before the first crate; default 0")),
            ("count", integer(1...Limits.crateCount.upperBound, "crates it drops")),
            ("jitter", vector(0...Limits.coordinate, "each crate's centre moves by up to this much either way in x and y (seeded), px; default [0, 0]")),
            ("scale", described(["type": "array", "minItems": 2, "maxItems": 2,
                                 "items": ["type": "number", "exclusiveMinimum": 0, "maximum": .number(Spawner.maxScale)]],
                                "[smallest, largest] factor each crate's size is scaled by (seeded; its mass by the factor squared); default: as written")),
            ("seed", integer(0...Int.max, "SplitMix64 seed of the jitter and scale (up to 2^64 − 1); default 0", maximum: .unsigned(UInt64.max))),
            ("crate", described(crate, "the crate it drops, written as a scene's crates are, without center")),
        ])
    }

    static func document(crate: JSONOutput, wall: JSONOutput, point: JSONOutput, spawnedCrate: JSONOutput) -> JSONOutput {
        [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "scene.schema.json",
            "title": "CrateDrop scene",
            "description": "A crate-drop scene. Units: pixels, seconds, radians; y points up. See docs/scenes.md.",
            "type": "object",
            "required": ["world", "gravity"],
            "additionalProperties": false,
            "properties": .object([
                ("$schema", described(["type": "string"], "this schema, for editors")),
                ("name", described(["type": "string"], "default: the file name")),
                ("world", vector(Limits.worldSize, "world width and height, px")),
                ("gravity", vector(magnitude: Limits.gravity, "px/s², e.g. [0, -1000]")),
                ("step_rate", integer(Limits.stepRate, "fixed steps per simulated second; default \(Scene.defaultStepRate)")),
                ("iterations", integer(Limits.iterations, "solver iterations per step; default \(Scene.defaultIterations)")),
                ("defaults", described(object(required: [], [
                    ("friction", withDefault(number(Limits.friction, "default \(plain(Surface.standard.friction))"), Surface.standard.friction)),
                    ("elasticity", withDefault(number(Limits.elasticity, "default \(plain(Surface.standard.elasticity))"),
                                               Surface.standard.elasticity)),
                ]), "friction and elasticity for every body and wall that gives none")),
                ("bounds", object(required: ["radius"],
                                  [("radius", number(Limits.wallRadius, "px"))] + surface)),
                ("walls", array(of: wall, maxItems: nil)),
                ("crates", array(of: crate, maxItems: Limits.crateCount.upperBound)),
                ("generator", object(required: ["count", "seed", "size", "density"], [
                    ("count", integer(Limits.crateCount, "crates to generate")),
                    ("seed", integer(0...Int.max, "SplitMix64 seed (up to 2^64 − 1)", maximum: .unsigned(UInt64.max))),
                    ("size", vector(Limits.size, "[smallest, largest] side, px")),
                    ("density", number(Limits.density, "mass per px²")),
                    ("gap", number(Limits.gap, "px between cells; default 1")),
                    ("region", object(required: ["min", "max"], [("min", point), ("max", point)])),
                    ("shape", described(["enum": .array(PileGenerator.Shapes.allCases.map { .string($0.rawValue) })],
                                        "what it makes: boxes, circles, regular polygons or a mix of the three; default \"box\"")),
                    ("sides", described([
                        "type": "array", "minItems": 2, "maxItems": 2,
                        "items": integer(RegularPolygon.sides, ""),
                    ], "a polygon's fewest and most sides; default [3, 8]")),
                ] + surface + [("colors", described([
                    "type": "array", "items": color,
                    "minItems": .integer(Limits.paletteColors.lowerBound), "maxItems": .integer(Limits.paletteColors.upperBound),
                ], "dealt out in turn: crate i gets colors[i mod count]; default: render.crate"))])),
                ("tumbler", object(required: ["center", "size", "angular_velocity", "radius"], [
                    ("center", vector(magnitude: Limits.coordinate, "px")), ("size", vector(Limits.size, "px")),
                    ("angular_velocity", number(magnitude: Limits.angularSpeed, "rad/s")),
                    ("radius", number(Limits.wallRadius, "px")),
                ] + surface)),
                ("joints", array(of: joint, maxItems: Limits.joints.upperBound)),
                ("spawners", array(of: spawner(crate: spawnedCrate), maxItems: Spawner.maxSpawners)),
                ("spatial_hash", object(required: ["cell_size", "cells"], [
                    ("cell_size", number(Limits.hashCellSize, "px")), ("cells", integer(Limits.hashCells, "hash table buckets")),
                ])),
                ("sleep_time", number(Limits.sleepTime, "seconds at rest before a body sleeps; absent: never")),
                ("render", object(required: [], [
                    ("size", described([
                        "type": "array", "minItems": 2, "maxItems": 2,
                        "items": integer(Limits.imageSide, "px"),
                    ], "frame width and height, px; default: the shape of the view (or the world), "
                        + "the longer side \(RenderDefaults.defaultLongSide) px, both sides even")),
                    ("background", color), ("crate", color), ("wall", color),
                    ("look", described(["enum": .array(BodyLook.allCases.map { .string($0.rawValue) })],
                                       "how bodies are drawn: wooden crates, or flat colours with a rim; default \"crate\"")),
                    ("view", described(object(required: ["min", "max"], [
                        ("min", vector(magnitude: Limits.coordinate, "px")), ("max", vector(magnitude: Limits.coordinate, "px")),
                    ]), "the part of the world shown, fitted keeping its aspect ratio; default: the whole world")),
                ])),
            ]),
        ]
    }

    /// Friction and elasticity: optional, inherited from the scene's `defaults` block, else `Surface.standard`.
    static let surface: [(String, JSONOutput)] = [
        ("friction", number(Limits.friction, "default: defaults.friction, else \(plain(Surface.standard.friction))")),
        ("elasticity", number(Limits.elasticity, "default: defaults.elasticity, else \(plain(Surface.standard.elasticity))")),
    ]

    /// `value` as a scene file would write it: `0`, not `0.0`.
    static func plain(_ value: Double) -> String { plainNumber(value).text }

    static func plainNumber(_ value: Double) -> JSONOutput { value == value.rounded() && abs(value) < 1e15 ? .integer(Int(value)) : .number(value) }

    /// `schema` with a JSON Schema `default` annotation (editors offer it).
    static func withDefault(_ schema: JSONOutput, _ value: Double) -> JSONOutput {
        schema.adding("default", plainNumber(value))
    }

    static let color: JSONOutput = ["type": "string", "pattern": "^#[0-9a-fA-F]{6}$"]

    static func described(_ schema: JSONOutput, _ text: String) -> JSONOutput {
        text.isEmpty ? schema : schema.adding("description", .string(text))
    }

    static func number(_ range: ClosedRange<Double>, _ text: String) -> JSONOutput {
        // Validation's rule: a range starting above 0 is inclusive; "> 0" is reported for zero.
        described(["type": "number", "minimum": .number(range.lowerBound), "maximum": .number(range.upperBound)], text)
    }

    static func number(magnitude: Double, _ text: String) -> JSONOutput { number(-magnitude...magnitude, text) }

    static func integer(_ range: ClosedRange<Int>, _ text: String, maximum: JSONOutput? = nil) -> JSONOutput {
        described(["type": "integer", "minimum": .integer(range.lowerBound), "maximum": maximum ?? .integer(range.upperBound)], text)
    }

    static func vector(_ range: ClosedRange<Double>, _ text: String) -> JSONOutput {
        described(["type": "array", "minItems": 2, "maxItems": 2, "items": number(range, "")], text)
    }

    static func vector(magnitude: Double, _ text: String) -> JSONOutput { vector(-magnitude...magnitude, text) }

    static func array(of item: JSONOutput, maxItems: Int?) -> JSONOutput {
        let schema: JSONOutput = ["type": "array", "items": item]
        return maxItems.map { schema.adding("maxItems", .integer($0)) } ?? schema
    }

    /// Collision settings, on bodies and walls alike.
    static let collision: [(String, JSONOutput)] = [
        ("filter", described(object(required: [], [
            ("group", integer(0...Int(UInt32.max), "shapes sharing a non-zero group never collide; default 0 (none)")),
            ("categories", integer(0...Int(UInt32.max), "the categories it belongs to, as bits; default all")),
            ("mask", integer(0...Int(UInt32.max), "the categories it collides with, as bits; default all")),
        ]), "Chipmunk's collision filter (cpShapeFilter)")),
        ("sensor", described(["type": "boolean"], "detects overlaps but never pushes; default false")),
    ]

    /// Rules of contact, on bodies and walls alike.
    static let rules: [(String, JSONOutput)] = [
        ("one_way", vector(magnitude: Limits.oneWayComponent,
                           "a one-way shape: contacts whose normal (from it to the other) points against this direction are ignored; not [0, 0]")),
        ("surface_velocity", vector(magnitude: Limits.speed, "its surface's velocity, px/s (a conveyor; friction only)")),
    ]

    /// Vertices of a polygon or an outline: the outline's count (`OutlineLimits.vertices`); a
    /// polygon's kind narrows it (`kindKeys`' `vertices`).
    static func outlineVertices(magnitude: Double, _ text: String) -> JSONOutput {
        described(["type": "array", "minItems": .integer(OutlineLimits.vertices.lowerBound),
                   "maxItems": .integer(OutlineLimits.vertices.upperBound), "items": vector(magnitude: magnitude, "")], text)
    }

    /// One kind's own keys (`key` is `kind`, or absent when it is the default): the keys it needs,
    /// those it does not take, and its own range for `radius` and count of `vertices`.
    static func kindKeys(_ key: String, _ kind: String, isDefault: Bool = false, required: [String], forbidden: [String],
                         radius: ClosedRange<Double>? = nil, vertices: ClosedRange<Int>? = nil) -> JSONOutput {
        // "properties" alone also holds when the key is absent: right for the default kind only.
        let condition: JSONOutput = isDefault ? ["properties": [key: ["const": .string(kind)]]]
            : ["properties": [key: ["const": .string(kind)]], "required": [.string(key)]]
        var then: JSONOutput = ["required": .array(required.map { .string($0) })]
        // An empty anyOf is not a schema: a kind that forbids nothing says nothing of it.
        if !forbidden.isEmpty { then = then.adding("not", ["anyOf": .array(forbidden.map { ["required": [.string($0)]] })]) }
        var own: [(key: String, value: JSONOutput)] = []
        if let radius { own.append((key: "radius", value: number(radius, ""))) }
        if let vertices {
            own.append((key: "vertices", value: ["minItems": .integer(vertices.lowerBound), "maxItems": .integer(vertices.upperBound)]))
        }
        if !own.isEmpty { then = then.adding("properties", .object(own)) }
        return ["if": condition, "then": then]
    }

    static func object(required: [String], _ properties: [(String, JSONOutput)]) -> JSONOutput {
        [
            "type": "object", "additionalProperties": false,
            "required": .array(required.map { .string($0) }),
            "properties": .object(properties.map { (key: $0.0, value: $0.1) }),
        ]
    }
}

private extension JSONOutput {
    /// This object with one more field at the end.
    func adding(_ key: String, _ value: JSONOutput) -> JSONOutput {
        guard case var .object(fields) = self else { preconditionFailure("only an object takes fields") }
        fields.append((key: key, value: value))
        return .object(fields)
    }
}
