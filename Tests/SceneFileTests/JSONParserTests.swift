import SceneFile
import Testing

@Suite struct JSONParserTests {
    @Test func numbersAreReadBitExactly() throws {
        for literal in ["0.1", "1e-320", "-0.0", "284.0", "1.7976931348623157e308", "5e-324", "16.04595326920587"] {
            let value = try JSONParser.parse(literal)
            guard case let .number(number, text) = value.kind else {
                Issue.record("not a number: \(literal)")
                continue
            }
            #expect(number.bitPattern == Double(literal)!.bitPattern)
            #expect(text == literal)
        }
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#""a\n\u00e9\ud83d\ude00\"""#)
        #expect(value.kind == .string("a\né😀\""))
    }

    @Test func objectsKeepKeyOrderAndLines() throws {
        let value = try JSONParser.parse("{\"b\": 1,\n \"a\": [true, null]}")
        guard case let .object(members) = value.kind else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(members[1].value.line == 2)
    }

    @Test(arguments: ["[1,]", "{\"a\":1,}", "\"\u{01}\"", "tru", "[1 2]", "\"\\x\"", "-", "1.", "1e", "\"\\ud800\""])
    func rejectsWhatRFC8259Rejects(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }
}
