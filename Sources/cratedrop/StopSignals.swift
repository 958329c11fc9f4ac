#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The signal that asked the run to stop (SIGINT, SIGTERM), or 0. Written from a signal handler,
/// read by the run loop at frame boundaries.
private let stopSignal = Atomic<Int32>(0)

/// Turns Ctrl-C, SIGTERM and SIGHUP into a stop request checked at the next step or frame
/// boundary, so the command ends cleanly and still reports (exit 128 + the signal). Installed
/// before anything is loaded, and kept: a second signal only repeats the request, so the file
/// being written is finished, never cut short.
enum StopSignals {
    static let handled = [SIGINT, SIGTERM, SIGHUP]

    static func install() {
        // A global is made on first use, under the runtime's once-lock: made here, before any
        // handler can run, or a signal landing while the run's first read makes it would have the
        // handler wait for that lock on the same thread for ever (seen under load, issue 49).
        _ = stopSignal.load(ordering: .relaxed)
        catchSignals(handled) { received in
            // Keep the first signal's name for the report; later ones change nothing.
            _ = stopSignal.compareExchange(expected: 0, desired: received, ordering: .relaxed)
        }
    }

    /// Sends `signals` to `handler`, unblocking them first: a parent may hand them over blocked
    /// (Foundation's Process does).
    static func catchSignals(_ signals: [Int32], _ handler: @convention(c) (Int32) -> Void) {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in signals { sigaddset(&unblock, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signalNumber in signals { signal(signalNumber, handler) }
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
        case SIGHUP: "SIGHUP"
        default: "signal \(signalNumber)"
        }
    }
}
