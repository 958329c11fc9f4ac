#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Raster

/// Shows frames live in a window: an ffplay subprocess fed raw RGB frames on a pipe, told the
/// frame rate so it shows each frame for 1/fps s (README, "Watching a run live"). Closing the
/// window ends the run like a stop request.
///
/// A closed window shows up as a write error (EPIPE), never as a SIGPIPE that kills the process
/// (`BrokenPipe`); the process's handling of SIGPIPE is left as it is.
public final class ViewerFrameWriter: FrameSink, Sendable {
    private let viewer: EncoderProcess

    /// Starts ffplay.
    /// - Throws: `OutputSetupError.programMissing` when ffplay is not installed.
    public init(width: Int, height: Int, fps: Int, title: String) throws(OutputSetupError) {
        guard let ffplay = EncoderProcess.find("ffplay") else { throw .programMissing(program: "ffplay", package: "ffmpeg") }
        do {
            viewer = try EncoderProcess(executable: ffplay, arguments: [
                "-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pixel_format", "rgb24",
                "-video_size", "\(width)x\(height)", "-framerate", String(fps), "-i", "pipe:0",
                "-window_title", title, "-autoexit",
            ])
        } catch {
            throw .cannotCreate(FrameWriteError(target: "ffplay", reason: error.text))
        }
    }

    public func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        do {
            try viewer.write(image.pixels)
        } catch {
            if error.isClosedPipe {
                throw FrameWriteError(target: "ffplay", reason: "the viewer window was closed", stopsRun: true)
            }
            throw FrameWriteError(target: "ffplay", reason: error.description)
        }
    }

    /// Ends the input; ffplay shows the last frames and closes its window (`-autoexit`).
    public func finish() throws(FrameWriteError) {
        _ = viewer.finish()
    }
}
