import Physics
import SceneModel
import Testing

@Suite struct DeterminismClassTests {
    @Test func probeSceneIsValid() {
        #expect(DeterminismClass.probeScene.problems().isEmpty)
    }

    @Test func probeGivesTheSameClassEveryTimeInOneProcess() {
        let again = DeterminismClass.measure()
        #expect(again == DeterminismClass.current)
        #expect(again.id.count == 12 && again.id.allSatisfy(\.isHexDigit))
        #expect(again.angleDigest != again.contactDigest)
    }

    @Test func backendKindMatchesTheLoadedLibrary() throws {
        let backend = PhysicsBackend.current
        let path = try #require(backend.libraryPath)
        #expect(path.contains("libchipmunk"))
        #expect((backend.kind == .portable) == (backend.buildDescription != nil))
        if backend.kind == .portable { #expect(backend.buildDescription?.contains("-ffp-contract=off") == true) }
    }
}
