import Foundation
import SceneModel
import Script
import Testing

/// A record's keyframe lines as the reader sees them, on every backend (reading needs no physics):
/// a keyframe is checked as read, kept only when asked for, and every way it can be wrong names
/// the file and line.
@Suite struct RecordKeyframeTests {
    static let header = RunRecordTests.header.replacingOccurrences(of: "}", with: #","keyframes":2}"#)

    /// A keyframe of the record's origin after `step` steps (its physics bytes are opaque to the reader).
    static func keyframe(step: Int, determinismClass: String = "0123456789ab") -> SavedStateFile {
        let origin = RunRecord.Header(sceneFile: "s.json", determinismClass: determinismClass, backend: "portable", architecture: "arm64",
                                      libc: "glibc 2.36")
        return SavedStateFile(keyframe: WorldState(step: step, gravity: Vec2(0, -10), fingerprint: 7, physics: [1, 2, 3, 4, 5]), header: origin)
    }

    static func line(step: Int, keyframe text: String) -> String {
        #"{"step":\#(step),"hash":"00000000000000fe","keyframe":"\#(text)"}"#
    }

    @Test func keyframesReadBackAndTheLastAtOrBeforeAStepIsKept() throws {
        let lines = [Self.header, RunRecordTests.scene, Self.line(step: 2, keyframe: RecordKeyframe.text(of: Self.keyframe(step: 2))),
                     Self.line(step: 4, keyframe: RecordKeyframe.text(of: Self.keyframe(step: 4))),
                     #"{"end":true,"steps":4,"hash":"00000000000000fe"}"#]
        let record = try RunRecordTests.parse(lines)
        #expect(record.header.keyframeEvery == 2 && record.keyframeSteps == [2, 4] && record.keyframe == nil)
        #expect(record.checkpoints.map(\.step) == [2, 4])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("keyframes-\(UUID().uuidString).rec").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let kept = try RunRecord.load(path: path, keyframeAtOrBefore: 3)
        #expect(kept.keyframe?.step == 2 && kept.keyframe?.line == 3 && kept.keyframe?.hash == StateHash(value: 0xfe))
        #expect(kept.keyframe?.file == Self.keyframe(step: 2))
        #expect(try RunRecord.load(path: path, keyframeAtOrBefore: 1).keyframe == nil)
    }

    @Test func badKeyframesNameTheFileAndLine() {
        let good = RecordKeyframe.text(of: Self.keyframe(step: 2))
        var flipped = Array(good)
        flipped[good.count / 2] = flipped[good.count / 2] == "A" ? "B" : "A"
        let cases: [(String, String)] = [
            (Self.line(step: 2, keyframe: String(flipped)), "r.rec:3: keyframe: the saved state is corrupt or cut short (its checksum does not match)"),
            (Self.line(step: 2, keyframe: "QUJD!"), "r.rec:3: keyframe must be base64 text"),
            (Self.line(step: 2, keyframe: " " + good), "r.rec:3: keyframe must be base64 text"),
            (#"{"step":2,"hash":"00000000000000fe","keyframe":12}"#, "r.rec:3: keyframe must be base64 text"),
            (Self.line(step: 2, keyframe: "Q0RTVEFURQo="), "r.rec:3: keyframe: the saved state is cut short"),
            (Self.line(step: 3, keyframe: good), "r.rec:3: the keyframe holds the state after step 2, not after step 3: the record contradicts itself"),
            (Self.line(step: 2, keyframe: RecordKeyframe.text(of: Self.keyframe(step: 2, determinismClass: "ba9876543210"))),
             "r.rec:3: the keyframe was made in class ba9876543210, portable backend, the record in class 0123456789ab"),
        ]
        for (line, message) in cases {
            do {
                _ = try RunRecordTests.parse([Self.header, RunRecordTests.scene, line])
                Issue.record("accepted: \(message)")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
        for every in ["0", "-1", "1.5", #""2""#, "99999999999999999999"] {
            let header = RunRecordTests.header.replacingOccurrences(of: "}", with: #","keyframes":\#(every)}"#)
            #expect(throws: RecordError.self) { try RunRecordTests.parse([header, RunRecordTests.scene]) }
        }
    }
}
