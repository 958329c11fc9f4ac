import SceneFile

/// What `cratedrop sweep plan` prints: the sweep's size, a few samples expanded, and an estimate
/// of the disk it will take; the samples' scenes are checked without running any.
public struct SweepPlanSummary: Sendable {
    public var samples: Int
    /// The first samples, expanded.
    public var shown: [SampleInputs]
    /// Samples whose scenes were checked, and the first that the scene refuses.
    public var checked: Int
    public var firstProblem: SampleError?
    public var bytesPerSample: Int

    /// Checks at most this many samples' scenes (each costs a scene parse).
    public static let checkLimit = 1000

    public init(spec: SweepSpec, show: Int) {
        samples = spec.sampleCount
        shown = []
        checked = 0
        firstProblem = nil
        bytesPerSample = 0
        for index in 0..<min(spec.sampleCount, Self.checkLimit) {
            checked += 1
            do {
                let inputs = try spec.inputs(for: spec.sample(index))
                if shown.count < show { shown.append(inputs) }
                if index == 0 { bytesPerSample = Self.estimate(inputs, outputs: spec.outputs) }
            } catch {
                firstProblem = error
                break
            }
        }
    }

    /// Rough bytes one sample writes, from its step and body counts (measured sizes of each
    /// output per step and per body on pile-100; docs/sweeps.md).
    static func estimate(_ inputs: SampleInputs, outputs: SampleOutputs) -> Int {
        let steps = inputs.steps, bodies = inputs.scene.crates.count + (inputs.scene.generator?.count ?? 0)
        var bytes = inputs.sceneText.count + 900 + (inputs.gravityScript?.count ?? 0)
        if let every = outputs.hashEvery { bytes += (steps / every + 1) * 26 }
        if let trace = outputs.trace {
            let stepsPerFrame = max(1, inputs.scene.stepRate / (outputs.frames?.fps ?? 1))
            let rows = outputs.traceHasBoxes ? steps / stepsPerFrame : steps / (outputs.traceEvery ?? 1) + 1
            bytes += rows * bodies * (trace == .csv ? 95 : 150) * (outputs.traceHasBoxes ? 3 : 2) / 2
        }
        if let frames = outputs.frames {
            // Measured on 20 of pile-100's bodies at 256×256: a PNG frame about pixels / 11, its
            // mask pixels / 46 (rounded up to / 10 and / 40 for busier scenes); a video frame about pixels / 50.
            let count = steps / max(1, inputs.scene.stepRate / frames.fps)
            let pixels = (frames.size?.width ?? inputs.scene.render.imageWidth) * (frames.size?.height ?? inputs.scene.render.imageHeight)
            bytes += count * (frames.format == .png ? pixels / 10 : pixels / 50) + (frames.masks ? count * pixels / 40 : 0) + 900
        }
        if outputs.stats { bytes += steps * 170 }
        if outputs.record { bytes += inputs.sceneText.count + 300 + (steps / inputs.scene.stepRate + 1) * 60 }
        if outputs.saveState { bytes += 400 + bodies * 220 }
        if outputs.image { bytes += inputs.scene.render.imageWidth * inputs.scene.render.imageHeight / 10 }
        return bytes
    }

    /// One JSON object: `samples`, `checked`, `bytes_per_sample`, `disk_bytes`, and `first`: the
    /// shown samples (index, parameters, steps, bodies).
    public var json: String {
        let first = shown.map { inputs in
            let row: JSONOutput = [
                "sample": .integer(inputs.sample.index), "parameters": inputs.sample.parametersOutput,
                "steps": .integer(inputs.steps),
                "bodies": .integer(inputs.scene.crates.count + (inputs.scene.generator?.count ?? 0)),
                "starts_at_step": .integer(inputs.state?.state.step ?? 0),
            ]
            return row
        }
        let (disk, overflow) = samples.multipliedReportingOverflow(by: bytesPerSample)
        let summary: JSONOutput = [
            "samples": .integer(samples), "checked": .integer(checked),
            "bytes_per_sample": .integer(bytesPerSample), "disk_bytes": overflow ? .null : .integer(disk),
            "disk": .string(overflow ? "too large" : Self.readable(disk)),
            "first": .array(first),
        ]
        return summary.text
    }

    /// `1.2 GB`-style text.
    static func readable(_ bytes: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes), unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : "\((value * 10).rounded() / 10) \(units[unit])"
    }
}
