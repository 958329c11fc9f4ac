#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Why a file could not be opened, read or written, kept typed until it is printed: the errno of
/// the system call that failed, or the rule of CrateDrop's that refused the path. `description`
/// is the text users see ("No space left on device", "is a directory").
public enum FileFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed with this errno.
    case system(Errno)
    /// An output path that is a symbolic link: CrateDrop does not write through links.
    case symbolicLink
    /// An output path that is a directory.
    case directory
    /// A named pipe that no process reads: refused at once rather than blocking.
    case pipeWithoutReader
    /// An input that is not a regular file (a directory, a named pipe or a device): inputs are read whole.
    case notRegularFile(FileKind)
    /// An input larger than `limit` bytes.
    case tooLarge(limit: Int)
    /// An output folder that `mkdir` could not create.
    case folderNotCreated(Errno)
    /// An output folder's path that names something other than a folder.
    case notAFolder
    /// An output folder this process may not write into.
    case notWritable(Errno)

    /// The failure the last system call reported in `errno`.
    public static func fromErrno() -> FileFailure { .system(Errno(rawValue: errno)) }

    /// The reader of a pipe closed it (EPIPE).
    public var isClosedPipe: Bool { self == .system(.brokenPipe) }

    public var description: String {
        switch self {
        case let .system(errno): errno.description
        case .symbolicLink: "is a symbolic link; CrateDrop does not write through links: give the path of its target"
        case .directory: "is a directory"
        case .pipeWithoutReader: "is a named pipe that no process is reading"
        case .notRegularFile(.directory): "is a directory, expected a file"
        case .notRegularFile(.pipe): "is a named pipe, expected a regular file (scene and record files are read whole)"
        case .notRegularFile: "is a device, expected a regular file"
        case let .tooLarge(limit): "larger than \(limit >> 20) MiB"
        case .folderNotCreated(.noSuchFileOrDirectory): "cannot create it: its parent folder does not exist"
        case .folderNotCreated(.notDirectory): "cannot create it: a part of its path is a file, not a folder"
        case let .folderNotCreated(errno): "cannot create it: \(errno)"
        case .notAFolder: "exists and is not a folder"
        case let .notWritable(errno): "is not writable: \(errno)"
        }
    }
}

/// What is at a path, without following a symbolic link.
public enum FileKind: Sendable, Equatable {
    case missing, regular, directory, device, pipe, symbolicLink

    /// What is at `path` (`lstat`): a link is reported as a link, not as its target.
    public init(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { self = .missing; return }
        self.init(mode: info.st_mode)
    }

    /// The kind a `stat` mode names.
    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .pipe
        default: self = .device
        }
    }
}

/// The one errno-to-text helper: `strerror`'s words for `code` (default: the current `errno`),
/// as swift-system's `Errno` gives them ("No such file or directory").
package func errnoText(_ code: Int32 = errno) -> String { Errno(rawValue: code).description }
