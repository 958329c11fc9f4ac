import SceneModel
import Testing

@Suite struct LatencyHistogramTests {
    @Test func percentilesAreWithinThreePercentAndMaxIsExact() {
        var histogram = LatencyHistogram()
        for value in 1...10_000 { histogram.record(Int64(value) * 1000) }
        #expect(histogram.count == 10_000 && histogram.max == 10_000_000)
        let p50 = Double(histogram.percentile(0.5)), p99 = Double(histogram.percentile(0.99))
        #expect(abs(p50 - 5_000_000) / 5_000_000 < 0.03)
        #expect(abs(p99 - 9_900_000) / 9_900_000 < 0.03)
        #expect(histogram.percentile(1.0) == 10_000_000)
    }

    @Test func smallValuesAreExact() {
        var histogram = LatencyHistogram()
        for value: Int64 in [3, 3, 7, 20] { histogram.record(value) }
        #expect(histogram.percentile(0.5) == 3 && histogram.percentile(0.75) == 7 && histogram.percentile(1) == 20)
    }
}
