#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Raster

/// Writes one frame as a still PNG image (`--out end.png`): the frame it is given replaces the
/// file atomically (`FileDescriptorIO.writeWhole`), so the path never holds a partial image. The
/// run decides which frame that is (`FrameDestination.image`: the last, or the one at a time).
///
/// Used by one thread at a time: the pipeline's writer thread.
public final class ImageFrameWriter: FrameSink, Sendable {
    public let path: String
    private let encoder: PNGEncoder

    /// Checks the path before any frame is drawn.
    /// - Parameters:
    ///   - path: the PNG file to write.
    ///   - encoder: the PNG compression level.
    ///   - replaceExisting: `--force`: an existing file at `path` is replaced.
    /// - Throws: `OutputSetupError.exists` for an existing file without `replaceExisting`,
    ///   `.cannotCreate` for a path CrateDrop does not write (a link, a directory).
    public init(path: String, encoder: PNGEncoder = PNGEncoder(), replaceExisting: Bool = false) throws(OutputSetupError) {
        self.path = path
        self.encoder = encoder
        switch FileDescriptorIO.kind(of: path) {
        case .missing, .device, .pipe: break
        case .regular: if !replaceExisting { throw .exists(path: path) }
        case .symbolicLink: throw .cannotCreate(FrameWriteError(target: path, cause: .file(.symbolicLink)))
        case .directory: throw .cannotCreate(FrameWriteError(target: path, cause: .file(.directory)))
        }
        // Refused now, not after the run: a file in a folder that does not exist.
        let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var info = stat()
        if stat(parent.isEmpty ? "/" : parent, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
            throw .cannotCreate(FrameWriteError(target: path, reason: "cannot create it: its parent directory does not exist"))
        }
    }

    public func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        let png: [UInt8]
        do {
            png = try encoder.encode(image)
        } catch {
            throw FrameWriteError(target: path, cause: error.cause)
        }
        do {
            try FileDescriptorIO.writeWhole([png], to: path)
        } catch {
            throw FrameWriteError(target: path, cause: .file(error))
        }
    }
}
