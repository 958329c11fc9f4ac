import Driver
import SceneModel
import Script

/// A simulation whose run is written to a run record: after each step the record's schedule
/// names, a checkpoint (state hash, and the full state early on). Gravity changes reach the same
/// recorder through `GravityScriptedWorld`.
public final class RecordingSimulation: Simulation {
    public let inner: Simulation
    public let recorder: RunRecorder
    private var stepsTaken: Int

    /// - Parameters:
    ///   - inner: the simulation as it stands, `stepsTaken` steps in (normally 0).
    ///   - recorder: the open record; `finish()` writes its end line and closes it.
    ///   - stepsTaken: steps `inner` has taken already.
    public init(_ inner: Simulation, recorder: RunRecorder, stepsTaken: Int = 0) {
        self.inner = inner
        self.recorder = recorder
        self.stepsTaken = stepsTaken
    }

    public func prepareStep() -> Bool { inner.prepareStep() }

    public func step() {
        inner.step()
        stepsTaken += 1
        if recorder.schedule.wantsHash(afterStep: stepsTaken) { recorder.checkpoint(inner.snapshot()) }
    }

    public func snapshot() -> WorldSnapshot { inner.snapshot() }

    /// Writes the end line (steps taken, final hash) and closes the record.
    /// - Throws: `PATH: reason` when the record could not be written whole.
    public func finish() throws(RecordWriteError) {
        let final = inner.snapshot()
        recorder.finish(steps: final.step, hash: StateHash(final))
        do {
            try recorder.close()
        } catch {
            throw RecordWriteError(path: recorder.path, reason: error.text)
        }
    }
}

/// A run record that could not be written whole; `description` is `PATH: reason`.
public struct RecordWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
