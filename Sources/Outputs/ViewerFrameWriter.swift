#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Foundation
import Raster

/// Shows frames live in a window: an ffplay subprocess fed raw RGB frames on a pipe, told the
/// frame rate so it shows each frame for 1/fps s (docs/outputs.md, "Watching a run live"). Closing the
/// window ends the run like a stop request.
///
/// A closed window shows up as a write error (EPIPE), never as a SIGPIPE that kills the process
/// (`BrokenPipe`); the process's handling of SIGPIPE is left as it is.
public final class ViewerFrameWriter: FrameSink, Sendable {
    private let viewer: EncoderProcess

    /// Starts ffplay.
    /// - Parameters:
    ///   - width: the frames' width in pixels.
    ///   - height: the frames' height in pixels.
    ///   - fps: how many frames the window shows a second.
    ///   - title: the window's title.
    ///   - environment: where to look for a display (the process's environment).
    /// - Throws: `OutputSetupError.noDisplay` when neither `DISPLAY` nor `WAYLAND_DISPLAY` is set
    ///   (and `SDL_VIDEODRIVER` does not pick a driver itself), `.programMissing` when ffplay is
    ///   not installed.
    public init(width: Int, height: Int, fps: Int, title: String,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(OutputSetupError) {
        if !Self.hasDisplay(environment) { throw .noDisplay }
        guard let ffplay = EncoderProcess.find("ffplay") else { throw .programMissing(program: "ffplay", package: "ffmpeg") }
        do {
            viewer = try EncoderProcess(executable: ffplay, arguments: [
                "-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pixel_format", "rgb24",
                "-video_size", "\(width)x\(height)", "-framerate", String(fps), "-i", "pipe:0",
                "-window_title", title, "-autoexit",
            ])
        } catch {
            throw .cannotCreate(FrameWriteError(target: "ffplay", reason: error.description))
        }
    }

    /// Whether a window can open: X11 or Wayland named, or SDL told which video driver to use.
    static func hasDisplay(_ environment: [String: String]) -> Bool {
        ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"].contains { environment[$0]?.isEmpty == false }
    }

    public func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        do {
            try viewer.write(image.pixels)
        } catch {
            if error.isClosedPipe {
                // ffplay has exited. A window that opened and was closed ends it quietly (status
                // 0, nothing on stderr); anything else is ffplay failing, in its own words.
                let (status, text) = viewer.finish()
                if status != 0 || !text.isEmpty { throw Self.failure(status: status, errorText: text) }
                throw FrameWriteError(target: "ffplay", reason: "the viewer window was closed", stopsRun: true)
            }
            throw FrameWriteError(target: "ffplay", reason: error.description)
        }
    }

    /// Ends the input; ffplay shows the last frames and closes its window (`-autoexit`).
    /// - Throws: ffplay's own error when it failed (it never opened its window, say).
    public func finish() throws(FrameWriteError) {
        // After a whole run, only the exit status counts: ffplay also warns on windows that work.
        let (status, text) = viewer.finish()
        if status != 0 { throw Self.failure(status: status, errorText: text) }
    }

    /// ffplay failing, in its own words (or its exit status when it said nothing).
    private static func failure(status: Int32, errorText: String) -> FrameWriteError {
        let said = errorText.isEmpty ? "exit status \(status)" : errorText.split(separator: "\n").joined(separator: "; ")
        return FrameWriteError(target: "ffplay", reason: "could not show the frames: \(said)", programFailed: true)
    }
}
