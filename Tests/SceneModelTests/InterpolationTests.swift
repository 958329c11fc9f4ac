import SceneModel
import Testing

@Suite struct InterpolationTests {
    static func body(_ id: UInt64, x: Double, angle: Double = 0) -> BodyState {
        BodyState(id: BodyID(id), position: Vec2(x, 10), angle: angle, velocity: Vec2(x, 0), angularVelocity: 0)
    }

    @Test func blendsMatchingBodiesAndResetsNewOnes() {
        let previous = WorldSnapshot(step: 4, bodies: [Self.body(1, x: 0, angle: 1), Self.body(2, x: 100), Self.body(3, x: 50)])
        // Body 2 was removed and body 4 added between the two snapshots.
        let current = WorldSnapshot(step: 5, bodies: [Self.body(1, x: 8, angle: 2), Self.body(3, x: 54), Self.body(4, x: 500)])
        let blended = WorldSnapshot.interpolated(from: previous, to: current, alpha: 0.25)
        #expect(blended.bodies.map(\.id.rawValue) == [1, 3, 4])
        #expect(blended.bodies.map(\.position.x) == [2, 51, 500])
        #expect(blended.bodies[0].angle == 1.25)
        #expect(blended.bodies[0].velocity.x == 2)
    }

    @Test func alphaZeroOrEqualStepsGiveTheCurrentState() {
        let previous = WorldSnapshot(step: 4, bodies: [Self.body(1, x: 0)])
        let current = WorldSnapshot(step: 5, bodies: [Self.body(1, x: 8)])
        #expect(WorldSnapshot.interpolated(from: previous, to: current, alpha: 0) == current)
        #expect(WorldSnapshot.interpolated(from: current, to: current, alpha: 0.5) == current)
    }
}
