import Raster

/// Writes each frame's instance mask (`DirectoryFrameWriter(maskDirectory:)`) and then hands the
/// frame to where its colours go (frame files, a video, a stream), so frame N and mask N are
/// drawn in one pass and written under one number.
public final class MaskedFrameSink: FrameSink, Sendable {
    private let frames: FrameSink & Sendable
    private let masks: DirectoryFrameWriter

    public init(frames: FrameSink & Sendable, masks: DirectoryFrameWriter) {
        self.frames = frames
        self.masks = masks
    }

    public func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        try masks.write(image, number: number)
        try frames.write(image, number: number)
    }

    public func finish() throws(FrameWriteError) {
        // Both finish, the frames' first: a video is completed even when the masks' end fails.
        var failure: FrameWriteError?
        do { try frames.finish() } catch { failure = error }
        do { try masks.finish() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    public var framesHeld: Int { frames.framesHeld }
}
