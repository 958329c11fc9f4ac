#if canImport(Glibc)
import Glibc
#endif
import FileIO

/// A data output (text, or a `.npy` table's bytes) written in 64 KiB pieces, so a long trace
/// streams with flat memory. Opened like
/// a record (created or truncated, never through a symbolic link); the first write error is kept,
/// later writes are dropped, and `close()` reports it.
///
/// Used by one thread at a time.
final class BufferedOutputFile {
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

    func append(bytes: [UInt8]) {
        guard failure == nil, !isClosed else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Writes what is buffered, then `bytes` over the file's first bytes (a `.npy` header, once
    /// its row count is known); the file is a regular one.
    func overwriteStart(with bytes: [UInt8]) {
        flush()
        guard failure == nil, !isClosed else { return }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = .fromErrno()
                return
            }
            offset += written
        }
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
