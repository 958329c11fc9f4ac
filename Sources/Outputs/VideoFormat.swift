/// The video files `run --out` makes through ffmpeg, picked by the file's extension
/// (docs/outputs.md, "Video").
public enum VideoFormat: String, Sendable, CaseIterable {
    /// H.264 in MP4, moov atom first so playback starts before the download ends.
    case mp4
    /// H.264 in Matroska.
    case mkv
    /// VP9 in WebM, for browsers.
    case webm
    /// An animated GIF with a palette made per frame.
    case gif

    /// The format for `path`'s extension (case-insensitive), if it names one.
    public init?(path: String) {
        guard let suffix = OutputPath.lowercasedExtension(path) else { return nil }
        self.init(rawValue: suffix)
    }

    /// The extensions, as the help and error messages list them: `.mp4, .mkv, .webm, .gif`.
    package static var extensionList: String { allCases.map { "." + $0.rawValue }.joined(separator: ", ") }

    /// ffmpeg's name for the container (given with `-f`, because the encoder writes a temporary name).
    var muxer: String {
        switch self {
        case .mp4: "mp4"
        case .mkv: "matroska"
        case .webm: "webm"
        case .gif: "gif"
        }
    }

    /// The frame rate CrateDrop uses when none is given: 60.
    public static let standardFPS = 60

    /// The frame rate for this format when none is given: 50 for GIF (whose delays are whole
    /// hundredths of a second, so 60 cannot play and 50 plays exactly), else `standardFPS`.
    public var defaultFPS: Int { self == .gif ? 50 : Self.standardFPS }

    /// What CrateDrop feeds ffmpeg: planar YUV it converts itself, or RGB for the GIF palette filters.
    public var feedsYUV: Bool { self != .gif }

    /// The encoder options used unless `--encoder-args` replaces them.
    public var defaultEncoderArguments: [String] {
        switch self {
        case .mp4: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
        case .mkv: ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p"]
        case .webm: ["-c:v", "libvpx-vp9", "-crf", "10", "-b:v", "0", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
                     "-pix_fmt", "yuv420p"]
        case .gif: ["-filter_complex", "split[frames][copy];[copy]palettegen=stats_mode=single[palette];[frames][palette]paletteuse=new=1",
                    "-loop", "0"]
        }
    }

    /// Why this format cannot carry frames of this size at this rate, if it cannot.
    public func problem(width: Int, height: Int, fps: Int) -> String? {
        if feedsYUV, width % 2 != 0 || height % 2 != 0 {
            let even = "\(width + width % 2)x\(height + height % 2)"
            return ".\(rawValue) needs even frame sides (its colour planes are half size), got \(width)x\(height): try --size \(even)"
        }
        // GIF delays are whole hundredths of a second; players also stretch delays under 2/100 s.
        if self == .gif, 100 % fps != 0 || fps > 50 {
            return ".gif plays whole hundredths of a second per frame, so --fps must divide 100 and be at most 50 "
                + "(50, 25, 20, 10, ...), got \(fps)"
        }
        return nil
    }
}
