import Sweep
import Testing

/// Shards: K/N on the command line, Slurm array tasks, Kubernetes Indexed Jobs; together they
/// hold every sample once.
@Suite struct ShardTests {
    @Test func shardsPartitionTheSamples() throws {
        for count in [1, 3, 4, 7] {
            var seen: [Int] = []
            for index in 0..<count { seen += try Shard(index: index, count: count).samples(of: 64) }
            #expect(seen.sorted() == Array(0..<64))
        }
        #expect(Array(try Shard(parsing: "2/4").samples(of: 10)) == [2, 6])
    }

    @Test(arguments: ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3"])
    func badShardsAreRefused(_ text: String) {
        #expect(throws: ShardError.self) { try Shard(parsing: text) }
    }

    @Test func theEnvironmentNamesTheShard() throws {
        #expect(try Shard.fromEnvironment([:]) == nil)
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "16", "SLURM_ARRAY_TASK_MIN": "0"])
            == Shard(index: 5, count: 16))
        // --array=1-16 numbers tasks from 1.
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "16", "SLURM_ARRAY_TASK_COUNT": "16", "SLURM_ARRAY_TASK_MIN": "1"])
            == Shard(index: 15, count: 16))
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3", "CRATEDROP_SHARD_COUNT": "8"]) == Shard(index: 3, count: 8))
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3"], countOverride: 4) == Shard(index: 3, count: 4))
        #expect(throws: ShardError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "3"]) }
        #expect(throws: ShardError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "9", "CRATEDROP_SHARD_COUNT": "8"]) }
        #expect(throws: ShardError.self) { try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"]) }
    }

    @Test func indexRangesRoundTrip() {
        #expect(IndexRanges.text([0, 1, 2, 3, 7, 9, 10]) == "0-3, 7, 9-10")
        #expect(IndexRanges.parse("0-3, 7,9-10", count: 11) == [0...3, 7...7, 9...10])
        #expect(IndexRanges.parse("3-1", count: 11) == nil)
        #expect(IndexRanges.parse("11", count: 11) == nil)
    }

    /// A selection is its shard's members of the ranges, counted and indexed without a list:
    /// the ranges `merge` prints for a sweep of 10^9 samples, pasted back into `--samples`, cost
    /// no memory and no time (audit round 4, finding 7: an 8 GB array, then an abort).
    @Test func aSelectionOfRangesIsCountedWithoutAList() throws {
        let small = SampleSelection(shard: try Shard(index: 1, count: 3), total: 20, only: [9...12, 0...4, 3...5, 17...17])
        let wanted: [ClosedRange<Int>] = [0...5, 9...12, 17...17]
        let listed = (0..<20).filter { index in index % 3 == 1 && wanted.contains { $0.contains(index) } }
        #expect(small.count == listed.count && (0..<small.count).map { small[$0] } == listed)
        #expect((0..<20).filter(small.contains) == listed)
        let huge = try #require(IndexRanges.parse("0-999999999", count: 1_000_000_000))
        let all = SampleSelection(shard: try Shard(index: 2, count: 4), total: 1_000_000_000, only: huge)
        #expect(all.count == 250_000_000 && all[0] == 2 && all[249_999_999] == 999_999_998)
        #expect(all.contains(999_999_998) && !all.contains(999_999_999))
        let few = SampleSelection(shard: .all, total: 1_000_000_000, only: IndexRanges.parse("0-3", count: 1_000_000_000))
        #expect(few.count == 4 && few[3] == 3)
    }
}
