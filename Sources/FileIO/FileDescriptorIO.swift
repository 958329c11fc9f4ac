#if canImport(Glibc)
import Glibc
#endif

/// POSIX writes with the loops POSIX requires, reporting errno as text, and the rules every
/// output file follows (README, "Output files"):
/// - a regular file (or a new one) is replaced atomically: written under a fresh hidden name made
///   with `mkstemp` (created exclusively, so a planted file or symbolic link is never followed),
///   then renamed over the target, and removed if anything fails;
/// - a character device or a named pipe is written in place (a pipe with no reader is refused at
///   once instead of blocking);
/// - a symbolic link is refused: CrateDrop does not write through links.
public enum FileDescriptorIO {
    /// A failed write: the errno and its text ("Broken pipe", "No space left on device").
    public struct WriteFailure: Error, Sendable, Equatable, CustomStringConvertible {
        public let code: Int32
        public var description: String { String(cString: strerror(code)) }
        /// The reader of a pipe closed it (EPIPE; SIGPIPE is ignored by the CLI).
        public var isClosedPipe: Bool { code == EPIPE }
        public init(code: Int32) { self.code = code }
    }

    /// Writes all of `bytes` to `fd`, retrying partial writes and EINTR.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(WriteFailure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteFailure(code: errno)
            }
            offset += written
        }
    }

    /// Writes `parts` one after another as the whole content of `path`, by the rules above.
    /// - Returns: nil on success, else the reason.
    public static func writeWhole(_ parts: [[UInt8]], to path: String) -> String? {
        switch kind(of: path) {
        case .symbolicLink: return symbolicLinkRefusal
        case .directory: return "is a directory"
        case .device, .pipe:
            let fd: Int32
            switch openInPlace(path) {
            case let .success(opened): fd = opened
            case let .failure(reason): return reason.text
            }
            var failure: String?
            for part in parts where failure == nil { failure = attempt { () throws(WriteFailure) in try writeAll(fd, part) } }
            if close(fd) != 0, failure == nil { failure = errnoText() }
            return failure
        case .regular, .missing:
            return replaceAtomically(parts, path: path)
        }
    }

    /// Opens `path` for writing a stream (a record): regular files are created or truncated
    /// without following a link, devices and pipes opened in place, links refused.
    /// - Returns: the descriptor, or the reason.
    public static func openForWriting(_ path: String) -> Result<Int32, OpenFailure> {
        switch kind(of: path) {
        case .symbolicLink: return .failure(OpenFailure(text: symbolicLinkRefusal))
        case .directory: return .failure(OpenFailure(text: "is a directory"))
        case .device, .pipe: return openInPlace(path)
        case .regular, .missing:
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
            return fd >= 0 ? .success(fd) : .failure(OpenFailure(text: errnoText()))
        }
    }

    /// Why `path` will not be written at all, if so: a symbolic link or a directory.
    public static func refusal(for path: String) -> String? {
        switch kind(of: path) {
        case .symbolicLink: symbolicLinkRefusal
        case .directory: "is a directory"
        default: nil
        }
    }

    public struct OpenFailure: Error, Sendable {
        public var text: String
    }

    public static let symbolicLinkRefusal = "is a symbolic link; CrateDrop does not write through links: give the path of its target"

    enum Kind { case missing, regular, directory, device, pipe, symbolicLink }

    static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFIFO: return .pipe
        default: return .device
        }
    }

    /// Opens a device or named pipe without blocking on a pipe that nobody reads.
    private static func openInPlace(_ path: String) -> Result<Int32, OpenFailure> {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(OpenFailure(text: errno == ENXIO ? "is a named pipe that no process is reading" : errnoText()))
        }
        // Writes may block from here on, like any pipe writer's.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    private static func replaceAtomically(_ parts: [[UInt8]], path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory).\(name).XXXXXX".utf8CString)
        // mkstemp creates the name exclusively (O_CREAT | O_EXCL): never an existing file or link.
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return errnoText() }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(cString: template)
        var failure: String?
        if fchmod(fd, 0o644) != 0 { failure = errnoText() }
        for part in parts where failure == nil { failure = attempt { () throws(WriteFailure) in try writeAll(fd, part) } }
        if close(fd) != 0, failure == nil { failure = errnoText() }
        if failure == nil, rename(temporary, path) != 0 { failure = errnoText() }
        if failure != nil { unlink(temporary) }
        return failure
    }

    public static func errnoText() -> String { String(cString: strerror(errno)) }

    /// The failure's text, or nil if `body` wrote everything.
    private static func attempt(_ body: () throws(WriteFailure) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return error.description
        }
    }
}
