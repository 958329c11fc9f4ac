#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Physics
import SceneFile
import SceneModel
import Script

/// `cratedrop sweep verify DIR --sample I`: runs a complete sample again on this machine from
/// its own folder (its scene, gravity script and the sweep's start state) and compares the
/// final hash and its hash trail bit for bit, its frames and masks byte for byte, and its row of
/// `manifest.jsonl` (when merged) with its done marker. A sample made in another determinism class is
/// reported as such: its hashes are not promised to match here.
public enum SweepVerify {
    public enum Verdict: Sendable, Equatable {
        /// The run again matches; `manifestRow` is the line of `manifest.jsonl` checked against
        /// the done marker (nil when the manifest holds no row of the sample yet).
        case identical(hash: StateHash, manifestRow: Int?)
        case differs(expected: StateHash, got: StateHash, detail: String)
        case otherClass(madeIn: String, here: String)
        /// Not complete in the folder.
        case notComplete
        /// Its files could not be read or run.
        case unusable(String)
        /// Its done marker asks for what no spec can (`FILE: KEY: PROBLEM`): bad data.
        case badMarker(String)
    }

    /// Verifies sample `index` of the sweep folder `path`.
    public static func verify(_ path: String, index: Int) throws(SweepFolder.FolderError) -> Verdict {
        let identity = try SweepFolder.identity(at: path)
        let folder = SweepFolder(path: path, sampleCount: identity.samples)
        guard index >= 0, index < identity.samples, let marker = folder.doneMarker(index) else { return .notComplete }
        let here = DeterminismClass.current.id
        let sampleFolder = folder.samplePath(index)
        if let problem = marker.outOfBounds { return .badMarker("\(sampleFolder)/done.json: \(problem)") }
        guard marker.determinismClass == here else { return .otherClass(madeIn: marker.determinismClass, here: here) }
        let sceneText: [UInt8]
        let checked: CheckedScene
        var state: SavedStateFile?
        do {
            sceneText = try FileBytes.read(path: "\(sampleFolder)/scene.json", limit: SceneLoader.maxFileSize)
            checked = try SceneLoader.parseChecked(sceneText, file: "\(sampleFolder)/scene.json")
            if identity.branches {
                state = try SavedStateFile.parse(try FileBytes.read(path: folder.startStatePath, limit: SavedStateFile.maxFileSize))
            }
        } catch {
            return .unusable("\(error)")
        }
        let gravity = marker.files.contains("gravity.jsonl") ? "\(sampleFolder)/gravity.jsonl" : nil
        var outputs = SampleOutputs()
        outputs.hashEvery = marker.hashEvery
        // Frames are drawn again into a private scratch folder and compared file by file.
        var scratch: String?
        defer { if let scratch { FolderIO.removeFolder(scratch) } }
        // Frames in the folder without their meta.json listed would go unchecked: bad data.
        let drawn = ["frames", "masks"].filter { FolderIO.exists("\(sampleFolder)/\($0)") }
            + SampleFrames.Format.allCases.filter { $0 != .png }.map { "video.\($0.rawValue)" }.filter { FolderIO.exists("\(sampleFolder)/\($0)") }
        if let first = drawn.first, !marker.files.contains(SampleMeta.fileName) {
            return .badMarker("\(sampleFolder)/done.json: files: lists no meta.json, yet the sample holds \(first)")
        }
        if marker.files.contains(SampleMeta.fileName) {
            let metaPath = "\(sampleFolder)/\(SampleMeta.fileName)"
            let bytes: [UInt8]
            do {
                bytes = try FileBytes.read(path: metaPath, limit: 1 << 20)
            } catch {
                return .unusable("\(metaPath): \(error)")
            }
            switch SampleMeta.frames(fromJSON: bytes, stepRate: checked.scene.stepRate) {
            case let .success(frames): outputs.frames = frames
            case let .failure(problem): return .badMarker("\(metaPath): \(problem.description)")
            }
            do {
                scratch = try FileDescriptorIO.makePrivateDirectory(template: "\(temporaryRoot)/cratedrop-verify-XXXXXX")
            } catch {
                return .unusable("cannot make a folder to draw the frames again in \(temporaryRoot): \(error)")
            }
        }
        var request = SampleRun.Request(checked: checked, sceneText: sceneText, state: state, steps: marker.steps, gravityPath: gravity,
                                        outputs: outputs, folder: scratch)
        // A counterfactual sample is run again with its change, read from its parameters.
        switch counterfactual(in: marker) {
        case let .success(edit): request.edits = edit.map { [$0] } ?? []
        case let .failure(problem): return .badMarker("\(sampleFolder)/done.json: parameters.counterfactual: \(problem)")
        }
        let result: SampleRun.Result
        switch SampleRun.run(request, shouldStop: { false }) {
        case let .success(done): result = done
        case let .failure(failure): return .unusable(failure.description)
        }
        if result.hash != marker.hash || result.steps != marker.steps {
            return .differs(expected: marker.hash, got: result.hash, detail: "final state after \(result.steps) steps (the sample ran \(marker.steps))")
        }
        if marker.hashEvery != nil {
            let written = (try? FileBytes.read(path: "\(sampleFolder)/hashes.txt", limit: 1 << 30)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let lines = written.split(separator: "\n").map(String.init)
            if let first = Array(zip(lines, result.trail)).firstIndex(where: { $0 != $1 }) ?? (lines.count == result.trail.count ? nil : min(lines.count, result.trail.count)) {
                let expectedLine = first < lines.count ? lines[first] : "(none)"
                let gotLine = first < result.trail.count ? result.trail[first] : "(none)"
                return .differs(expected: marker.hash, got: result.hash, detail: "hashes.txt line \(first + 1): written '\(expectedLine)', now '\(gotLine)'")
            }
        }
        // A counterfactual's branch state, continued with its change, must end where the sample did.
        if marker.files.contains(SampleRun.branchStateName) {
            switch continuation(fromBranchIn: sampleFolder, request: request, marker: marker) {
            case let .differs(detail): return .differs(expected: marker.hash, got: result.hash, detail: detail)
            case let .unusable(reason): return .unusable(reason)
            case .same: break
            }
        }
        if let scratch, let frames = outputs.frames {
            // A video's bytes depend on the encoder's build; its frames' masks (PNG) do not.
            let folders = (frames.format == .png ? ["frames"] : []) + (frames.masks ? ["masks"] : [])
            switch firstDifference(in: folders, of: sampleFolder, drawnAgainIn: scratch) {
            case let .differs(detail)?: return .differs(expected: marker.hash, got: result.hash, detail: detail)
            case let .unreadable(reason)?: return .unusable(reason)
            case nil: break
            }
        }
        // The row people analyse must be the marker just checked (merge writes it so).
        let name = folder.name(index)
        switch ManifestRowCheck.check(manifest: folder.manifestPath, index: index, expected: marker.json(path: "samples/\(name)")) {
        case .noRow: return .identical(hash: result.hash, manifestRow: nil)
        case let .matches(line): return .identical(hash: result.hash, manifestRow: line)
        case let .differs(detail): return .differs(expected: marker.hash, got: result.hash, detail: detail)
        }
    }

    private enum BranchCheck {
        case same
        case differs(String)
        case unusable(String)
    }

    /// Runs the sample again from its branch state (`branch.state`, the world saved at the
    /// change's step, before it) with the change, to the sample's last step, outputs aside.
    private static func continuation(fromBranchIn sampleFolder: String, request: SampleRun.Request, marker: DoneMarker) -> BranchCheck {
        let path = "\(sampleFolder)/\(SampleRun.branchStateName)"
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: path, limit: SavedStateFile.maxFileSize)
        } catch {
            return .unusable("\(path): \(error)")
        }
        // Read but not a state the run wrote (other bits, a broken checksum): the sample differs.
        let branch: SavedStateFile
        do {
            branch = try SavedStateFile.parse(bytes)
        } catch {
            return .differs("\(SampleRun.branchStateName): not the state the run saved: \(error)")
        }
        let end = marker.startStep + marker.steps
        guard let edit = request.edits.first, branch.state.step == edit.step, branch.state.step <= end else {
            return .differs("\(SampleRun.branchStateName): saved at step \(branch.state.step), not at the change's step")
        }
        var again = SampleRun.Request(scene: request.scene, sceneText: request.sceneText, state: branch, steps: end - branch.state.step,
                                      gravityPath: request.gravityPath, outputs: SampleOutputs(), folder: nil)
        again.checkedScene = request.checkedScene
        again.edits = request.edits
        switch SampleRun.run(again, shouldStop: { false }) {
        case let .success(done):
            return done.hash == marker.hash ? .same
                : .differs("\(SampleRun.branchStateName) continued with the change ends at \(done.hash), not \(marker.hash)")
        case let .failure(failure):
            return .unusable("\(path): \(failure.description)")
        }
    }

    /// The change a done marker's `counterfactual` parameter asks for (nil without one).
    private static func counterfactual(in marker: DoneMarker) -> Result<WorldEdit?, MarkerProblem> {
        guard let root = try? JSONParser.parse(marker.parameters.text), case let .object(members) = root.kind,
              let value = members.first(where: { $0.key == SweepField.counterfactual.description })?.value else { return .success(nil) }
        switch Counterfactual.edit(value) {
        case let .success(edit): return .success(edit)
        case let .failure(problems): return .failure(MarkerProblem(problems.all.joined(separator: "; ")))
        }
    }

    struct MarkerProblem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Where temporary folders go: `$TMPDIR`, else `/tmp`.
    private static var temporaryRoot: String {
        if let root = getenv("TMPDIR").map({ String(cString: $0) }), !root.isEmpty { return root }
        return "/tmp"
    }

    /// How a sample's drawn files compare with the same files drawn again.
    private enum FileDifference {
        /// `FOLDER/NAME: WHY`: a file whose bytes differ, or that only one side holds.
        case differs(String)
        /// A sample's file that cannot be read.
        case unreadable(String)
    }

    /// The first file of `folders` whose bytes differ between the sample and what was drawn again
    /// (or that only one of them holds); nil when every file is the same.
    private static func firstDifference(in folders: [String], of sampleFolder: String, drawnAgainIn scratch: String) -> FileDifference? {
        for folder in folders {
            let written = Set(FolderIO.names(in: "\(sampleFolder)/\(folder)")), drawn = Set(FolderIO.names(in: "\(scratch)/\(folder)"))
            if let name = drawn.subtracting(written).sorted().first { return .differs("\(folder)/\(name): missing from the sample") }
            if let name = written.subtracting(drawn).sorted().first { return .differs("\(folder)/\(name): not drawn again") }
            for name in drawn.sorted() {
                let written: [UInt8]
                do {
                    written = try FileBytes.read(path: "\(sampleFolder)/\(folder)/\(name)", limit: 1 << 30)
                } catch {
                    return .unreadable("\(sampleFolder)/\(folder)/\(name): \(error)")
                }
                let again = try? FileBytes.read(path: "\(scratch)/\(folder)/\(name)", limit: 1 << 30)
                if written != again { return .differs("\(folder)/\(name): its bytes differ from the file drawn again") }
            }
        }
        return nil
    }

    /// `count` distinct complete samples of the folder, chosen by SplitMix64 from `seed`.
    public static func randomSamples(_ path: String, count: Int, seed: UInt64) throws(SweepFolder.FolderError) -> [Int] {
        let identity = try SweepFolder.identity(at: path)
        let folder = SweepFolder(path: path, sampleCount: identity.samples)
        var complete = folder.listedSamples().complete
        var random = SplitMix64(seed: seed)
        var chosen: [Int] = []
        while chosen.count < count, !complete.isEmpty {
            chosen.append(complete.remove(at: Int(random.next(below: UInt64(complete.count)))))
        }
        return chosen.sorted()
    }
}
