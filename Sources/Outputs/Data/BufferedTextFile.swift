#if canImport(Glibc)
import Glibc
#endif
import FileIO

/// A text output written in 64 KiB pieces, so a long trace streams with flat memory. Opened like
/// a record (created or truncated, never through a symbolic link); the first write error is kept,
/// later writes are dropped, and `close()` reports it.
///
/// Used by one thread at a time.
final class BufferedTextFile {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var failure: FileFailure?
    private var isClosed = false
    private static let flushSize = 64 * 1024

    /// - Throws: the reason `path` cannot be created.
    init(path: String) throws(FileFailure) {
        self.path = path
        fd = try FileDescriptorIO.openForWriting(path)
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    deinit { try? close() }

    func append(_ text: String) {
        guard failure == nil, !isClosed else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.flushSize { flush() }
    }

    private func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        do {
            try FileDescriptorIO.writeAll(fd, buffer)
        } catch {
            failure = .system(error.errno)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and closes (once).
    /// - Throws: the first write error, if any.
    func close() throws(FileFailure) {
        if !isClosed {
            flush()
            isClosed = true
            if Glibc.close(fd) != 0, failure == nil { failure = .fromErrno() }
        }
        if let failure { throw failure }
    }
}
