#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// POSIX writes with the loops POSIX requires, reporting errno as `FileFailure`, and the rules every
/// output file follows (docs/outputs.md, "Output files"):
/// - a regular file (or a new one) is replaced atomically: written under a fresh hidden name made
///   with `mkstemp` (`.NAME.tmp-PID-XXXXXX`, created exclusively, so a planted file or symbolic
///   link is never followed), then renamed over the target, and removed if anything fails;
/// - a character device or a named pipe is written in place (a pipe with no reader is refused at
///   once instead of blocking);
/// - a symbolic link is refused: CrateDrop does not write through links.
package enum FileDescriptorIO {
    /// A failed write: the errno and its text ("Broken pipe", "No space left on device").
    package struct WriteFailure: Error, Sendable, Equatable, CustomStringConvertible {
        package let errno: Errno
        package var description: String { errno.description }
        /// The reader of a pipe closed it (EPIPE; SIGPIPE is ignored by the CLI).
        package var isClosedPipe: Bool { errno == .brokenPipe }
        package init(_ errno: Errno) { self.errno = errno }
        /// The failure the last system call reported in `errno`.
        package static func fromErrno() -> WriteFailure { WriteFailure(Errno(rawValue: Glibc.errno)) }
    }

    /// Writes all of `bytes` to `fd`, retrying partial writes and EINTR (swift-system's
    /// `FileDescriptor.writeAll`).
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(WriteFailure) {
        try BrokenPipe.reportedAsError { () throws(WriteFailure) in
            do {
                _ = try FileDescriptor(rawValue: fd).writeAll(bytes)
            } catch let error as Errno {
                throw WriteFailure(error)
            } catch {
                // swift-system reports system call failures as Errno only.
                throw WriteFailure(.ioError)
            }
        }
    }

    /// Writes `parts` one after another as the whole content of `path`, by the rules above.
    /// - Throws: `FileFailure` with the reason; a regular file then keeps its old content.
    package static func writeWhole(_ parts: [[UInt8]], to path: String) throws(FileFailure) {
        switch kind(of: path) {
        case .symbolicLink: throw .symbolicLink
        case .directory: throw .directory
        case .device, .pipe:
            let fd = try openInPlace(path)
            var failure: FileFailure?
            do {
                for part in parts { try writeAll(fd, part) }
            } catch {
                failure = .system(error.errno)
            }
            if close(fd) != 0, failure == nil { failure = .fromErrno() }
            if let failure { throw failure }
        case .regular, .missing:
            try replaceAtomically(parts, path: path)
        }
    }

    /// Opens `path` for writing a stream (a record): regular files are created or truncated
    /// without following a link, devices and pipes opened in place, links refused.
    /// - Returns: the descriptor, which the caller closes.
    /// - Throws: `FileFailure` with the reason.
    package static func openForWriting(_ path: String) throws(FileFailure) -> Int32 {
        switch kind(of: path) {
        case .symbolicLink: throw .symbolicLink
        case .directory: throw .directory
        case .device, .pipe: return try openInPlace(path)
        case .regular, .missing:
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .fromErrno() }
            return fd
        }
    }

    /// Opens a fresh hidden temporary beside `path` (`.NAME.tmp-PID-XXXXXX`, 0644) for a stream
    /// that replaces `path` only once whole (`finishReplacement`): a reader, or a run cut short by
    /// a full disk, a file-size limit or SIGKILL, never finds a partial file under `path`. A link
    /// or a folder at `path` is refused; the temporaries of `path` whose process is gone are
    /// removed first (`createTemporary`).
    /// - Returns: the descriptor, which the caller closes, and the temporary's path.
    package static func openReplacement(for path: String) throws(FileFailure) -> (fd: Int32, temporary: String) {
        if let refusal = refusal(for: path) { throw refusal }
        removeStaleTemporaries(beside: path)
        let (fd, temporary) = try openTemporary(beside: path)
        guard fchmod(fd, 0o644) == 0 else {
            let failure = FileFailure.fromErrno()
            close(fd)
            unlink(temporary)
            throw failure
        }
        return (fd, temporary)
    }

    /// Ends a replacement `openReplacement` began, once its descriptor is closed: `temporary`
    /// is renamed over `path` if `complete`, else (a write failed) removed, and `path` keeps
    /// what it held.
    /// - Throws: why the rename failed (the temporary is then removed).
    package static func finishReplacement(_ temporary: String, of path: String, complete: Bool) throws(FileFailure) {
        if complete, rename(temporary, path) == 0 { return }
        let failure: FileFailure? = complete ? .fromErrno() : nil
        unlink(temporary)
        if let failure { throw failure }
    }

    /// Why `path` will not be written at all, if so: a symbolic link or a directory.
    package static func refusal(for path: String) -> FileFailure? {
        switch kind(of: path) {
        case .symbolicLink: .symbolicLink
        case .directory: .directory
        default: nil
        }
    }

    /// What is at a path, without following a symbolic link.
    package static func kind(of path: String) -> FileKind { FileKind(path: path) }

    /// Opens a device or named pipe without blocking on a pipe that nobody reads.
    private static func openInPlace(_ path: String) throws(FileFailure) -> Int32 {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ENXIO ? .pipeWithoutReader : .fromErrno()
        }
        // Writes may block from here on, like any pipe writer's.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Creates an empty file under a fresh hidden name beside `path` (`DIR/.NAME.tmp-PID-XXXXXX`,
    /// PID this process's id), made exclusively with `mkstemp` and readable by all (0644, as a
    /// finished output is), for output that is renamed over `path` once complete (a video).
    ///
    /// First removes the temporaries of `path` left by processes that are gone (killed with
    /// SIGKILL, or by a power cut, before they could rename or remove them): regular files of this
    /// user named `.NAME.tmp-PID-XXXXXX` whose PID has no `/proc/PID`. A temporary whose process
    /// still runs (or whose PID was reused) is left alone.
    /// - Returns: the temporary file's path; the caller renames or removes it.
    package static func createTemporary(beside path: String) throws(FileFailure) -> String {
        removeStaleTemporaries(beside: path)
        let (fd, temporary) = try openTemporary(beside: path)
        let failure: FileFailure? = fchmod(fd, 0o644) == 0 ? nil : .fromErrno()
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        return temporary
    }

    /// The folder part (with its slash, or empty) and the name of `path`.
    private static func split(_ path: String) -> (directory: String, name: String) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return (directory, name)
    }

    /// The start of the hidden temporary names of `name` (then the PID, `-`, six random characters).
    private static func temporaryPrefix(_ name: String) -> String { ".\(name).tmp-" }

    /// Makes a fresh directory readable by this user alone (0700) from `template`, whose last six
    /// characters are `XXXXXX` (`mkdtemp`).
    /// - Returns: the directory's path.
    package static func makePrivateDirectory(template: String) throws(FileFailure) -> String {
        var name = Array(template.utf8CString)
        guard name.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { throw .fromErrno() }
        return String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates `path` for writing, exclusively (never an existing file or a link), with `mode`.
    /// - Returns: the descriptor, which the caller closes.
    package static func createExclusive(_ path: String, mode: mode_t) throws(FileFailure) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .fromErrno() }
        return fd
    }

    /// Removes the temporaries beside `path` whose creating process is gone (see `createTemporary`).
    /// - Returns: the names removed.
    @discardableResult
    package static func removeStaleTemporaries(beside path: String) -> [String] {
        // Without /proc (not mounted) nothing can be told gone: nothing is removed.
        var procfs = stat()
        guard stat("/proc/self", &procfs) == 0 else { return [] }
        let (directory, name) = split(path)
        let prefix = temporaryPrefix(name)
        guard let folder = opendir(directory.isEmpty ? "." : directory) else { return [] }
        defer { closedir(folder) }
        var removed: [String] = []
        while let entry = readdir(folder) {
            let entryName = directoryEntryName(entry)
            guard entryName.hasPrefix(prefix) else { continue }
            let rest = entryName.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                  rest[rest.index(after: dash)...].count == 6 else { continue }
            let candidate = directory + entryName
            var info = stat()
            guard lstat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == getuid() else { continue }
            var process = stat()
            // The process that made it is gone when /proc has no entry for its id.
            guard stat("/proc/\(pid)", &process) != 0, errno == ENOENT else { continue }
            if unlink(candidate) == 0 { removed.append(entryName) }
        }
        return removed
    }

    /// This process's id, named in its temporaries (a later run removes a dead process's): read
    /// once, since the process never forks to go on writing.
    private static let processID = getpid()

    private static func openTemporary(beside path: String) throws(FileFailure) -> (Int32, String) {
        let (directory, name) = split(path)
        var template = Array("\(directory)\(temporaryPrefix(name))\(processID)-XXXXXX".utf8CString)
        // mkstemp creates the name exclusively (O_CREAT | O_EXCL): never an existing file or link.
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .fromErrno() }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return (fd, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private static func replaceAtomically(_ parts: [[UInt8]], path: String) throws(FileFailure) {
        let (fd, temporary) = try openTemporary(beside: path)
        var failure: FileFailure?
        if fchmod(fd, 0o644) != 0 { failure = .fromErrno() }
        if failure == nil {
            do {
                for part in parts { try writeAll(fd, part) }
            } catch {
                failure = .system(error.errno)
            }
        }
        if close(fd) != 0, failure == nil { failure = .fromErrno() }
        if failure == nil, rename(temporary, path) != 0 { failure = .fromErrno() }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}
