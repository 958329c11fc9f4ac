import Foundation
import TestSupport
import Testing

/// `sweep verify` writes a sample again from the spec that made it and compares every file the
/// sample holds: an edited byte or value anywhere differs (exit 3), naming the file and the first
/// differing key, line, row or byte (issue 49: labels, meta.json and done.json went unchecked).
@Suite struct SweepVerifyTests {
    /// A change to one file of a sweep folder and what verify's `where` must then say.
    struct Edit {
        var file: String
        var change: (inout [UInt8]) -> Void
        var says: [String]
    }

    static func flip(at position: @escaping ([UInt8]) -> Int) -> (inout [UInt8]) -> Void {
        { bytes in bytes[position(bytes)] ^= 0x01 }
    }

    /// Replaces the matches of `pattern` on line `line` (from 1; nil: in the whole file). An edit
    /// that matches nothing changes nothing, which the test reports.
    static func replace(_ pattern: String, with replacement: String, line: Int? = nil) -> (inout [UInt8]) -> Void {
        { bytes in
            var lines = line == nil ? [String(decoding: bytes, as: UTF8.self)] : String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
            let index = (line ?? 1) - 1
            guard index < lines.count else { return }
            lines[index] = lines[index].replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
            bytes = Array(lines.joined(separator: "\n").utf8)
        }
    }

    /// Sets a `.npy` table's last field of its last row to 1.5.
    static func lastFloatIsOneAndAHalf(_ bytes: inout [UInt8]) { lastRowsField(endingBefore: 0)(&bytes) }

    /// Sets the 8-byte field of the last row that ends `bytes` bytes before the table's end to 1.5.
    static func lastRowsField(endingBefore bytes: Int) -> (inout [UInt8]) -> Void {
        { table in
            let end = table.count - bytes
            withUnsafeBytes(of: (1.5).bitPattern.littleEndian) { table.replaceSubrange((end - 8)..<end, with: $0) }
        }
    }

    /// The byte where a `.npy` table's rows start, plus `offset`.
    static func npyRows(plus offset: Int) -> ([UInt8]) -> Int {
        { bytes in 10 + Int(bytes[8]) + Int(bytes[9]) << 8 + offset }
    }

    static func sweep(_ folder: String, outputs: String) throws -> String {
        try """
            {
              "scene": "\(Repository.path("Scenes/pile-100.json"))",
              "seconds": 1,
              "sample": { "kind": "random", "count": 2, "seed": 36 },
              "axes": [
                { "field": "generator.seed", "range": { "from": 0, "to": 1000000 } },
                { "field": "generator.count", "values": [12] },
                { "field": "gravity", "values": [[0, -1000], [-250, -968]] }
              ],
              "outputs": \(outputs)
            }
            """.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let out = "\(folder)/out"
        let run = try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try CLI.run(["sweep", "merge", out]).status == 0)
        let verified = try CLI.run(["sweep", "verify", out, "--sample", "0"])
        #expect(verified.status == 0 && verified.stdout.contains(#""result":"identical","hash""#), "\(verified.stdout)\(verified.stderr)")
        return out
    }

    /// Applies each edit in turn (restoring the file after it) and checks verify finds it.
    static func expectEachFound(_ edits: [Edit], in out: String) throws {
        for edit in edits {
            let path = "\(out)/\(edit.file)"
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            var bytes = original
            edit.change(&bytes)
            #expect(bytes != original, "\(edit.file): the edit changes nothing")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let verify = try CLI.run(["sweep", "verify", out, "--sample", "0"])
            #expect(verify.status == 3 && verify.stdout.contains(#""result":"differs""#), "\(edit.file): \(verify.status) \(verify.stdout)")
            for text in edit.says {
                #expect(verify.stderr.contains(text), "\(edit.file): '\(text)' not in: \(verify.stderr)")
            }
            try Data(original).write(to: URL(fileURLWithPath: path))
        }
        #expect(try CLI.run(["sweep", "verify", out, "--sample", "0"]).status == 0, "restored")
    }

    @Test(.timeLimit(.minutes(5))) func anEditedByteOrValueInAnyFileOfASampleDiffers() throws {
        let folder = try SweepCommandTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = SavedStateCommandTests.portable ? #""save_state": true,"# : ""
        let out = try Self.sweep(folder, outputs: """
            { "frames": { "format": "png", "fps": 12, "size": [96, 96], "masks": true }, "trace": "npy", "events": "jsonl",
              "stats": true, "record": true, \(state) "hash_every": 30 }
            """)
        let sample = "samples/000000"
        let middle = Self.flip { $0.count / 2 }
        // The last value of a JSON Lines file's last line: `..., "key": 1.25}\n`.
        let lastValue = Self.flip { $0.count - 3 }
        var edits = [
            Edit(file: "\(sample)/scene.json", change: Self.replace(#""count": *12"#, with: #""count": 13"#), says: [#"scene.json: at "generator.count": written 13, now 12"#]),
            Edit(file: "\(sample)/hashes.txt", change: middle, says: ["hashes.txt line 3: written"]),
            Edit(file: "\(sample)/trace.npy", change: Self.lastFloatIsOneAndAHalf, says: ["trace.npy: row ", "field box_y1"]),
            Edit(file: "\(sample)/trace.npy", change: middle, says: ["trace.npy: row "]),
            Edit(file: "\(sample)/trace.meta.json", change: Self.replace(#""step_rate": *120"#, with: #""step_rate": 60"#), says: [#"trace.meta.json: at "step_rate""#]),
            Edit(file: "\(sample)/trace.meta.json", change: middle, says: ["trace.meta.json"]),
            Edit(file: "\(sample)/events.jsonl", change: Self.replace(#""x":[-0-9.e]+"#, with: #""x":1.5"#, line: 3), says: [#"events.jsonl line 3: at "x": written 1.5"#]),
            Edit(file: "\(sample)/events.jsonl", change: lastValue, says: ["events.jsonl line "]),
            Edit(file: "\(sample)/events.meta.json", change: middle, says: ["events.meta.json"]),
            Edit(file: "\(sample)/stats.jsonl", change: Self.replace(#""kinetic_energy":[-0-9.e]+"#, with: #""kinetic_energy":1.5"#, line: 5),
                 says: [#"stats.jsonl line 5: at "kinetic_energy": written 1.5"#]),
            Edit(file: "\(sample)/stats.jsonl", change: lastValue, says: ["stats.jsonl line 120"]),
            Edit(file: "\(sample)/stats.meta.json", change: middle, says: ["stats.meta.json"]),
            Edit(file: "\(sample)/run.rec", change: middle, says: ["run.rec: byte "]),
            Edit(file: "\(sample)/frames/frame-00005.png", change: middle, says: ["frames/frame-00005.png: byte "]),
            Edit(file: "\(sample)/masks/mask-00005.png", change: middle, says: ["masks/mask-00005.png: byte "]),
            Edit(file: "\(sample)/meta.json", change: Self.replace(#""scale":[-0-9.e]+"#, with: #""scale":9.5"#, line: 1),
                 says: [#"meta.json: at "world_to_pixel.scale": written 9.5"#]),
            // A loader would read an absolute mask path (audit finding 6): the file is written again, so it differs.
            Edit(file: "\(sample)/meta.json", change: Self.replace(#"masks/mask-"#, with: "/tmp/x-", line: 1), says: [#"meta.json: at "masks.path""#]),
            Edit(file: "\(sample)/meta.json", change: middle, says: ["meta.json"]),
            Edit(file: "\(sample)/done.json", change: Self.replace(#""gravity":\[0,-1000\]"#, with: #""gravity":[0,-900]"#, line: 1),
                 says: [#"done.json: at "parameters.gravity[1]": written -900, now -1000"#]),
            Edit(file: "\(sample)/done.json", change: Self.replace(#""mean_y":[-0-9.e]+"#, with: #""mean_y":5"#, line: 1), says: [#"done.json: at "summary.mean_y""#]),
            Edit(file: "manifest.npy", change: Self.flip(at: Self.npyRows(plus: 9)), says: ["manifest.npy: sample 0's row", "column path"]),
        ]
        if SavedStateCommandTests.portable {
            edits.append(Edit(file: "\(sample)/end.state", change: middle, says: ["end.state: byte "]))
        }
        try Self.expectEachFound(edits, in: out)
    }

    /// The other table formats: a trace as CSV (every 10 steps, no frames) and events as `.npy`.
    @Test(.timeLimit(.minutes(5))) func anEditedValueInACSVTraceOrNumPyEventsDiffers() throws {
        let folder = try SweepCommandTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = try Self.sweep(folder, outputs: #"{ "trace": "csv", "trace_every": 10, "events": "npy", "hash_every": 30 }"#)
        let sample = "samples/000000"
        try Self.expectEachFound([
            Edit(file: "\(sample)/trace.csv", change: Self.replace(#",0\.0+,"#, with: ",0.5,", line: 6), says: ["trace.csv line 6, column "]),
            Edit(file: "\(sample)/trace.csv", change: Self.flip { $0.count - 2 }, says: ["trace.csv line "]),
            // The last column is `joint` (8 bytes); the float before it.
            Edit(file: "\(sample)/events.npy", change: Self.lastRowsField(endingBefore: 8), says: ["events.npy: row ", "field tangent_impulse"]),
            Edit(file: "\(sample)/events.meta.json", change: Self.flip { $0.count / 2 }, says: ["events.meta.json"]),
        ], in: out)
    }

    /// Files that only one side holds, and a spec that did not make the folder.
    @Test(.timeLimit(.minutes(5))) func aFileMissingOrAddedDiffersAndOnlyTheSweepsSpecVerifies() throws {
        let folder = try SweepCommandTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = try Self.sweep(folder, outputs: #"{ "trace": "jsonl", "hash_every": 30 }"#)
        let sample = "\(out)/samples/000000"
        let meta = try Data(contentsOf: URL(fileURLWithPath: "\(sample)/trace.meta.json"))
        try FileManager.default.removeItem(atPath: "\(sample)/trace.meta.json")
        let missing = try CLI.run(["sweep", "verify", out, "--sample", "0"])
        #expect(missing.status == 3 && missing.stderr.contains("trace.meta.json: missing from the sample"), "\(missing.stderr)")
        try meta.write(to: URL(fileURLWithPath: "\(sample)/trace.meta.json"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(sample)/extra.txt"))
        let added = try CLI.run(["sweep", "verify", out, "--sample", "0"])
        #expect(added.status == 3 && added.stderr.contains("extra.txt: not written again"), "\(added.stderr)")
        try FileManager.default.removeItem(atPath: "\(sample)/extra.txt")
        try FileManager.default.removeItem(atPath: "\(out)/manifest.npy")
        let noTable = try CLI.run(["sweep", "verify", out, "--sample", "0"])
        #expect(noTable.status == 3 && noTable.stderr.contains("manifest.npy: missing beside manifest.jsonl"), "\(noTable.stderr)")
        #expect(try CLI.run(["sweep", "merge", out]).status == 0)
        // A header edited to a row count past any file's (and widths past any): differs, no trap.
        let table = "\(out)/manifest.npy"
        let original = try Data(contentsOf: URL(fileURLWithPath: table))
        var text = String(decoding: original, as: UTF8.self)
        for (pattern, replacement) in [(#"'shape': \(\d+,\)"#, "'shape': (9223372036854775807,)"), (#"'<i8'"#, "'<U4611686018427387904'")] {
            text = String(decoding: original, as: UTF8.self)
            let before = text.utf8.count
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
            // Keep the header's length: take the extra characters out of its padding.
            text = text.replacingOccurrences(of: String(repeating: " ", count: text.utf8.count - before) + "\n", with: "\n")
            try Data(text.utf8).write(to: URL(fileURLWithPath: table))
            let edited = try CLI.run(["sweep", "verify", out, "--sample", "0"])
            #expect(edited.status == 3 && edited.stderr.contains("manifest.npy"), "\(pattern): \(edited.status) \(edited.stderr)")
        }
        try original.write(to: URL(fileURLWithPath: table))
        // Another spec (here: the same axes, another length) did not make this folder: 65, naming both fingerprints.
        let other = "\(folder)/other.json"
        try String(contentsOfFile: "\(folder)/spec.json", encoding: .utf8).replacingOccurrences(of: #""seconds": 1"#, with: #""seconds": 2"#)
            .write(toFile: other, atomically: true, encoding: .utf8)
        let wrongSpec = try CLI.run(["sweep", "verify", out, "--sample", "0", "--spec", other])
        #expect(wrongSpec.status == 65 && wrongSpec.stderr.contains("\(other) is not the spec that made \(out)"), "\(wrongSpec.stderr)")
        #expect(try CLI.run(["sweep", "verify", out, "--sample", "0", "--spec", "\(folder)/spec.json"]).status == 0)
        // A spec that moved: its folder's sweep.json names a path no longer there.
        try FileManager.default.moveItem(atPath: "\(folder)/spec.json", toPath: "\(folder)/moved.json")
        let gone = try CLI.run(["sweep", "verify", out, "--sample", "0"])
        #expect(gone.status == 66 && gone.stderr.contains("cannot be found from here: give --spec SPEC"), "\(gone.stderr)")
        #expect(try CLI.run(["sweep", "verify", out, "--sample", "0", "--spec", "\(folder)/moved.json"]).status == 0)
    }
}
