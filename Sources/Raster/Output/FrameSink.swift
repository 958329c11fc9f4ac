/// Where rendered frames go. Used by one thread at a time (the pipeline's writer thread).
public protocol FrameSink: AnyObject {
    /// Writes frame `number` (1-based, consecutive).
    func write(_ image: RGBImage, number: Int) throws(FrameWriteError)
}
