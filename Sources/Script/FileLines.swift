#if canImport(Glibc)
import Glibc
#endif
import FileIO

/// Reads a regular file line by line in fixed-size chunks, so memory stays bounded by the
/// longest line, not the file: `diff` of two 1 GB trails and the checks of a record run while
/// the file is read. Lines end in `\n` or `\r\n`; the last needs no ending.
///
/// Owns its descriptor and closes it in `deinit`; used by one thread at a time.
public final class FileLines {
    /// Why reading stopped: the file could not be read (a read error), or it breaks a limit.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case unreadable(FileFailure)
        case tooLarge(String)
        public var description: String {
            switch self {
            case let .unreadable(failure): failure.description
            case let .tooLarge(text): text
            }
        }
    }

    public let path: String
    /// The number of the line `next()` returned last (from 1).
    public private(set) var lineNumber = 0
    private let fd: Int32
    private let maxLineLength: Int
    private let maxFileSize: Int?
    private var chunk: [UInt8]
    private var start = 0, end = 0
    private var bytesRead = 0
    private var atEnd = false

    /// Opens `path`, which must be a regular file (a pipe or device is refused at once).
    /// - Parameters:
    ///   - path: the file to read.
    ///   - maxLineLength: a longer line is an error (`next()` throws) instead of filling memory.
    ///   - maxFileSize: a file growing past this many bytes is an error, if given.
    public init(path: String, maxLineLength: Int, maxFileSize: Int? = nil) throws(FileFailure) {
        self.path = path
        self.maxLineLength = maxLineLength
        self.maxFileSize = maxFileSize
        fd = try FileBytes.openRegular(path: path)
        chunk = [UInt8](repeating: 0, count: 1 << 16)
    }

    deinit { close(fd) }

    /// The next line without its ending, or nil at the end of the file.
    /// - Throws: a read error, a line longer than the limit, a file larger than the limit.
    public func next() throws(Failure) -> [UInt8]? {
        var line: [UInt8] = []
        while true {
            if start < end {
                let (first, count) = (start, end - start)
                // memchr: the search is most of the time spent on a long file of short lines.
                let newline: Int? = chunk.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int? in
                    let base = buffer.baseAddress!
                    guard let found = memchr(base + first, 0x0A, count) else { return nil }
                    return UnsafeRawPointer(found) - base
                }
                let stop = newline ?? end
                if line.count + (stop - start) > maxLineLength {
                    throw .tooLarge("line \(lineNumber + 1) is longer than \(maxLineLength >> 20) MiB")
                }
                line.append(contentsOf: chunk[start..<stop])
                if let newline {
                    start = newline + 1
                    return finish(line)
                }
                start = end
            }
            if atEnd { return line.isEmpty ? nil : finish(line) }
            try fill()
        }
    }

    private func finish(_ line: [UInt8]) -> [UInt8] {
        lineNumber += 1
        var line = line
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }

    private func fill() throws(Failure) {
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(.fromErrno())
            }
            (start, end) = (0, count)
            atEnd = count == 0
            bytesRead += count
            if let maxFileSize, bytesRead > maxFileSize {
                throw .tooLarge("larger than \(maxFileSize >> 20) MiB")
            }
            return
        }
    }
}
