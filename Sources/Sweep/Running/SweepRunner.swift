#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Physics
import SceneFile
import Synchronization

/// Runs a shard of a sweep into its folder: `jobs` samples at once, one world per thread, each
/// sample written under a temporary name and renamed when complete. Complete samples are
/// skipped; partial ones (temporaries of dead processes) are removed and redone.
///
/// Two ways to stop early, checked between samples and (for `abandon`) at every step:
/// - `drain` (SIGUSR1, a scheduler's warning): start no new sample, finish those in flight;
/// - `abandon` (SIGTERM, SIGINT): stop the samples in flight too, removing their temporaries.
/// Either way every sample already renamed into place stays, and a rerun does only what is left.
public final class SweepRunner: Sendable {
    public struct Configuration: Sendable {
        public var shard: Shard
        /// Samples run at once, each on its own thread.
        public var jobs: Int
        /// Flush each sample's files and folder to the disk before and after its rename (so a
        /// machine that loses power keeps only whole samples, not just a killed process).
        public var sync: Bool
        /// CrateDrop's version, for the done markers.
        public var version: String
        /// Run only these samples (of the shard's); nil: all.
        public var only: [ClosedRange<Int>]?

        public init(shard: Shard = .all, jobs: Int = 1, sync: Bool = false, version: String, only: [ClosedRange<Int>]? = nil) {
            self.only = only
            precondition(jobs >= 1, "a sweep runs at least one sample at a time")
            self.shard = shard
            self.jobs = jobs
            self.sync = sync
            self.version = version
        }
    }

    /// What one run of a shard did; `cratedrop sweep run` prints it (`json`), keys in the order
    /// docs/sweeps.md gives them.
    public struct Report: Encodable, Sendable {
        public var shard: Shard
        /// Samples in the shard.
        public var samples = 0
        /// Completed by this run.
        public var ran = 0
        /// Complete before this run started, or completed meanwhile by another process.
        public var skipped = 0
        /// Failed: index and reason.
        public var failed: [(index: Int, reason: String)] = []
        /// Whether a failure was the folder's (I/O) rather than the sample's (its values).
        public var ioFailed = false
        /// In flight when `abandon` said so, or not started because of a stop.
        public var notRun = 0
        public var wallSeconds = 0.0

        enum CodingKeys: String, CodingKey {
            case shard, samples, ran, skipped, failed, notRun = "not_run", wallSeconds = "wall_seconds"
        }

        /// The line's fields: the failures as a count (their reasons are in `failed/`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(shard.description, forKey: .shard)
            try container.encode(samples, forKey: .samples)
            try container.encode(ran, forKey: .ran)
            try container.encode(skipped, forKey: .skipped)
            try container.encode(failed.count, forKey: .failed)
            try container.encode(notRun, forKey: .notRun)
            try container.encode(wallSeconds, forKey: .wallSeconds)
        }

        /// The JSON line `cratedrop sweep run` prints.
        public var json: String {
            // Encoding plain values into OrderedJSONEncoder cannot fail.
            (try? OrderedJSONEncoder().output(self).spacedText) ?? "{}"
        }
    }

    public let spec: SweepSpec
    public let folder: SweepFolder
    public let configuration: Configuration

    public init(spec: SweepSpec, folder: SweepFolder, configuration: Configuration) {
        self.spec = spec
        self.folder = folder
        self.configuration = configuration
    }

    /// The folder's identity for this spec.
    public var identity: SweepFolder.Identity {
        let branches: Bool
        if case .state = spec.base { branches = true } else { branches = false }
        return SweepFolder.Identity(spec: spec.file, fingerprint: spec.fingerprint, samples: spec.sampleCount, branches: branches)
    }

    /// Prepares the folder (see `SweepFolder.prepare`).
    public func prepare() throws(SweepFolder.FolderError) {
        var state: [UInt8]?
        if case let .state(_, _, bytes, _) = spec.base { state = bytes }
        try folder.prepare(identity, startState: state)
    }

    /// Runs the shard's samples; returns when all are done or a stop ended the run.
    /// - Parameter onFailure: told of each failed sample, from the worker that ran it.
    public func run(drain: @escaping @Sendable () -> Bool, abandon: @escaping @Sendable () -> Bool,
                    onFailure: @escaping @Sendable (Int, String) -> Void = { _, _ in }) -> Report {
        let started = Date()
        let indices = SampleSelection(shard: configuration.shard, total: spec.sampleCount, only: configuration.only)
        // Once, not per sample: what processes of this machine left of this shard's samples when
        // they died (this run makes temporaries under its own pid only).
        folder.removeStaleTemporaries(of: indices.contains)
        let next = Atomic<Int>(0)
        let report = Mutex(Report(shard: configuration.shard))
        report.withLock { $0.samples = indices.count }
        let workers = min(configuration.jobs, max(indices.count, 1))
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<workers {
            let thread = Thread { [self] in
                while true {
                    if drain() || abandon() { break }
                    let position = next.add(1, ordering: .relaxed).oldValue
                    guard position < indices.count else { break }
                    let outcome = runSample(indices[position], abandon: abandon)
                    report.withLock { report in
                        switch outcome {
                        case .ran: report.ran += 1
                        case .skipped: report.skipped += 1
                        case .stopped: report.notRun += 1
                        case let .failed(reason, io):
                            report.failed.append((indices[position], reason))
                            report.ioFailed = report.ioFailed || io
                        }
                    }
                    if case let .failed(reason, _) = outcome { onFailure(indices[position], reason) }
                }
                finished.signal()
            }
            // Chipmunk's solver recurses little, but a world of thousands of bodies wants more
            // than a secondary thread's default stack.
            thread.stackSize = 8 << 20
            thread.start()
        }
        for _ in 0..<workers { finished.wait() }
        return report.withLock { report in
            var result = report
            // Samples never taken by a worker because a stop came first.
            result.notRun += indices.count - min(next.load(ordering: .relaxed), indices.count)
            result.failed.sort { $0.index < $1.index }
            result.wallSeconds = Date().timeIntervalSince(started)
            return result
        }
    }

    enum SampleOutcome {
        case ran
        case skipped
        case stopped
        case failed(String, io: Bool)
    }

    /// Runs sample `index` into a temporary folder and renames it into place.
    func runSample(_ index: Int, abandon: @escaping @Sendable () -> Bool) -> SampleOutcome {
        if folder.doneMarker(index) != nil { return .skipped }
        let sample = spec.sample(index)
        let inputs: SampleInputs
        do {
            inputs = try spec.inputs(for: sample)
        } catch {
            folder.recordFailure(index, parameters: sample.parametersOutput, reason: error.reason)
            return .failed(error.reason, io: false)
        }
        let temporary: String
        do {
            temporary = try folder.beginSample(index)
        } catch {
            return .failed(error.description, io: true)
        }
        switch SampleWriter.write(inputs, index: index, of: spec, into: temporary, version: configuration.version, abandon: abandon) {
        case .written:
            break
        case .stopped:
            folder.abandonSample(temporary: temporary)
            return .stopped
        case let .runFailed(failure):
            folder.abandonSample(temporary: temporary)
            folder.recordFailure(index, parameters: sample.parametersOutput, reason: failure.description)
            if case .output = failure { return .failed(failure.description, io: true) }
            return .failed(failure.description, io: false)
        case let .writeFailed(reason):
            folder.abandonSample(temporary: temporary)
            return .failed(reason, io: true)
        }
        do {
            switch try folder.commitSample(index, temporary: temporary, sync: configuration.sync) {
            case .committed: return .ran
            case .alreadyDone: return .skipped
            }
        } catch {
            folder.abandonSample(temporary: temporary)
            return .failed("\(error)", io: true)
        }
    }
}
