import Raster

/// Where rendered frames go. Used by one thread at a time (the pipeline's writer thread).
public protocol FrameSink: AnyObject {
    /// Writes frame `number` (1-based, consecutive).
    func write(_ image: RGBImage, number: Int) throws(FrameWriteError)

    /// Called once after the last frame (also after a failed write or an early stop): completes
    /// what the frames went into, such as a video file.
    func finish() throws(FrameWriteError)

    /// How many of the latest frames the sink still holds after `write` returns (to compare the
    /// next frame with, say). The render pipeline reuses a written frame's memory for drawing only
    /// once that many later frames have been written; reusing it earlier would be correct but
    /// would copy the frame.
    var framesHeld: Int { get }
}

extension FrameSink {
    /// Sinks that write each frame whole have nothing to complete.
    public func finish() throws(FrameWriteError) {}

    /// Most sinks keep no frame.
    public var framesHeld: Int { 0 }
}
