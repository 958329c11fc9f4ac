import SceneFile
import SceneModel
import Script

/// A sweep: one scene (or one saved state) and the axes along which its samples differ, expanded
/// as a grid or as a seeded random sample, and what each sample writes (docs/sweeps.md).
///
/// Built by `SweepSpecLoader` from a spec file, every input file read once at load, so that each
/// sample is a pure function of the spec and its index.
public struct SweepSpec: Sendable {
    /// The spec file's path, as given.
    public var file: String
    /// What every sample starts from.
    public var base: Base
    /// How long each sample runs, unless a `seconds` axis says otherwise.
    public var length: Length
    /// The axes, in the spec's order: for a grid, the last varies fastest.
    public var axes: [SweepAxis]
    /// Grid or random sample.
    public var sampling: Sampling
    /// What each sample writes beside its done marker and scene.
    public var outputs: SampleOutputs
    /// The gravity scripts that `gravity_script` values name, by the path as written in the spec.
    public var scripts: [String: [UInt8]]
    /// How many samples the sweep holds (1 for a grid without axes).
    public var sampleCount: Int
    /// FNV-1a 64 over the spec's bytes and every input it names (scene, state, gravity scripts), in
    /// hex: two shards write into one folder only when they agree on it.
    public var fingerprint: String

    /// Where samples start.
    public enum Base: Sendable {
        /// A scene file: its path, its bytes and the parsed document the axes change.
        case scene(path: String, text: [UInt8], document: JSONValue, scene: Scene)
        /// A saved state (branching): every sample continues it; only run axes vary.
        case state(path: String, file: SavedStateFile, bytes: [UInt8], scene: CheckedScene)
    }

    /// A sample's length.
    public enum Length: Sendable, Equatable {
        case seconds(DecimalSeconds)
        case steps(Int)
    }

    /// How samples are drawn from the axes.
    public enum Sampling: Sendable, Equatable {
        /// Every combination of the axes' values.
        case grid
        /// `count` samples, each axis drawn independently per sample from SplitMix64 seeded by
        /// `seed` and the sample's index (so sample i does not depend on any other).
        case random(count: Int, seed: UInt64)
    }
}

/// What each sample writes into its folder, beside `done.json` and its inputs.
public struct SampleOutputs: Sendable, Equatable {
    /// `hashes.txt`: `STEP HASH` every K steps and after the last.
    public var hashEvery: Int?
    /// `trace.csv` or `trace.jsonl`: every body's state.
    public var trace: TraceKind?
    /// Trace every K steps; nil: every step.
    public var traceEvery: Int?
    /// `stats.jsonl`: per-step figures.
    public var stats = false
    /// `run.rec`: a run record (not for a sweep that starts from a saved state).
    public var record = false
    /// `end.state`: the world at the end (portable backend).
    public var saveState = false
    /// `end.png`: the last frame.
    public var image = false
    /// `events.csv` or `events.jsonl`: every step's contact events.
    public var events: TraceKind?
    /// Frames (a folder of PNGs or a video), their masks, and `meta.json`.
    public var frames: SampleFrames?

    /// The format of a table a sample writes (the trace, the events).
    public enum TraceKind: String, Sendable, Equatable, CaseIterable {
        case csv
        case jsonl
        case npy
    }

    public init() {}

    /// The files a sample writes, by name, in the order the done marker lists them.
    public var fileNames: [String] {
        var names: [String] = []
        if hashEvery != nil { names.append("hashes.txt") }
        // A JSON Lines table's run metadata goes beside it (docs/outputs.md, "Data out").
        if let trace { names += trace == .csv ? ["trace.csv"] : ["trace.\(trace.rawValue)", "trace.meta.json"] }
        if let events { names += events == .csv ? ["events.csv"] : ["events.\(events.rawValue)", "events.meta.json"] }
        if stats { names += ["stats.jsonl", "stats.meta.json"] }
        if record { names.append("run.rec") }
        if saveState { names.append("end.state") }
        if image { names.append("end.png") }
        if let frames {
            names.append(frames.format == .png ? "frames/" : "video.\(frames.format.rawValue)")
            if frames.masks { names.append("masks/") }
            names.append("meta.json")
        }
        return names
    }

    /// Whether the trace is one row per body per frame, with the frame's number and each body's
    /// bounding box in its pixels: with frames, unless `trace_every` asks for steps.
    public var traceHasBoxes: Bool { frames != nil && trace != nil && traceEvery == nil }
}

/// What a sample draws: every frame at `fps` (which divides the step rate, so frame N shows the
/// state at step N × rate / fps of the sample), as PNG files or a video, with an instance mask
/// beside each when asked (docs/sweeps.md, "Making a dataset").
public struct SampleFrames: Sendable, Equatable {
    public var format: Format
    public var fps: Int
    /// The frame size in pixels; nil: the scene's render size.
    public var size: (width: Int, height: Int)?
    /// `masks/mask-00001.png`, ...: 16-bit instance masks drawn in the same pass.
    public var masks: Bool

    /// `frames/frame-00001.png`, ... or one video file.
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case png
        case mp4
        case webm
    }

    public static let defaultFPS = 30

    public init(format: Format = .png, fps: Int = SampleFrames.defaultFPS, size: (width: Int, height: Int)? = nil, masks: Bool = false) {
        self.format = format
        self.fps = fps
        self.size = size
        self.masks = masks
    }

    public static func == (a: SampleFrames, b: SampleFrames) -> Bool {
        a.format == b.format && a.fps == b.fps && a.size?.width == b.size?.width && a.size?.height == b.size?.height && a.masks == b.masks
    }

    /// The frame rates a scene stepping `stepRate` times a second can be drawn at: its divisors.
    public static func frameRates(stepRate: Int) -> [Int] {
        (1...max(1, stepRate)).filter { stepRate % $0 == 0 }
    }

    /// Why `fps` cannot be drawn at `stepRate`, if it cannot: it does not divide it.
    public func rateProblem(stepRate: Int) -> String? {
        guard stepRate % fps != 0 else { return nil }
        let rates = Self.frameRates(stepRate: stepRate).map(String.init).joined(separator: ", ")
        return "\(fps) does not divide the scene's step rate \(stepRate) (frame N shows the state at step N × \(stepRate) / fps); use one of \(rates)"
    }
}
