#if canImport(Glibc)
import Glibc
#endif
import Driver

/// `frame 120/600  97.3 fps  ETA 4.9 s` on stderr, rewritten in place at most 10 times a second,
/// only when stderr is a terminal.
final class ProgressLine {
    private let total: Int
    private let stopwatch = MonotonicStopwatch()
    private let start: Int64
    private var lastShown: Int64 = 0
    private var shown = false
    let enabled: Bool

    init(total: Int, quiet: Bool) {
        self.total = total
        enabled = !quiet && isatty(STDERR_FILENO) == 1
        start = stopwatch.nanoseconds()
    }

    func update(done: Int, force: Bool = false) {
        guard enabled else { return }
        let now = stopwatch.nanoseconds()
        guard force || now - lastShown >= 100_000_000 else { return }
        lastShown = now
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? Double(max(total - done, 0)) / rate : 0
        let text = "\rframe \(done)/\(total)  \(rounded(rate)) fps  ETA \(rounded(eta)) s   "
        _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        shown = true
    }

    /// Ends the line so later messages start on a fresh one.
    func finish(done: Int) {
        guard enabled else { return }
        update(done: done, force: true)
        if shown { _ = write(STDERR_FILENO, "\n", 1) }
    }

    private func rounded(_ value: Double) -> String { String(Double(Int(value * 10)) / 10) }
}
