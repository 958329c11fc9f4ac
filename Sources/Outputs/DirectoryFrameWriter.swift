#if canImport(Glibc)
import Glibc
#endif
import FileIO
import Raster

/// The file format of frames written to a directory.
public enum FrameFileFormat: Sendable, Equatable {
    /// Binary PPM (P6): the raw pixels behind a 15-byte header.
    case ppm
    /// PNG through libspng.
    case png(PNGEncoder)

    /// The file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .ppm: "ppm"
        case .png: "png"
        }
    }
}

/// Writes `DIR/frame-00001.ppm` (or `.png`), ... Each frame goes to a fresh hidden temporary name first
/// (created exclusively, never through a planted link) and is renamed into place once complete,
/// so a reader, or a run that is interrupted or fails, never leaves a partial frame under a frame
/// name; the temporary file is removed on failure.
///
/// Used by one thread at a time: the pipeline's writer thread.
public final class DirectoryFrameWriter: FrameSink, Sendable {
    public let directory: String
    public let format: FrameFileFormat
    /// Frames' colours, or their instance masks (`mask-00001.png`, 16-bit greyscale).
    private let content: Content
    private let digits: Int

    private enum Content: Sendable {
        case frames
        case masks(PNGEncoder)

        var prefix: String {
            switch self {
            case .frames: "frame-"
            case .masks: "mask-"
            }
        }
    }

    /// Creates `directory` if it is missing (its parent must exist).
    /// - Parameters:
    ///   - directory: where the frame files go.
    ///   - expectedFrames: file numbers are zero-padded to fit it (at least 5 digits).
    ///   - format: PPM or PNG.
    /// - Throws: `FrameWriteError` if the directory cannot be made or is not a directory.
    public convenience init(directory: String, expectedFrames: Int, format: FrameFileFormat = .ppm) throws(FrameWriteError) {
        try self.init(directory: directory, expectedFrames: expectedFrames, format: format, content: .frames)
    }

    /// Writes each frame's instance mask (`RGBImage.mask`) as `DIR/mask-00001.png`, ...
    public convenience init(maskDirectory directory: String, expectedFrames: Int, encoder: PNGEncoder = PNGEncoder()) throws(FrameWriteError) {
        try self.init(directory: directory, expectedFrames: expectedFrames, format: .png(encoder), content: .masks(encoder))
    }

    private init(directory: String, expectedFrames: Int, format: FrameFileFormat, content: Content) throws(FrameWriteError) {
        self.directory = directory
        self.format = format
        self.content = content
        digits = Self.digits(expectedFrames: expectedFrames)
        var info = stat(), link = stat()
        if lstat(directory, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, stat(directory, &info) != 0 {
            throw FrameWriteError(target: directory, reason: "is a symbolic link whose target does not exist")
        }
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw FrameWriteError(target: directory, reason: "exists and is not a directory") }
        } else if mkdir(directory, 0o755) != 0 {
            let cause: FrameWriteError.Cause = errno == ENOENT
                ? .message("cannot create it: its parent directory does not exist") : .during("cannot create it", .fromErrno())
            throw FrameWriteError(target: directory, cause: cause)
        }
        guard access(directory, W_OK) == 0 else { throw FrameWriteError(target: directory, cause: .during("is not writable", .fromErrno())) }
    }

    /// Applies the overwrite rule to a frame directory before any frame is written: a directory
    /// that holds anything needs `replaceExisting` (`--force`), which removes the frame files of
    /// an earlier run (`frame-NNNNN.ppm` and `.png`, nothing else) so none stays beside the new
    /// frames. A missing directory (or a path that is not one) is left to `init` to report.
    /// - Returns: the number of old frame files removed.
    /// - Throws: `OutputSetupError.notEmpty` when the directory is not empty and replacing was not
    ///   asked for, `.cannotCreate` when an old frame file cannot be removed.
    ///   (With `masks`, the same for a masks folder and its `mask-NNNNN.png` files.)
    @discardableResult
    public static func prepare(directory: String, replaceExisting: Bool, masks: Bool = false) throws(OutputSetupError) -> Int {
        guard FileDescriptorIO.kind(of: directory) == .directory, let stream = opendir(directory) else { return 0 }
        var entries: [String] = []
        while let entry = readdir(stream) {
            let name = directoryEntryName(entry)
            if name != ".", name != ".." { entries.append(name) }
        }
        closedir(stream)
        guard !entries.isEmpty else { return 0 }
        let frames = entries.filter { masks ? isMaskFileName($0) : isFrameFileName($0) }.sorted()
        guard replaceExisting else {
            throw .notEmpty(path: directory, frameFiles: frames.count)
        }
        for name in frames where unlink("\(directory)/\(name)") != 0 {
            throw .cannotCreate(FrameWriteError(target: "\(directory)/\(name)", cause: .during("cannot remove it", .fromErrno())))
        }
        return frames.count
    }

    /// Whether `name` is a frame file CrateDrop writes: `frame-` then digits, then `.ppm` or `.png`.
    static func isFrameFileName(_ name: String) -> Bool {
        guard name.hasPrefix("frame-"), name.hasSuffix(".ppm") || name.hasSuffix(".png") else { return false }
        return isNumber(name.dropFirst("frame-".count).dropLast(4))
    }

    /// Whether `name` is a mask file CrateDrop writes: `mask-` then digits, then `.png`.
    static func isMaskFileName(_ name: String) -> Bool {
        name.hasPrefix("mask-") && name.hasSuffix(".png") && isNumber(name.dropFirst("mask-".count).dropLast(4))
    }

    private static func isNumber(_ digits: Substring) -> Bool {
        !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// How many digits frame numbers are padded to for a run of `expectedFrames` (at least 5).
    public static func digits(expectedFrames: Int) -> Int { max(5, String(max(expectedFrames, 1)).count) }

    /// The file name of frame `number`.
    public func fileName(_ number: Int) -> String {
        let text = String(number)
        return content.prefix + String(repeating: "0", count: max(0, digits - text.count)) + text + "." + format.fileExtension
    }

    public func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        let final = "\(directory)/\(fileName(number))"
        let parts: [[UInt8]]
        switch (content, format) {
        case let (.masks(encoder), _):
            guard let mask = image.mask else { throw FrameWriteError(target: final, reason: "the frame was drawn without a mask") }
            do {
                parts = [try encoder.encode(mask)]
            } catch {
                throw FrameWriteError(target: final, cause: error.cause)
            }
        case (.frames, .ppm): parts = [image.ppmHeader, image.pixels]
        case let (.frames, .png(encoder)):
            do {
                parts = [try encoder.encode(image)]
            } catch {
                throw FrameWriteError(target: final, cause: error.cause)
            }
        }
        do {
            try FileDescriptorIO.writeWhole(parts, to: final)
        } catch {
            throw FrameWriteError(target: final, cause: .file(error))
        }
    }
}
