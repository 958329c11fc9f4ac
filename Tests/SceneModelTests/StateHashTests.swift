import SceneModel
import Testing

@Suite struct StateHashTests {
    @Test func fnv1aMatchesThePublishedTestVectors() {
        var empty = FNV1a64()
        #expect(empty.value == 0xcbf2_9ce4_8422_2325)
        empty.combine(byte: UInt8(ascii: "a"))
        #expect(empty.value == 0xaf63_dc4c_8601_ec8c)
    }

    /// The expected value was computed outside Swift (Python: struct.pack('<d', ...) for
    /// 1, 2, 0.5, -3, 0, 0.25, then FNV-1a 64), so this pins the documented byte layout.
    @Test func hashFollowsTheDocumentedByteLayout() {
        let body = BodyState(id: BodyID(1), position: Vec2(1, 2), angle: 0.5, velocity: Vec2(-3, 0),
                             angularVelocity: 0.25)
        let hash = StateHash(WorldSnapshot(step: 7, bodies: [body]))
        #expect(hash.description == "777b286bb1d37c70")
    }

    @Test func emptyWorldHashesToTheOffsetBasis() {
        #expect(StateHash(WorldSnapshot(step: 0, bodies: [])).description == "cbf29ce484222325")
    }

    @Test func hashIgnoresStepButSeesEveryStateField() {
        let base = BodyState(id: BodyID(1), position: Vec2(1, 2), angle: 0.5, velocity: Vec2(-3, 0),
                             angularVelocity: 0.25)
        let reference = StateHash(WorldSnapshot(step: 1, bodies: [base]))
        #expect(StateHash(WorldSnapshot(step: 99, bodies: [base])) == reference)

        let changes: [(inout BodyState) -> Void] = [
            { $0.position.x = $0.position.x.nextUp }, { $0.position.y = $0.position.y.nextUp },
            { $0.angle = $0.angle.nextUp }, { $0.velocity.x = $0.velocity.x.nextUp },
            { $0.velocity.y = $0.velocity.y.nextUp }, { $0.angularVelocity = $0.angularVelocity.nextUp },
        ]
        for change in changes {
            var changed = base
            change(&changed)
            #expect(StateHash(WorldSnapshot(step: 1, bodies: [changed])) != reference)
        }
    }

    @Test func hexRoundTripsWithLeadingZeros() {
        let hash = StateHash(value: 0x00ab)
        #expect(hash.description == "00000000000000ab")
        #expect(StateHash(hex: hash.description) == hash)
        #expect(StateHash(hex: "xyz") == nil)
    }
}

@Suite struct RGBTests {
    @Test func hexTextReadsBackToTheSameColour() {
        for color in [RGB(0, 0, 0), RGB(0x0a, 0xb5, 0xff), RGB(0xf4, 0xef, 0xe6)] {
            #expect(RGB(hex: color.hex) == color)
        }
        #expect(RGB(0x0a, 0x05, 0xff).hex == "#0a05ff")
    }
}
