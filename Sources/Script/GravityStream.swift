#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FileIO
import Queues
import SceneFile

/// Reads a gravity stream (a file, stdin or a named pipe) on a thread of its own, parsing each
/// line as it arrives and queueing the results, so a slow or silent producer never blocks
/// whoever consumes them unless that consumer chooses to wait.
///
/// The queue is bounded: a consumer that falls behind makes the reader wait, not memory grow.
public final class GravityStream: Sendable {
    public enum Event: Sendable, Equatable {
        case command(InputCommand)
        case badLine(GravityLineError)
        /// The producer closed the stream (or it failed to read: `readError`).
        case end(readError: FileFailure?)
    }

    private let events = BoundedQueue<Event>(capacity: 4096)
    /// The stream's name in messages: its path, or "stdin".
    public let source: String

    /// Where the stream comes from, checked before the run starts.
    public enum Source: Sendable {
        case descriptor(Int32)
        /// A named pipe: opened by the reader thread, which waits there for a writer (opening it
        /// early without one would read as an immediate end of stream).
        case fifo(String)
    }

    /// Opens `path` ("-" for stdin) now, so a missing or unreadable file is reported before any
    /// step is taken.
    /// - Throws: `GravityOpenError` naming the path and the reason.
    public static func open(path: String) throws(GravityOpenError) -> Source {
        if path == "-" { return .descriptor(STDIN_FILENO) }
        do throws(FileFailure) {
            switch try FileBytes.kind(following: path) {
            case .directory: throw .notRegularFile(.directory)
            case .pipe:
                try FileBytes.checkReadable(path)
                return .fifo(path)
            default:
                return .descriptor(try FileBytes.openStream(path: path))
            }
        } catch {
            throw GravityOpenError(path: path, reason: error)
        }
    }

    /// Starts reading `source` (closed at the end unless it is stdin) with `parser`.
    public init(source input: Source, parser: GravityLineParser) {
        source = parser.source
        let events = self.events
        Thread {
            var parser = parser
            var splitter = LineSplitter()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var readError: FileFailure?
            var fd: Int32 = -1
            switch input {
            case let .descriptor(descriptor): fd = descriptor
            case let .fifo(path):
                // Waits here for a writer.
                do throws(FileFailure) { fd = try FileBytes.openStream(path: path) } catch { readError = error }
            }
            func handle(_ pieces: [LineSplitter.Piece]) {
                for piece in pieces {
                    switch piece {
                    case let .line(number, bytes):
                        switch parser.read(bytes, line: number) {
                        case let .success(command?): events.put(.command(command))
                        case .success(nil): break
                        case let .failure(error): events.put(.badLine(error))
                        }
                    case let .tooLong(number):
                        // A record's scene and full-state lines may be long; its gravity lines never are.
                        if parser.isRecord { continue }
                        events.put(.badLine(GravityLineError(source: parser.source, line: number,
                                                             message: "line longer than \(LineSplitter.defaultMaxLength >> 20) MiB")))
                    }
                }
            }
            while fd >= 0 {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    readError = .fromErrno()
                    break
                }
                if count == 0 { break }
                handle(splitter.feed(buffer[0..<count]))
            }
            handle(splitter.finish())
            if fd >= 0, fd != STDIN_FILENO { close(fd) }
            events.put(.end(readError: readError))
        }.start()
    }

    /// The next event; waits for one if `wait` (until `giveUp` says stop, checked every 50 ms),
    /// else returns nil when none is queued yet.
    public func next(wait: Bool, giveUp: () -> Bool = { false }) -> Event? {
        guard wait else { return events.poll() }
        while true {
            if let event = events.take(waitingAtMost: 0.05) { return event }
            if giveUp() { return nil }
        }
    }
}

/// A gravity source that cannot be opened.
public struct GravityOpenError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: FileFailure
    public var description: String { "\(path): \(reason)" }
}
