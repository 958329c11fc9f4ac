#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The signal that asked the run to stop (SIGINT, SIGTERM), or 0. Written from a signal handler,
/// read by the run loop at frame boundaries.
private let stopSignal = Atomic<Int32>(0)

/// Turns Ctrl-C and SIGTERM into a stop request checked at the next frame boundary, so the run
/// ends cleanly and still reports. A second signal gets the default action (immediate exit).
enum StopSignals {
    static func install() {
        // A parent may hand us these signals blocked (Foundation's Process does); unblock them.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in [SIGINT, SIGTERM] { sigaddset(&unblock, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { received in
                stopSignal.store(received, ordering: .relaxed)
                signal(received, SIG_DFL)
            }
        }
    }

    /// The signal received so far, or nil.
    static var received: Int32? {
        let value = stopSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    static func name(_ signalNumber: Int32) -> String {
        switch signalNumber {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signalNumber)"
        }
    }
}
