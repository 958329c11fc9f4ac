import SceneModel
import Testing

@Suite struct StateDivergenceTests {
    static let distances: [(Double, Double, UInt64)] = [
        (1.0, 1.0, 0), (1.0, 1.0.nextUp, 1), (1.0.nextDown, 1.0.nextUp, 2), (0.0, -0.0, 1),
        (Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 3), (-2.0, (-2.0).nextDown, 1),
    ]

    @Test(arguments: distances)
    func ulpsCountTheDoublesBetween(a: Double, b: Double, ulps: UInt64) {
        #expect(StateDivergence.ulps(a, b) == ulps && StateDivergence.ulps(b, a) == ulps)
    }

    @Test func farApartValuesSaturateInsteadOfTrapping() {
        #expect(StateDivergence.ulps(-Double.greatestFiniteMagnitude, .greatestFiniteMagnitude) > 1 << 62)
        #expect(StateDivergence.ulps(-.nan, .nan) > 1 << 62)
    }

    @Test func theFirstDifferingBodyAndFieldIsReported() {
        let expected = [BodyValues(id: BodyID(1), values: [1, 2, 3, 4, 5, 6]), BodyValues(id: BodyID(2), values: [1, 2, 3, 4, 5, 6])]
        var actual = expected
        actual[1].values[4] = 5.0.nextUp
        actual[1].values[5] = 7
        #expect(StateDivergence.first(expected: expected, actual: expected) == nil)
        let found = StateDivergence.first(expected: expected, actual: actual)
        #expect(found?.kind == .value(id: BodyID(2), field: "vy", expected: 5, actual: 5.0.nextUp))
        #expect(found?.description == "body 2 vy: 5.0 vs 5.000000000000001 (1 ULP apart)")
        #expect(StateDivergence.first(expected: expected, actual: [expected[0]])?.kind
            == .bodies(expected: [BodyID(1), BodyID(2)], actual: [BodyID(1)]))
    }

    @Test func negativeZeroDiffersFromZeroByItsBits() {
        let a = [BodyValues(id: BodyID(1), values: [0, 0, 0, 0, 0, 0])]
        var b = a
        b[0].values[2] = -0.0
        #expect(StateDivergence.first(expected: a, actual: b)?.kind == .value(id: BodyID(1), field: "angle", expected: 0, actual: -0.0))
    }
}
