import ArgumentParser
import Outputs
import Raster
import SceneModel
import Session

extension FrameOutputOptions.FileFormat: ExpressibleByArgument {}

/// The options of `run` that turn it into a renderer.
struct FrameOutputOptions: ParsableArguments {
    enum FileFormat: String, CaseIterable { case ppm, png }

    @Option(help: ArgumentHelp("Where frames go: a directory of frame files (created if missing), '-' for a PPM stream on stdout, a video file ending in .mp4, .mkv, .webm or .gif (made by ffmpeg), or one still image ending in .png (the last frame, or the one at --at).", valueName: "DIR|-|FILE"), completion: .file())
    var out: String?

    @Flag(help: "Show the frames in a window as they come (through ffplay); with run --realtime, a live view. Needs a display (exit 69 without one).")
    var view = false

    @Option(help: ArgumentHelp("Frame file format in a directory: ppm or png.", valueName: "ppm|png"))
    var format: FileFormat = .ppm

    @Option(parsing: .unconditional, help: ArgumentHelp("PNG compression level, 0 (fastest) to 9 (smallest).", valueName: "N"))
    var pngLevel: Int = PNGEncoder.defaultLevel

    @Flag(help: "Replace an existing output: a video or image file, or the frame files of a directory that is not empty (removed first; other files stay).")
    var force = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --out FILE.png: the time of the frame to keep, in simulated seconds (decimal; default: the run's last frame). The run ends there.", valueName: "S"))
    var at: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("ffmpeg output options replacing the defaults for the video's format, split at spaces (docs/outputs.md, \"Video\"), e.g. \"-c:v libx264 -preset slow -crf 18 -pix_fmt yuv420p\".", valueName: "ARGS"))
    var encoderArgs: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Frame size in pixels (default: the scene's render size).", valueName: "WxH"))
    var size: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The part of the world to show, in world pixels: min x, min y, max x, max y (default: the scene's render.view, else the whole world).", valueName: "X0,Y0,X1,Y1"))
    var viewRect: String?

    @Option(help: ArgumentHelp("Also write each drawn frame's instance mask, drawn in the same pass: DIR/mask-00001.png, ... (16-bit greyscale: 0 background, a body's id, walls 61440 and up; docs/outputs.md, \"Masks\"). With --out as a frame directory (DIR may be the same), a video or a stream.", valueName: "DIR"), completion: .directory)
    var masks: String?

    @Option(help: ArgumentHelp("Debug drawing over the frames, comma-separated: aabb (bounding boxes), contacts (points and normals), sleeping (sleeping crates grey), ids, grid (every 50 world px).", valueName: "LIST"))
    var overlay: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw every Nth frame.", valueName: "N"))
    var every: Int = 1

    @Flag(help: "No progress line on stderr.")
    var quiet = false

    @Option(help: ArgumentHelp("Write the JSON summary to FILE instead of stdout (with --out -, it goes to stderr otherwise).", valueName: "FILE"), completion: .file())
    var summary: String?

    var streamsToStdout: Bool { out == "-" }

    /// The frame rate when --fps is not given: 50 for a GIF (its delays are whole hundredths of a
    /// second, so 50 plays exactly), else 60.
    var defaultFPS: Int {
        if let out, case let .video(format) = OutputPath(out) { return format.defaultFPS }
        return VideoFormat.standardFPS
    }

    /// `--overlay` as a set (empty if not given or malformed).
    var overlays: Overlays {
        guard let overlay, case let .success(overlays) = Overlays.parse(overlay) else { return [] }
        return overlays
    }

    /// `--view-rect` as a rectangle, nil if not given or malformed.
    var parsedViewRect: ViewRect? {
        guard let viewRect else { return nil }
        let numbers = viewRect.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
        guard numbers.count == 4 else { return nil }
        return ViewRect(min: Vec2(numbers[0], numbers[1]), max: Vec2(numbers[2], numbers[3]))
    }

    /// `--size` as (width, height), nil if not given.
    var parsedSize: (Int, Int)? {
        guard let size else { return nil }
        let parts = size.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return (width, height)
    }

    func validate() throws {
        if let size {
            guard let (width, height) = parsedSize, Limits.imageSide.contains(width), Limits.imageSide.contains(height) else {
                throw ValidationError("--size must be WIDTHxHEIGHT with each side in \(Limits.imageSide.lowerBound)...\(Limits.imageSide.upperBound), e.g. 1280x720, got '\(size)'")
            }
        }
        if every < 1 { throw ValidationError("--every must be >= 1, got \(every)") }
        if let viewRect {
            guard let rect = parsedViewRect else {
                throw ValidationError("--view-rect must be four numbers X0,Y0,X1,Y1 (world pixels), e.g. 0,0,400,150, got '\(viewRect)'")
            }
            if let problem = rect.problem { throw ValidationError("--view-rect \(viewRect): \(problem)") }
        }
        if !PNGEncoder.levels.contains(pngLevel) { throw ValidationError("--png-level must be in 0...9, got \(pngLevel)") }
        if view, out != nil { throw ValidationError("--view shows frames in a window; it cannot be combined with --out") }
        if let overlay, case let .failure(unknown) = Overlays.parse(overlay) { throw ValidationError("--overlay: \(unknown)") }
        if out == nil, !view, size != nil || every != 1 || viewRect != nil || overlay != nil {
            throw ValidationError("--size, --every, --view-rect and --overlay need --out or --view")
        }
        if out?.isEmpty == true { throw ValidationError("--out needs a directory, '-', a video file or a .png image") }
        if let masks {
            guard let out, !view else { throw ValidationError("--masks writes a mask beside each frame --out writes: give --out DIR, a video or -") }
            if masks.isEmpty { throw ValidationError("--masks needs a directory") }
            if case .image = OutputPath(out) { throw ValidationError("--masks is for frame directories, videos and streams; \(out) is one still image") }
        }
        guard let out else {
            if format != .ppm || force || encoderArgs != nil || at != nil { throw ValidationError("--format, --force, --encoder-args and --at need --out") }
            return
        }
        if let at {
            guard case .image = OutputPath(out) else { throw ValidationError("--at picks the frame of a still image: give --out FILE.png") }
            guard let time = DecimalSeconds(at), time.scaled > 0 else {
                throw ValidationError("--at must be a decimal number of seconds > 0 such as 2.5 (at most 9 decimals), got '\(at)'")
            }
        }
        switch OutputPath(out) {
        case let .unknownFileType(suffix): throw ValidationError(OutputPath.unknownTypeMessage(out, fileExtension: suffix))
        case .video:
            if format != .ppm { throw ValidationError("--format is for frame directories; \(out) is a video file") }
        case .image:
            if format != .ppm || encoderArgs != nil { throw ValidationError("--format and --encoder-args are not for a still image; \(out) is one PNG (--png-level sets its compression)") }
            if every != 1 { throw ValidationError("--every is not for a still image; \(out) is one frame") }
        case .stream:
            if force || encoderArgs != nil { throw ValidationError("--force and --encoder-args are for files; --out - streams frames to stdout") }
            if format != .ppm { throw ValidationError("--out - streams PPM frames; --format png is for frame directories") }
        case .directory:
            if encoderArgs != nil { throw ValidationError("--encoder-args is for video files (\(VideoFormat.extensionList))") }
        }
        if encoderArguments?.isEmpty == true { throw ValidationError("--encoder-args needs ffmpeg options") }
    }

    /// `--encoder-args` as ffmpeg's arguments: split at spaces, empty pieces dropped.
    private var encoderArguments: [String]? {
        encoderArgs.map { $0.split(separator: " ").map(String.init) }
    }

    /// Where `--out` or `--view` sends frames (nil without either).
    func destination(title: String) -> FrameDestination? {
        if view { return .viewer(title: title) }
        guard let out else { return nil }
        switch OutputPath(out) {
        case .stream: return .stream
        case let .video(format):
            return .video(out, format: format, encoderArguments: encoderArguments, replaceExisting: force)
        case .image:
            return .image(out, at: at.flatMap(DecimalSeconds.init), encoder: PNGEncoder(level: pngLevel), replaceExisting: force)
        case .directory, .unknownFileType:
            return .directory(out, format: format == .png ? .png(PNGEncoder(level: pngLevel)) : .ppm, replaceExisting: force)
        }
    }
}

extension FrameOutputOptions {
    /// What to draw for `scene`, or nil when neither --out nor --view is given.
    func frames(for scene: Scene) -> RunPlan.Frames? {
        let (width, height) = parsedSize ?? (scene.render.imageWidth, scene.render.imageHeight)
        return destination(title: "cratedrop: \(scene.name)").map {
            RunPlan.Frames(destination: $0, width: width, height: height, every: every, view: parsedViewRect, overlays: overlays,
                           masks: masks)
        }
    }
}
