import SceneFile
import SceneModel

/// One sample of a sweep: its index and the value each axis gives it.
public struct Sample: Sendable {
    public var index: Int
    public var parameters: [Parameter]

    /// One axis's value for a sample, and where in the spec it came from (`axes[1].values[3]`).
    public struct Parameter: Sendable {
        public var field: SweepField
        public var value: JSONValue
        public var origin: String
        public var line: Int
    }

    /// The parameters as one JSON object, field by field in the spec's order (what the done
    /// marker and the manifest hold): `{"generator.seed": 12, "defaults.friction": 0.4}`.
    public var parametersJSON: String {
        "{" + parameters.map { JSONText.string($0.field.description) + ": " + JSONWriter.compact($0.value) }.joined(separator: ", ") + "}"
    }
}

extension SweepSpec {
    /// Sample `index` (0 ..< sampleCount). A grid counts like nested loops over the axes in
    /// order, the last fastest; a random sample draws each axis in order from SplitMix64 seeded
    /// by the spec's seed and `index`, so any sample is made without the others.
    public func sample(_ index: Int) -> Sample {
        precondition(index >= 0 && index < sampleCount, "sample \(index) is outside 0..<\(sampleCount)")
        var drawn: [(JSONValue, String)] = []
        switch sampling {
        case .grid:
            var rest = index
            for axis in axes.reversed() {
                let count = axis.gridCount!
                drawn.append(axis.gridValue(rest % count))
                rest /= count
            }
            drawn.reverse()
        case let .random(_, seed):
            // The seed and index are mixed through one SplitMix64 step each, so neighbouring
            // indices start far apart in the generator's sequence.
            var mixer = SplitMix64(seed: seed)
            let start = mixer.next() ^ SplitMix64(seed: UInt64(index)).nextMixed()
            var random = SplitMix64(seed: start)
            drawn = axes.map { $0.randomValue(&random) }
        }
        let parameters = zip(axes, drawn).map { axis, value in
            Sample.Parameter(field: axis.field, value: value.0, origin: value.1, line: value.0.line)
        }
        return Sample(index: index, parameters: parameters)
    }
}

extension SplitMix64 {
    /// The generator's first output: its seed mixed.
    fileprivate func nextMixed() -> UInt64 {
        var copy = self
        return copy.next()
    }
}
