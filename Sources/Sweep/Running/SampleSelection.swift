/// The samples one `sweep run` takes: a shard's, optionally only those in some index ranges
/// (`--samples 3-5,17`). Kept as ranges and counted arithmetically, never as a list, so a sweep
/// of 10^9 samples (or `--samples 0-999999999`, as merge prints missing ones) costs no memory.
public struct SampleSelection: Sendable, Equatable {
    public let shard: Shard
    /// Sorted, disjoint ranges of indices below the sweep's count.
    public let ranges: [ClosedRange<Int>]
    /// How many samples the selection holds.
    public let count: Int
    /// For each range, how many selected samples come before it.
    private let before: [Int]

    /// - Parameters:
    ///   - total: the sweep's sample count.
    ///   - only: indices to keep (any order, overlaps allowed), each inside 0..<total; nil: all.
    public init(shard: Shard, total: Int, only: [ClosedRange<Int>]? = nil) {
        self.shard = shard
        var merged: [ClosedRange<Int>] = []
        for range in (only ?? (total > 0 ? [0...(total - 1)] : [])).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        ranges = merged
        var before: [Int] = []
        var count = 0
        for range in merged {
            before.append(count)
            count += Self.members(of: range, in: shard)
        }
        self.before = before
        self.count = count
    }

    /// The shard's members in `range`: indices i with i mod N = K.
    private static func members(of range: ClosedRange<Int>, in shard: Shard) -> Int {
        guard let first = firstMember(atOrAfter: range.lowerBound, in: shard), first <= range.upperBound else { return 0 }
        return (range.upperBound - first) / shard.count + 1
    }

    private static func firstMember(atOrAfter low: Int, in shard: Shard) -> Int? {
        let offset = ((shard.index - low) % shard.count + shard.count) % shard.count
        let (first, overflow) = low.addingReportingOverflow(offset)
        return overflow ? nil : first
    }

    /// The `position`-th selected sample's index, for position in 0..<count, in increasing order.
    public subscript(position: Int) -> Int {
        precondition(position >= 0 && position < count, "sample position \(position) outside 0..<\(count)")
        // The last range with at most `position` samples before it.
        var low = 0, high = ranges.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if before[middle] <= position { low = middle } else { high = middle - 1 }
        }
        let first = Self.firstMember(atOrAfter: ranges[low].lowerBound, in: shard)!
        return first + (position - before[low]) * shard.count
    }

    /// Whether `index` is one of the selected samples.
    public func contains(_ index: Int) -> Bool {
        guard index >= 0, index % shard.count == shard.index else { return false }
        var low = 0, high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if ranges[middle].contains(index) { return true }
            if index < ranges[middle].lowerBound { high = middle - 1 } else { low = middle + 1 }
        }
        return false
    }
}
