#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Raster

/// Writes frames back to back as a PPM stream (what `ffmpeg -f image2pipe -c:v ppm -i -` reads),
/// by default on stdout. A closed pipe is reported as EPIPE, whatever the process does with SIGPIPE.
///
/// Used by one thread at a time: the pipeline's writer thread.
public final class StreamFrameWriter: FrameSink, Sendable {
    private let fd: Int32
    private let name: String

    public init(fd: Int32 = STDOUT_FILENO, name: String = "stdout") {
        self.fd = fd
        self.name = name
    }

    public func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        // One write call for the whole frame keeps frames whole when the reader is fast.
        do {
            try FileDescriptorIO.writeAll(fd, image.ppm())
        } catch {
            throw FrameWriteError(target: name, cause: error.isClosedPipe ? .closedPipe : .file(.system(error.errno)))
        }
    }
}
