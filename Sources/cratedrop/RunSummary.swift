import Driver
import Physics
import Raster
import SceneFile
import SceneModel

/// The one-line JSON summary `cratedrop run` prints. Field meanings are in the README.
struct RunSummary {
    var scene: String
    var mode: String
    var fps: Int
    var interpolation: Bool
    var result: RunResult
    var interrupted: String?
    /// The `gravity` object (JSON), "null" without a gravity stream.
    var gravity: String
    var render: RenderReport?

    /// What the render stage did, when frames were drawn.
    struct RenderReport {
        var out: String
        var width: Int
        var height: Int
        var every: Int
        var stats: RenderStats
        /// Real time: intervals between frames sent to the render stage on the frame schedule.
        var presentedIntervals: LatencyHistogram?
    }

    func json() -> String {
        let c = result.counters
        var fields: [(String, String)] = [
            ("scene", Self.quoted(scene)),
            ("mode", Self.quoted(mode)),
            ("fps", String(fps)),
            ("step_rate", String(result.stepRate)),
            ("interpolation", String(interpolation)),
            ("frames", String(c.frames)),
            ("steps", String(c.stepsTaken)),
            ("simulated_seconds", String(result.simulatedSeconds)),
            ("dropped_steps", String(c.droppedSteps)),
            ("dropped_seconds", String(result.droppedSeconds)),
            ("debt_steps", String(c.debtSteps)),
            ("frames_capped", String(c.framesCapped)),
            ("running_slowly", String(c.runningSlowly)),
            ("ran_slowly", String(c.everRanSlowly)),
            ("peak_physics_load", String(c.peakLoad)),
            ("load_warning", String(c.loadWarning != nil)),
            ("step_time_us", Self.micros(result.stepTimes)),
            ("physics_seconds", String(Double(result.stepTimes.total) / 1e9)),
            ("frame_interval_us", Self.micros(result.frameIntervals)),
            ("wall_seconds", String(Double(result.wallNanoseconds) / 1e9)),
            ("state_hash", Self.quoted(result.stateHash.description)),
            ("determinism_class", Self.quoted(DeterminismClass.current.id)),
        ]
        if let render {
            let s = render.stats
            let presented: String = render.presentedIntervals.map(Self.micros) ?? "null"
            let error: String = s.failure.map { Self.quoted($0.description) } ?? "null"
            let renderFields: [(String, String)] = [
                ("out", Self.quoted(render.out)), ("size", Self.quoted("\(render.width)x\(render.height)")),
                ("every", String(render.every)), ("frames_written", String(s.framesWritten)),
                ("frames_skipped", String(s.framesSkipped)), ("presented_interval_us", presented),
                ("draw_us", Self.micros(s.drawTimes)), ("write_us", Self.micros(s.writeTimes)),
                ("draw_seconds", String(Double(s.drawTimes.total) / 1e9)), ("write_seconds", String(Double(s.writeTimes.total) / 1e9)),
                ("error", error),
            ]
            fields.append(("render", "{" + renderFields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"))
        } else {
            fields.append(("render", "null"))
        }
        fields.append(("gravity", gravity))
        fields.append(("interrupted", interrupted.map(Self.quoted) ?? "null"))
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// p50, p99 and max of a histogram in microseconds.
    static func micros(_ histogram: LatencyHistogram) -> String {
        func us(_ nanoseconds: Int64) -> String { String(Double(nanoseconds) / 1000) }
        return "{\"p50\":\(us(histogram.percentile(0.5))),\"p99\":\(us(histogram.percentile(0.99))),\"max\":\(us(histogram.max))}"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String { JSONText.string(text) }
}
