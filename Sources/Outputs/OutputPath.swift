#if canImport(Glibc)
import Glibc
#endif
import FileIO

/// What `--out PATH` asks for, told from the path alone (docs/outputs.md):
/// - `-`: the PPM stream on stdout;
/// - a name ending in `.mp4`, `.mkv`, `.webm` or `.gif` (any case): a video file;
/// - a name ending in `.png` (any case): one still image;
/// - an existing directory, or a name without a file-type extension: a frame directory;
/// - any other file-type extension (`.avi`, `.jpg`, ...): refused, so a typo never silently
///   becomes a directory of frames.
public enum OutputPath: Sendable, Equatable {
    case stream
    case directory
    case video(VideoFormat)
    /// One still PNG image.
    case image
    /// A file-type extension CrateDrop does not write, e.g. `avi`.
    case unknownFileType(String)

    public init(_ path: String) {
        if path == "-" {
            self = .stream
        } else if let format = VideoFormat(path: path) {
            self = .video(format)
        } else if Self.lowercasedExtension(path) == "png" {
            self = .image
        } else if FileDescriptorIO.kind(of: path) == .directory {
            self = .directory
        } else if let suffix = Self.fileTypeExtension(path) {
            self = .unknownFileType(suffix)
        } else {
            self = .directory
        }
    }

    /// The text after the last dot of the last path component, lowercased, if there is a dot.
    static func lowercasedExtension(_ path: String) -> String? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return path[path.index(after: dot)...].lowercased()
    }

    /// The text after the last dot of the last path component when it looks like a file type:
    /// 1 to 4 letters or digits, starting with a letter (so `run.2024` or `frames.final` stay
    /// directory names).
    private static func fileTypeExtension(_ path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let suffix = name[name.index(after: dot)...]
        guard (1...4).contains(suffix.count), suffix.first!.isLetter,
              suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return String(suffix)
    }

    /// The message for a path of unknown type.
    package static func unknownTypeMessage(_ path: String, fileExtension: String) -> String {
        "--out \(path): CrateDrop does not write .\(fileExtension) files; give a directory for frame files, '-' for a PPM "
            + "stream on stdout, a video file ending in \(VideoFormat.extensionList), or one still image ending in .png"
    }
}
