/// Median, minimum and maximum of repeated measurements.
package struct Spread: Sendable, Equatable {
    package var median: Double
    package var min: Double
    package var max: Double

    package init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first!
        max = sorted.last!
    }
}
