import Physics
import SceneModel
import TestSupport
import Testing

/// A world's contact events: noting them changes nothing it computes, they come in report order,
/// and a copy (or a restored world) reports what the original does.
@Suite struct ContactEventTests {
    @Test func notingEventsChangesNothingAndTheyComeInOrder() throws {
        let plain = try World(scene: Repository.scene("barrels"))
        let noting = try World(scene: Repository.scene("barrels"))
        noting.recordsContactEvents = true
        var all: [ContactEvent] = []
        for _ in 0..<480 {
            plain.step()
            noting.step()
            #expect(noting.contactEvents.allSatisfy { $0.step == noting.stepCount })
            #expect(zip(noting.contactEvents, noting.contactEvents.dropFirst()).allSatisfy { !ContactEvent.reportOrder($1, $0) })
            all += noting.contactEvents
        }
        #expect(plain.stateHash == noting.stateHash)
        #expect(plain.contactEvents.isEmpty)
        let begins = all.filter { $0.kind == .begin }
        #expect(!begins.isEmpty && begins.allSatisfy { $0.normalImpulse >= 0 && $0.point != nil && $0.a < $0.b })
        #expect(all.filter { $0.kind == .end }.allSatisfy { $0.point == nil })
        noting.recordsContactEvents = false
        noting.step()
        #expect(noting.contactEvents.isEmpty && noting.stateHash == { plain.step(); return plain.stateHash }())
    }

    @Test(.needsSavedStates(World.canSaveState)) func aCopyReportsTheEventsTheOriginalDoes() throws {
        let original = try World(scene: Repository.scene("book"))
        original.recordsContactEvents = true
        for _ in 0..<70 { original.step() }
        let copy = try original.copy()
        #expect(copy.recordsContactEvents)
        for _ in 0..<200 {
            original.step()
            copy.step()
            #expect(copy.contactEvents == original.contactEvents, "step \(original.stepCount)")
        }
    }
}
