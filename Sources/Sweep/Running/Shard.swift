/// One slice of a sweep: shard `index` of `count` runs samples index, index + count, index + 2·count, ...
/// Shards of one count never share a sample, and together they hold every one.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// The whole sweep.
    public static let all = Shard(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Shard `index` of `count`.
    /// - Throws: a message when count < 1 or index is outside 0..<count.
    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1 else { throw ShardError(description: "the shard count must be >= 1, got \(count)") }
        guard (0..<count).contains(index) else { throw ShardError(description: "the shard index must be in 0...\(count - 1), got \(index)") }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Parses `K/N` (`--shard 2/4`).
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError(description: "--shard must be K/N with whole numbers 0 <= K < N, such as 0/4, got '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    /// The shard the environment names, if any: a Slurm array task (`SLURM_ARRAY_TASK_ID` among
    /// `SLURM_ARRAY_TASK_COUNT` tasks, offset by `SLURM_ARRAY_TASK_MIN`), or a Kubernetes Indexed
    /// Job's pod (`JOB_COMPLETION_INDEX` among `countOverride`, else `CRATEDROP_SHARD_COUNT`).
    /// - Throws: when a variable is set but not a whole number, or the two disagree.
    public static func fromEnvironment(_ environment: [String: String], countOverride: Int? = nil) throws(ShardError) -> Shard? {
        func number(_ name: String) throws(ShardError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text) else { throw ShardError(description: "\(name) must be a whole number, got '\(text)'") }
            return value
        }
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            let slurmCount = try number("SLURM_ARRAY_TASK_COUNT")
            guard let count = countOverride ?? slurmCount else {
                throw ShardError(description: "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (Slurm sets both for an array job): give --shard-count N")
            }
            // `--array=1-64` numbers tasks from 1: the shard is the task's place in the array.
            let first = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            do {
                return try Shard(index: task - first, count: count)
            } catch {
                throw ShardError(description: "SLURM_ARRAY_TASK_ID \(task) (first \(first)) of \(count) tasks: \(error)")
            }
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            let environmentCount = try number("CRATEDROP_SHARD_COUNT")
            guard let count = countOverride ?? environmentCount else {
                throw ShardError(description: "JOB_COMPLETION_INDEX is set but not the shard count: give --shard-count N or set CRATEDROP_SHARD_COUNT (the Job's completions)")
            }
            do {
                return try Shard(index: index, count: count)
            } catch {
                throw ShardError(description: "JOB_COMPLETION_INDEX \(index) of \(count): \(error)")
            }
        }
        return nil
    }

    /// This shard's samples of a sweep of `total`, in order.
    public func samples(of total: Int) -> StrideTo<Int> {
        stride(from: index, to: total, by: count)
    }

    public var description: String { "\(index)/\(count)" }
}

public struct ShardError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}
