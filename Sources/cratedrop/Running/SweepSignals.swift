#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The signal that decides how a sweep stops, or 0: the first abandoning one (SIGTERM, SIGINT,
/// SIGHUP), else SIGUSR1; and whether in-flight samples are to be abandoned rather than finished.
private let sweepSignal = Atomic<Int32>(0)
private let abandonRequested = Atomic<Bool>(false)

/// `sweep run`'s signals (docs/sweeps.md, "Crash safety and stopping"): SIGUSR1, which Slurm
/// sends before a time limit (`--signal=B:USR1@60`), finishes the samples in flight and starts no more; SIGTERM (a
/// requeue, a pre-emption, Kubernetes stopping a pod), SIGINT and SIGHUP abandon the samples in
/// flight too, removing their temporary folders, even after a SIGUSR1. The exit is 128 + the
/// signal that decided: the first abandoning one, else SIGUSR1 (138).
enum SweepSignals {
    static func install() {
        // Made before any handler can run (StopSignals.install says why).
        _ = sweepSignal.load(ordering: .relaxed)
        _ = abandonRequested.load(ordering: .relaxed)
        StopSignals.catchSignals([SIGUSR1, SIGINT, SIGTERM, SIGHUP]) { received in
            if received == SIGUSR1 {
                _ = sweepSignal.compareExchange(expected: 0, desired: received, ordering: .relaxed)
            } else {
                // An abandoning signal replaces a SIGUSR1 before it: the samples in flight are
                // abandoned after all, and the exit code must say so.
                if !sweepSignal.compareExchange(expected: 0, desired: received, ordering: .relaxed).exchanged {
                    _ = sweepSignal.compareExchange(expected: SIGUSR1, desired: received, ordering: .relaxed)
                }
                abandonRequested.store(true, ordering: .relaxed)
            }
        }
    }

    /// The signal that decides how the run stops (see above), or nil.
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
