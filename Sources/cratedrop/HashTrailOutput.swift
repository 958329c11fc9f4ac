import CLISupport
import SceneModel
import Synchronization

/// Where `hash` and `replay --hash-every` print their trail: `STEP HASH` lines (or the dumped states)
/// on stdout, every write checked; the first failure stops the trail and is kept for the exit code.
final class HashTrailOutput: Sendable {
    private let dump: Bool
    private let firstFailure = Mutex<StandardOutput.Failure?>(nil)

    init(dump: Bool) {
        self.dump = dump
    }

    var failure: StandardOutput.Failure? { firstFailure.withLock { $0 } }

    /// Prints the hash (or the dump) of `snapshot`; false once stdout has failed.
    func emit(_ snapshot: WorldSnapshot) -> Bool {
        let hash = StateHash(snapshot)
        do {
            try StandardOutput.write(dump ? StateDump.json(snapshot, hash: hash) : "\(snapshot.step) \(hash)")
            return true
        } catch {
            firstFailure.withLock { $0 = error }
            return false
        }
    }
}
