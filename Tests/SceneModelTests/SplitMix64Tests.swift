import SceneModel
import Testing

@Suite struct SplitMix64Tests {
    /// Reference outputs of the published SplitMix64 for seed 1234567.
    @Test func matchesTheReferenceSequence() {
        var random = SplitMix64(seed: 1_234_567)
        #expect(random.next() == 6_457_827_717_110_365_317)
        #expect(random.next() == 3_203_168_211_198_807_973)
        #expect(random.next() == 9_817_491_932_198_370_423)
    }

    @Test func unitValuesStayInHalfOpenRange() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<10_000 {
            let value = random.nextUnit()
            #expect(value >= 0 && value < 1)
        }
    }
}
