#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Raster
import Synchronization

/// Writes frames into a video file through an ffmpeg subprocess fed raw frames on a pipe, as
/// matplotlib's FFMpegWriter does: planar YUV 4:2:0 converted here (BT.709, limited range, tagged
/// so) for H.264 and VP9, RGB for GIF. Exactly one video frame per frame at `fps`.
///
/// The video is made under a hidden temporary name beside `path` and renamed into place when
/// ffmpeg has finished it, so `path` never holds a partial file; a run stopped early (Ctrl-C) still
/// finishes the file with the frames written. If ffmpeg fails, its own error text is reported and
/// the temporary file removed.
///
/// An encoder that exits shows up as a write error (EPIPE), never as a SIGPIPE that kills the
/// process (`BrokenPipe`); the process's handling of SIGPIPE is left as it is.
public final class VideoFrameWriter: FrameSink, Sendable {
    public let path: String
    public let format: VideoFormat
    private let temporaryPath: String
    private let encoder: EncoderProcess
    private let converter: YUV420Converter?
    /// Converted frames in use at once, taken in turn: 1 when they are written (copied into the
    /// pipe), more when they are spliced (see `splices`).
    private let ring: Int
    /// Converted frames go into the pipe by vmsplice(2) instead of write(2), sparing the kernel's
    /// copy of every frame (most of the writer thread's system time). ffmpeg then reads the frame
    /// from the buffer's own pages, so a buffer is converted into again only after `ring − 1`
    /// frames, more bytes than the pipe holds, have followed it: by then ffmpeg has read it.
    private let splices: Bool
    private let state: Mutex<State>

    /// Most buffers the ring may take before splicing is not worth it (small frames: write them).
    private static let mostBuffers = 4

    private struct State {
        /// The ring of converted frames.
        var buffers: [[UInt8]]
        /// The frame each buffer holds the conversion of.
        var converted: [RGBImage?]
        /// The buffer the next frame goes into.
        var next = 0
        var failed = false
        var finished = false
    }

    /// Checks the output, then starts ffmpeg; nothing is drawn before this succeeds.
    /// - Parameters:
    ///   - path: the video file to make; its extension need not match `format`.
    ///   - format: the container and codec.
    ///   - width: frame width in pixels (even for H.264 and VP9).
    ///   - height: frame height in pixels (even for H.264 and VP9).
    ///   - fps: frames per second of the video.
    ///   - encoderArguments: ffmpeg output options replacing `format.defaultEncoderArguments`.
    ///   - replaceExisting: `--force`: an existing file at `path` is replaced once the new one is done.
    /// - Throws: `OutputSetupError`: ffmpeg missing, `path` existing, a size or rate the format
    ///   cannot carry, a path that cannot be created.
    public init(path: String, format: VideoFormat, width: Int, height: Int, fps: Int, encoderArguments: [String]? = nil,
                replaceExisting: Bool = false) throws(OutputSetupError) {
        self.path = path
        self.format = format
        if let problem = format.problem(width: width, height: height, fps: fps) { throw .unsuitable(path: path, reason: problem) }
        switch FileDescriptorIO.kind(of: path) {
        case .missing: break
        case .regular: if !replaceExisting { throw .exists(path: path) }
        case .symbolicLink: throw .cannotCreate(FrameWriteError(target: path, cause: .file(.symbolicLink)))
        case .directory, .device, .pipe:
            throw .cannotCreate(FrameWriteError(target: path, reason: "exists and is not a regular file"))
        }
        guard let ffmpeg = EncoderProcess.find("ffmpeg") else { throw .programMissing(program: "ffmpeg", package: "ffmpeg") }
        do {
            temporaryPath = try FileDescriptorIO.createTemporary(beside: path)
        } catch {
            throw .cannotCreate(FrameWriteError(target: path, cause: .during("cannot create it", error)))
        }
        converter = format.feedsYUV ? YUV420Converter(width: width, height: height) : nil
        let input = ["-f", "rawvideo", "-pixel_format", format.feedsYUV ? "yuv420p" : "rgb24", "-video_size", "\(width)x\(height)",
                     "-framerate", String(fps), "-i", "pipe:0"]
        let colourTags = format.feedsYUV
            ? ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"] : []
        let arguments = ["-hide_banner", "-nostdin", "-loglevel", "error"] + input
            + (encoderArguments ?? format.defaultEncoderArguments) + colourTags + ["-f", format.muxer, "-y", temporaryPath]
        do {
            encoder = try EncoderProcess(executable: ffmpeg, arguments: arguments)
        } catch {
            unlink(temporaryPath)
            throw .cannotCreate(FrameWriteError(target: path, reason: error.description))
        }
        // (ring − 1) frames must hold at least the pipe's capacity.
        let frameBytes = converter?.frameBytes ?? 0
        let needed = encoder.pipeCapacity.map { 1 + ($0 + frameBytes - 1) / max(1, frameBytes) }
        if frameBytes > 0, let needed, needed <= Self.mostBuffers {
            (ring, splices) = (needed, true)
        } else {
            (ring, splices) = (1, false)
        }
        state = Mutex(State(buffers: Array(repeating: [], count: ring), converted: Array(repeating: nil, count: ring)))
    }

    /// For tests: from now on, frames are written as where the kernel refuses vmsplice.
    func stopSplicing() {
        encoder.stopSplicing()
    }

    /// The frames the ring's buffers hold the conversions of, kept to compare new frames with.
    public var framesHeld: Int { converter == nil ? 0 : ring }

    deinit {
        if !state.withLock({ $0.finished }) { try? finish() }
    }

    public func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        let failure = state.withLock { (state: inout State) -> FileDescriptorIO.WriteFailure? in
            do throws(FileDescriptorIO.WriteFailure) {
                if let converter {
                    let slot = state.next
                    state.next = (slot + 1) % ring
                    // The buffer holds the conversion of an earlier frame; frames drawn on one
                    // background differ only where their items differ, or at most where either was drawn.
                    let earlier = state.converted[slot]
                    var changed: [PixelRect]?
                    if let now = image.drawnRegions, let before = earlier?.drawnRegions, now.background == before.background {
                        changed = now.changes(since: before) ?? before.rects + now.rects
                    }
                    converter.convert(image, into: &state.buffers[slot], previous: earlier, changed: changed)
                    state.converted[slot] = image
                    if splices {
                        var failure: FileDescriptorIO.WriteFailure?
                        state.buffers[slot].withUnsafeBytes { bytes in
                            do throws(FileDescriptorIO.WriteFailure) { try encoder.splice(bytes) } catch { failure = error }
                        }
                        if let failure { throw failure }
                    } else {
                        try encoder.write(state.buffers[slot])
                    }
                } else {
                    try encoder.write(image.pixels)
                }
                return nil
            } catch {
                state.failed = true
                return error
            }
        }
        guard let failure else { return }
        // A closed pipe means ffmpeg stopped: its own message says why.
        let (status, text) = encoder.finish()
        state.withLock { $0.finished = true }
        unlink(temporaryPath)
        let cause: FrameWriteError.Cause = failure.isClosedPipe
            ? .message("ffmpeg stopped (exit \(status))" + (text.isEmpty ? "" : ": \(text)")) : .file(.system(failure.errno))
        throw FrameWriteError(target: path, cause: cause)
    }

    /// Ends ffmpeg's input, waits for it to finish the file and renames it into place.
    /// - Throws: ffmpeg's error text when it fails; the temporary file is then removed.
    public func finish() throws(FrameWriteError) {
        let alreadyFinished = state.withLock { state in
            defer { state.finished = true }
            return state.finished
        }
        guard !alreadyFinished else { return }
        let (status, text) = encoder.finish()
        guard status == 0, !state.withLock({ $0.failed }) else {
            unlink(temporaryPath)
            throw FrameWriteError(target: path, reason: "ffmpeg failed (exit \(status))" + (text.isEmpty ? "" : ": \(text)"))
        }
        guard rename(temporaryPath, path) == 0 else {
            let failure = FileFailure.fromErrno()
            unlink(temporaryPath)
            throw FrameWriteError(target: path, cause: .during("cannot move the finished video into place", failure))
        }
    }
}
