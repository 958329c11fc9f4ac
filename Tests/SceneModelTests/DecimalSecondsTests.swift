import SceneModel
import Testing

@Suite struct DecimalSecondsTests {
    @Test(arguments: [
        ("10", 120, 1200), ("0.1", 120, 12), ("2.5", 7, 17), ("86400", 120, 10_368_000),
        ("0.008333333", 120, 0), ("1.", 120, -1), ("0", 60, 0), (".5", 120, 60),
    ])
    func stepsAreFloorOfSecondsTimesRate(text: String, rate: Int, expected: Int) {
        let seconds = DecimalSeconds(text)
        if expected < 0 {
            #expect(seconds == nil)
        } else {
            #expect(seconds?.steps(atRate: rate) == expected)
        }
    }

    @Test(arguments: ["", ".", "-1", "1e3", "abc", "1.2.3", " 1", "1.0000000001", "99999999999"])
    func rejectsAnythingButPlainDecimals(text: String) {
        #expect(DecimalSeconds(text) == nil)
    }

    @Test func printsAsWritten() {
        #expect(DecimalSeconds("2.05")?.description == "2.05")
        #expect(DecimalSeconds("10")?.description == "10")
    }
}
