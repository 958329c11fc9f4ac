import Foundation

/// What ffprobe reads from a video file's first video stream, frames counted by decoding them.
public struct VideoProbe: Sendable {
    public var codec: String
    public var width: Int
    public var height: Int
    /// `r_frame_rate`, e.g. `60/1`.
    public var frameRate: String
    public var frames: Int
    /// The container's duration in seconds.
    public var duration: Double

    public init(_ path: String) throws {
        let result = try CLI.tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                              "stream=codec_name,width,height,r_frame_rate,nb_read_frames:format=duration",
                                              "-of", "default=noprint_wrappers=1", path])
        guard result.status == 0 else { throw ProbeError(message: "ffprobe \(path): \(result.stderr)") }
        var fields: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let codec = fields["codec_name"], let width = fields["width"].flatMap({ Int($0) }),
              let height = fields["height"].flatMap({ Int($0) }), let rate = fields["r_frame_rate"],
              let frames = fields["nb_read_frames"].flatMap({ Int($0) }), let duration = fields["duration"].flatMap({ Double($0) })
        else { throw ProbeError(message: "ffprobe \(path): unexpected output \(result.stdout)") }
        (self.codec, self.width, self.height, frameRate, self.frames, self.duration) = (codec, width, height, rate, frames, duration)
    }

    /// Decodes frame `index` (from 0) of a video or image file to RGB bytes with ffmpeg.
    /// - Parameter filter: filters applied after the frame is selected (e.g. how to read YUV).
    public static func rgbFrame(_ path: String, index: Int = 0, filter: String? = nil) throws -> [UInt8] {
        let filters = "select=eq(n\\,\(index))" + (filter.map { "," + $0 } ?? "")
        let result = try CLI.tool("ffmpeg", ["-v", "error", "-i", path, "-vf", filters, "-frames:v", "1",
                                             "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        guard result.status == 0 else { throw ProbeError(message: "ffmpeg decode \(path): \(result.stderr)") }
        return [UInt8](result.stdoutBytes)
    }

    public struct ProbeError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
