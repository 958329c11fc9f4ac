import SceneFile
import Session

/// The summary `cratedrop serve` prints when it stops: one JSON object, keys in the order
/// docs/serve.md gives them, every key present (`null` when it does not apply).
package struct ServeReport: Encodable, Sendable {
    package var scene: String
    /// Steps taken, rewinds' steps included.
    package var steps: Int
    /// The world's step at the end, which the hash is of: fewer than the steps taken after a rewind.
    package var step: Int
    package var stateHash: String
    package var droppedSeconds: Double
    package var pages: Int
    package var framesSent: Int
    package var framesDropped: Int
    package var badMessages: Int
    package var refusedRequests: Int
    package var rewinds: Int
    package var rewindsRefused: Int
    /// The record kept (`--record`), or null: none was asked for, or it was not written whole.
    package var record: String?

    enum CodingKeys: String, CodingKey {
        case scene, steps, step, stateHash = "state_hash", droppedSeconds = "dropped_seconds", pages, framesSent = "frames_sent"
        case framesDropped = "frames_dropped", badMessages = "bad_messages", refusedRequests = "refused_requests", rewinds
        case rewindsRefused = "rewinds_refused", record
    }

    /// - Parameters:
    ///   - scene: the scene's name.
    ///   - outcome: the last run's outcome.
    ///   - counters: what the server did.
    ///   - record: the record asked for with `--record`, if any.
    package init(scene: String, outcome: RunOutcome, counters: LiveServer.Counters, record: String?) {
        self.scene = scene
        steps = outcome.result.counters.stepsTaken
        step = outcome.result.finalSnapshot.step
        stateHash = outcome.result.stateHash.description
        droppedSeconds = outcome.result.droppedSeconds
        pages = counters.pages
        framesSent = counters.framesSent
        framesDropped = counters.framesDropped
        badMessages = counters.badMessages
        refusedRequests = counters.refusedRequests
        rewinds = counters.rewinds
        rewindsRefused = counters.rewindsRefused
        self.record = outcome.recordFailure == nil ? record : nil
    }

    /// The report as one line of JSON, keys in the documented order.
    package func json() -> String {
        // Encoding plain values into OrderedJSONEncoder cannot fail.
        (try? OrderedJSONEncoder().encode(self)) ?? "{}"
    }
}
