import Physics
import Rollback
import SceneModel
import Testing

@Suite struct RollbackTests {
    /// The player's own inputs on time, the remote ones late: after each late input the session
    /// rolls back and simulates forward again, and at the end its world is bit for bit the world
    /// of a run that had every input on time.
    @Test func lateInputsRollBackToTheWorldTheyWouldHaveMade() throws {
        try #require(World.canSaveState, "link CrateDrop's Chipmunk (scripts/chipmunk-library): rollback restores saved states")
        let local: [(Int, BodyInput)] = [(10, .impulse(Vec2(2000, 1500), at: nil)), (90, .velocity(Vec2(-150, 0)))]
        let remote: [(step: Int, arrives: Int, input: BodyInput)] = [
            (30, 45, .impulse(Vec2(-300, 800), at: nil)),
            (60, 100, .hold(force: Vec2(0, 30000), at: nil, torque: 0, steps: 20)),
        ]
        let session = RollbackSession(world: try makeArena())
        for (step, input) in local { try session.receive(input, for: BodyID(1), at: step) }
        for _ in 0..<240 {
            for late in remote where late.arrives == session.world.stepCount {
                try session.receive(late.input, for: BodyID(2), at: late.step)
            }
            try session.advance()
        }
        #expect(session.rollbacks == 2 && session.resimulatedSteps == 15 + 40)

        let onTime = try makeArena()
        var all = local.map { ($0.0, BodyID(1), $0.1) } + remote.map { ($0.step, BodyID(2), $0.input) }
        all.sort { $0.0 < $1.0 }
        for step in 0..<240 {
            for (due, body, input) in all where due == step { try onTime.apply(input, to: body) }
            onTime.step()
        }
        #expect(session.world.stateHash == onTime.stateHash)
        #expect(session.world.snapshot() == onTime.snapshot())
    }

    @Test func anInputOlderThanTheWindowIsRefused() throws {
        try #require(World.canSaveState, "link CrateDrop's Chipmunk (scripts/chipmunk-library): rollback restores saved states")
        let session = RollbackSession(world: try makeArena(), window: 10)
        for _ in 0..<30 { try session.advance() }
        #expect(throws: StateError.self) { try session.receive(.velocity(Vec2(1, 0)), for: BodyID(1), at: 5) }
    }
}
