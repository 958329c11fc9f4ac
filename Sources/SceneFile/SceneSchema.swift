import SceneModel

/// The scene file format as a JSON Schema (draft 2020-12), built from the same `Limits` that
/// validation uses, so the two cannot drift apart. `Scenes/schema/scene.schema.json` is this text
/// (`cratedrop validate --schema` prints it; a test compares). Scene files may name it with
/// `"$schema"` so editors complete and check keys. The schema checks keys, types and ranges;
/// what involves several values (crates inside the world, counts, overlaps) only `validate` checks.
public enum SceneSchema {
    public static var text: String { pretty(document) + "\n" }

    static var document: String {
        let crate = shaped(object(required: ["center", "mass"], [
            ("center", vector(magnitude: Limits.coordinate, "centre of mass, px")),
            ("shape", described(JSONText.object([("enum", JSONText.array(BodyShape.Kind.allCases.map { JSONText.string($0.rawValue) }))]),
                                "body shape; default \"box\"")),
            ("size", vector(Limits.size, "a box's width and height, px")),
            ("radius", number(Limits.circleRadius, "a circle's radius, px")),
            ("angle", number(magnitude: Limits.angle, "radians, counter-clockwise; default 0")),
            ("velocity", vector(magnitude: Limits.speed, "px/s; default [0, 0]")),
            ("angular_velocity", number(magnitude: Limits.angularSpeed, "rad/s; default 0")),
            ("mass", number(Limits.mass, "mass units")),
        ] + surface + [("color", described(color, "how it is drawn; default: render.crate"))]))
        let wall = object(required: ["from", "to", "radius"], [
            ("from", vector(magnitude: Limits.coordinate, "px")), ("to", vector(magnitude: Limits.coordinate, "px; not equal to from")),
            ("radius", number(Limits.wallRadius, "half the thickness, px")),
        ] + surface)
        let point = vector(0...Limits.coordinate, "px")
        return JSONText.object([
            ("$schema", JSONText.string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", JSONText.string("scene.schema.json")),
            ("title", JSONText.string("CrateDrop scene")),
            ("description", JSONText.string("A crate-drop scene. Units: pixels, seconds, radians; y points up. See README, \"Scene files\".")),
            ("type", JSONText.string("object")),
            ("required", JSONText.array([JSONText.string("world"), JSONText.string("gravity")])),
            ("additionalProperties", "false"),
            ("properties", JSONText.object([
                ("$schema", described(JSONText.object([("type", JSONText.string("string"))]), "this schema, for editors")),
                ("name", described(JSONText.object([("type", JSONText.string("string"))]), "default: the file name")),
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
                    ("seed", integer(0...Int.max, "SplitMix64 seed (up to 2^64 − 1)", maximum: "18446744073709551615")),
                    ("size", vector(Limits.size, "[smallest, largest] side, px")),
                    ("density", number(Limits.density, "mass per px²")),
                    ("gap", number(Limits.gap, "px between cells; default 1")),
                    ("region", object(required: ["min", "max"], [("min", point), ("max", point)])),
                ] + surface + [("colors", described(JSONText.object([
                    ("type", JSONText.string("array")), ("items", color),
                    ("minItems", String(Limits.paletteColors.lowerBound)), ("maxItems", String(Limits.paletteColors.upperBound)),
                ]), "dealt out in turn: crate i gets colors[i mod count]; default: render.crate"))])),
                ("tumbler", object(required: ["center", "size", "angular_velocity", "radius"], [
                    ("center", vector(magnitude: Limits.coordinate, "px")), ("size", vector(Limits.size, "px")),
                    ("angular_velocity", number(magnitude: Limits.angularSpeed, "rad/s")),
                    ("radius", number(Limits.wallRadius, "px")),
                ] + surface)),
                ("spatial_hash", object(required: ["cell_size", "cells"], [
                    ("cell_size", number(Limits.hashCellSize, "px")), ("cells", integer(Limits.hashCells, "hash table buckets")),
                ])),
                ("sleep_time", number(Limits.sleepTime, "seconds at rest before a body sleeps; absent: never")),
                ("render", object(required: [], [
                    ("size", described(JSONText.object([
                        ("type", JSONText.string("array")), ("minItems", "2"), ("maxItems", "2"),
                        ("items", integer(Limits.imageSide, "px")),
                    ]), "frame width and height, px; default: the shape of the view (or the world), "
                        + "the longer side \(RenderDefaults.defaultLongSide) px, both sides even")),
                    ("background", color), ("crate", color), ("wall", color),
                    ("view", described(object(required: ["min", "max"], [
                        ("min", vector(magnitude: Limits.coordinate, "px")), ("max", vector(magnitude: Limits.coordinate, "px")),
                    ]), "the part of the world shown, fitted keeping its aspect ratio; default: the whole world")),
                ])),
            ])),
        ])
    }

    /// Friction and elasticity: optional, inherited from the scene's `defaults` block, else `Surface.standard`.
    static let surface = [
        ("friction", number(Limits.friction, "default: defaults.friction, else \(plain(Surface.standard.friction))")),
        ("elasticity", number(Limits.elasticity, "default: defaults.elasticity, else \(plain(Surface.standard.elasticity))")),
    ]

    /// `value` as a scene file would write it: `0`, not `0.0`.
    static func plain(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)" }

    /// `schema` with a JSON Schema `default` annotation (editors offer it).
    static func withDefault(_ schema: String, _ value: Double) -> String {
        String(schema.dropLast()) + ",\"default\":" + plain(value) + "}"
    }

    static let color = JSONText.object([("type", JSONText.string("string")), ("pattern", JSONText.string("^#[0-9a-fA-F]{6}$"))])

    static func described(_ schema: String, _ text: String) -> String {
        guard !text.isEmpty else { return schema }
        return String(schema.dropLast()) + ",\"description\":" + JSONText.string(text) + "}"
    }

    static func number(_ range: ClosedRange<Double>, _ text: String) -> String {
        // Validation's rule: a range starting above 0 is inclusive; "> 0" is reported for zero.
        described(JSONText.object([("type", JSONText.string("number")), ("minimum", JSONText.number(range.lowerBound)),
                                   ("maximum", JSONText.number(range.upperBound))]), text)
    }

    static func number(magnitude: Double, _ text: String) -> String { number(-magnitude...magnitude, text) }

    static func integer(_ range: ClosedRange<Int>, _ text: String, maximum: String? = nil) -> String {
        described(JSONText.object([("type", JSONText.string("integer")), ("minimum", String(range.lowerBound)),
                                   ("maximum", maximum ?? String(range.upperBound))]), text)
    }

    static func vector(_ range: ClosedRange<Double>, _ text: String) -> String {
        described(JSONText.object([("type", JSONText.string("array")), ("minItems", "2"), ("maxItems", "2"),
                                   ("items", number(range, ""))]), text)
    }

    static func vector(magnitude: Double, _ text: String) -> String { vector(-magnitude...magnitude, text) }

    static func array(of item: String, maxItems: Int?) -> String {
        JSONText.object([("type", JSONText.string("array")), ("items", item)] + (maxItems.map { [("maxItems", String($0))] } ?? []))
    }

    /// A crate's schema with its shape's own keys: a circle needs `radius` and takes no `size`,
    /// a box (the default) the other way round.
    static func shaped(_ crate: String) -> String {
        func needs(_ key: String, not other: String) -> String {
            JSONText.object([("required", JSONText.array([JSONText.string(key)])),
                             ("not", JSONText.object([("required", JSONText.array([JSONText.string(other)]))]))])
        }
        let isCircle = JSONText.object([("properties", JSONText.object([("shape", JSONText.object([("const", JSONText.string("circle"))]))])),
                                        ("required", JSONText.array([JSONText.string("shape")]))])
        return String(crate.dropLast()) + ",\"if\":" + isCircle + ",\"then\":" + needs("radius", not: "size")
            + ",\"else\":" + needs("size", not: "radius") + "}"
    }

    static func object(required: [String], _ properties: [(String, String)]) -> String {
        JSONText.object([
            ("type", JSONText.string("object")), ("additionalProperties", "false"),
            ("required", JSONText.array(required.map { JSONText.string($0) })),
            ("properties", JSONText.object(properties)),
        ])
    }

    /// Two-space indentation of compact JSON text (strings left as they are).
    static func pretty(_ compact: String) -> String {
        var out = "", depth = 0, inString = false, escaped = false
        func newline() { out += "\n" + String(repeating: "  ", count: depth) }
        for character in compact {
            if inString {
                out.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true; out.append(character)
            case "{", "[": depth += 1; out.append(character); newline()
            case "}", "]": depth -= 1; newline(); out.append(character)
            case ",": out.append(character); newline()
            case ":": out += ": "
            default: out.append(character)
            }
        }
        return out
    }
}
