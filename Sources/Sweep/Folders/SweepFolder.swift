#if canImport(Glibc)
import Glibc
#endif
import FileIO
import SceneFile

/// A sweep's output folder, shared by every shard:
///
/// ```text
/// DIR/sweep.json            which sweep this is (fingerprint, sample count): shards of another spec are refused
/// DIR/start.state           the saved state every sample continues (branching)
/// DIR/samples/000042/       a complete sample: its inputs, its outputs, done.json
/// DIR/samples/.000042.tmp-HOST-PID/   a sample being written (renamed when complete)
/// DIR/failed/000042.json    why a sample failed (removed when a rerun completes it)
/// DIR/manifest.jsonl        written by merge
/// ```
///
/// A sample folder is written under a temporary name and renamed when complete, so a folder
/// under its final name is always whole; a killed shard leaves only temporaries, which the next
/// run of the same sample removes (when their process, on this machine, is gone) and redoes.
/// Removing never follows a link (see `FolderIO.removeFolder`): a link under a temporary's name
/// is left, and `merge` counts it.
public struct SweepFolder: Sendable {
    public let path: String
    /// Digits in sample folder names (at least 6): fixed by the sweep's size, so names sort.
    public let digits: Int
    /// The sweep's sample count: indices run below it.
    public let sampleCount: Int

    public var samplesPath: String { "\(path)/samples" }
    public var failedPath: String { "\(path)/failed" }
    public var identityPath: String { "\(path)/sweep.json" }
    public var startStatePath: String { "\(path)/start.state" }
    public var manifestPath: String { "\(path)/manifest.jsonl" }
    public var manifestTablePath: String { "\(path)/manifest.npy" }

    public init(path: String, sampleCount: Int) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        digits = max(6, String(max(sampleCount - 1, 0)).count)
        self.sampleCount = sampleCount
    }

    /// The folder name of sample `index`: `000042`.
    public func name(_ index: Int) -> String {
        let number = String(index)
        return String(repeating: "0", count: max(0, digits - number.count)) + number
    }

    public func samplePath(_ index: Int) -> String { "\(samplesPath)/\(name(index))" }
    public func failurePath(_ index: Int) -> String { "\(failedPath)/\(name(index)).json" }

    // MARK: Identity

    /// What `sweep.json` says of a sweep.
    public struct Identity: Sendable, Equatable {
        public var spec: String
        public var fingerprint: String
        public var samples: Int
        public var branches: Bool

        public init(spec: String, fingerprint: String, samples: Int, branches: Bool) {
            self.spec = spec
            self.fingerprint = fingerprint
            self.samples = samples
            self.branches = branches
        }

        var json: String {
            let identity: JSONOutput = ["cratedrop_sweep": 1, "spec": .string(spec), "fingerprint": .string(fingerprint),
                                        "samples": .integer(samples), "branches": .bool(branches)]
            return identity.text + "\n"
        }

        init?(json bytes: [UInt8]) {
            guard let root = try? JSONParser.parse(bytes), case let .object(members) = root.kind else { return nil }
            func value(_ key: String) -> JSONValue.Kind? { members.first { $0.key == key }?.value.kind }
            guard case let .string(spec)? = value("spec"), case let .string(fingerprint)? = value("fingerprint"),
                  case let .number(_, literal)? = value("samples"), let samples = Int(literal),
                  // A spec holds at most this many: a larger count is not one `sweep run` wrote.
                  (0...SweepSpecLoader.maxSamples).contains(samples),
                  case let .bool(branches)? = value("branches") else { return nil }
            self.init(spec: spec, fingerprint: fingerprint, samples: samples, branches: branches)
        }
    }

    /// Why a sweep folder cannot be used.
    public enum FolderError: Error, Sendable, CustomStringConvertible {
        /// It cannot be created or written (73).
        case cannotCreate(String)
        /// It holds another sweep's samples (73).
        case otherSweep(path: String, theirs: String, ours: String)
        /// It is not a sweep folder, or its `sweep.json` is damaged (66 / 65).
        case notASweep(path: String, reason: String)

        public var description: String {
            switch self {
            case let .cannotCreate(reason): reason
            case let .otherSweep(path, theirs, ours):
                "\(path) holds samples of another sweep (fingerprint \(theirs); this spec and its files give \(ours)): give another --out, or the spec that made it"
            case let .notASweep(path, reason): "\(path): \(reason)"
            }
        }
    }

    /// Creates the folder (its parent must exist) and its parts, and claims it for `identity`,
    /// or checks that it is already this sweep's. Safe when shards start together: the identity
    /// file is made by link(2), which only one of them wins.
    /// - Parameter startState: the saved state's bytes, kept as `start.state` (branching).
    public func prepare(_ identity: Identity, startState: [UInt8]?) throws(FolderError) {
        do {
            try FolderIO.makeFolder(path)
            try FolderIO.makeFolder(samplesPath)
            try FolderIO.makeFolder(failedPath)
            try claim(identityPath, Array(identity.json.utf8))
            if let startState { try claim(startStatePath, startState) }
        } catch {
            throw .cannotCreate(error.description)
        }
        let existing = try Self.identity(at: path)
        if existing.fingerprint != identity.fingerprint || existing.samples != identity.samples {
            throw .otherSweep(path: path, theirs: existing.fingerprint, ours: identity.fingerprint)
        }
    }

    /// Creates `target` with `bytes` unless it exists: written to a temporary, flushed, then
    /// linked to its name (which fails, harmlessly, when another shard was first).
    private func claim(_ target: String, _ bytes: [UInt8]) throws(FolderIO.Failure) {
        if FolderIO.exists(target) { return }
        let temporary = "\(target).tmp-\(FolderIO.hostName)-\(getpid())"
        unlink(temporary)
        try FolderIO.writeNew(temporary, bytes, sync: true)
        defer { unlink(temporary) }
        if link(temporary, target) != 0, errno != EEXIST { throw FolderIO.Failure(target, .create) }
    }

    /// The identity of the sweep folder at `path`.
    public static func identity(at path: String) throws(FolderError) -> Identity {
        let file = "\(path)/sweep.json"
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path: file, limit: 1 << 20)
        } catch {
            throw .notASweep(path: path, reason: "not a sweep folder (no readable sweep.json: \(error))")
        }
        guard let identity = Identity(json: bytes) else {
            throw .notASweep(path: path, reason: "sweep.json is damaged (not the identity `cratedrop sweep run` writes)")
        }
        return identity
    }

    // MARK: Samples

    /// The samples that have a folder in `samples/` (complete ones: only a finished sample is
    /// renamed into place), or a note in `failed/`, in increasing order: read from the folders,
    /// so a sweep of 10^9 samples costs what it holds, not what it could hold. Names that are
    /// not a sample's (temporaries, strays, indices past the sweep) are not counted.
    public func listedSamples() -> (complete: [Int], failed: [Int]) {
        func indices(_ names: [String], suffix: String) -> [Int] {
            names.compactMap { name -> Int? in
                guard name.hasSuffix(suffix) else { return nil }
                let stem = String(name.dropLast(suffix.count))
                guard stem.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let index = Int(stem),
                      index < sampleCount, self.name(index) == stem else { return nil }
                return index
            }.sorted()
        }
        return (indices(FolderIO.names(in: samplesPath), suffix: ""), indices(FolderIO.names(in: failedPath), suffix: ".json"))
    }

    /// The done marker of sample `index` if the sample is complete: its folder and marker are
    /// themselves in `samples/` (no link leads out of it to a folder made elsewhere), and the
    /// marker names this sample (a marker copied from another sample's folder does not count).
    public func doneMarker(_ index: Int) -> DoneMarker? {
        let marker = "\(samplePath(index))/\(DoneMarker.fileName)"
        guard FolderIO.isFolder(samplePath(index)), FolderIO.isRegularFile(marker),
              let bytes = try? FileBytes.read(path: marker, limit: DoneMarker.maxBytes), let done = DoneMarker(json: bytes), done.sample == index else { return nil }
        return done
    }

    /// A fresh temporary folder for sample `index` (`removeStaleTemporaries` first clears what
    /// dead processes left).
    public func beginSample(_ index: Int) throws(FolderError) -> String {
        let temporary = "\(samplesPath)/.\(name(index)).tmp-\(FolderIO.hostName)-\(getpid())"
        // Ours from an earlier attempt in this process (an abandoned run) goes too: looked for only
        // when it is in the way, since every look is a system call on every sample.
        if mkdir(temporary, 0o755) == 0 { return temporary }
        // Only a folder is removed: anything else under our name (a link) is left, and mkdir fails.
        FolderIO.removeFolder(temporary)
        guard mkdir(temporary, 0o755) == 0 else {
            throw .cannotCreate(FolderIO.Failure(temporary, .createSampleFolder).description)
        }
        return temporary
    }

    /// What became of a completed temporary folder.
    public enum Commit: Sendable, Equatable {
        case committed
        /// Another process completed the same sample first; ours was removed.
        case alreadyDone
    }

    /// Gives the temporary folder its final name, flushing it first when `sync`.
    public func commitSample(_ index: Int, temporary: String, sync: Bool) throws(FolderError) -> Commit {
        do {
            if sync {
                try FolderIO.syncTree(temporary)
            }
            if rename(temporary, samplePath(index)) != 0 {
                // rename(2) will not replace a folder that holds files: another writer finished it.
                if errno == ENOTEMPTY || errno == EEXIST {
                    FolderIO.removeFolder(temporary)
                    return .alreadyDone
                }
                throw FolderIO.Failure(samplePath(index), .renameSample)
            }
            if sync { try FolderIO.sync(samplesPath) }
        } catch {
            throw .cannotCreate("\(error)")
        }
        unlink(failurePath(index))
        return .committed
    }

    /// Removes a temporary folder whose sample will not be completed.
    public func abandonSample(temporary: String) {
        FolderIO.removeFolder(temporary)
    }

    /// Records why sample `index` failed (replacing an older reason).
    package func recordFailure(_ index: Int, parameters: JSONOutput, reason: String) {
        let failure: JSONOutput = ["sample": .integer(index), "parameters": parameters, "reason": .string(reason)]
        let line = failure.text + "\n"
        try? FileDescriptorIO.writeWhole([Array(line.utf8)], to: failurePath(index))
    }

    /// Removes the temporaries of `indices` made on this machine by processes that are gone (a
    /// killed shard's samples in flight), in one pass over `samples/`. Temporaries of other
    /// machines are left: whether their process lives cannot be told from here. Only folders are
    /// removed, never through a link (a link named like a temporary is left, and so is what it
    /// points to): `samples/` may be on a file system others write.
    /// - Returns: the names removed.
    @discardableResult
    public func removeStaleTemporaries(of isTaken: (Int) -> Bool) -> [String] {
        let marker = ".tmp-\(FolderIO.hostName)-"
        var removed: [String] = []
        for entry in FolderIO.names(in: samplesPath) where entry.hasPrefix(".") {
            guard let range = entry.range(of: marker), let index = Int(entry[entry.index(after: entry.startIndex)..<range.lowerBound]),
                  isTaken(index), let pid = Int32(entry[range.upperBound...]), pid > 0, pid != getpid(),
                  FolderIO.processIsGone(pid) else { continue }
            if FolderIO.removeFolder("\(samplesPath)/\(entry)") { removed.append(entry) }
        }
        return removed
    }

    /// Every temporary folder left in `samples/` (by any machine): what merge reports.
    public func temporaries() -> [String] {
        FolderIO.names(in: samplesPath).filter { $0.hasPrefix(".") && $0.contains(".tmp-") }.sorted()
    }
}
