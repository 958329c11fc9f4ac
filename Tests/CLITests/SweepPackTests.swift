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
