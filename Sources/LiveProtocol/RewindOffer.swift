/// Whether pages may take the world back in time (docs/serve.md, "Rewind and branch"), as the
/// scene message tells them.
package enum RewindOffer: Sendable, Equatable {
    /// Back to any step of the last `seconds` of simulated time.
    case available(seconds: Int)
    /// Not in this run, for this reason.
    case unavailable(String)
}
