/// Paces one page's messages: on average at most `perSecond`, in bursts of up to `burst`. A page
/// that sends faster is read more slowly (its socket waits, NIO's backpressure), so a flood from
/// a few sockets cannot take the CPU the run needs: each message costs the server parsing and
/// unmasking, and a phone's tilts or a drag send about 60 a second.
struct MessagePace {
    static let perSecond = 1000.0
    static let burst = 200.0
    /// Waits shorter than this are saved up: one timer per message would cost more than the message.
    static let shortestWait = 0.01

    /// Messages that may come at once now; below zero, the debt still to wait off.
    private var allowance = MessagePace.burst
    private var last: ContinuousClock.Instant?

    /// Takes one message that came at `now`.
    /// - Returns: how long to wait before taking the next one; zero for no wait.
    mutating func take(at now: ContinuousClock.Instant) -> Duration {
        if let last {
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            allowance = min(Self.burst, allowance + seconds * Self.perSecond)
        }
        last = now
        allowance -= 1
        let wait = -allowance / Self.perSecond
        return wait >= Self.shortestWait ? .milliseconds(Int((wait * 1000).rounded(.up))) : .zero
    }
}
