import SceneFile
import SceneModel
import TestSupport
import Testing

@Suite struct SceneSchemaTests {
    static let path = Repository.path("Scenes/schema/scene.schema.json")

    /// The committed schema is exactly the one built from `Limits`; regenerate it with
    /// `cratedrop validate --schema > Scenes/schema/scene.schema.json` after changing a limit.
    @Test func theCommittedSchemaIsTheOneBuiltFromTheValidationLimits() throws {
        let committed = try String(contentsOfFile: Self.path, encoding: .utf8)
        #expect(committed == SceneSchema.text)
        // And it says what validation says, e.g. the mass range and the crate limit.
        #expect(committed.contains("\"minimum\": \(Limits.mass.lowerBound),\n"))
        #expect(committed.contains("\"maxItems\": \(Limits.crateCount.upperBound)\n"))
    }

    @Test func scenesMayNameTheSchemaAsAString() throws {
        let named = try SceneLoader.parse(Array(#"{"$schema": "schema/scene.schema.json", "world": [10, 10], "gravity": [0, -1]}"#.utf8),
                                          file: "s.json")
        #expect(named.worldSize == Vec2(10, 10))
        #expect(throws: SceneLoadError.self) {
            try SceneLoader.parse(Array(#"{"$schema": 3, "world": [10, 10], "gravity": [0, -1]}"#.utf8), file: "s.json")
        }
    }
}
