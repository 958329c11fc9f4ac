/// Where rendered frames go. Used by one thread at a time (the pipeline's writer thread).
public protocol FrameSink: AnyObject {
    /// Writes frame `number` (1-based, consecutive).
    func write(_ image: RGBImage, number: Int) throws(FrameWriteError)

    /// Called once after the last frame (also after a failed write or an early stop): completes
    /// what the frames went into, such as a video file.
    func finish() throws(FrameWriteError)
}

extension FrameSink {
    /// Sinks that write each frame whole have nothing to complete.
    public func finish() throws(FrameWriteError) {}
}
