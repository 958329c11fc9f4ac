import Foundation
import Physics
import SceneModel
import Sweep
import Testing

/// Running into a sweep folder: samples renamed into place when complete, reruns skip them,
/// partial ones are redone, shards plus merge equal one unsharded run, verify re-runs bit for bit.
@Suite struct SweepFolderTests {
    static let axes = """
        { "field": "generator.seed", "range": { "from": 0, "to": 7 } },
        { "field": "generator.friction", "values": [0.3, 0.9] }
        """

    static func spec(_ fixture: SweepFixture, outputs: String = #"{ "hash_every": 10 }"#) throws -> SweepSpec {
        try fixture.load(#"{ "scene": "\#(try fixture.smallPile())", "steps": 30, "axes": [\#(axes)], "outputs": \#(outputs) }"#)
    }

    static func runner(_ spec: SweepSpec, _ out: String, shard: Shard = .all, jobs: Int = 1, sync: Bool = false) throws -> SweepRunner {
        let runner = SweepRunner(spec: spec, folder: SweepFolder(path: out, sampleCount: spec.sampleCount),
                                 configuration: .init(shard: shard, jobs: jobs, sync: sync, version: "test"))
        try runner.prepare()
        return runner
    }

    static func manifestHashes(_ out: String) throws -> [String] {
        try String(contentsOfFile: "\(out)/manifest.jsonl", encoding: .utf8).split(separator: "\n").map { line in
            let row = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let parameters = try JSONSerialization.data(withJSONObject: row["parameters"]!, options: .sortedKeys)
            return "\(row["sample"]!) \(row["hash"]!) \(String(decoding: parameters, as: UTF8.self))"
        }
    }

    @Test func fourShardsAndMergeEqualOneRun() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let spec = try Self.spec(fixture)
        let whole = "\(fixture.folder)/whole", sharded = "\(fixture.folder)/sharded"
        // The whole run flushes each sample (--sync); the shards do not: the results are the same.
        let report = try Self.runner(spec, whole, jobs: 2, sync: true).run(drain: { false }, abandon: { false })
        #expect(report.ran == 16 && report.failed.isEmpty)
        for k in 0..<4 {
            let part = try Self.runner(spec, sharded, shard: Shard(index: k, count: 4)).run(drain: { false }, abandon: { false })
            #expect(part.samples == 4 && part.ran == 4)
        }
        #expect(try SweepMerge.merge(whole).isComplete)
        #expect(try SweepMerge.merge(sharded).isComplete)
        let hashes = try Self.manifestHashes(whole)
        #expect(hashes.count == 16)
        #expect(hashes == (try Self.manifestHashes(sharded)))
        // Sample 5 is seed 2, friction 0.9: the same hash as the scene run alone.
        let marker = try #require(SweepFolder(path: whole, sampleCount: 16).doneMarker(5))
        #expect(marker.parametersJSON == #"{"generator.seed": 2, "generator.friction": 0.9}"#)
        #expect(marker.steps == 30 && marker.determinismClass == DeterminismClass.current.id)
        let trail = try String(contentsOfFile: "\(whole)/samples/000005/hashes.txt", encoding: .utf8)
        #expect(trail.split(separator: "\n").map { $0.split(separator: " ")[0] } == ["10", "20", "30"])
        #expect(trail.hasSuffix("30 \(marker.hash)\n"))
    }

    @Test func aRerunSkipsCompleteSamplesAndRedoesPartialOnes() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let spec = try Self.spec(fixture)
        let out = "\(fixture.folder)/out"
        #expect(try Self.runner(spec, out).run(drain: { false }, abandon: { false }).ran == 16)
        let folder = SweepFolder(path: out, sampleCount: 16)
        let kept = try FileManager.default.attributesOfItem(atPath: folder.samplePath(0) + "/done.json")[.modificationDate] as? Date
        // A killed shard: sample 3's folder is back under a temporary name of a process that is gone.
        let dead = Self.deadProcessID()
        let hostName = ProcessInfo.processInfo.hostName.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }
        let temporary = "\(folder.samplesPath)/.\(folder.name(3)).tmp-\(String(hostName))-\(dead)"
        try FileManager.default.moveItem(atPath: folder.samplePath(3), toPath: temporary)
        try FileManager.default.removeItem(atPath: temporary + "/done.json")
        let rerun = try Self.runner(spec, out).run(drain: { false }, abandon: { false })
        #expect(rerun.ran == 1 && rerun.skipped == 15)
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(folder.doneMarker(3) != nil)
        let after = try FileManager.default.attributesOfItem(atPath: folder.samplePath(0) + "/done.json")[.modificationDate] as? Date
        #expect(kept == after)
        #expect(folder.temporaries().isEmpty)
    }

    @Test func aStopAbandonsInFlightSamplesAndLeavesOnlyWholeOnes() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let spec = try Self.spec(fixture)
        let out = "\(fixture.folder)/out"
        let runner = try Self.runner(spec, out)
        // Abandon once three samples are complete: the fourth is stopped mid-run.
        let folder = SweepFolder(path: out, sampleCount: 16)
        let report = runner.run(drain: { false }, abandon: { (0..<16).filter { folder.doneMarker($0) != nil }.count >= 3 })
        #expect(report.ran == 3 && report.notRun == 13)
        #expect(folder.temporaries().isEmpty)
        let merged = try SweepMerge.merge(out)
        #expect(merged.complete == 3 && merged.missing == [3...15] && merged.missingCount == 13)
    }

    @Test func mergeNamesMissingAndFailedSamples() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        // 36 crates of up to 24 px do not fit: samples 3 and 7 (count 36, size 24) fail, the rest run.
        let spec = try fixture.load(#"""
            { "scene": "\#(try fixture.smallPile())", "steps": 5, "axes": [
              { "field": "generator.seed", "values": [1, 2] },
              { "field": "generator.count", "values": [20, 36] },
              { "field": "generator.size", "values": [[10, 20], [10, 24]] } ] }
            """#)
        let out = "\(fixture.folder)/out"
        let report = try Self.runner(spec, out, shard: Shard(index: 0, count: 2)).run(drain: { false }, abandon: { false })
        #expect(report.failed.map(\.index) == [])
        let second = try Self.runner(spec, out, shard: Shard(index: 1, count: 2)).run(drain: { false }, abandon: { false })
        #expect(second.failed.map(\.index) == [3, 7])
        #expect(second.failed[0].reason.contains("generator"))
        let merged = try SweepMerge.merge(out)
        #expect(merged.complete == 6 && merged.failed.map(\.index) == [3, 7] && merged.missing.isEmpty)
        #expect(merged.json.contains(#""failed":"3, 7""#))
    }

    @Test func anotherSpecCannotWriteIntoTheFolder() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let out = "\(fixture.folder)/out"
        _ = try Self.runner(try Self.spec(fixture), out)
        let other = try Self.spec(fixture, outputs: #"{ "hash_every": 5 }"#)
        #expect(throws: SweepFolder.FolderError.self) { try Self.runner(other, out) }
    }

    @Test func verifyRerunsASampleBitForBit() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let out = "\(fixture.folder)/out"
        let spec = try Self.spec(fixture)
        _ = try Self.runner(spec, out).run(drain: { false }, abandon: { false })
        let folder = SweepFolder(path: out, sampleCount: 16)
        let marker = try #require(folder.doneMarker(6))
        #expect(try SweepVerify.verify(out, index: 6, spec: spec) == .identical(hash: marker.hash, manifestRow: nil))
        // A changed trail line is found, with where.
        let trailPath = folder.samplePath(6) + "/hashes.txt"
        let trail = try String(contentsOfFile: trailPath, encoding: .utf8)
        try trail.replacingOccurrences(of: "20 ", with: "20 0").write(toFile: trailPath, atomically: true, encoding: .utf8)
        guard case let .differs(_, _, detail) = try SweepVerify.verify(out, index: 6, spec: spec) else { Issue.record("not found"); return }
        #expect(detail.hasPrefix("hashes.txt line 2"))
        // A sample of another class is reported as such.
        let donePath = folder.samplePath(7) + "/done.json"
        let done = try String(contentsOfFile: donePath, encoding: .utf8)
        try done.replacingOccurrences(of: DeterminismClass.current.id, with: "0123456789ab").write(toFile: donePath, atomically: true, encoding: .utf8)
        #expect(try SweepVerify.verify(out, index: 7, spec: spec) == .otherClass(madeIn: "0123456789ab", here: DeterminismClass.current.id))
        #expect(try SweepVerify.verify(out, index: 99, spec: spec) == .notComplete)
        #expect(try SweepVerify.randomSamples(out, count: 3, seed: 1).count == 3)
    }

    /// A process id that no process has: a child that has exited and been reaped.
    static func deadProcessID() -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try? process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
