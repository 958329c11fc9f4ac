import FileIO
import Physics
import SceneModel

/// Writes one sample into a folder: its inputs (`scene.json`, `gravity.jsonl`), its run's outputs,
/// `hashes.txt`, `meta.json` and, last, `done.json`. `sweep run` writes into a temporary folder it
/// then renames into place; `sweep verify` writes the same sample again into a scratch folder and
/// compares the two file by file, so both go through this one writer.
enum SampleWriter {
    enum Outcome {
        /// Every file is written; the marker is the one in `done.json`.
        case written(DoneMarker)
        /// `abandon` stopped the run before its last step.
        case stopped
        /// The run failed by the sample's values (or an output failed: `.output`).
        case runFailed(SampleRun.Failure)
        /// A file could not be written: the folder's fault.
        case writeFailed(String)
    }

    /// Runs `inputs` (sample `index` of `spec`) and writes its files into `folder`, which exists
    /// and is empty.
    static func write(_ inputs: SampleInputs, index: Int, of spec: SweepSpec, into folder: String, version: String,
                      abandon: @escaping @Sendable () -> Bool) -> Outcome {
        var files = ["scene.json"]
        do {
            try FolderIO.writeNew("\(folder)/scene.json", inputs.sceneText, sync: false)
            if let script = inputs.gravityScript {
                try FolderIO.writeNew("\(folder)/gravity.jsonl", script, sync: false)
                files.append("gravity.jsonl")
            }
        } catch {
            return .writeFailed("\(error)")
        }
        var request = SampleRun.Request(checked: inputs.checkedScene, sceneText: inputs.sceneText, state: inputs.state, steps: inputs.steps,
                                        gravityPath: inputs.gravityScript == nil ? nil : "\(folder)/gravity.jsonl",
                                        outputs: spec.outputs, folder: folder)
        request.edits = inputs.edits
        let result: SampleRun.Result
        switch SampleRun.run(request, shouldStop: abandon) {
        case let .success(done): result = done
        case .failure(.stopped): return .stopped
        case let .failure(failure): return .runFailed(failure)
        }
        files += spec.outputs.fileNames
        if FolderIO.exists("\(folder)/\(SampleRun.branchStateName)") { files.append(SampleRun.branchStateName) }
        let backend = PhysicsBackend.current
        let parameters = inputs.sample.parametersOutput
        let marker = DoneMarker(sample: index, parameters: parameters, startStep: result.startStep, steps: result.steps,
                                hash: result.hash, hashEvery: spec.outputs.hashEvery, determinismClass: DeterminismClass.current.id,
                                backend: backend.kind.rawValue, architecture: backend.architecture, version: version,
                                sweep: spec.fingerprint, files: files, wallSeconds: result.wallSeconds, cpuSeconds: result.cpuSeconds,
                                summary: DoneMarker.Summary(result.finalSnapshot), warnings: result.warnings)
        do {
            if spec.outputs.hashEvery != nil {
                try FolderIO.writeNew("\(folder)/hashes.txt", Array(result.trail.map { $0 + "\n" }.joined().utf8), sync: false)
            }
            if let frames = spec.outputs.frames, let viewport = result.viewport {
                let size = frames.size ?? (inputs.scene.render.imageWidth, inputs.scene.render.imageHeight)
                let meta = SampleMeta(sample: index, parameters: parameters, scene: inputs.scene, frames: frames,
                                      width: size.width, height: size.height, viewport: viewport, startStep: result.startStep,
                                      steps: result.steps, framesWritten: result.framesWritten ?? 0, hash: result.hash,
                                      determinismClass: marker.determinismClass,
                                      // A tumbler's moving walls come after the scene's, as the masks number them.
                                      wallCount: inputs.scene.allWalls().count + (inputs.scene.tumbler?.localWalls.count ?? 0),
                                      bodyCount: result.finalSnapshot.bodies.count)
                try FolderIO.writeNew("\(folder)/\(SampleMeta.fileName)", Array((meta.json + "\n").utf8), sync: false)
            }
            try FolderIO.writeNew("\(folder)/\(DoneMarker.fileName)", Array((marker.json() + "\n").utf8), sync: false)
        } catch {
            return .writeFailed("\(error)")
        }
        return .written(marker)
    }
}
