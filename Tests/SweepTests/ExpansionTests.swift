import Foundation
import SceneFile
import SceneModel
import Sweep
import Testing

/// Samples from axes: a grid counts like nested loops (the last axis fastest); a random sample
/// is a function of the seed and the index alone; values reach the scene bit for bit.
@Suite struct ExpansionTests {
    static func spec(_ fixture: SweepFixture, axes: String, sample: String = "") throws -> SweepSpec {
        try fixture.load("""
            { "scene": "\(try fixture.smallPile())", "seconds": 0.25, \(sample) "axes": [\(axes)] }
            """)
    }

    static func values(_ sample: Sample) -> [String] {
        sample.parameters.map { parameter in
            if case let .number(_, literal) = parameter.value.kind { literal } else { "\(parameter.value.kind)" }
        }
    }

    @Test func aGridCountsLikeNestedLoops() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let spec = try Self.spec(fixture, axes: """
            { "field": "generator.seed", "range": { "from": 5, "to": 9, "step": 2 } },
            { "field": "generator.friction", "spaced": { "from": 0.1, "to": 0.7, "count": 3 } }
            """)
        #expect(spec.sampleCount == 9)
        #expect((0..<9).map { Self.values(spec.sample($0)) } == [
            ["5", "0.1"], ["5", "0.4"], ["5", "0.7"], ["7", "0.1"], ["7", "0.4"], ["7", "0.7"], ["9", "0.1"], ["9", "0.4"], ["9", "0.7"],
        ])
        let scene = try spec.inputs(for: spec.sample(4)).scene
        #expect(scene.generator?.seed == 7 && scene.generator?.friction == 0.4)
    }

    @Test func aRandomSampleDependsOnlyOnSeedAndIndex() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let axes = """
            { "field": "generator.seed", "range": { "from": 0, "to": 1000000 } },
            { "field": "generator.friction", "between": [0.2, 0.9] },
            { "field": "seconds", "values": [0.25, 0.5] }
            """
        let spec = try Self.spec(fixture, axes: axes, sample: #""sample": { "kind": "random", "count": 50, "seed": 7 },"#)
        let again = try Self.spec(fixture, axes: axes, sample: #""sample": { "kind": "random", "count": 5000, "seed": 7 },"#)
        let other = try Self.spec(fixture, axes: axes, sample: #""sample": { "kind": "random", "count": 50, "seed": 8 },"#)
        #expect(spec.sampleCount == 50)
        for index in [0, 1, 17, 49] {
            #expect(Self.values(spec.sample(index)) == Self.values(again.sample(index)))
        }
        #expect((0..<50).map { Self.values(spec.sample($0)) } != (0..<50).map { Self.values(other.sample($0)) })
        let frictions = (0..<50).map { spec.sample($0).parameters[1].value }
        for value in frictions {
            guard case let .number(number, literal) = value.kind else { Issue.record("not a number"); continue }
            #expect(number >= 0.2 && number < 0.9)
            // The literal written into the sample's scene reads back to the same bits.
            #expect(Double(literal)!.bitPattern == number.bitPattern)
        }
        #expect(Set(frictions.map { "\($0.kind)" }).count > 40)
        let inputs = try spec.inputs(for: spec.sample(3))
        guard case let .number(friction, _) = spec.sample(3).parameters[1].value.kind else { return }
        #expect(inputs.scene.generator?.friction.bitPattern == friction.bitPattern)
        #expect([30, 60].contains(inputs.steps))
    }

    @Test func aCombinationTheSceneRefusesFailsThatSampleOnly() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        // 36 crates of up to 24 px do not fit in a 200 px world, though each value alone does.
        let spec = try Self.spec(fixture, axes: """
            { "field": "generator.count", "values": [20, 36] },
            { "field": "generator.size", "values": [[10, 20], [10, 24]] }
            """)
        #expect(throws: Never.self) { try spec.inputs(for: spec.sample(0)) }
        #expect(throws: SampleError.self) { try spec.inputs(for: spec.sample(3)) }
    }

    @Test func scenePathsParseSetAndRefuse() throws {
        #expect(SceneFieldPath("crates[2].mass")?.description == "crates[2].mass")
        #expect(SceneFieldPath("a.b[1][2]")?.components == [.key("a"), .key("b"), .index(1), .index(2)])
        for bad in ["", ".a", "a.", "a[", "a[x]", "a[-1]", "a b"] { #expect(SceneFieldPath(bad) == nil, "\(bad)") }
        let document = try JSONParser.parse(#"{"crates": [{"mass": 1}], "gravity": [0, -1]}"#)
        let value = JSONValue(.number(5, literal: "5"), line: 1)
        let set = try SceneFieldPath("crates[0].mass")!.setting(value, in: document)
        guard case let .object(members) = set.kind, case let .array(crates) = members[0].value.kind,
              case let .object(crate) = crates[0].kind else { Issue.record("shape changed"); return }
        #expect(crate[0].value == value)
        #expect(throws: SceneFieldPath.SetError.self) { try SceneFieldPath("crates[3].mass")!.setting(value, in: document) }
        #expect(throws: SceneFieldPath.SetError.self) { try SceneFieldPath("gravity.x")!.setting(value, in: document) }
    }
}
