import Driver
import Physics
import Raster
import SceneFile
import SceneModel

/// The summary of one run, as `cratedrop run` prints it: one JSON object whose keys keep the order
/// documented in the README ("The run summary"), every key present (`null` when it does not apply).
/// Encode it with `json()`; decode it with any JSON decoder (the keys are the `CodingKeys`).
public struct RunReport: Codable, Sendable, Equatable {
    /// p50, p99 and max of a histogram, in microseconds.
    public struct Micros: Codable, Sendable, Equatable {
        public var p50: Double
        public var p99: Double
        public var max: Double

        public init(_ histogram: LatencyHistogram) {
            p50 = Double(histogram.percentile(0.5)) / 1000
            p99 = Double(histogram.percentile(0.99)) / 1000
            max = Double(histogram.max) / 1000
        }
    }

    /// What the render stage did, when frames were drawn.
    public struct Render: Codable, Sendable, Equatable {
        /// Where the frames went: a directory, a video file, or `-` for the stream on stdout.
        public var out: String
        /// `WIDTHxHEIGHT` in pixels.
        public var size: String
        public var every: Int
        public var framesWritten: Int
        public var framesSkipped: Int
        /// Real time: intervals between frames sent to the render stage on the frame schedule.
        public var presentedIntervalUs: Micros?
        public var drawUs: Micros
        public var writeUs: Micros
        public var drawSeconds: Double
        public var writeSeconds: Double
        /// The write error that ended the render stage, if any.
        public var error: String?

        enum CodingKeys: String, CodingKey {
            case out, size, every, framesWritten = "frames_written", framesSkipped = "frames_skipped"
            case presentedIntervalUs = "presented_interval_us", drawUs = "draw_us", writeUs = "write_us"
            case drawSeconds = "draw_seconds", writeSeconds = "write_seconds", error
        }
    }

    /// What a gravity stream did.
    public struct Gravity: Codable, Sendable, Equatable {
        /// The stream's name: its path, or `stdin`.
        public var source: String
        public var changesApplied: Int
        public var linesSkipped: Int
        /// The malformed line or read error that ended the stream, if any.
        public var error: String?

        enum CodingKeys: String, CodingKey {
            case source, changesApplied = "changes_applied", linesSkipped = "lines_skipped", error
        }

        public init(_ input: RunOutcome.GravitySummary) {
            source = input.source
            changesApplied = input.changesApplied
            linesSkipped = input.linesSkipped
            error = input.failure?.description
        }
    }

    /// A data file's part: where it went, how many steps it holds, what went wrong.
    public struct DataFile: Codable, Sendable, Equatable {
        public var out: String
        /// Steps traced (`trace`) or measured (`stats`).
        public var steps: Int
        public var error: String?
    }

    public var scene: String
    /// `offline` (virtual clock) or `realtime` (wall clock, guard on).
    public var mode: String
    public var fps: Int
    public var stepRate: Int
    public var interpolation: Bool
    public var frames: Int
    public var steps: Int
    public var simulatedSeconds: Double
    public var droppedSteps: Int
    public var droppedSeconds: Double
    public var debtSteps: Int
    public var framesCapped: Int
    public var runningSlowly: Bool
    public var ranSlowly: Bool
    public var peakPhysicsLoad: Double
    public var loadWarning: Bool
    public var stepTimeUs: Micros
    public var physicsSeconds: Double
    public var frameIntervalUs: Micros
    public var wallSeconds: Double
    /// The final state's hash, 16 hex digits.
    public var stateHash: String
    /// The determinism class of the machine and library that ran it (`cratedrop platform`).
    public var determinismClass: String
    public var render: Render?
    public var gravity: Gravity?
    /// The signal that stopped the run (`SIGINT`, ...), if one did.
    public var interrupted: String?
    /// `--trace` and `--stats`, when given.
    public var trace: DataFile?
    public var stats: DataFile?

    enum CodingKeys: String, CodingKey {
        case scene, mode, fps, stepRate = "step_rate", interpolation, frames, steps, simulatedSeconds = "simulated_seconds"
        case droppedSteps = "dropped_steps", droppedSeconds = "dropped_seconds", debtSteps = "debt_steps"
        case framesCapped = "frames_capped", runningSlowly = "running_slowly", ranSlowly = "ran_slowly"
        case peakPhysicsLoad = "peak_physics_load", loadWarning = "load_warning", stepTimeUs = "step_time_us"
        case physicsSeconds = "physics_seconds", frameIntervalUs = "frame_interval_us", wallSeconds = "wall_seconds"
        case stateHash = "state_hash", determinismClass = "determinism_class", render, gravity, interrupted, trace, stats
    }

    /// The report of a finished run.
    /// - Parameters:
    ///   - plan: what the run was asked to do.
    ///   - outcome: what it did.
    ///   - interrupted: the name of the signal that stopped it, if one did.
    public init(plan: RunPlan, outcome: RunOutcome, interrupted: String?) {
        let result = outcome.result, counters = result.counters
        scene = plan.start.scene.name
        mode = plan.clock.isRealTime ? "realtime" : "offline"
        fps = plan.clock.fps ?? result.stepRate
        stepRate = result.stepRate
        interpolation = plan.interpolate
        frames = counters.frames
        steps = counters.stepsTaken
        simulatedSeconds = result.simulatedSeconds
        droppedSteps = counters.droppedSteps
        droppedSeconds = result.droppedSeconds
        debtSteps = counters.debtSteps
        framesCapped = counters.framesCapped
        runningSlowly = counters.runningSlowly
        ranSlowly = counters.everRanSlowly
        peakPhysicsLoad = counters.peakLoad
        loadWarning = counters.loadWarning != nil
        stepTimeUs = Micros(result.stepTimes)
        physicsSeconds = Double(result.stepTimes.total) / 1e9
        frameIntervalUs = Micros(result.frameIntervals)
        wallSeconds = Double(result.wallNanoseconds) / 1e9
        stateHash = result.stateHash.description
        determinismClass = DeterminismClass.current.id
        if let stats = outcome.render, let frames = plan.frames {
            render = Render(out: frames.destination.description, size: "\(frames.width)x\(frames.height)", every: frames.every,
                            framesWritten: stats.framesWritten, framesSkipped: stats.framesSkipped,
                            presentedIntervalUs: outcome.presentedIntervals.map(Micros.init), drawUs: Micros(stats.drawTimes),
                            writeUs: Micros(stats.writeTimes), drawSeconds: Double(stats.drawTimes.total) / 1e9,
                            writeSeconds: Double(stats.writeTimes.total) / 1e9, error: stats.failure?.description)
        }
        gravity = outcome.gravity.map(Gravity.init)
        self.interrupted = interrupted
        func error(_ path: String) -> String? { outcome.dataFailures.first { $0.target == path }?.description }
        trace = plan.data.tracePath.map { DataFile(out: $0, steps: outcome.stepsTraced, error: error($0)) }
        stats = plan.data.statsPath.map { DataFile(out: $0, steps: outcome.stepsMeasured, error: error($0)) }
    }

    /// The report as one line of JSON, keys in the documented order.
    public func json() -> String {
        // Encoding plain values into OrderedJSONEncoder cannot fail.
        (try? OrderedJSONEncoder().encode(self)) ?? "{}"
    }
}
