import SceneFile
import SceneModel
import Testing

/// Each bad scene must give exactly the listed diagnostics: file, line, JSON path and reason.
@Suite struct SceneValidationTests {
    static let crateLine = #"{"center": [50, 50], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#

    /// A scene whose crates array holds `crate` on line 4.
    static func sceneWith(crate: String, extra: String = "") -> String {
        """
        {"world": [100, 100], "gravity": [0, -10],\(extra)
          "crates": [
            \(crateLine),
            \(crate)
          ]
        }
        """
    }

    static func diagnostics(_ text: String) -> [String] {
        do {
            _ = try SceneLoader.parse(Array(text.utf8), file: "Scenes/x.json")
            return []
        } catch {
            guard case let .invalid(found) = error else { return ["unexpected: \(error)"] }
            return found.map(\.description)
        }
    }

    @Test(arguments: [
        (#"{"center": [50, 50], "size": [10, 10], "mass": -5, "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].mass: must be > 0, got -5"),
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2, "weight": 3}"#,
         "Scenes/x.json:4: crates[1].weight: unknown key (allowed: center, shape, size, angle, velocity, angular_velocity, body_type, mass, friction, elasticity, filter, sensor, color)"),
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2, "colour": 3}"#,
         "Scenes/x.json:4: crates[1].colour: unknown key 'colour' (did you mean 'color'?)"),
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2, "color": "red"}"#,
         "Scenes/x.json:4: crates[1].color: must be a colour written #rrggbb, got \"red\""),
        (#"{"center": [50, 50], "shape": "triangle", "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].shape: must be one of \"box\", \"circle\", \"polygon\", \"segment\", \"outline\", got \"triangle\""),
        (#"{"center": [50, 50], "shape": 1, "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].shape: must be a string, got a number"),
        (#"{"center": [50, 50], "size": [10, 10], "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].mass: is missing"),
        (#"{"center": [50, 50], "size": [10, 10], "mass": "1", "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].mass: must be a number, got a string"),
        (#"{"center": [50, 50], "size": [0, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].size[0]: must be > 0, got 0"),
        (#"{"center": [50, 1e999], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].center[1]: must be a finite number, got 1e999"),
        (#"{"center": [50], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].center: must be an array of two numbers [x, y], got an array"),
        (#"{"center": [500, 50], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2}"#,
         "Scenes/x.json:4: crates[1].center: [500, 50] is outside the world (0...100, 0...100)"),
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 1.5}"#,
         "Scenes/x.json:4: crates[1].elasticity: must be in 0...1, got 1.5"),
        (#"{"center": [50, 50], "size": [10, 10], "mass": 1, "friction": 0.5, "elasticity": 0.2, "mass": 2}"#,
         "Scenes/x.json:4: column 91: invalid JSON: duplicate key \"mass\""),
        ("7", "Scenes/x.json:4: crates[1]: must be an object, got a number"),
    ])
    func badCrateIsReportedWithLineAndPath(crate: String, expected: String) {
        #expect(Self.diagnostics(Self.sceneWith(crate: crate)) == [expected])
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let crate = #"{"center": [50, 50], "size": [10, -1], "mass": 0, "friction": -1, "elasticity": 0.2}"#
        #expect(Self.diagnostics(Self.sceneWith(crate: crate)) == [
            "Scenes/x.json:4: crates[1].size[1]: must be > 0, got -1",
            "Scenes/x.json:4: crates[1].mass: must be > 0, got 0",
            "Scenes/x.json:4: crates[1].friction: must be in 0...1000, got -1",
        ])
    }

    @Test(arguments: [
        (#""step_rate": 120.5,"#, "Scenes/x.json:1: step_rate: must be a whole number, got 120.5"),
        (#""step_rate": 0,"#, "Scenes/x.json:1: step_rate: must be in 1...100000, got 0"),
        (#""iterations": -3,"#, "Scenes/x.json:1: iterations: must be in 1...1000, got -3"),
        (#""walls": [{"from": [1, 1], "to": [1, 1], "radius": 1, "friction": 0.5, "elasticity": 0.5}],"#,
         "Scenes/x.json:1: walls[0].to: a wall must have a length > 0, but from and to are both [1, 1]"),
        (#""bounds": {"radius": -1, "friction": 0.5, "elasticity": 0.5},"#, "Scenes/x.json:1: bounds.radius: must be in 0...10000, got -1"),
        (#""render": {"size": [0, 100]},"#, "Scenes/x.json:1: render.size[0]: must be in 1...16384, got 0"),
        (#""render": {"background": "red"},"#, "Scenes/x.json:1: render.background: must be a colour written #rrggbb, got \"red\""),
        (#""render": {"view": {"min": [50, 10], "max": [40, 90]}},"#, "Scenes/x.json:1: render.view: min must be below and left of max"),
        (#""render": {"view": {"min": [0, 0]}},"#, "Scenes/x.json:1: render.view.max: is missing"),
        (#""generator": {"count": 1, "seed": 1, "size": [4, 8], "density": 1, "friction": 0.5, "elasticity": 0.1, "colors": []},"#,
         "Scenes/x.json:1: generator.colors: must hold 1...256 colours, got 0"),
        (##""generator": {"count": 1, "seed": 1, "size": [4, 8], "density": 1, "friction": 0.5, "elasticity": 0.1, "colors": ["#ffffff", 3]},"##,
         "Scenes/x.json:1: generator.colors[1]: must be a colour written #rrggbb"),
        (#""generator": {"count": 10, "seed": -1, "size": [4, 8], "density": 1, "friction": 0.5, "elasticity": 0.1},"#,
         "Scenes/x.json:1: generator.seed: must be a whole number in 0...18446744073709551615"),
        (#""generator": {"count": 1000, "seed": 1, "size": [4, 8], "density": 1, "friction": 0.5, "elasticity": 0.1},"#,
         "Scenes/x.json:1: generator.count: 1000 crates of up to 8 px do not fit in the 100x100 world (at most 49)"),
        (#""tumbler": {"center": [50, 50], "size": [0, 40], "angular_velocity": 1, "radius": 1, "friction": 0.5, "elasticity": 0.1},"#,
         "Scenes/x.json:1: tumbler.size[0]: must be > 0, got 0"),
        (#""tumbler": {"center": [50, 50], "size": [40, 40], "radius": 1, "friction": 0.5, "elasticity": 0.1},"#,
         "Scenes/x.json:1: tumbler.angular_velocity: is missing"),
        (#""spatial_hash": {"cell_size": 10, "cells": 0},"#, "Scenes/x.json:1: spatial_hash.cells: must be in 1...10000000, got 0"),
        (#""sleep_time": -1,"#, "Scenes/x.json:1: sleep_time: must be > 0, got -1"),
        (#""generator": {"count": 1, "seed": 1, "size": [4, 8], "density": 1, "friction": 0.5, "elasticity": 0.1, "region": {"min": [10, 10], "max": [200, 50]}},"#,
         "Scenes/x.json:1: generator.region.max: is outside the world"),
        (#""spin": true,"#, "Scenes/x.json:1: spin: unknown key (allowed: $schema, name, world, gravity, step_rate, iterations, defaults, bounds, walls, crates, generator, tumbler, joints, spawners, spatial_hash, sleep_time, render)"),
    ])
    func badTopLevelValueIsReported(extra: String, expected: String) {
        #expect(Self.diagnostics(Self.sceneWith(crate: Self.crateLine, extra: extra)) == [expected])
    }

    @Test(arguments: [
        ("", "Scenes/x.json:1: column 1: invalid JSON: unexpected end of input, expected a value"),
        ("{\n\"world\": [1, 2],\n}", "Scenes/x.json:3: column 1: invalid JSON: unexpected '}', expected a key in quotes"),
        ("[1, 2] x", "Scenes/x.json:1: column 8: invalid JSON: unexpected 'x' after the value"),
        ("{\"a\": NaN}", "Scenes/x.json:1: column 7: invalid JSON: unexpected 'N', expected a value"),
        ("{\"a\": 01}", "Scenes/x.json:1: column 7: invalid JSON: a number must not have a leading zero"),
        ("[]", "Scenes/x.json:1: must be an object, got an array"),
        ("{}", "Scenes/x.json:1: world: is missing"),
    ])
    func syntaxAndShapeErrorsNameLineAndColumn(text: String, expected: String) {
        let found = Self.diagnostics(text)
        #expect(found.first == expected)
    }

    /// Work and output stay bounded by what a person reads (audit round 4): more inline crates
    /// than a scene may hold are refused before any is decoded; an object's unknown keys are named
    /// up to 20, then counted; a file's problems are listed up to 200, then counted.
    @Test func hostileSizesAreRefusedWithoutListingEveryPart() {
        let empties = Array(repeating: "{}", count: 100_001).joined(separator: ",")
        #expect(Self.diagnostics(#"{"world": [100, 100], "gravity": [0, -10], "crates": [\#(empties)]}"#)
                == ["Scenes/x.json:1: crates: 100001 crates in all (inline and generated); at most 100000"])
        let keys = (0..<25).map { #""k\#($0)": 1"# }.joined(separator: ", ")
        let unknown = Self.diagnostics(#"{"world": [100, 100], "gravity": [0, -10], "render": {\#(keys)}}"#)
        #expect(unknown.count == 21)
        #expect(unknown.first == "Scenes/x.json:1: render.k0: unknown key (allowed: size, background, crate, wall, look, view)")
        #expect(unknown.last == "Scenes/x.json:1: render: 5 more unknown keys (allowed: size, background, crate, wall, look, view)")
        let badCrates = Array(repeating: #"{"center": [50, 50], "size": [10, 10], "mass": -1}"#, count: 300).joined(separator: ",\n")
        let many = Self.diagnostics("{\"world\": [100, 100], \"gravity\": [0, -10], \"crates\": [\n\(badCrates)]}")
        #expect(many.count == 201)
        #expect(many.first == "Scenes/x.json:2: crates[0].mass: must be > 0, got -1")
        #expect(many.last == "Scenes/x.json: 100 more problems (the first 200 are listed)")
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let text = String(repeating: "[", count: 100_000)
        #expect(Self.diagnostics(text).first?.contains("nested deeper than 64 levels") == true)
    }
}
