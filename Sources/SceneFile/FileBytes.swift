#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file with POSIX calls, reporting errno as text ("No such file or directory").
public enum FileBytes {
    /// Why a file could not be read, as text (`strerror`).
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The whole file, refusing directories and files over `limit` bytes.
    /// Only regular files are read: a named pipe or a device is refused at once (opening without
    /// blocking), so a pipe with no writer never hangs the command.
    public static func read(path: String, limit: Int) throws(ReadError) -> [UInt8] {
        let fd = try openRegular(path: path)
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: errnoText())
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limit { throw ReadError(description: "larger than \(limit >> 20) MiB") }
        }
        return result
    }

    /// Opens `path` for reading if it is a regular file, as `read` does: a named pipe or a device
    /// is refused at once (opened without blocking), so a pipe with no writer never hangs.
    /// - Returns: the descriptor, which the caller closes.
    public static func openRegular(path: String) throws(ReadError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ReadError(description: errnoText()) }
        var info = stat()
        let problem: String? = if fstat(fd, &info) != 0 {
            errnoText()
        } else {
            switch info.st_mode & S_IFMT {
            case S_IFREG: nil
            case S_IFDIR: "is a directory, expected a file"
            case S_IFIFO: "is a named pipe, expected a regular file (scene and record files are read whole)"
            default: "is a device, expected a regular file"
            }
        }
        if let problem {
            close(fd)
            throw ReadError(description: problem)
        }
        return fd
    }

    /// Up to the first `limit` bytes of a regular file. Anything else is refused without being
    /// opened, so nothing is consumed from a FIFO or a device.
    public static func readPrefix(path: String, limit: Int) throws(ReadError) -> [UInt8] {
        // stat first: even a non-blocking open of a FIFO would count as a reader and could pair
        // with a writer meant for the real reader.
        var before = stat()
        guard stat(path, &before) == 0, (before.st_mode & S_IFMT) == S_IFREG else {
            throw ReadError(description: "not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ReadError(description: errnoText()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ReadError(description: "not a regular file")
        }
        var result = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let count = result.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, limit - filled) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw ReadError(description: errnoText()) }
            if count == 0 { break }
            filled += count
        }
        return Array(result[0..<filled])
    }

    /// The current `errno` as text ("No such file or directory").
    public static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
