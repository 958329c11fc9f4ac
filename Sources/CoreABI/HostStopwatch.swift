import Driver

// The clock the death-spiral guard's budget reads within a frame: the page's (performance.now(),
// imported from JavaScript as cratedrop.now_ms) in the wasm build; CLOCK_MONOTONIC natively.
#if hasFeature(Embedded) && arch(wasm32)
@_extern(wasm, module: "cratedrop", name: "now_ms")
private func hostMilliseconds() -> Double

final class HostStopwatch: Stopwatch {
    func nanoseconds() -> Int64 {
        let milliseconds = hostMilliseconds()
        // A clock that says nonsense gives a budget that never ends a frame, not a trap.
        return milliseconds.isFinite && abs(milliseconds) < 1e12 ? Int64(milliseconds * 1e6) : 0
    }
}
#else
typealias HostStopwatch = MonotonicStopwatch
#endif
