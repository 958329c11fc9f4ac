import SceneFile
import SceneModel
import Testing

/// Concave outlines in scene files (`"shape": "outline"`) on crates, parts and walls: read as
/// their convex parts (polygons) in Chipmunk's order, and every bad outline refused with its line,
/// path and reason before any step.
@Suite struct OutlineSceneTests {
    /// The U of `OutlineDecomposerTests` (60×40, a 20×20 slot), written clockwise from another vertex.
    static let u = "[[20, 40], [20, 20], [40, 20], [40, 40], [60, 40], [60, 0], [0, 0], [0, 40]]"
    static let uParts: [[Vec2]] = [
        [Vec2(0, 0), Vec2(20, 20), Vec2(20, 40), Vec2(0, 40)],
        [Vec2(0, 0), Vec2(40, 0), Vec2(40, 20), Vec2(20, 20)],
        [Vec2(40, 0), Vec2(60, 0), Vec2(60, 40), Vec2(40, 40)],
    ]

    @Test func anOutlineCrateIsABodyOfItsConvexPartsSharingItsMassByArea() throws {
        let scene = try ShapeSceneTests.parse("""
            {"world": [200, 200], "gravity": [0, -10],
             "crates": [{"shape": "outline", "center": [100, 100], "vertices": \(Self.u), "mass": 8, "friction": 0.3,
                         "color": "#102030", "angle": 0.5}]}
            """)
        guard case let .compound(parts) = scene.crates[0].shape else { Issue.record("\(scene.crates[0].shape)"); return }
        #expect(parts.map { $0.shape } == Self.uParts.map { .polygon(vertices: $0, radius: 0) })
        // Areas 600, 600 and 800 of 2,000.
        let masses: [Double] = [8.0 * 600 / 2000, 8.0 * 600 / 2000, 8.0 * 800 / 2000]
        #expect(parts.map { $0.mass } == masses)
        #expect(parts.allSatisfy { $0.friction == 0.3 && $0.offset == .zero && $0.angle == 0 && $0.color == nil })
        #expect(scene.crates[0].color == RGB(0x10, 0x20, 0x30) && scene.crates[0].angle == 0.5 && scene.crates[0].mass == 8)
        #expect(scene.partOrigins[0] == PartOrigins(written: [0, 0, 0], fromOutline: [true, true, true], wholeOutline: true))
    }

    @Test func anOutlinePartTakesItsPlaceAmongTheBodysParts() throws {
        let scene = try ShapeSceneTests.parse("""
            {"world": [200, 200], "gravity": [0, -10],
             "crates": [{"center": [100, 100], "shapes": [
                {"size": [10, 10], "mass": 1},
                {"shape": "outline", "vertices": \(Self.u), "mass": 4, "offset": [-30, 10], "angle": 0.25, "elasticity": 0.5},
                {"shape": "circle", "radius": 5, "offset": [0, -10], "mass": 1}]}]}
            """)
        guard case let .compound(parts) = scene.crates[0].shape else { Issue.record("\(scene.crates[0].shape)"); return }
        #expect(parts.count == 5)
        #expect(parts[0].shape == .box(size: Vec2(10, 10)) && parts[4].shape == .circle(radius: 5))
        #expect(parts[1...3].map { $0.shape } == Self.uParts.map { .polygon(vertices: $0, radius: 0) })
        #expect(parts[1...3].allSatisfy { $0.offset == Vec2(-30, 10) && $0.angle == 0.25 && $0.elasticity == 0.5 })
        let masses: [Double] = [4.0 * 600 / 2000, 4.0 * 600 / 2000, 4.0 * 800 / 2000]
        #expect(parts[1...3].map { $0.mass } == masses)
        #expect(scene.crates[0].mass == 1 + masses[0] + masses[1] + masses[2] + 1)
        #expect(scene.partOrigins[0]?.name(3) == "shapes[1] (outline part 2)" && scene.partOrigins[0]?.name(4) == "shapes[2]")
    }

    @Test func anOutlineWallIsItsConvexPolygonWallsAtItsPlace() throws {
        let scene = try ShapeSceneTests.parse("""
            {"world": [200, 200], "gravity": [0, -10],
             "walls": [{"from": [0, 0], "to": [10, 0], "radius": 1},
                       {"shape": "outline", "vertices": \(Self.u), "friction": 0.9, "surface_velocity": [5, 0]},
                       {"from": [0, 10], "to": [10, 10], "radius": 1}]}
            """)
        #expect(scene.walls.count == 5)
        #expect(scene.walls[1...3].map { $0.geometry } == Self.uParts.map { .polygon(vertices: $0) })
        #expect(scene.walls[1...3].allSatisfy { $0.friction == 0.9 && $0.radius == 0 && $0.rules.surfaceVelocity == Vec2(5, 0) })
        #expect(scene.walls[4].geometry == .segment(from: Vec2(0, 10), to: Vec2(10, 10)))
    }

    @Test(arguments: [
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [20, 20], [20, 0], [0, 20]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices[2]: the outline crosses itself: the side from vertex 0 to 1 meets the side from vertex 2 to 3"),
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [20, 20]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices: an outline needs 3...64 vertices, got 2"),
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [0.001, 0], [0, 0.001]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices: the outline's area is 5e-7 px²; at least 0.0001"),
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [1e9, 0], [0, 10]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices[1][0]: must be in -100000...100000, got 1000000000"),
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [10, 0], [20, 0], [0, 10]], "mass": 1}"#,
         "Scenes/x.json:3: crates[0].vertices[1]: lies on the line through its neighbours"),
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [10, 0], [0, 10]], "mass": -1}"#,
         "Scenes/x.json:3: crates[0].mass: must be > 0, got -1"),
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [10, 0], [0, 10]], "mass": 1, "tolerance": -1}"#,
         "Scenes/x.json:3: crates[0].tolerance: must be in 0...1000, got -1"),
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [10, 0], [0, 10]], "mass": 1, "radius": 1}"#,
         "Scenes/x.json:3: crates[0].radius: unknown key"),
        (#"{"shape": "outline", "center": [50, 50], "vertices": [[0, 0], [10, 0], [0, 10]], "mass": 1, "body_type": "kinematic"}"#,
         "Scenes/x.json:3: crates[0].body_type: unknown key"),
        (#"{"center": [50, 50], "shapes": [{"shape": "outline", "vertices": [[0, 0], [10, 10], [10, 0], [0, 10]], "mass": 1}]}"#,
         "Scenes/x.json:3: crates[0].shapes[0].vertices[2]: the outline crosses itself"),
        (#"{"center": [50, 50], "shapes": [{"shape": "outline", "vertices": [[0, 0], [10, 0], [0, 10]], "mass": -1}]}"#,
         "Scenes/x.json:3: crates[0].shapes[0].mass: must be in 0...1000000000000, got -1"),
        (#"{"center": [50, 50], "shapes": [{"shape": "outline", "vertices": [[0, 0], [10, 0], [0, 10]], "mass": 0}]}"#,
         "Scenes/x.json:3: crates[0].shapes: the parts' masses add up to 0"),
        (#"{"center": [50, 50], "shapes": [{"shape": "outlin", "vertices": [[0, 0], [10, 0], [0, 10]], "mass": 1}]}"#,
         #"Scenes/x.json:3: crates[0].shapes[0].shape: must be one of "box", "circle", "polygon", "segment", "outline", got "outlin" (did you mean "outline"?)"#),
    ])
    func badOutlinesAreRefusedWithLineAndPath(crate: String, expected: String) {
        let found = ShapeSceneTests.diagnostics(crate: crate)
        #expect(found.count == 1 && found.first?.hasPrefix(expected) == true, "\(found)")
    }

    @Test func aBodyWhoseOutlinesComeToMoreThan64PartsIsRefusedWithTheCounts() {
        // A comb of 15 teeth on a back (60 vertices), counter-clockwise; three of them on one body.
        var comb: [String] = ["[0, 0]", "[290, 0]"]
        for k in (0..<15).reversed() {
            comb += ["[\(20 * k + 10), 50]", "[\(20 * k), 50]"]
            if k > 0 { comb += ["[\(20 * k), 10]", "[\(20 * k - 10), 10]"] }
        }
        let part = #"{"shape": "outline", "mass": 1, "vertices": ["# + comb.joined(separator: ", ") + "]}"
        let found = ShapeSceneTests.diagnostics(crate: #"{"center": [50, 50], "shapes": ["# + [part, part, part].joined(separator: ", ") + "]}")
        #expect(found.count == 1 && found.first?.hasPrefix("Scenes/x.json:3: crates[0].shapes: the body has ") == true
                && found.first?.contains("parts once its outlines are decomposed (shapes[0]: ") == true
                && found.first?.hasSuffix("; a body takes at most 64") == true, "\(found)")
    }

    @Test(arguments: [
        (#"{"shape": "outline", "vertices": [[0, 0], [20, 20], [20, 0], [0, 20]]}"#,
         "Scenes/x.json:2: walls[0].vertices[2]: the outline crosses itself"),
        (#"{"shape": "outline", "vertices": [[0, 0], [2e6, 0], [0, 10]]}"#,
         "Scenes/x.json:2: walls[0].vertices[1][0]: must be in -1000000...1000000"),
        (#"{"shape": "outline", "vertices": [[0, 0], [10, 0], [0, 10]], "friction": -1}"#,
         "Scenes/x.json:2: walls[0].friction: must be in 0...1000, got -1"),
        (#"{"shape": "outline", "vertices": [[0, 0], [10, 0], [0, 10]], "radius": 1}"#,
         "Scenes/x.json:2: walls[0].radius: unknown key"),
    ])
    func badOutlineWallsAreRefusedWithLineAndPath(wall: String, expected: String) {
        let found = ShapeSceneTests.diagnostics(wall: wall)
        #expect(found.count == 1 && found.first?.hasPrefix(expected) == true, "\(found)")
    }

    @Test func anOutlinesPartsAreNotWarnedAboutButAPartOverlappingThemIs() {
        let report = SceneAuthoringTests.report("""
            {"world": [200, 200], "gravity": [0, -10],
            "crates": [{"center": [100, 100], "shapes": [{"shape": "outline", "vertices": \(Self.u), "mass": 4},
                                                         {"size": [10, 10], "offset": [50, 10], "mass": 1}]}]}
            """)
        #expect(report.count == 1 && report[0].hasPrefix("Scenes/x.json:3: warning: crates[0].shapes[1]: overlaps shapes[0] (outline part 2) by"),
                "\(report[0])")
    }
}
