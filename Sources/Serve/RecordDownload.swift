#if canImport(Glibc)
import Glibc
#endif
import FileIO
import NIOCore
import NIOPosix
import Synchronization

/// The version of a live run's record file: counts up before the file is cut back (a rewind's
/// branch) or started again (a restart), so a download can tell it read across a change.
final class RecordEpoch: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    /// Called just before the file changes other than by growing.
    func advance() { count.withLock { $0 += 1 } }
}

/// The record as `/record` serves it: the complete lines written so far, read from the file in
/// chunks on NIO's blocking-I/O pool, so a record of any size streams with a bounded amount in
/// memory (the channel's backpressure paces the reads).
final class RecordDownload: Sendable {
    /// Bytes per read.
    static let chunkSize = 256 * 1024

    private let fd: Int32
    /// The bytes served: up to and including the last newline at the moment of opening.
    let length: Int64
    /// The record's epoch (`LiveRun`): it counts up before the file is cut back (a rewind's
    /// branch) or started again (a restart), after which bytes read may belong to either version.
    private let epoch: RecordEpoch
    private let openedAt: Int

    /// Opens the record and fixes the length served, or nil if it cannot be read.
    /// - Parameter epoch: the record's epoch; a chunk read after it changed is refused.
    init?(path: String, epoch: RecordEpoch) {
        self.epoch = epoch
        // Taken before the file is looked at: a cut after this shows in every later check.
        openedAt = epoch.value
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

    /// Whether the file is still the version this download began with (not cut back by a
    /// rewind's branch nor started again by a restart since).
    var isCurrent: Bool { epoch.value == openedAt }

    /// The bytes at `offset`, at most `chunkSize`, read on the blocking-I/O pool.
    /// - Throws: if the file ended early or was cut back or started again since the download
    ///   began (a branch, a restart: the download is cut off, never mixed), or a read failed.
    func chunk(at offset: Int64) async throws -> ByteBuffer {
        let count = Int(min(Int64(Self.chunkSize), length - offset))
        let fd = self.fd
        let (epoch, openedAt) = (self.epoch, self.openedAt)
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
            // Checked after reading: a cut that began before the read ended has counted up by then.
            guard read == count, epoch.value == openedAt else { throw Truncated() }
            return buffer
        }
    }

    struct Truncated: Error {}
}
