import SceneFile
import SceneModel
import Testing

/// Polygons, segments, polygon walls, filters, sensors and the plain look in scene files: read as
/// written, and every bad value refused with its line, path and reason before any step.
@Suite struct ShapeSceneTests {
    static func parse(_ text: String) throws -> Scene { try SceneLoader.parse(Array(text.utf8), file: "Scenes/x.json") }

    static func diagnostics(crate: String = "", wall: String = "") -> [String] {
        let text = """
            {"world": [100, 100], "gravity": [0, -10],
              "walls": [\(wall)],
              "crates": [\(crate)]
            }
            """
        return SceneValidationTests.diagnostics(text)
    }

    @Test func theNewShapesAndSettingsAreReadAsWritten() throws {
        let scene = try Self.parse("""
            {"world": [100, 100], "gravity": [0, -10],
             "walls": [{"shape": "polygon", "vertices": [[0, 0], [40, 0], [0, 20]], "radius": 0.5, "color": "#102030",
                        "filter": {"categories": 2}, "sensor": true}],
             "crates": [{"shape": "polygon", "center": [60, 50], "vertices": [[-5, -5], [5, -5], [0, 6]], "mass": 1},
                        {"shape": "segment", "center": [60, 80], "a": [-10, 0], "b": [10, 0], "radius": 2, "mass": 1,
                         "filter": {"group": 7, "mask": 5}}],
             "render": {"look": "plain"}}
            """)
        #expect(scene.walls[0].geometry == .polygon(vertices: [Vec2(0, 0), Vec2(40, 0), Vec2(0, 20)]))
        #expect(scene.walls[0].radius == 0.5 && scene.walls[0].color == RGB(0x10, 0x20, 0x30))
        #expect(scene.walls[0].collision == CollisionSettings(filter: ShapeFilter(categories: 2), sensor: true))
        #expect(scene.crates[0].shape == .polygon(vertices: [Vec2(-5, -5), Vec2(5, -5), Vec2(0, 6)], radius: 0))
        #expect(scene.crates[1].shape == .segment(a: Vec2(-10, 0), b: Vec2(10, 0), radius: 2))
        #expect(scene.crates[1].collision.filter == ShapeFilter(group: 7, categories: .max, mask: 5))
        #expect(scene.render.look == .plain)
    }

    @Test(arguments: [
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 0], [10, 0], [2, 2], [0, 10]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices[2]: makes the polygon concave"),
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 0], [10, 0], [20, 0], [0, 10]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices[1]: lies on the line through its neighbours"),
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 0], [10, 0], [10, 0], [0, 10]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices[2]: repeats vertex 1"),
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 10], [6, -8], [-10, 3], [10, 3], [-6, -8]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices: the polygon crosses itself"),
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 0], [10, 0]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices: a polygon needs 3...32 vertices, got 2"),
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 0], [0.001, 0], [0, 0.001]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices: the polygon's area is"),
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 0], [1e9, 0], [0, 10]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices[1][0]: must be in -100000...100000, got 1000000000"),
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 0], [10, 0], [0, 10]], "radius": -1, "mass": 1}"#,
         "Scenes/x.json:3: crates[0].radius: must be in 0...10000, got -1"),
        (#"{"shape": "polygon", "center": [50, 50], "vertices": [[0, 0], [10, 0], [0]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices[2]: must be an array of two numbers [x, y], got an array"),
        (#"{"shape": "segment", "center": [50, 50], "a": [1, 1], "b": [1, 1], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].b: a segment must be at least 0.01 px long"),
        (#"{"shape": "segment", "center": [50, 50], "a": [1, 1], "mass": 1}"#, "Scenes/x.json:3: crates[0].b: is missing"),
        (#"{"shape": "segmnt", "center": [50, 50], "a": [1, 1], "b": [2, 2], "mass": 1}"#,
         #"Scenes/x.json:3: crates[0].shape: must be one of "box", "circle", "polygon", "segment", "outline", got "segmnt" (did you mean "segment"?)"#),
        (#"{"center": [50, 50], "size": [1, 1], "mass": 1, "filter": {"mask": 4294967296}}"#,
         "Scenes/x.json:3: crates[0].filter.mask: must be a whole number in 0...4294967295 (32 bits), got 4294967296"),
        (#"{"center": [50, 50], "size": [1, 1], "mass": 1, "filter": {"group": -1}}"#,
         "Scenes/x.json:3: crates[0].filter.group: must be a whole number in 0...4294967295 (32 bits), got -1"),
        (#"{"center": [50, 50], "size": [1, 1], "mass": 1, "filter": {"grup": 1}}"#,
         "Scenes/x.json:3: crates[0].filter.grup: unknown key 'grup' (did you mean 'group'?)"),
        (#"{"center": [50, 50], "size": [1, 1], "mass": 1, "sensor": 1}"#,
         "Scenes/x.json:3: crates[0].sensor: must be true or false, got a number"),
        (#"{"shape": "circle", "center": [50, 50], "radius": 1, "vertices": [[0, 0], [1, 0], [0, 1]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices: unknown key"),
    ])
    func badBodiesAreRefusedWithLineAndPath(crate: String, expected: String) {
        let found = Self.diagnostics(crate: crate)
        #expect(found.count == 1 && found.first?.hasPrefix(expected) == true, "\(found)")
    }

    @Test(arguments: [
        (#"{"shape": "polygon", "vertices": [[0, 0], [10, 0], [5, 5], [10, 10], [0, 10]]}"#,
         "Scenes/x.json:2: walls[0].vertices[2]: makes the polygon concave"),
        (#"{"shape": "polygon", "vertices": [[0, 0], [10, 0], [0, 10]], "from": [0, 0]}"#,
         "Scenes/x.json:2: walls[0].from: unknown key"),
        (#"{"shape": "polygon", "vertices": [[0, 0], [2e6, 0], [0, 10]]}"#,
         "Scenes/x.json:2: walls[0].vertices[1][0]: must be in -1000000...1000000"),
        (#"{"shape": "wedge", "vertices": [[0, 0], [10, 0], [0, 10]]}"#,
         #"Scenes/x.json:2: walls[0].shape: must be one of "segment", "polygon", "outline", got "wedge""#),
    ])
    func badWallsAreRefusedWithLineAndPath(wall: String, expected: String) {
        let found = Self.diagnostics(wall: wall)
        #expect(found.first?.hasPrefix(expected) == true, "\(found)")
    }

    @Test func aPolygonFarFromItsCentreIsWarnedAbout() {
        func warnings(_ crate: String) -> [String] {
            SceneAuthoringTests.report(#"{"world": [100, 100], "gravity": [0, -10],"# + "\n" + #""crates": [\#(crate)]}"#)
        }
        let far = warnings( #"{"shape": "polygon", "center": [50, 50], "vertices": [[10, 10], [20, 10], [15, 20]], "mass": 1}"#)
        #expect(far.count == 1 && far[0].hasPrefix("Scenes/x.json:2: warning: crates[0].vertices: the polygon's centroid is at [15, 13.33]"))
        let centred = warnings(#"{"shape": "polygon", "center": [50, 50], "vertices": [[-5, -3], [5, -3], [0, 6]], "mass": 1}"#)
        #expect(centred.isEmpty, "\(centred)")
    }

    @Test func aBadLookIsRefused() {
        let found = SceneValidationTests.diagnostics(#"{"world": [100, 100], "gravity": [0, -10], "render": {"look": "wood"}}"#)
        #expect(found == [#"Scenes/x.json:1: render.look: must be one of "crate", "plain", got "wood""#])
    }
}
