#if canImport(Glibc)
import Glibc
#endif

/// The session's record when `serve` is given no `--record`: `live.rec` in a private directory
/// made with `mkdtemp` (mode 0700) under `$XDG_RUNTIME_DIR`, else `/tmp`, named
/// `cratedrop-serve-PID-XXXXXX` after the process; the file is created with `O_EXCL` and mode
/// 0600. `remove()` deletes both; directories left by killed runs (their PID no longer alive)
/// are deleted by the next `serve` that starts.
public final class PrivateRecord: Sendable {
    /// The record's path (`DIR/live.rec`).
    public let path: String
    /// The private directory holding it.
    public let directory: String

    static let prefix = "cratedrop-serve-"

    /// Where the private directories go: `$XDG_RUNTIME_DIR` if set to an absolute path, else `/tmp`.
    public static var parent: String {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") { return runtime }
        return "/tmp"
    }

    /// Removes stale directories, then makes the private directory and creates the empty record.
    /// - Throws: the reason (errno text) if either cannot be made.
    public init(parent: String = PrivateRecord.parent) throws(CreateError) {
        Self.removeStale(in: parent)
        var template = Array("\(parent)/\(Self.prefix)\(getpid())-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CreateError(path: "\(parent)/\(Self.prefix)\(getpid())-XXXXXX", reason: Self.errnoText())
        }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        path = directory + "/live.rec"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = Self.errnoText()
            rmdir(directory)
            throw CreateError(path: path, reason: reason)
        }
        close(fd)
    }

    /// Deletes the record and its directory.
    public func remove() {
        unlink(path)
        rmdir(directory)
    }

    /// Deletes `PREFIX-PID-XXXXXX` directories in `parent` that belong to this user and whose
    /// process is gone, with the record inside.
    static func removeStale(in parent: String) {
        guard let stream = opendir(parent) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(prefix) else { continue }
            let parts = name.dropFirst(prefix.count).split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, pid != getpid() else { continue }
            let directory = "\(parent)/\(name)"
            var info = stat()
            guard lstat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory + "/live.rec")
            rmdir(directory)
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// The private record could not be made.
    public struct CreateError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }
}
