#if canImport(Glibc)
import Glibc
#endif
import FileIO
import NIOCore
import NIOPosix

/// The record as `/record` serves it: the complete lines written so far, read from the file in
/// chunks on NIO's blocking-I/O pool, so a record of any size streams with a bounded amount in
/// memory (the channel's backpressure paces the reads).
final class RecordDownload: Sendable {
    /// Bytes per read.
    static let chunkSize = 256 * 1024

    private let fd: Int32
    /// The bytes served: up to and including the last newline at the moment of opening.
    let length: Int64

    /// Opens the record and fixes the length served, or nil if it cannot be read.
    init?(path: String) {
        guard let fd = try? FileBytes.openRegular(path: path, followingLinks: false) else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        length = Self.completeLength(fd: fd, size: Int64(info.st_size))
    }

    deinit { close(fd) }

    /// The size up to and including the last newline within the first `size` bytes (the run may
    /// be halfway through a line).
    private static func completeLength(fd: Int32, size: Int64) -> Int64 {
        var end = size
        var chunk = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let start = max(0, end - Int64(chunk.count))
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(end - start), off_t(start)) }
            guard count == Int(end - start) else { return 0 }
            if let newline = chunk[0..<count].lastIndex(of: UInt8(ascii: "\n")) { return start + Int64(newline) + 1 }
            end = start
        }
        return 0
    }

    /// The bytes at `offset`, at most `chunkSize`, read on the blocking-I/O pool.
    /// - Throws: if the file ended early (a restart started a new record) or a read failed.
    func chunk(at offset: Int64) async throws -> ByteBuffer {
        let count = Int(min(Int64(Self.chunkSize), length - offset))
        let fd = self.fd
        return try await NIOThreadPool.singleton.runIfActive {
            var buffer = ByteBuffer()
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
                var done = 0
                while done < count {
                    let n = pread(fd, pointer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { break }
                    done += n
                }
                return done
            }
            guard read == count else { throw Truncated() }
            return buffer
        }
    }

    struct Truncated: Error {}
}
