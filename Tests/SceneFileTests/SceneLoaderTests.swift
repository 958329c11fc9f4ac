import SceneFile
import SceneModel
import TestSupport
import Testing

@Suite struct SceneLoaderTests {
    /// The classic demo's view frames (x, y, w, h), y down from the top left of a 300x300 view.
    static let bookFrames: [(Double, Double, Double, Double)] = [
        (0, 0, 32, 32), (32, 0, 32, 32), (64, 0, 64, 64), (128, 0, 32, 32), (0, 32, 64, 64),
    ]

    @Test func bookSceneReproducesTheClassicDemo() throws {
        let scene = try Repository.scene("book")
        #expect(scene.worldSize == Vec2(300, 300))
        #expect(scene.gravity == Vec2(0, -1000))
        #expect(scene.stepRate == 120)
        let walls = scene.allWalls()
        #expect(walls.map(\.geometry) == [.segment(from: Vec2(0, 0), to: Vec2(300, 0)), .segment(from: Vec2(300, 0), to: Vec2(300, 300)),
                                           .segment(from: Vec2(300, 300), to: Vec2(0, 300)), .segment(from: Vec2(0, 300), to: Vec2(0, 0))])
        #expect(walls.allSatisfy { $0.radius == 1 && $0.friction == 0.5 && $0.elasticity == 0.8 })
        let crates = scene.allCrates()
        #expect(crates.count == 5)
        for (crate, (x, y, w, h)) in zip(crates, Self.bookFrames) {
            #expect(crate.center == Vec2(x + w / 2, 300 - y - h / 2))
            #expect(crate.shape == .box(size: Vec2(w, h)))
            #expect(crate.mass == 100 && crate.friction == 0.5 && crate.elasticity == 0.8)
            #expect(crate.angle == 0 && crate.velocity == .zero && crate.angularVelocity == 0)
        }
    }

    @Test(arguments: ["book", "pile-100", "pile-1000", "pile-5000", "ramp", "stack", "barrels", "galton", "domino", "seesaw", "newton-cradle", "bridge", "car",
                      "hammers", "platformer", "letters"])
    func shippedScenesLoad(name: String) throws {
        let scene = try Repository.scene(name)
        #expect(scene.problems().isEmpty)
    }

    @Test func pilesHaveTheCountsTheirNamesPromise() throws {
        #expect(try Repository.scene("pile-100").allCrates().count == 100)
        #expect(try Repository.scene("pile-1000").allCrates().count == 1000)
        #expect(try Repository.scene("pile-5000").allCrates().count == 5000)
    }

    @Test func missingFileIsUnreadable() {
        #expect {
            try SceneLoader.load(path: "/nonexistent/x.json")
        } throws: { error in
            guard case let .unreadable(file, reason)? = error as? SceneLoadError else { return false }
            return file == "/nonexistent/x.json" && reason == "No such file or directory"
        }
    }
}

@Suite struct SceneShapeTests {
    @Test func anExplicitBoxShapeDecodesAsTheDefault() throws {
        func crate(_ shapeKey: String) throws -> CrateSpec {
            let text = #"{"world": [100, 100], "gravity": [0, -10], "crates": [{"center": [50, 50], "#
                + shapeKey + #""size": [10, 4], "mass": 1, "friction": 0.5, "elasticity": 0.2}]}"#
            return try #require(SceneLoader.parse(Array(text.utf8), file: "x.json").crates.first)
        }
        let explicit = try crate(#""shape": "box", "#)
        #expect(explicit == (try crate("")))
        #expect(explicit.shape == .box(size: Vec2(10, 4)) && explicit.shape.kind == .box)
    }
}
