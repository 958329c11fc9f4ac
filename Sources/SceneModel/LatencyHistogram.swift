/// Durations in nanoseconds, counted in log-linear buckets (32 per power of two, so a percentile
/// is within about 3%), in fixed memory whatever the run length; the maximum is exact.
public struct LatencyHistogram: Sendable {
    private static let subBuckets = 32
    private var counts = [Int](repeating: 0, count: 64 * LatencyHistogram.subBuckets)
    public private(set) var count = 0
    public private(set) var max: Int64 = 0
    public private(set) var total: Int64 = 0

    public init() {}

    public mutating func record(_ nanoseconds: Int64) {
        let value = Swift.max(nanoseconds, 0)
        counts[Self.bucket(of: value)] += 1
        count += 1
        total += value
        max = Swift.max(max, value)
    }

    /// The smallest recorded bucket's upper edge below which `fraction` of the values lie.
    public func percentile(_ fraction: Double) -> Int64 {
        guard count > 0 else { return 0 }
        let rank = Swift.max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (bucket, n) in counts.enumerated() where n > 0 {
            seen += n
            if seen >= rank { return Swift.min(Self.upperEdge(of: bucket), max) }
        }
        return max
    }

    private static func bucket(of value: Int64) -> Int {
        if value < Int64(subBuckets) { return Int(value) }
        let magnitude = 63 - value.leadingZeroBitCount          // floor(log2 value) >= 5
        let shift = magnitude - 5                                // keep the top 5 bits below the leading one
        let sub = Int((value >> shift) & Int64(subBuckets - 1))
        return (magnitude - 4) * subBuckets + sub
    }

    private static func upperEdge(of bucket: Int) -> Int64 {
        if bucket < subBuckets { return Int64(bucket) }
        let magnitude = bucket / subBuckets + 4
        let sub = Int64(bucket % subBuckets)
        let shift = magnitude - 5
        return ((Int64(subBuckets) + sub + 1) << shift) - 1
    }
}
