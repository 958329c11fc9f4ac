import Foundation
import Physics
import SceneModel
@testable import Sweep
import Synchronization
import TestSupport
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

    // MARK: Removing temporaries never follows a link

    /// The temporary folder process `pid` of this machine gives sample `index`.
    static func temporaryPath(_ folder: SweepFolder, _ index: Int, pid: Int32) -> String {
        "\(folder.samplesPath)/.\(folder.name(index)).tmp-\(FolderIO.hostName)-\(pid)"
    }

    /// A folder outside the sweep holding `count` files, each holding its own name.
    static func outsideFolder(_ fixture: SweepFixture, files count: Int = 1) throws -> String {
        let outside = "\(fixture.folder)/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        for k in 0..<count { try "file \(k)\n".write(toFile: "\(outside)/\(k).txt", atomically: false, encoding: .utf8) }
        return outside
    }

    /// Whether the folder `outside` still holds its `count` files, each with its own text.
    static func isIntact(_ outside: String, files count: Int = 1) -> Bool {
        (0..<count).allSatisfy { (try? String(contentsOfFile: "\(outside)/\($0).txt", encoding: .utf8)) == "file \($0)\n" }
    }

    /// A link planted in `samples/` under the name a dead process of this machine gives a
    /// temporary, to a folder outside the sweep: `sweep run` leaves that folder and its file (it
    /// emptied it: the clean-up opened the name with `opendir`, which follows links), and leaves the
    /// link, which `merge` counts; the sample is run as usual.
    @Test func aLinkNamedLikeAStaleTemporaryIsNotFollowed() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let spec = try fixture.spec(#"{ "scene": "\#(try fixture.smallPile())", "steps": 30, "axes": [\#(Self.axes)], "outputs": { "hash_every": 10 } }"#)
        let out = "\(fixture.folder)/out"
        let outside = try Self.outsideFolder(fixture)
        let first = try CLI.run(["sweep", "run", spec, "--out", out])
        #expect(first.status == 0, "\(first.stderr)")
        let folder = SweepFolder(path: out, sampleCount: 16)
        let link = Self.temporaryPath(folder, 3, pid: Self.deadProcessID())
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        try FileManager.default.removeItem(atPath: folder.samplePath(3))
        let rerun = try CLI.run(["sweep", "run", spec, "--out", out])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains(#""ran": 1"#), "\(rerun.stdout)")
        #expect(Self.isIntact(outside))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == outside)
        #expect(folder.doneMarker(3) != nil)
        #expect(try SweepMerge.merge(out).temporaries == [String(link.split(separator: "/").last!)])
    }

    /// A real stale temporary holding a folder with links inside (to a folder and to a file outside
    /// the sweep) is removed whole: the links themselves go, what they point to stays.
    @Test func aStaleTemporaryIsRemovedWithoutFollowingTheLinksInIt() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let out = "\(fixture.folder)/out"
        _ = try Self.runner(try Self.spec(fixture), out)
        let folder = SweepFolder(path: out, sampleCount: 16)
        let outside = try Self.outsideFolder(fixture)
        let temporary = Self.temporaryPath(folder, 3, pid: Self.deadProcessID())
        try FileManager.default.createDirectory(atPath: "\(temporary)/frames/deeper", withIntermediateDirectories: true)
        try "frame\n".write(toFile: "\(temporary)/frames/000001.ppm", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(temporary)/frames/escape", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: "\(temporary)/frames/deeper/file", withDestinationPath: "\(outside)/0.txt")
        #expect(folder.removeStaleTemporaries { $0 == 3 } == [String(temporary.split(separator: "/").last!)])
        #expect(!FolderIO.exists(temporary))
        #expect(Self.isIntact(outside))
    }

    /// A folder inside a temporary swapped for a link to a folder outside while the temporary is
    /// removed (another machine on a shared file system, or a hostile user): whenever the swap
    /// falls between the look at the name and the open, the open refuses the link (`O_NOFOLLOW`)
    /// and nothing outside is touched. Many removals race a swapping thread; with a walk by path
    /// (`lstat` then `opendir`), some emptied the outside folder.
    @Test(.timeLimit(.minutes(3)))
    func aFolderSwappedForALinkDuringRemovalIsNotFollowed() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let files = 40
        let outside = try Self.outsideFolder(fixture, files: files)
        final class Stop: Sendable { let flag = Atomic<Bool>(false) }
        let started = ContinuousClock.now
        var attempt = 0
        while ContinuousClock.now - started < .seconds(2), Self.isIntact(outside, files: files) {
            attempt += 1
            let temporary = "\(fixture.folder)/.000003.tmp-race-\(attempt)"
            let sub = "\(temporary)/frames", aside = "\(temporary)/frames.aside"
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            for k in 0..<files { try "frame\n".write(toFile: "\(sub)/\(k).txt", atomically: false, encoding: .utf8) }
            let stop = Stop(), stopped = DispatchSemaphore(value: 0)
            let swapper = Thread {
                // `frames` is in turn a real folder, missing, a link to the outside folder, missing.
                while !stop.flag.load(ordering: .relaxed) {
                    if rename(sub, aside) != 0 { mkdir(aside, 0o755) }
                    symlink(outside, sub)
                    unlink(sub)
                    rename(aside, sub)
                }
                stopped.signal()
            }
            swapper.start()
            FolderIO.removeFolder(temporary)
            stop.flag.store(true, ordering: .relaxed)
            // The swapper's loop ends with its link removed: what is left is cleared without links.
            stopped.wait()
            unlink(sub)
            try? FileManager.default.removeItem(atPath: temporary)
        }
        #expect(Self.isIntact(outside, files: files), "attempt \(attempt) emptied the outside folder")
    }

    /// A tree deeper than the walk descends (64 folders) is left whole, rather than the walk
    /// growing its stack and descriptors without bound; a tree within the limit goes.
    @Test func aTreeTooDeepIsLeftAndOneWithinTheLimitIsRemoved() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        for (levels, removed) in [(64, true), (100, false)] {
            let top = "\(fixture.folder)/tree-\(levels)"
            let bottom = top + String(repeating: "/d", count: levels - 1)
            try FileManager.default.createDirectory(atPath: bottom, withIntermediateDirectories: true)
            try "bottom\n".write(toFile: "\(bottom)/file", atomically: false, encoding: .utf8)
            FolderIO.removeFolder(top)
            #expect(FolderIO.exists(top) == !removed, "\(levels) levels")
            #expect(FolderIO.exists("\(bottom)/file") == !removed, "\(levels) levels")
        }
    }

    /// The usual case: a stale temporary a killed shard left (a sample's folder with its `frames/`
    /// and `masks/`, half written) is removed by `sweep run`, and the sample run again.
    @Test func aRealStaleTemporaryIsRemovedAndItsSampleRunAgain() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let spec = try fixture.spec(#"{ "scene": "\#(try fixture.smallPile())", "steps": 30, "axes": [\#(Self.axes)], "outputs": { "hash_every": 10 } }"#)
        let out = "\(fixture.folder)/out"
        #expect(try CLI.run(["sweep", "run", spec, "--out", out]).status == 0)
        let folder = SweepFolder(path: out, sampleCount: 16)
        let temporary = Self.temporaryPath(folder, 3, pid: Self.deadProcessID())
        try FileManager.default.moveItem(atPath: folder.samplePath(3), toPath: temporary)
        try FileManager.default.removeItem(atPath: "\(temporary)/done.json")
        for part in ["frames", "masks"] {
            try FileManager.default.createDirectory(atPath: "\(temporary)/\(part)", withIntermediateDirectories: false)
            try "half\n".write(toFile: "\(temporary)/\(part)/000001.ppm", atomically: false, encoding: .utf8)
        }
        let rerun = try CLI.run(["sweep", "run", spec, "--out", out])
        #expect(rerun.status == 0 && rerun.stdout.contains(#""ran": 1"#), "\(rerun.stdout)\(rerun.stderr)")
        #expect(!FolderIO.exists(temporary))
        #expect(folder.doneMarker(3) != nil)
        #expect(folder.temporaries().isEmpty)
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
