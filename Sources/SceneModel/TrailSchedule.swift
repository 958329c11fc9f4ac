/// Which steps a run record keeps a checkpoint for (docs/determinism.md, "Records").
///
/// - A full state (every body's six values) after each of the first `stateSteps` steps:
///   ⌊stateRows / bodies⌋, so the full states of a record hold at most `stateRows` body rows
///   (100,000 by default: 20,000 steps of 5 crates, 1000 of 100, 100 of 1000). States of two
///   machines part early (from step 15 to 96 for the piles and the tumbler between glibc's FMA and
///   non-FMA maths), and a full state says which body and field parted first.
/// - A state hash after each step up to `denseSteps` (at least 2400: 20 s at 120 Hz), so the
///   first differing step is exact there.
/// - Then a state hash every `stepRate` steps (once per simulated second): a 24-hour run at 120 Hz
///   adds 86,400 short lines.
public struct TrailSchedule: Sendable, Equatable {
    public static let defaultStateRows = 100_000
    public static let minimumDenseSteps = 2400

    /// The most body rows all full states of a record hold together.
    public let stateRows: Int
    public let stateSteps: Int
    public let denseSteps: Int
    public let sparseEvery: Int

    /// - Parameters:
    ///   - bodies: bodies in the world (at least one row each per full state).
    ///   - stepRate: steps per simulated second, the sparse spacing.
    ///   - stateRows: at most this many body rows of full states in all.
    public init(bodies: Int, stepRate: Int, stateRows: Int = TrailSchedule.defaultStateRows) {
        self.stateRows = stateRows
        stateSteps = stateRows / max(bodies, 1)
        denseSteps = max(Self.minimumDenseSteps, stateSteps)
        sparseEvery = max(stepRate, 1)
    }

    /// Whether the state after `step` steps gets a checkpoint.
    public func wantsHash(afterStep step: Int) -> Bool {
        step >= 1 && (step <= denseSteps || step % sparseEvery == 0)
    }

    /// Whether that checkpoint holds the full state.
    public func wantsState(afterStep step: Int) -> Bool { step >= 1 && step <= stateSteps }
}
