#if canImport(Glibc)
import Glibc
#endif
@testable import SceneFile
import SceneModel
import TestSupport
import Testing

/// What makes a first scene easy to write: defaults for surfaces and frame size, suggestions for
/// misspelled keys, every problem in one pass, and warnings for crates placed in walls.
@Suite struct SceneAuthoringTests {
    static func parse(_ text: String) throws -> Scene { try SceneLoader.parse(Array(text.utf8), file: "Scenes/x.json") }

    /// Every line `SceneLoader.check` reports, errors and warnings, as printed.
    static func report(_ text: String) -> [String] {
        do {
            return try SceneLoader.check(Array(text.utf8), file: "Scenes/x.json").warnings.map(\.description)
        } catch {
            guard case let .invalid(found) = error else { return ["unexpected: \(error)"] }
            return found.map(\.description)
        }
    }

    // MARK: Surface defaults

    @Test func bodiesAndWallsWithoutASurfaceGetTheStandardOne() throws {
        let scene = try Self.parse("""
            {"world": [200, 200], "gravity": [0, -10], "bounds": {"radius": 1},
             "walls": [{"from": [10, 50], "to": [190, 40], "radius": 2}],
             "crates": [{"center": [50, 150], "size": [10, 10], "mass": 1}],
             "generator": {"count": 2, "seed": 1, "size": [4, 8], "density": 1, "region": {"min": [100, 100], "max": [200, 200]}},
             "tumbler": {"center": [100, 100], "size": [50, 50], "angular_velocity": 1, "radius": 1}}
            """)
        #expect(Surface.standard == Surface(friction: 0.6, elasticity: 0))
        let surfaces = scene.allWalls().map { Surface(friction: $0.friction, elasticity: $0.elasticity) }
            + scene.allCrates().map { Surface(friction: $0.friction, elasticity: $0.elasticity) }
            + [Surface(friction: scene.tumbler!.friction, elasticity: scene.tumbler!.elasticity)]
        #expect(surfaces.count == 4 + 1 + 1 + 2 + 1)
        #expect(surfaces.allSatisfy { $0 == .standard })
    }

    @Test func theDefaultsBlockIsInheritedUnlessAPartGivesItsOwn() throws {
        let scene = try Self.parse("""
            {"world": [200, 200], "gravity": [0, -10], "defaults": {"friction": 0.25, "elasticity": 0.5},
             "bounds": {"radius": 1, "elasticity": 0.9},
             "walls": [{"from": [10, 50], "to": [190, 40], "radius": 2, "friction": 2}],
             "crates": [{"center": [50, 150], "size": [10, 10], "mass": 1}, {"center": [80, 150], "size": [10, 10], "mass": 1, "friction": 0}],
             "generator": {"count": 1, "seed": 1, "size": [4, 8], "density": 1, "region": {"min": [100, 100], "max": [200, 200]}},
             "tumbler": {"center": [100, 100], "size": [50, 50], "angular_velocity": 1, "radius": 1, "elasticity": 0}}
            """)
        let walls = scene.allWalls()
        #expect(walls.prefix(4).allSatisfy { $0.friction == 0.25 && $0.elasticity == 0.9 })
        #expect(walls[4].friction == 2 && walls[4].elasticity == 0.5)
        let crates = scene.allCrates()
        #expect(crates[0].friction == 0.25 && crates[0].elasticity == 0.5)
        #expect(crates[1].friction == 0 && crates[1].elasticity == 0.5)
        #expect(crates[2].friction == 0.25 && crates[2].elasticity == 0.5)
        #expect(scene.tumbler?.friction == 0.25 && scene.tumbler?.elasticity == 0)
    }

    @Test func aSceneGivingEverySurfaceDecodesAsBefore() throws {
        // The same scene with and without a defaults block: given values always win.
        let parts = #""bounds": {"radius": 1, "friction": 0.5, "elasticity": 0.8}, "crates": [{"center": [50, 150], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.8}]"#
        let plain = try Self.parse(#"{"world": [200, 200], "gravity": [0, -10], "# + parts + "}")
        let withDefaults = try Self.parse(#"{"world": [200, 200], "gravity": [0, -10], "defaults": {"friction": 3, "elasticity": 0.1}, "# + parts + "}")
        #expect(plain == withDefaults)
        #expect(plain.crates[0].friction == 0.5 && plain.crates[0].elasticity == 0.8)
    }

    @Test func aBadDefaultIsReportedOnceNotOnEveryPartInheritingIt() {
        #expect(Self.report("""
            {"world": [200, 200], "gravity": [0, -10],
             "defaults": {"friction": -1, "elasticity": 2},
             "crates": [{"center": [50, 150], "size": [10, 10], "mass": 1}], "bounds": {"radius": 1}}
            """) == [
                "Scenes/x.json:2: defaults.friction: must be in 0...1000, got -1",
                "Scenes/x.json:2: defaults.elasticity: must be in 0...1, got 2",
            ])
    }

    // MARK: Frame size

    @Test(arguments: [
        ("[300, 300]", "", 600, 600),
        ("[400, 300]", "", 600, 450),
        ("[300, 400]", "", 450, 600),
        ("[1600, 900]", "", 600, 338),
        ("[100000, 10]", "", 600, 2),
        ("[400, 400]", #", "view": {"min": [0, 0], "max": [400, 225]}"#, 600, 338),
        ("[400, 300]", #", "size": [1280, 720]"#, 1280, 720),
    ])
    func framesTakeTheShapeOfWhatTheyShowUnlessASizeIsGiven(world: String, render: String, width: Int, height: Int) throws {
        let scene = try Self.parse(##"{"world": \##(world), "gravity": [0, -10], "render": {"background": "#ffffff"\##(render)}}"##)
        #expect(scene.render.imageWidth == width && scene.render.imageHeight == height)
        let withoutRender = try Self.parse(#"{"world": \#(world), "gravity": [0, -10]}"#)
        if render.isEmpty { #expect(withoutRender.render == scene.render.with(background: RenderDefaults().background)) }
    }

    @Test(arguments: ["book", "pile-100", "pile-1000", "pile-5000", "pile-colors", "tumbler"])
    func shippedScenesKeepTheirFrameSize(name: String) throws {
        // Each gives its size, so the default does not apply; goldens drawn from them stay valid.
        let text = try String(contentsOfFile: Repository.path("Scenes/\(name).json"), encoding: .utf8)
        #expect(text.contains(#""size": ["#) && text.contains(#""render""#))
        let scene = try Repository.scene(name)
        #expect(text.contains(#""size": [\#(scene.render.imageWidth), \#(scene.render.imageHeight)]"#))
    }

    // MARK: Suggestions

    @Test(arguments: [
        // A required key misspelt: one error, not "unknown" plus "is missing".
        (#"{"center": [50, 50], "size": [10, 10], "mas": 1}"#, ["Scenes/x.json:1: crates[0].mas: unknown key 'mas' (did you mean 'mass'?)"]),
        (#"{"center": [50, 50], "szie": [10, 10], "mass": 1}"#, ["Scenes/x.json:1: crates[0].szie: unknown key 'szie' (did you mean 'size'?)"]),
        (#"{"centre": [50, 50], "size": [10, 10], "mass": 1}"#, ["Scenes/x.json:1: crates[0].centre: unknown key 'centre' (did you mean 'center'?)"]),
        // An optional key misspelt.
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "frction": 0.5}"#,
         ["Scenes/x.json:1: crates[0].frction: unknown key 'frction' (did you mean 'friction'?)"]),
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "Elasticty": 0.5}"#,
         ["Scenes/x.json:1: crates[0].Elasticty: unknown key 'Elasticty' (did you mean 'elasticity'?)"]),
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "restitution": 0.5}"#,
         ["Scenes/x.json:1: crates[0].restitution: unknown key 'restitution' (did you mean 'elasticity'?)"]),
        // A key already given is not suggested.
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "friction": 0.5, "frction": 0.5}"#,
         ["Scenes/x.json:1: crates[0].frction: unknown key (allowed: center, shape, size, angle, velocity, angular_velocity, body_type, mass, friction, elasticity, filter, sensor, color)"]),
        // A missing key that no unknown key resembles stays missing.
        (#"{"center": [50, 50], "size": [10, 10], "weight": 1}"#, [
            "Scenes/x.json:1: crates[0].mass: is missing",
            "Scenes/x.json:1: crates[0].weight: unknown key (allowed: center, shape, size, angle, velocity, angular_velocity, body_type, mass, friction, elasticity, filter, sensor, color)",
        ]),
    ])
    func misspeltKeysGetOneErrorWithASuggestion(crate: String, expected: [String]) {
        #expect(Self.report(#"{"world": [100, 100], "gravity": [0, -10], "crates": [\#(crate)]}"#) == expected)
    }

    @Test func aSuggestionOnAnotherLineReplacesTheMissingKeyThere() {
        #expect(Self.report("""
            {"world": [100, 100], "gravity": [0, -10],
             "walls": [{"from": [0, 10],
                        "too": [100, 10], "radius": 1}]}
            """) == ["Scenes/x.json:3: walls[0].too: unknown key 'too' (did you mean 'to'?)"])
    }

    @Test(arguments: [
        ("friction", "friction", 0), ("frction", "friction", 1), ("firction", "friction", 1), ("fricton", "friction", 1),
        ("", "abc", 3), ("abc", "", 3), ("kitten", "sitting", 3), ("ca", "abc", 3), ("abcdef", "badcfe", 3),
    ])
    func editDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps(a: String, b: String, distance: Int) {
        #expect(KeySuggestion.editDistance(a, b) == distance)
        #expect(KeySuggestion.editDistance(b, a) == distance)
    }

    @Test func farKeysGetNoSuggestion() {
        #expect(KeySuggestion.closest(to: "spin", among: ["name", "world", "gravity"]) == nil)
        #expect(KeySuggestion.closest(to: "sizes", among: ["size", "seed"]) == "size")
        #expect(KeySuggestion.closest(to: "frictn", among: ["friction"]) == "friction")
        #expect(KeySuggestion.closest(to: "fric", among: ["friction"]) == nil)
    }

    // MARK: One pass

    @Test func structuralSceneAndWallProblemsComeInOnePass() {
        let heap = Array(repeating: #"{"center": [150, 150], "size": [10, 10], "mass": 1}"#, count: 10).joined(separator: ", ")
        let text = """
            {"world": [300, 300], "gravity": [0, -10], "step_rate": 0,
             "walls": [{"from": [0, 100], "to": [300, 100], "radius": 2}],
             "crates": [
               {"center": [50, 50], "size": [10, 10], "mass": 1, "spin": 1},
               {"center": [50, 100], "size": [20, 20], "mass": 1},
               {"center": [500, 50], "size": [10, 10], "mass": 1},
               \(heap)
             ]}
            """
        #expect(Array(Self.report(text).prefix(4)) == [
                "Scenes/x.json:1: step_rate: must be in 1...100000, got 0",
                "Scenes/x.json:4: crates[0].spin: unknown key (allowed: center, shape, size, angle, velocity, angular_velocity, body_type, mass, friction, elasticity, filter, sensor, color)",
                "Scenes/x.json:5: warning: crates[1]: starts overlapping walls[0] by 12 px, lying across its centre line: "
                    + "Chipmunk pushes it out the shorter way, which may be the wall's far side",
                "Scenes/x.json:6: crates[2].center: [500, 50] is outside the world (0...300, 0...300)",
            ])
        // The ten crates on one spot: each overlaps the nine others; the first five are named.
        let crowded = Self.report(text).dropFirst(4)
        #expect(crowded.count == 5)
        #expect(crowded.first == "Scenes/x.json:7: crates[3]: starts overlapping more than 8 other crates (crates[4], crates[5], crates[6], …); "
            + "at most 8: every overlap is a contact Chipmunk resolves in every step, and a heap of them makes a step take minutes")
    }

    // MARK: Crates in walls

    @Test func cratesOverlappingWallsAreWarningsNamingBodyAndWall() throws {
        let (scene, warnings) = try SceneLoader.check(Array("""
            {"world": [300, 200], "gravity": [0, -10], "bounds": {"radius": 2},
             "walls": [{"from": [0, 100], "to": [300, 100], "radius": 5}],
             "crates": [
               {"center": [50, 150], "size": [20, 20], "mass": 1},
               {"center": [150, 114], "size": [20, 20], "mass": 1},
               {"center": [250, 195], "size": [20, 20], "mass": 1},
               {"center": [12, 50], "size": [20, 20], "mass": 1, "angle": 0.7853981633974483},
               {"center": [150, 65], "size": [20, 20], "mass": 1}
             ],
             "tumbler": {"center": [150, 40], "size": [60, 40], "angular_velocity": 1, "radius": 1}}
            """.utf8), file: "Scenes/x.json")
        #expect(scene.crates.count == 5)
        #expect(warnings.map(\.description) == [
            "Scenes/x.json:5: warning: crates[1]: starts overlapping walls[0] by 1 px",
            // Reaching past the world's edge (the bounds' centre line): 5 px out, and the radius.
            "Scenes/x.json:6: warning: crates[2]: starts overlapping bounds (top wall) by 7 px, lying across its centre line: "
                + "Chipmunk pushes it out the shorter way, which may be the wall's far side",
            // A corner of the turned crate, 10√2 px from its centre, reaches 2.14 px past the world's left edge.
            "Scenes/x.json:7: warning: crates[3]: starts overlapping bounds (left wall) by 4.14 px, lying across its centre line: "
                + "Chipmunk pushes it out the shorter way, which may be the wall's far side",
            "Scenes/x.json:8: warning: crates[4]: starts overlapping tumbler (top wall) by 6 px, lying across its centre line: "
                + "Chipmunk pushes it out the shorter way, which may be the wall's far side",
        ])
        #expect(warnings.allSatisfy { $0.severity == .warning })
    }

    @Test func cratesInsideTheWorldAreNotReportedAgainstTheBoundsTheyTouch() throws {
        // Touching the world's top and left edges, as the classic book scene's crates do: they reach
        // into the inner half of the bounds walls only, and Chipmunk pushes them inward.
        let (_, warnings) = try SceneLoader.check(Array("""
            {"world": [300, 300], "gravity": [0, -10], "bounds": {"radius": 2},
             "crates": [{"center": [10, 290], "size": [20, 20], "mass": 1}, {"center": [150, 150], "size": [20, 20], "mass": 1, "angle": 0.5}]}
            """.utf8), file: "Scenes/x.json")
        #expect(warnings.isEmpty)
        for name in ["book", "pile-100", "pile-colors", "tumbler", "ramp", "stack"] {
            #expect(try SceneLoader.check(path: Repository.path("Scenes/\(name).json")).warnings.isEmpty, "\(name)")
        }
    }

    @Test func generatedCratesInAWallAreNamedByTheirNumber() throws {
        // A wall through the centres of the generator's first row (cells of 16 px from a gap of 1).
        let (scene, warnings) = try SceneLoader.check(Array("""
            {"world": [200, 200], "gravity": [0, -10],
             "walls": [{"from": [0, 9], "to": [200, 9], "radius": 1}],
             "generator": {"count": 3, "seed": 1, "size": [10, 10], "density": 1, "gap": 1}}
            """.utf8), file: "Scenes/x.json")
        let crates = scene.allCrates()
        #expect(crates.map(\.center.y) == [9, 9, 9])
        // Each crate reaches half its turned height above and below the wall's line.
        #expect(warnings.map(\.description) == crates.enumerated().map { i, crate in
            let reach = 5 * (abs(cos(crate.angle)) + abs(sin(crate.angle))) + 1
            return "Scenes/x.json:3: warning: generator: generated crate \(i) starts overlapping walls[0] by \((reach * 100).rounded() / 100) px, "
                + "lying across its centre line: Chipmunk pushes it out the shorter way, which may be the wall's far side"
        })
    }
}

extension RenderDefaults {
    func with(background: RGB) -> RenderDefaults {
        var copy = self
        copy.background = background
        return copy
    }
}
