import Foundation
import TestSupport
import Testing

/// `cratedrop sweep pack`: WebDataset shards of a sweep's complete samples, capped by samples and
/// bytes, never splitting a sample (Tests/Python/dataset_test.py reads them with `webdataset`).
@Suite struct SweepPackTests {
    @Test func shardsHoldWholeSamplesWithinTheirCaps() throws {
        let folder = try SweepFramesTests.temporaryFolder("pack")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try SweepFramesTests.spec(frames: #"{ "fps": 10, "size": [64, 48], "masks": true }"#)
            .write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/sweep"]).status == 0)
        let sampleBytes = try Self.bytes(under: "\(folder)/sweep/samples/000000")

        // A cap below one sample's size: each sample alone in its shard, whole.
        let pack = try CLI.run(["sweep", "pack", "\(folder)/sweep", "--out", "\(folder)/shards", "--max-bytes", "8K"])
        #expect(pack.status == 0, "\(pack.stderr)")
        let report = try JSONFields(pack.stdout)
        #expect(report.number("samples") == 2 && report.number("missing") == 0)
        let shards = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/shards").sorted()
        #expect(shards == ["sweep-000000.tar", "sweep-000001.tar"])
        #expect(sampleBytes > 8192)
        // GNU tar lists each sample's files under its key, in the order of their paths in the sample.
        let listing = try CLI.recipe("tar -tf \(folder)/shards/sweep-000001.tar", in: folder)
        let names = listing.stdout.split(separator: "\n").map(String.init)
        #expect(names.first == "000001.done.json" && names.allSatisfy { $0.hasPrefix("000001.") }, "\(names.prefix(4))")
        #expect(names.contains("000001.frame-00010.png") && names.contains("000001.mask-00010.png") && names.contains("000001.trace.csv"))
        #expect(names.count == 4 + 10 + 10, "done, meta, scene and trace, and its 10 frames and 10 masks: \(names.count)")

        // Both samples in one shard when the caps allow.
        let together = try CLI.run(["sweep", "pack", "\(folder)/sweep", "--out", "\(folder)/one", "--name", "pair"])
        let one = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/one")
        #expect(together.status == 0 && one == ["pair-000000.tar"])

        // Shards already there are replaced only with --force.
        let again = try CLI.run(["sweep", "pack", "\(folder)/sweep", "--out", "\(folder)/shards", "--max-bytes", "8K"])
        #expect(again.status == 73 && again.stderr.contains("2 shards") && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try CLI.run(["sweep", "pack", "\(folder)/sweep", "--out", "\(folder)/shards", "--force"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/shards") == ["sweep-000000.tar"])
    }

    /// A sweep of two samples of `pile-100` whose sample 0 has its `trace.csv` replaced by
    /// `bigFile` (given the path to make it at). Returns the sweep folder.
    static func sweepWithBigFile(in folder: String, _ bigFile: (String) throws -> Void) throws -> String {
        let spec = try SweepCommandTests.spec(folder, samples: 2, outputs: #"{ "trace": "csv", "hash_every": 10 }"#)
        let out = "\(folder)/sweep"
        let run = try CLI.run(["sweep", "run", spec, "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        try bigFile("\(out)/samples/000000/trace.csv")
        return out
    }

    /// A file several times pack's read chunk (1 MiB) is streamed into its shard: every member
    /// extracts byte for byte, at the size and place the archive's layout gives (audit round 5,
    /// finding 8: pack read each file whole).
    @Test func aFileLargerThanTheReadChunkIsPackedByteForByte() throws {
        let folder = try SweepFramesTests.temporaryFolder("pack-big")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let big = (0..<(3 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        let out = try Self.sweepWithBigFile(in: folder) { try Data(big).write(to: URL(fileURLWithPath: $0)) }
        let pack = try CLI.run(["sweep", "pack", out, "--out", "\(folder)/shards"])
        #expect(pack.status == 0, "\(pack.stderr)")
        let shard = "\(folder)/shards/sweep-000000.tar"
        let listing = try CLI.recipe("tar -tvf \(shard)", in: folder).stdout.split(separator: "\n")
        #expect(listing.allSatisfy { $0.hasPrefix("-rw-r--r-- 0/0") && $0.contains("1970-01-01 00:00") }, "\(listing)")
        let extracted = "\(folder)/extracted"
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        #expect(try CLI.recipe("tar -xf \(shard) -C \(extracted)", in: folder).status == 0)
        var expectedSize = 1024, members = 0
        for index in 0..<2 {
            let sample = "\(out)/samples/00000\(index)"
            for name in try FileManager.default.contentsOfDirectory(atPath: sample) {
                let original = try Data(contentsOf: URL(fileURLWithPath: "\(sample)/\(name)"))
                let member = try Data(contentsOf: URL(fileURLWithPath: "\(extracted)/00000\(index).\(name)"))
                #expect(member == original, "00000\(index).\(name)")
                expectedSize += 512 + (original.count + 511) / 512 * 512
                members += 1
            }
        }
        #expect(listing.count == members && members > 4, "\(listing)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(extracted)/000000.trace.csv")) == Data(big))
        let shardSize = try FileManager.default.attributesOfItem(atPath: shard)[.size] as? Int
        let reported = try JSONFields(pack.stdout).number("bytes")
        #expect(shardSize == expectedSize && reported == Double(expectedSize), "\(String(describing: shardSize)) \(expectedSize)")
    }

    /// Pack's memory does not grow with a file's size: a 1 GiB file packs under a 512 MiB
    /// address-space limit above what the program needs to start (it aborted before).
    @Test(.timeLimit(.minutes(5))) func aFileLargerThanTheAddressSpaceLimitIsPacked() throws {
        let folder = try SweepFramesTests.temporaryFolder("pack-huge")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A sparse file: 1 GiB of zeros that takes no disk until the shard holds them.
        let out = try Self.sweepWithBigFile(in: folder) { #expect(truncate($0, 1 << 30) == 0) }
        let pack = try CLI.shell(#"ulimit -v \#(Self.startingAddressSpace + (512 << 10)); exec "$CRATEDROP" sweep pack "\#(out)" --out "\#(folder)/shards""#)
        #expect(pack.status == 0, "\(pack.status) \(pack.stderr)")
        let shardSize = try FileManager.default.attributesOfItem(atPath: "\(folder)/shards/sweep-000000.tar")[.size] as? Int ?? 0
        #expect(shardSize > 1 << 30, "\(shardSize)")
    }

    /// The address space (KiB, as `ulimit -v` counts) `cratedrop` needs to pack a small sweep:
    /// the smallest limit, found by halving, under which it succeeds.
    static let startingAddressSpace: Int = {
        guard let folder = try? SweepFramesTests.temporaryFolder("pack-small"),
              let out = try? sweepWithBigFile(in: folder, { _ in }) else { return 4 << 20 }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var fails = 16 << 10, works = 16 << 20
        while works - fails > 16 << 10 {
            let limit = (fails + works) / 2
            let pack = try? CLI.shell(#"ulimit -v \#(limit); exec "$CRATEDROP" sweep pack "\#(out)" --out "\#(folder)/shards" --force"#)
            if pack?.status == 0 { works = limit } else { fails = limit }
        }
        return works
    }()

    @Test(arguments: [
        (["--max-bytes", "12"], 64, "--max-bytes must be a size of at least 4096 bytes"),
        (["--max-bytes", "5X"], 64, "--max-bytes must be a size"),
        (["--max-samples", "0"], 64, "--max-samples must be >= 1"),
        (["--name", ".hidden"], 64, "--name must be a file name"),
    ])
    func badOptionsAreRefused(options: [String], status: Int32, message: String) throws {
        let run = try CLI.run(["sweep", "pack", "out/none", "--out", "out/shards"] + options)
        #expect(run.status == status && run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func aFolderThatIsNotASweepIsRefused() throws {
        let folder = try SweepFramesTests.temporaryFolder("pack-none")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try CLI.run(["sweep", "pack", folder, "--out", "\(folder)/shards"])
        #expect(run.status == 66 && run.stdout.isEmpty, "\(run.stderr)")
    }

    static func bytes(under path: String) throws -> Int {
        var total = 0
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            total += (try FileManager.default.attributesOfItem(atPath: "\(path)/\(name)")[.size] as? Int) ?? 0
        }
        return total
    }
}
