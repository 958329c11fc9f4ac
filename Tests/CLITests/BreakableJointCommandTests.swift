import Foundation
import TestSupport
import Testing

/// Scenes/breaking-bridge.json (issue 44): its plank joints break under a falling load, told as
/// `joint_broke` events; saved at five steps (before, at and after the break), each continues the straight
/// run's every-step lines; the synctest passes; the record replays and verifies.
@Suite struct BreakableJointCommandTests {
    @Test(.timeLimit(.minutes(3))) func theBridgeBreaks() throws {
        let events = SavedStateCommandTests.temporary("bridge-events.csv")
        defer { try? FileManager.default.removeItem(atPath: events) }
        let straight = try CLI.run(["hash", "Scenes/breaking-bridge.json", "--steps", "400", "--every", "1", "--events", events])
        #expect(straight.status == 0, "\(straight.stderr)")
        // The load lands at step 92: the joint between planks 3 and 4 (bodies 3 and 4: joint 4) breaks.
        let broke = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").filter { $0.contains(",joint_broke,") }
        #expect(broke.count == 1 && broke[0].hasPrefix("92,") && broke[0].contains(",joint_broke,3,4,-1,") && broke[0].hasSuffix(",4"), "\(broke)")
    }

    @Test(.needsSavedStates(SavedStateCommandTests.portable), .timeLimit(.minutes(3)))
    func everyContinuationOfTheBreakingBridgeAgrees() throws {
        let straight = try CLI.run(["hash", "Scenes/breaking-bridge.json", "--steps", "400", "--every", "1"])
        #expect(straight.status == 0, "\(straight.stderr)")
        let lines = straight.stdout.split(separator: "\n")
        for step in [60, 91, 92, 93, 250] {
            let state = SavedStateCommandTests.temporary("bridge-\(step).state")
            defer { try? FileManager.default.removeItem(atPath: state) }
            #expect(try CLI.run(["hash", "Scenes/breaking-bridge.json", "--steps", String(step), "--save-state", state]).status == 0)
            let continued = try CLI.run(["hash", state, "--steps", String(400 - step), "--every", "1"])
            #expect(continued.status == 0 && continued.stdout.split(separator: "\n") == Array(lines.dropFirst(step)), "saved at step \(step)")
        }
        let synctest = try CLI.run(["hash", "Scenes/breaking-bridge.json", "--steps", "400", "--synctest", "3"])
        #expect(synctest.status == 0 && synctest.stdout == "\(lines.last!)\n", "\(synctest.stderr)")
        let record = SavedStateCommandTests.temporary("bridge.rec")
        defer { try? FileManager.default.removeItem(atPath: record) }
        #expect(try CLI.run(["hash", "Scenes/breaking-bridge.json", "--steps", "400", "--record", record, "--keyframes", "100"]).status == 0)
        for from in ["0", "100", "300"] {
            let replay = try CLI.run(["replay", record, "--verify", "--from", from])
            #expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "from \(from): \(replay.stderr)")
        }
    }
}
