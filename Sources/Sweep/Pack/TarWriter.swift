#if canImport(Glibc)
import Glibc
#endif
import FileIO

/// Writes a POSIX tar archive (ustar) of regular files, the format WebDataset shards are: each
/// member a 512-byte header then its bytes padded to 512, two zero blocks at the end. Headers
/// hold no time, owner or host detail (mtime 0, uid and gid 0, mode 0644), so the same files give
/// the same archive bytes on every machine.
///
/// Hand-written (about 60 lines) because no tar library is among the Swift packages this project
/// may use; running GNU tar instead would make the shards' bytes (member order, header fields)
/// depend on its version and options, and cost a process per shard.
struct TarWriter {
    static let blockSize = 512
    /// ustar's name field; longer names would need its prefix field, which shard names never do.
    static let maxNameLength = 100
    /// 11 octal digits.
    static let maxFileSize = (1 << 33) - 1

    /// A member's bytes are read and written in pieces of at most this size, so packing a file
    /// of any size takes this much memory (audit round 5, finding 8: a 6 GB file was read whole).
    static let chunkSize = 1 << 20

    enum Failure: Error, CustomStringConvertible {
        case nameTooLong(String)
        case fileTooLarge(String, Int)
        case write(String, String)
        /// The member's file could not be read, or ended before the size it had when opened.
        case read(String, String)

        var description: String {
            switch self {
            case let .nameTooLong(name): "\(name): a tar member's name holds at most \(TarWriter.maxNameLength) bytes"
            case let .fileTooLarge(name, size): "\(name): \(size) bytes; a tar member holds at most \(TarWriter.maxFileSize)"
            case let .write(path, failure), let .read(path, failure): "\(path): \(failure)"
            }
        }
    }

    /// The bytes a member of `size` bytes takes in the archive, header and padding included.
    static func memberSize(_ size: Int) -> Int { blockSize + (size + blockSize - 1) / blockSize * blockSize }

    /// The archive's end: two zero blocks.
    static let endSize = 2 * blockSize

    private let fd: Int32
    private let path: String

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Adds the regular file open at `file` (read from its current offset) as the member
    /// `name` of `size` bytes, its size when opened; its bytes stream through in pieces of
    /// `chunkSize`. `path` names the file in errors.
    func add(name: String, size: Int, from file: Int32, path: String) throws(Failure) {
        try write([try header(name: name, size: size)])
        var chunk = [UInt8](repeating: 0, count: min(Self.chunkSize, size))
        var remaining = size
        while remaining > 0 {
            let wanted = min(remaining, chunk.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw .read(path, errnoText()) }
            // Shorter than when it was opened: the archive's header would not hold.
            if count == 0 { throw .read(path, "ended after \(size - remaining) of its \(size) bytes while it was packed (it changed)") }
            try write([count == chunk.count ? chunk : Array(chunk[0..<count])])
            remaining -= count
        }
        try write([[UInt8](repeating: 0, count: padding(size))])
    }

    /// The member's header: its name, size and fixed mode, owner and time.
    private func header(name: String, size: Int) throws(Failure) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        guard nameBytes.count <= Self.maxNameLength else { throw .nameTooLong(name) }
        guard size <= Self.maxFileSize else { throw .fileTooLarge(name, size) }
        var header = [UInt8](repeating: 0, count: Self.blockSize)
        func put(_ text: [UInt8], at offset: Int) { for (i, byte) in text.enumerated() { header[offset + i] = byte } }
        func octal(_ value: Int, digits: Int) -> [UInt8] {
            let text = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, digits - text.count)) + text).utf8) + [0]
        }
        put(nameBytes, at: 0)
        put(octal(0o644, digits: 7), at: 100)
        put(octal(0, digits: 7), at: 108)
        put(octal(0, digits: 7), at: 116)
        put(octal(size, digits: 11), at: 124)
        put(octal(0, digits: 11), at: 136)
        header[156] = UInt8(ascii: "0")
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        // The checksum is the sum of the header's bytes with its own field read as spaces.
        put([UInt8](repeating: UInt8(ascii: " "), count: 8), at: 148)
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(sum, digits: 6) + [UInt8(ascii: " ")], at: 148)
        return header
    }

    /// The zero bytes that fill a member of `size` bytes to a whole block.
    private func padding(_ size: Int) -> Int { (Self.blockSize - size % Self.blockSize) % Self.blockSize }

    func finish() throws(Failure) {
        try write([[UInt8](repeating: 0, count: Self.endSize)])
    }

    private func write(_ parts: [[UInt8]]) throws(Failure) {
        do {
            for part in parts where !part.isEmpty { try FileDescriptorIO.writeAll(fd, part) }
        } catch {
            throw .write(path, "\(error)")
        }
    }
}
