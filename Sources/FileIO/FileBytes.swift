#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file with POSIX calls, reporting the errno or the refusal as a `FileFailure`.
package enum FileBytes {
    /// The whole file, refusing directories and files over `limit` bytes.
    /// Only regular files are read: a named pipe or a device is refused at once (opening without
    /// blocking), so a pipe with no writer never hangs the command.
    package static func read(path: String, limit: Int) throws(FileFailure) -> [UInt8] {
        // A file already larger than the limit is refused before a byte is read (a sparse 1 GiB
        // file would otherwise be read whole first); one that grows while read is caught below.
        let fd = try openRegular(path: path, sizeLimit: limit)
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fromErrno()
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limit { throw .tooLarge(limit: limit) }
        }
        return result
    }

    /// Opens `path` for reading if it is a regular file, as `read` does: a named pipe or a device
    /// is refused at once (opened without blocking), so a pipe with no writer never hangs.
    /// - Parameter followingLinks: false: a symbolic link is refused (ELOOP).
    /// - Parameter sizeLimit: a file larger than this many bytes is refused (`tooLarge`); nil: any size.
    /// - Returns: the descriptor, which the caller closes.
    package static func openRegular(path: String, followingLinks: Bool = true, sizeLimit: Int? = nil) throws(FileFailure) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { throw .fromErrno() }
        var info = stat()
        let problem: FileFailure? = if fstat(fd, &info) != 0 {
            .fromErrno()
        } else {
            switch FileKind(mode: info.st_mode) {
            case .regular: if let sizeLimit, info.st_size > sizeLimit { .tooLarge(limit: sizeLimit) } else { nil }
            case let kind: .notRegularFile(kind)
            }
        }
        if let problem {
            close(fd)
            throw problem
        }
        return fd
    }

    /// Opens `path` for reading as a stream: a regular file, a device, a named pipe (waiting
    /// for its writer) or a folder (to flush it), retrying EINTR.
    /// - Returns: the descriptor, which the caller closes.
    package static func openStream(path: String) throws(FileFailure) -> Int32 {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw .fromErrno() }
        return fd
    }

    /// What is at `path`, following symbolic links (`stat`).
    /// - Throws: the errno when there is nothing to read there.
    package static func kind(following path: String) throws(FileFailure) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .fromErrno() }
        return FileKind(mode: info.st_mode)
    }

    /// Checks that this process may read `path` (`access(R_OK)`), without opening it.
    package static func checkReadable(_ path: String) throws(FileFailure) {
        guard access(path, R_OK) == 0 else { throw .fromErrno() }
    }

    /// Up to the first `limit` bytes of a regular file. Anything else is refused without being
    /// opened, so nothing is consumed from a FIFO or a device.
    package static func readPrefix(path: String, limit: Int) throws(FileFailure) -> [UInt8] {
        // stat first: even a non-blocking open of a FIFO would count as a reader and could pair
        // with a writer meant for the real reader.
        var before = stat()
        guard stat(path, &before) == 0 else { throw .fromErrno() }
        guard FileKind(mode: before.st_mode) == .regular else { throw .notRegularFile(FileKind(mode: before.st_mode)) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .fromErrno() }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fromErrno() }
        guard FileKind(mode: info.st_mode) == .regular else { throw .notRegularFile(FileKind(mode: info.st_mode)) }
        var result = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let count = result.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, limit - filled) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw .fromErrno() }
            if count == 0 { break }
            filled += count
        }
        return Array(result[0..<filled])
    }
}
