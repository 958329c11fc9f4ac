import Outputs
import Raster
import SceneFile
import SceneModel

/// A sample's `meta.json`, beside its frames: what a dataset loader needs to read them without
/// CrateDrop (docs/sweeps.md, "Making a dataset"): the frames' size, rate and steps, the
/// world-to-pixel transform they were drawn with, the mask ids, and how the sample was made
/// (parameters, seed, determinism class, final hash).
struct SampleMeta {
    var sample: Int
    var parameters: JSONOutput
    var scene: Scene
    var frames: SampleFrames
    var width: Int
    var height: Int
    var viewport: Viewport
    var startStep: Int
    var steps: Int
    var framesWritten: Int
    var hash: StateHash
    var determinismClass: String
    var wallCount: Int
    var bodyCount: Int

    static let fileName = "meta.json"

    var json: String {
        let stepsPerFrame = scene.stepRate / frames.fps
        let digits = DirectoryFrameWriter.digits(expectedFrames: framesWritten)
        let transform: JSONOutput = [
            "scale": .number(viewport.scale), "offset_x": .number(viewport.offsetX), "offset_y": .number(viewport.offsetY),
            "view_left": .number(viewport.left), "view_top": .number(viewport.top),
            "formula": .string("px = offset_x + (x - view_left) * scale; py = offset_y + (view_top - y) * scale (pixel (i, j) covers [i, i+1) x [j, j+1))"),
        ]
        let masks: JSONOutput = frames.masks ? [
            "path": .string("masks/mask-%0\(digits)d.png"), "background": .integer(Int(InstanceMask.background)),
            "bodies": .string("a body's id, 1 ... \(InstanceMask.maxBodyID)"), "first_wall": .integer(Int(InstanceMask.firstWallID)),
            "walls": .integer(wallCount),
        ] : .null
        let framePath = frames.format == .png ? "frames/frame-%0\(digits)d.png" : "video.\(frames.format.rawValue)"
        let fields: [(key: String, value: JSONOutput)] = [
            ("sample", .integer(sample)), ("parameters", parameters),
            ("seed", scene.generator.map { .unsigned($0.seed) } ?? .null),
            ("determinism_class", .string(determinismClass)), ("hash", .string(hash.description)),
            ("step_rate", .integer(scene.stepRate)), ("start_step", .integer(startStep)), ("steps", .integer(steps)),
            ("fps", .integer(frames.fps)), ("steps_per_frame", .integer(stepsPerFrame)), ("frames", .integer(framesWritten)),
            ("frame_step", .string("frame N (from 1) shows the state at step start_step + N * steps_per_frame")),
            ("width", .integer(width)), ("height", .integer(height)),
            ("frames_path", .string(framePath)), ("masks", masks),
            ("bodies", .integer(bodyCount)), ("world_to_pixel", transform),
        ]
        return JSONOutput.object(fields).text
    }
}

extension SampleMeta {
    /// The frames a sample drew, read back from its `meta.json` for `sweep verify` (outside input:
    /// every value is checked against what a spec may ask for `stepRate`).
    /// - Returns: the frames, or why the file cannot say (`KEY: PROBLEM`).
    static func frames(fromJSON bytes: [UInt8], stepRate: Int) -> Result<SampleFrames, MetaProblem> {
        guard let root = try? JSONParser.parse(bytes), case let .object(members) = root.kind else {
            return .failure(MetaProblem("is not a JSON object"))
        }
        func value(_ key: String) -> JSONValue.Kind? { members.first { $0.key == key }?.value.kind }
        func integer(_ key: String, in range: ClosedRange<Int>) -> Result<Int, MetaProblem> {
            guard case let .number(_, literal)? = value(key), let number = Int(literal), range.contains(number) else {
                return .failure(MetaProblem("\(key): must be a whole number in \(range)"))
            }
            return .success(number)
        }
        var frames = SampleFrames()
        switch integer("fps", in: 1...max(1, stepRate)) {
        case let .success(fps) where stepRate % fps == 0: frames.fps = fps
        case .success: return .failure(MetaProblem("fps: must divide the scene's step rate \(stepRate)"))
        case let .failure(problem): return .failure(problem)
        }
        let side = Limits.imageSide
        switch (integer("width", in: side), integer("height", in: side)) {
        case let (.success(width), .success(height)): frames.size = (width, height)
        case let (.failure(problem), _), let (_, .failure(problem)): return .failure(problem)
        }
        guard case let .string(path)? = value("frames_path") else { return .failure(MetaProblem("frames_path: must be a string")) }
        if path.hasPrefix("frames/frame-") {
            frames.format = .png
        } else if let format = SampleFrames.Format.allCases.first(where: { $0 != .png && path == "video.\($0.rawValue)" }) {
            frames.format = format
        } else {
            return .failure(MetaProblem("frames_path: must be frames/frame-%0Nd.png, video.mp4 or video.webm"))
        }
        switch value("masks") {
        case .object?: frames.masks = true
        case .null?: frames.masks = false
        default: return .failure(MetaProblem("masks: must be an object or null"))
        }
        return .success(frames)
    }

    struct MetaProblem: Error {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
