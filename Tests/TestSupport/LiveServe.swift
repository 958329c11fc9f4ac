import Foundation
import Synchronization

/// A `cratedrop serve` process under test: started with `--port 0`, ready once it printed its URL,
/// stopped by a signal with the time it took.
public final class ServeProcess: @unchecked Sendable {
    public let process = Process()
    public private(set) var port = 0
    private let output = Mutex(Data())
    private let errors = Mutex(Data())
    private let changed = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private var exitSeen = false
    private let closedPipes = Mutex(0)

    /// Starts `cratedrop serve ARGUMENTS --port 0` and waits (at most `readyWithin` seconds) for its URL.
    public init(_ arguments: [String], environment: [String: String] = [:], readyWithin: Double = 120) throws {
        process.executableURL = CLI.executable
        process.arguments = ["serve"] + arguments + ["--streamed", "--port", "0"]
        process.currentDirectoryURL = Repository.root
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        for (pipe, isError) in [(out, false), (err, true)] {
            Thread { [self] in
                while true {
                    let data = pipe.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    if isError { errors.withLock { $0.append(data) } } else { output.withLock { $0.append(data) } }
                    changed.signal()
                }
                closedPipes.withLock { $0 += 1 }
                changed.signal()
            }.start()
        }
        let deadline = Date().addingTimeInterval(readyWithin)
        while Date() < deadline {
            if let match = stderr.firstMatch(of: /at http:\/\/[^\s]*:(\d+)\//), let port = Int(match.1) {
                self.port = port
                return
            }
            if !process.isRunning { throw NotReady(stderr: stderr) }
            _ = changed.wait(timeout: .now() + 0.2)
        }
        process.terminate()
        throw NotReady(stderr: stderr)
    }

    public struct NotReady: Error, CustomStringConvertible {
        public var stderr: String
        public var description: String { "cratedrop serve printed no URL: \(stderr)" }
    }

    public var stdout: String { String(decoding: output.withLock { $0 }, as: UTF8.self) }
    public var stderr: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }
    public var pid: Int32 { process.processIdentifier }

    /// Waits at most `seconds` for the process to end; true if it did.
    public func waitForExit(within seconds: Double) -> Bool {
        if exitSeen { return true }
        exitSeen = exited.wait(timeout: .now() + seconds) == .success
        if exitSeen {
            // The output threads finish when the pipes close.
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, closedPipes.withLock({ $0 }) < 2 { _ = changed.wait(timeout: .now() + 0.1) }
        }
        return exitSeen
    }

    /// Sends `signal` and measures how long the process takes to end; a process still running
    /// after `limit` seconds is killed (the result is then nil).
    public func stop(_ signal: Int32 = SIGINT, limit: Double = 10) -> (status: Int32, seconds: Double)? {
        let start = Date()
        kill(process.processIdentifier, signal)
        guard waitForExit(within: limit) else {
            kill(process.processIdentifier, SIGKILL)
            _ = waitForExit(within: 5)
            return nil
        }
        return (process.terminationStatus, Date().timeIntervalSince(start))
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// A TCP connection to 127.0.0.1 for tests, with blocking reads bounded by a timeout.
public final class TestSocket: @unchecked Sendable {
    public let fd: Int32

    public init(port: Int, readTimeout: Double = 5, receiveBuffer: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        // On Linux a send timeout also bounds connect(): a server that stopped accepting (its
        // backlog full) fails the test instead of hanging it.
        var connectTimeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &connectTimeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: Int(readTimeout), tv_usec: Int((readTimeout - Double(Int(readTimeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    /// Sends all of `bytes`; false if the connection failed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Up to `count` bytes; empty at the end of the stream, nil on a timeout or error.
    public func receive(upTo count: Int = 65_536) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count, 0) }
        // A reset (the server closed with data unread) ends the stream like a close.
        if n < 0 { return errno == ECONNRESET ? [] : nil }
        return Array(buffer[0..<n])
    }

    /// Exactly `count` bytes, or nil if the stream ends or times out first.
    public func receive(exactly count: Int) -> [UInt8]? {
        var result: [UInt8] = []
        while result.count < count {
            guard let piece = receive(upTo: count - result.count), !piece.isEmpty else { return nil }
            result += piece
        }
        return result
    }

    /// Everything until the peer closes; `closed` is false if a read timed out first.
    public func receiveAll() -> (bytes: [UInt8], closed: Bool) {
        var result: [UInt8] = []
        while true {
            guard let piece = receive() else { return (result, false) }
            if piece.isEmpty { return (result, true) }
            result += piece
        }
    }

    /// An HTTP/1.1 GET; the status, the headers (names lowercase) and the body as sent (until close).
    /// `slowReader`: a small receive buffer and a pause before reading, as a client writing to a
    /// slow disk: the server must wait for it, not close early.
    public static func get(port: Int, _ path: String, headers: [String: String] = [:], slowReader: Bool = false) throws
        -> (status: Int, headers: [String: String], body: [UInt8], closed: Bool) {
        let socket = try TestSocket(port: port, readTimeout: 20, receiveBuffer: slowReader ? 16_384 : nil)
        var request = "GET \(path) HTTP/1.1\r\n"
        var headers = headers
        if headers["Host"] == nil { headers["Host"] = "127.0.0.1:\(port)" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        socket.send(request + "Connection: close\r\n\r\n")
        if slowReader { usleep(500_000) }
        let (bytes, closed) = socket.receiveAll()
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return (0, [:], bytes, closed) }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, fields, Array(bytes[end.upperBound...]), closed)
    }
}

/// A WebSocket client written out by hand, so tests can send what a browser never would.
public final class TestWebSocket: @unchecked Sendable {
    public let socket: TestSocket
    /// The upgrade response's status (101 when upgraded).
    public let status: Int

    /// Connects and asks to upgrade `/live`, with `origin` (nil: no Origin header) and `host`
    /// (default `127.0.0.1:PORT`).
    public init(port: Int, origin: String? = nil, host: String? = nil, readTimeout: Double = 10) throws {
        socket = try TestSocket(port: port, readTimeout: readTimeout)
        var request = "GET /live HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        socket.send(request + "\r\n")
        var head: [UInt8] = []
        while head.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            guard let byte = socket.receive(upTo: 1), !byte.isEmpty else { break }
            head += byte
        }
        status = Int(String(decoding: head, as: UTF8.self).split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Sends one frame: masked unless told otherwise, `rsv` sets the RSV1 bit.
    @discardableResult
    public func send(_ payload: [UInt8], opcode: UInt8 = 1, fin: Bool = true, masked: Bool = true, rsv1: Bool = false) -> Bool {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            frame.append(mask | UInt8(payload.count))
        } else {
            frame.append(mask | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        if masked {
            let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            frame += key
            frame += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        } else {
            frame += payload
        }
        return socket.send(frame)
    }

    @discardableResult
    public func send(text: String, fin: Bool = true, opcode: UInt8 = 1) -> Bool { send(Array(text.utf8), opcode: opcode, fin: fin) }

    /// The next frame from the server: opcode and payload; nil if the stream ended or timed out.
    public func receive() -> (opcode: UInt8, payload: [UInt8])? {
        guard let head = socket.receive(exactly: 2) else { return nil }
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            guard let bytes = socket.receive(exactly: 2) else { return nil }
            length = Int(bytes[0]) << 8 | Int(bytes[1])
        } else if length == 127 {
            guard let bytes = socket.receive(exactly: 8) else { return nil }
            length = bytes.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = length == 0 ? [] : socket.receive(exactly: length) else { return nil }
        return (head[0] & 0x0F, payload)
    }

    /// Reads frames until a close frame arrives: its code and reason; nil if none came.
    public func closeFrame() -> (code: Int, reason: String)? {
        while let frame = receive() {
            if frame.opcode == 8 {
                let code = frame.payload.count >= 2 ? Int(frame.payload[0]) << 8 | Int(frame.payload[1]) : 0
                return (code, String(decoding: frame.payload.dropFirst(2), as: UTF8.self))
            }
        }
        return nil
    }
}

/// A binary frame of the live page (docs/serve.md): the fields the tests look at.
public struct LiveFrameHeader: Sendable {
    public var generation: UInt32
    public var paused: Bool
    public var step: Double
    public var droppedSeconds: Double
    /// The state hash, as the page shows it (16 hex digits).
    public var hash: String
    /// The steps a rewind can reach (nil: the run keeps no history), and the rewinds so far.
    public var rewindSpan: ClosedRange<Int>?
    public var rewinds: UInt32

    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 76, bytes[0..<4] == [0x43, 0x44, 0x46, 0x32] else { return nil }
        func u32(_ at: Int) -> UInt32 { bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        func u64(_ at: Int) -> UInt64 { bytes[at..<at + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        func f64(_ at: Int) -> Double { Double(bitPattern: u64(at)) }
        generation = u32(8)
        paused = u32(12) & 1 == 1
        step = f64(16)
        droppedSeconds = f64(40)
        let digits = String(u64(48), radix: 16)
        hash = String(repeating: "0", count: 16 - digits.count) + digits
        rewindSpan = f64(56) < 0 ? nil : Int(f64(56))...Int(f64(64))
        rewinds = u32(72)
    }
}
