import Foundation
import SceneFile
import Testing

@Suite struct OrderedJSONEncoderTests {
    struct Sample: Codable, Equatable {
        struct Inner: Codable, Equatable { var b: Bool; var list: [Int] }
        var zeta: String
        var alpha: Double
        var missing: String?
        var inner: Inner?
        var tiny: Double
    }

    @Test func keysKeepTheirDeclaredOrderAndAbsentOptionalsPrintAsNull() throws {
        let text = try OrderedJSONEncoder().encode(Sample(zeta: "a\"\n", alpha: 0.1 + 0.2, missing: nil, inner: .init(b: true, list: [3, -1]), tiny: 1e-300))
        #expect(text == #"{"zeta":"a\"\n","alpha":0.30000000000000004,"missing":null,"inner":{"b":true,"list":[3,-1]},"tiny":1e-300}"#)
    }

    @Test func whatItWritesDecodesBackToTheSameValueBitForBit() throws {
        let value = Sample(zeta: "é/\u{1}", alpha: Double(bitPattern: 0x3FF0_0000_0000_0001), missing: "x", inner: nil, tiny: -0.0)
        let text = try OrderedJSONEncoder().encode(value)
        let back = try JSONDecoder().decode(Sample.self, from: Data(text.utf8))
        #expect(back == value && back.alpha.bitPattern == value.alpha.bitPattern && back.tiny.sign == .minus)
    }

    @Test func nonFiniteNumbersPrintAsNull() throws {
        #expect(try OrderedJSONEncoder().encode([Double.nan, .infinity, 1]) == "[null,null,1.0]")
    }
}
