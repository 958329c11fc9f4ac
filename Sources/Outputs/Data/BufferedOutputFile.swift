#if canImport(Glibc)
import Glibc
#endif
import FileIO

/// A data output (text, or a `.npy` table's bytes) written in 64 KiB pieces, so a long trace
/// streams with flat memory. The first write error is kept, later writes are dropped, and
/// `close()` reports it.
///
/// Used by one thread at a time.
final class BufferedOutputFile {
    /// How the file reaches its path.
    enum Placement {
        /// Created or truncated at once and written in place, never through a symbolic link, like
        /// a record (a text table, which may go to a pipe).
        case inPlace
        /// Written under a hidden temporary beside the path and renamed over it by `close()` once
        /// whole (`FileDescriptorIO.openReplacement`); removed instead if a write failed or the
        /// file is dropped unclosed. For a `.npy` table, whose header is right only at the end.
        case replacedWhenWhole
    }

    let path: String
    private let fd: Int32
    /// The file being written when it replaces `path` once whole.
    private let temporary: String?
    private var buffer: [UInt8] = []
    private(set) var failure: FileFailure?
    private var isClosed = false
    private static let flushSize = 64 * 1024

    /// - Throws: the reason `path` (or its temporary) cannot be created.
    init(path: String, placement: Placement = .inPlace) throws(FileFailure) {
        self.path = path
        switch placement {
        case .inPlace:
            fd = try FileDescriptorIO.openForWriting(path)
            temporary = nil
        case .replacedWhenWhole:
            (fd, temporary) = try FileDescriptorIO.openReplacement(for: path)
        }
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    deinit {
        if let temporary, !isClosed {
            // Never finished: what was written is not the whole file.
            Glibc.close(fd)
            try? FileDescriptorIO.finishReplacement(temporary, of: path, complete: false)
        } else {
            try? close()
        }
    }

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

    /// Writes what is buffered and closes (once); a replacement is then renamed into place, or
    /// removed after a write error.
    /// - Throws: the first write error, if any.
    func close() throws(FileFailure) {
        if !isClosed {
            flush()
            isClosed = true
            if Glibc.close(fd) != 0, failure == nil { failure = .fromErrno() }
            if let temporary {
                do {
                    try FileDescriptorIO.finishReplacement(temporary, of: path, complete: failure == nil)
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
    }
}
