#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Physics
import SceneFile
import SceneModel
import Script

/// `cratedrop sweep verify DIR --sample I`: writes a complete sample again on this machine from
/// the spec that made the sweep, into a scratch folder, as `sweep run` wrote it, and compares
/// every file of the two byte for byte (a video's bytes and the values a run measures aside:
/// `SampleFileDifference.Unrepeatable`), then its rows of `manifest.jsonl` and `manifest.npy`
/// (when merged). A sample made in another determinism class is reported as such: its hashes are
/// not promised to match here.
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

    /// Why a spec cannot verify a folder's samples.
    public enum SpecMismatch: Error, Sendable, CustomStringConvertible {
        /// The spec (with the files it names) is not the one that made the folder.
        case otherSpec(spec: String, folder: String, theirs: String, ours: String)

        public var description: String {
            switch self {
            case let .otherSpec(spec, folder, theirs, ours):
                "\(spec) is not the spec that made \(folder) (with the files it names its fingerprint is \(ours); the folder's sweep.json says \(theirs)): give --spec with the spec that made it, its scene and scripts unchanged"
            }
        }
    }

    /// The spec path a folder's `sweep.json` names, as `sweep run` was given it.
    public static func specPath(of path: String) throws(SweepFolder.FolderError) -> String {
        try SweepFolder.identity(at: path).spec
    }

    /// Checks that `spec` made the folder `path`.
    public static func check(_ spec: SweepSpec, made path: String) throws(SweepFolder.FolderError) -> SpecMismatch? {
        let identity = try SweepFolder.identity(at: path)
        guard identity.fingerprint == spec.fingerprint else {
            return .otherSpec(spec: spec.file, folder: path, theirs: identity.fingerprint, ours: spec.fingerprint)
        }
        return nil
    }

    /// Verifies sample `index` of the sweep folder `path`, made by `spec` (see `check(_:made:)`):
    /// writes the sample again from the spec into a private scratch folder, exactly as `sweep run`
    /// writes it, and compares every file.
    public static func verify(_ path: String, index: Int, spec: SweepSpec) throws(SweepFolder.FolderError) -> Verdict {
        let identity = try SweepFolder.identity(at: path)
        let folder = SweepFolder(path: path, sampleCount: identity.samples)
        guard index >= 0, index < identity.samples, let marker = folder.doneMarker(index) else { return .notComplete }
        let here = DeterminismClass.current.id
        let sampleFolder = folder.samplePath(index)
        if let problem = marker.outOfBounds { return .badMarker("\(sampleFolder)/done.json: \(problem)") }
        guard marker.determinismClass == here else { return .otherClass(madeIn: marker.determinismClass, here: here) }
        // What the spec gives this sample: its scene, script, change and length.
        let inputs: SampleInputs
        do {
            inputs = try spec.inputs(for: spec.sample(index))
        } catch {
            return .differs(expected: marker.hash, got: marker.hash, detail: "the spec refuses this sample, which the folder holds as complete: \(error.reason)")
        }
        let scratch: String
        do {
            scratch = try FileDescriptorIO.makePrivateDirectory(template: "\(temporaryRoot)/cratedrop-verify-XXXXXX")
        } catch {
            return .unusable("cannot make a folder to write the sample again in \(temporaryRoot): \(error)")
        }
        defer { FolderIO.removeFolder(scratch) }
        let again: DoneMarker
        switch SampleWriter.write(inputs, index: index, of: spec, into: scratch, version: marker.version, abandon: { false }) {
        case let .written(written): again = written
        case .stopped: return .unusable("stopped before its last step")
        case let .runFailed(failure): return .unusable(failure.description)
        case let .writeFailed(reason): return .unusable("cannot write the sample again in \(scratch): \(reason)")
        }
        if again.hash != marker.hash || again.steps != marker.steps {
            return .differs(expected: marker.hash, got: again.hash, detail: "final state after \(again.steps) steps (the sample ran \(marker.steps))")
        }
        // A counterfactual's branch state, continued with its change, must end where the sample did.
        if marker.files.contains(SampleRun.branchStateName) {
            switch continuation(fromBranchIn: sampleFolder, inputs: inputs, marker: marker) {
            case let .differs(detail): return .differs(expected: marker.hash, got: again.hash, detail: detail)
            case let .unusable(reason): return .unusable(reason)
            case .same: break
            }
        }
        // Every file, byte for byte; done.json with this run's timings and build put in as the sample's.
        var expected = again
        (expected.wallSeconds, expected.cpuSeconds) = (marker.wallSeconds, marker.cpuSeconds)
        (expected.version, expected.backend, expected.architecture) = (marker.version, marker.backend, marker.architecture)
        do {
            try FolderIO.replace("\(scratch)/\(DoneMarker.fileName)", with: Array((expected.json() + "\n").utf8))
        } catch {
            return .unusable("cannot write the sample again in \(scratch): \(error)")
        }
        switch firstDifference(of: sampleFolder, writtenAgainIn: scratch) {
        case let .differs(detail)?: return .differs(expected: marker.hash, got: again.hash, detail: detail)
        case let .unreadable(reason)?: return .unusable(reason)
        case nil: break
        }
        // The rows people analyse must be the marker just checked (merge writes them so).
        let name = folder.name(index)
        let row: Int?
        switch ManifestRowCheck.check(manifest: folder.manifestPath, index: index, expected: marker.json(path: "samples/\(name)")) {
        case .noRow: row = nil
        case let .matches(line): row = line
        case let .differs(detail): return .differs(expected: marker.hash, got: again.hash, detail: detail)
        }
        if let detail = ManifestRowCheck.checkTable(folder, index: index) { return .differs(expected: marker.hash, got: again.hash, detail: detail) }
        return .identical(hash: again.hash, manifestRow: row)
    }

    private enum BranchCheck {
        case same
        case differs(String)
        case unusable(String)
    }

    /// Runs the sample again from its branch state (`branch.state`, the world saved at the
    /// change's step, before it) with the change, to the sample's last step, outputs aside.
    private static func continuation(fromBranchIn sampleFolder: String, inputs: SampleInputs, marker: DoneMarker) -> BranchCheck {
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
        guard let edit = inputs.edits.first, branch.state.step == edit.step, branch.state.step <= end else {
            return .differs("\(SampleRun.branchStateName): saved at step \(branch.state.step), not at the change's step")
        }
        var again = SampleRun.Request(checked: inputs.checkedScene, sceneText: inputs.sceneText, state: branch, steps: end - branch.state.step,
                                      gravityPath: nil, outputs: SampleOutputs(), folder: nil)
        again.edits = inputs.edits
        // The script as the sample's folder holds it (the tree's comparison checks it is the spec's).
        if inputs.gravityScript != nil { again.gravityPath = "\(sampleFolder)/gravity.jsonl" }
        switch SampleRun.run(again, shouldStop: { false }) {
        case let .success(done):
            return done.hash == marker.hash ? .same
                : .differs("\(SampleRun.branchStateName) continued with the change ends at \(done.hash), not \(marker.hash)")
        case let .failure(failure):
            return .unusable("\(path): \(failure.description)")
        }
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

    /// The first file whose bytes differ between the sample and the same sample written again (or
    /// that only one of them holds), in name order, folders' files after the folder's name; nil
    /// when every file is the same. A video's bytes depend on the encoder's build: only its presence counts.
    private static func firstDifference(of sampleFolder: String, writtenAgainIn scratch: String) -> FileDifference? {
        let written = FolderIO.tree(sampleFolder), again = FolderIO.tree(scratch)
        if let name = again.first(where: { !written.contains($0) }) { return .differs("\(name): missing from the sample") }
        if let name = written.first(where: { !again.contains($0) }) { return .differs("\(name): not written again (the spec gives no such file)") }
        for name in again where !name.hasSuffix("/") && !name.hasPrefix("video.") {
            let path = "\(sampleFolder)/\(name)"
            guard FolderIO.isRegularFile(path) else { return .differs("\(name): not a regular file") }
            let ours: [UInt8]
            do {
                ours = try FileBytes.read(path: path, limit: 1 << 30)
            } catch {
                return .unreadable("\(path): \(error)")
            }
            let theirs: [UInt8]
            do {
                theirs = try FileBytes.read(path: "\(scratch)/\(name)", limit: 1 << 30)
            } catch {
                return .unreadable("\(scratch)/\(name): \(error)")
            }
            if let detail = SampleFileDifference.between(name: name, written: ours, again: theirs) { return .differs(detail) }
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
