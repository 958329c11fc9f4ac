#if canImport(Glibc)
import Glibc
#endif
internal import CPipe
import FileIO
import Foundation
import Synchronization

/// A child program fed through a pipe on its standard input: an encoder such as ffmpeg. Its
/// stdout is discarded (CrateDrop's own stdout carries results), the last 16 KiB of its stderr are
/// kept for error messages. Foundation's `Process` starts it in a process group of its own, so a
/// Ctrl-C at the terminal reaches CrateDrop only, which then ends the input and lets the encoder
/// finish its file.
final class EncoderProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    /// Bytes the pipe holds (nil if Linux would not say): what `splice` callers must allow for.
    let pipeCapacity: Int?
    /// False once vmsplice has been refused: `splice` writes.
    private let splices = Atomic<Bool>(true)
    private let errorTail = Mutex<[UInt8]>([])
    private let errorsRead = DispatchGroup()
    private static let keptErrorBytes = 16 * 1024

    /// The first `name` on PATH that is an executable file.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts `executable` with `arguments`.
    /// - Throws: the reason it could not be started, in Foundation's words.
    init(executable: String, arguments: [String]) throws(StartFailure) {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw StartFailure(executable: executable, reason: error.localizedDescription)
        }
        input = stdin.fileHandleForWriting
        // A 1 MiB pipe (Linux's default limit for it) takes most of a frame at once, so the
        // writer and the encoder switch less often. Best effort: the default 64 KiB works too.
        _ = cpipe_set_capacity(input.fileDescriptor, 1 << 20)
        let capacity = cpipe_capacity(input.fileDescriptor)
        pipeCapacity = capacity > 0 ? Int(capacity) : nil
        let errors = stderr.fileHandleForReading
        errorsRead.enter()
        Thread { [self] in
            while let chunk = try? errors.read(upToCount: 4096), !chunk.isEmpty {
                errorTail.withLock {
                    $0.append(contentsOf: chunk)
                    if $0.count > Self.keptErrorBytes { $0.removeFirst($0.count - Self.keptErrorBytes) }
                }
            }
            errorsRead.leave()
        }.start()
    }

    /// Writes all of `bytes` to the program's stdin. A program that has exited shows as EPIPE
    /// (`BrokenPipe`: never as a SIGPIPE that kills the process).
    func write(_ bytes: [UInt8]) throws(FileDescriptorIO.WriteFailure) {
        try FileDescriptorIO.writeAll(input.fileDescriptor, bytes)
    }

    /// Hands all of `bytes` to the program's stdin by vmsplice(2): the pipe takes references to
    /// their pages instead of a copy, and the program reads them from there. So the bytes must
    /// stay as they are, and allocated, until it has read them: certain once `pipeCapacity` more
    /// bytes have been spliced after them, or once `finish()` has returned. A program that has
    /// exited shows as EPIPE. Where the kernel refuses vmsplice (a sandbox without it), the bytes
    /// are written instead, then and from then on.
    func splice(_ bytes: UnsafeRawBufferPointer) throws(FileDescriptorIO.WriteFailure) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        try BrokenPipe.reportedAsError { () throws(FileDescriptorIO.WriteFailure) in
            while done < bytes.count, splices.load(ordering: .relaxed) {
                let spliced = cpipe_vmsplice(input.fileDescriptor, base + done, bytes.count - done)
                if spliced < 0 {
                    if errno == EINTR { continue }
                    guard errno == ENOSYS || errno == EINVAL || errno == EPERM else { throw .fromErrno() }
                    stopSplicing()
                    break
                }
                done += spliced
            }
        }
        if done < bytes.count { try FileDescriptorIO.writeAll(input.fileDescriptor, Array(bytes[done...])) }
    }

    /// Makes `splice` write from now on (as when the kernel refuses vmsplice).
    func stopSplicing() {
        splices.store(false, ordering: .relaxed)
    }

    /// Ends its input, waits for it to exit, and returns its exit status and what it printed on
    /// stderr (trimmed).
    func finish() -> (status: Int32, errorText: String) {
        try? input.close()
        process.waitUntilExit()
        errorsRead.wait()
        let text = errorTail.withLock { String(decoding: $0, as: UTF8.self) }
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return (status, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A program that could not be started, with Foundation's reason.
    struct StartFailure: Error, CustomStringConvertible {
        let executable: String
        let reason: String
        var description: String { "cannot start \(executable): \(reason)" }
    }
}
