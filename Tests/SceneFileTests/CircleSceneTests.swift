@testable import SceneFile
import SceneModel
import TestSupport
import Testing

/// Circles in scene files: `{"shape": "circle", "center", "radius", "mass"}`, checked like boxes.
@Suite struct CircleSceneTests {
    /// Every line the loader reports, as `SceneAuthoringTests` reads them.
    static func report(_ text: String) -> [String] { SceneAuthoringTests.report(text) }

    static func scene(crates: String) -> String {
        #"{"world": [200, 200], "gravity": [0, -1000], "crates": [\#(crates)]}"#
    }

    @Test func aCircleDecodesWithItsRadius() throws {
        let scene = try SceneLoader.parse(Array(Self.scene(crates: #"{"shape": "circle", "center": [50, 60], "radius": 7.5, "mass": 2}"#).utf8),
                                          file: "Scenes/x.json")
        #expect(scene.crates.map(\.shape) == [.circle(radius: 7.5)])
        #expect(scene.crates[0].size == Vec2(15, 15))
    }

    @Test(arguments: [
        (#"{"shape": "circle", "center": [50, 60], "size": [10, 10], "mass": 2}"#, "crates[0].size: unknown key"),
        (#"{"shape": "circle", "center": [50, 60], "mass": 2}"#, "crates[0].radius: is missing"),
        (#"{"shape": "circle", "center": [50, 60], "radius": 0, "mass": 2}"#, "crates[0].radius: must be"),
        (#"{"center": [50, 60], "size": [10, 10], "radius": 5, "mass": 2}"#, "crates[0].radius: unknown key"),
        (#"{"shape": "disc", "center": [50, 60], "radius": 5, "mass": 2}"#, #"crates[0].shape: must be one of "box", "circle""#),
    ])
    func badCirclesAreNamedByField(crate: String, message: String) {
        let lines = Self.report(Self.scene(crates: crate))
        #expect(lines.contains { $0.contains(message) }, "\(lines)")
    }

    /// Overlap limits and wall warnings see a circle as a disc, not as its bounding square.
    @Test func circlesOverlapByTheirTrueShape() {
        // Two discs whose bounding squares overlap at the corner but which stay apart.
        let apart = Self.report(Self.scene(crates: """
            {"shape": "circle", "center": [50, 50], "radius": 10, "mass": 1},
            {"shape": "circle", "center": [64, 64], "radius": 10, "mass": 1}
            """))
        #expect(apart.isEmpty, "\(apart)")
        // A disc reaching a slanted wall's capsule only at its true edge is warned about; one
        // whose bounding square alone reaches it is not.
        let walls = #""walls": [{"from": [0, 0], "to": [100, 100], "radius": 1}], "#
        let touching = Self.report(#"{"world": [200, 200], "gravity": [0, -1000], \#(walls)"crates": [{"shape": "circle", "center": [60, 45], "radius": 10, "mass": 1}]}"#)
        #expect(touching.contains { $0.contains("crates[0]: starts overlapping walls[0]") }, "\(touching)")
        let clear = Self.report(#"{"world": [200, 200], "gravity": [0, -1000], \#(walls)"crates": [{"shape": "circle", "center": [72, 52], "radius": 10, "mass": 1}]}"#)
        #expect(clear.isEmpty, "\(clear)")
    }
}
