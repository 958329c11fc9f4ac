/// Median, minimum and maximum of repeated measurements.
public struct Spread: Sendable, Equatable {
    public var median: Double
    public var min: Double
    public var max: Double

    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first!
        max = sorted.last!
    }
}
