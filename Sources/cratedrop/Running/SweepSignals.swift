#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The first signal that asked a sweep to stop, or 0; and whether in-flight samples are to be
/// abandoned (SIGTERM, SIGINT, SIGHUP) rather than finished (SIGUSR1 alone).
private let sweepSignal = Atomic<Int32>(0)
private let abandonRequested = Atomic<Bool>(false)

/// `sweep run`'s signals (docs/sweeps.md, "Stopping"): SIGUSR1, which Slurm sends before a time
/// limit (`--signal=B:USR1@60`), finishes the samples in flight and starts no more; SIGTERM (a
/// requeue, a pre-emption, Kubernetes stopping a pod), SIGINT and SIGHUP abandon the samples in
/// flight too, removing their temporary folders. Both end with exit 128 + the first signal.
enum SweepSignals {
    static func install() {
        StopSignals.catchSignals([SIGUSR1, SIGINT, SIGTERM, SIGHUP]) { received in
            _ = sweepSignal.compareExchange(expected: 0, desired: received, ordering: .relaxed)
            if received != SIGUSR1 { abandonRequested.store(true, ordering: .relaxed) }
        }
    }

    /// The first signal received, or nil.
    static var received: Int32? {
        let value = sweepSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// Start no new sample.
    static var draining: Bool { received != nil }

    /// Stop the samples in flight too.
    static var abandoning: Bool { abandonRequested.load(ordering: .relaxed) }

    static func name(_ signalNumber: Int32) -> String {
        signalNumber == SIGUSR1 ? "SIGUSR1" : StopSignals.name(signalNumber)
    }
}
