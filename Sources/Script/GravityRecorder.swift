#if canImport(Glibc)
import Glibc
#endif
import SceneFile
import SceneModel

/// Writes every gravity change actually applied as `{"step":N,"gravity":[x,y]}` lines, the
/// stream format itself, so replaying the file reproduces the run bit for bit (numbers are
/// printed as the shortest decimal that reads back to the same double).
public final class GravityRecorder {
    public let path: String
    private let file: UnsafeMutablePointer<FILE>
    private var failure: String?
    private var isClosed = false

    /// - Throws: the reason text if the file cannot be created.
    public init(path: String) throws(GravityOpenError) {
        guard let file = fopen(path, "w") else { throw GravityOpenError(path: path, reason: FileBytes.errnoText()) }
        self.path = path
        self.file = file
    }

    deinit { _ = close() }

    /// Appends one applied change; write errors are kept and reported by `close()`.
    public func record(step: Int, gravity: Vec2) {
        guard failure == nil, !isClosed else { return }
        let line = "{\"step\":\(step),\"gravity\":[\(gravity.x),\(gravity.y)]}\n"
        if fputs(line, file) < 0 { failure = FileBytes.errnoText() }
    }

    /// Flushes and closes (once; later calls only repeat the answer); returns the first write error, if any.
    public func close() -> String? {
        if !isClosed {
            isClosed = true
            if failure == nil, fflush(file) != 0 { failure = FileBytes.errnoText() }
            if fclose(file) != 0, failure == nil { failure = FileBytes.errnoText() }
        }
        return failure
    }
}
