import Driver
import Raster
import SceneFile
import SceneModel
import Script
import Session

/// What one sample runs: its scene's text, its length, its gravity script and where it starts.
/// Made from the spec and the index alone.
public struct SampleInputs: Sendable {
    public var sample: Sample
    /// The scene file the sample runs, as written into its folder (`scene.json`).
    public var sceneText: [UInt8]
    /// The sample's scene, checked once as it was made: its world is built without checking again.
    public var checkedScene: CheckedScene
    public var scene: Scene { checkedScene.scene }
    /// Steps to run (after the saved state's step, when branching).
    public var steps: Int
    /// The gravity script (`gravity.jsonl`), if any.
    public var gravityScript: [UInt8]?
    /// The saved state the sample continues, when branching.
    public var state: SavedStateFile?
    /// The sample's counterfactual change, if any.
    public var edits: [WorldEdit] = []
}

/// Why a sample cannot run: a combination of values the scene refuses (each value alone was
/// checked when the spec was read). Printed as `SPEC: sample N (PARAMETERS): REASON`.
public struct SampleError: Error, Sendable, CustomStringConvertible {
    public var index: Int
    public var reason: String
    public var description: String { "sample \(index): \(reason)" }
}

extension SweepSpec {
    /// The inputs of `sample`.
    /// - Throws: `SampleError` when the scene refuses the sample's combination of values.
    public func inputs(for sample: Sample) throws(SampleError) -> SampleInputs {
        var seconds: DecimalSeconds?
        var script: [UInt8]?
        var sceneValues: [(SceneFieldPath, JSONValue)] = []
        var edits: [WorldEdit] = []
        for parameter in sample.parameters {
            if case .counterfactual = parameter.field, case let .success(edit?) = Counterfactual.edit(parameter.value) { edits.append(edit) }
            switch (parameter.field, parameter.value.kind) {
            case let (.scene(path), _): sceneValues.append((path, parameter.value))
            case let (.seconds, .number(_, literal)): seconds = DecimalSeconds(literal)
            case let (.gravityScript, .string(relative)): script = scripts[relative]
            case let (.gravityScript, .array(lines)): script = GravityScript.text(lines)
            default: break
            }
        }
        switch base {
        case let .scene(basePath, _, document, _):
            let made: (text: [UInt8], checked: CheckedScene)
            do {
                let (text, checked) = try SampleScene.make(setting: sceneValues, in: document, imagesBeside: basePath)
                made = (text, checked)
            } catch {
                throw SampleError(index: sample.index, reason: "\(sample.parametersJSON): \(error)")
            }
            let scene = made.checked.scene
            let length = steps(seconds, stepRate: scene.stepRate)
            if let problem = framesProblem(scene: scene, steps: length) ?? editsProblem(edits, scene: scene, startStep: 0, steps: length) {
                throw SampleError(index: sample.index, reason: "\(sample.parametersJSON): \(problem)")
            }
            return SampleInputs(sample: sample, sceneText: made.text, checkedScene: made.checked, steps: length, gravityScript: script, state: nil,
                                edits: edits)
        case let .state(_, file, _, checked):
            let scene = checked.scene
            let length = steps(seconds, stepRate: scene.stepRate)
            if let problem = framesProblem(scene: scene, steps: length) ?? editsProblem(edits, scene: scene, startStep: file.state.step, steps: length) {
                throw SampleError(index: sample.index, reason: "\(sample.parametersJSON): \(problem)")
            }
            return SampleInputs(sample: sample, sceneText: file.sceneText, checkedScene: checked, steps: length, gravityScript: script, state: file,
                                edits: edits)
        }
    }

    /// Why a counterfactual cannot change this sample, if it cannot: a body its world lacks, a step
    /// outside its run.
    private func editsProblem(_ edits: [WorldEdit], scene: Scene, startStep: Int, steps: Int) -> String? {
        edits.lazy.compactMap { Counterfactual.problem($0, bodies: scene.allCrates().count, startStep: startStep, steps: steps) }.first
    }

    /// Why `outputs.frames` cannot be drawn for a sample's scene and length, if it cannot: a frame
    /// rate that does not divide the step rate, or a length that is not a whole number of frames
    /// (frame N must show the state at step N × rate / fps), or masks asked for more bodies than a
    /// 16-bit id tells apart (a world's ids are 1 ... its bodies, saved states' too).
    func framesProblem(scene: Scene, steps: Int) -> String? {
        guard let frames = outputs.frames else { return nil }
        if let problem = frames.rateProblem(stepRate: scene.stepRate) { return "outputs.frames.fps: \(problem)" }
        let stepsPerFrame = scene.stepRate / frames.fps
        if steps % stepsPerFrame != 0 {
            return "outputs.frames.fps: the sample's \(steps) steps are not a whole number of frames of \(stepsPerFrame) steps (\(frames.fps) a second at \(scene.stepRate) steps a second): make the length a multiple of 1/\(frames.fps) s"
        }
        if frames.masks, let refusal = InstanceMask.refusal(highestBodyID: BodyID(UInt64(scene.allCrates().count))) {
            return "outputs.frames.masks: \(refusal)"
        }
        return nil
    }

    private func steps(_ seconds: DecimalSeconds?, stepRate: Int) -> Int {
        if let seconds { return seconds.steps(atRate: stepRate) }
        switch length {
        case let .seconds(seconds): return seconds.steps(atRate: stepRate)
        case let .steps(steps): return steps
        }
    }
}
