import Foundation
import TestSupport
import Testing

/// A sweep's samples write contact events (`outputs.events`) as `cratedrop run --events` writes
/// them, and a `gravity_script` axis may push bodies as `--inputs` lines do.
@Suite struct SweepEventsAndInputsTests {
    @Test func eachSampleWritesTheEventsItsRunWouldAndPushesChangeIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("events-sweep-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            {
              "scene": "\(Repository.path("Scenes/book.json"))",
              "seconds": 1,
              "axes": [{ "field": "gravity_script", "values": [
                [{ "step": 0, "gravity": [0, -1000] }],
                [{ "step": 30, "body": 3, "impulse": [9000, 4000] }, { "step": 40, "body": 1, "velocity": [0, 300] }]
              ] }],
              "outputs": { "hash_every": 120, "events": "csv" }
            }
            """.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let run = try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"])
        #expect(run.status == 0, "\(run.stderr)")
        var events: [String] = []
        for sample in 0..<2 {
            let path = "\(folder)/out/samples/00000\(sample)"
            let written = try String(contentsOfFile: "\(path)/events.csv", encoding: .utf8)
            // The same scene and inputs through `cratedrop run --events` give the same file.
            let alone = try CLI.run(["hash", "\(path)/scene.json", "--seconds", "1", "--inputs", "\(path)/gravity.jsonl", "--events", "\(folder)/alone-\(sample).csv"])
            #expect(alone.status == 0, "\(alone.stderr)")
            #expect(try String(contentsOfFile: "\(folder)/alone-\(sample).csv", encoding: .utf8) == written)
            #expect(written.contains(",begin,"), "the crates land: \(written.prefix(300))")
            events.append(written)
        }
        #expect(events[0] != events[1], "a push changes what touches what")
        // A table format the sweep does not write is refused at plan, at its line.
        try String(contentsOfFile: "\(folder)/spec.json", encoding: .utf8).replacingOccurrences(of: #""events": "csv""#, with: #""events": "xml""#)
            .write(toFile: "\(folder)/bad.json", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["sweep", "plan", "\(folder)/bad.json"])
        #expect(bad.status == 65 && bad.stderr.contains(#"bad.json:8: outputs.events: must be one of "csv", "jsonl", "npy", got "xml""#), "\(bad.stderr)")
    }
}
