import Foundation
import Synchronization
import TestSupport
import Testing

/// The audit's reproducers for `cratedrop serve` (issue "Reliability round 3", findings 1, 2, 3,
/// 5, 6, 7 and 11), each against a real `cratedrop serve` process over sockets on 127.0.0.1.
/// Serialized: several servers stepping at once on a small machine would measure each other.
@Suite(.serialized) struct ServeHardeningTests {
    static func summary(_ process: ServeProcess) throws -> JSONFields {
        try JSONFields(process.stdout.trimmingCharacters(in: .newlines).components(separatedBy: "\n").last ?? "")
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-serve-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    // MARK: Finding 1: Ctrl-C and connections that never finish

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsServeWithinASecondWhateverTheClientsDo(signal: Int32) throws {
        let server = try ServeProcess(["Scenes/book.json"])
        // An idle connection (`nc`), a half-sent request line, a page that never reads...
        let idle = try TestSocket(port: server.port)
        let partial = try TestSocket(port: server.port)
        partial.send("GET / HT")
        let page = try TestWebSocket(port: server.port)
        #expect(page.status == 101)
        // ...and a burst of 1000 non-blocking connects closed by the client.
        for _ in 0..<1000 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(server.port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
        }
        // The server still answers, then stops on the signal.
        #expect(try TestSocket.get(port: server.port, "/").status == 200)
        let stopped = server.stop(signal)
        withExtendedLifetime((idle, partial, page)) {}
        let result = try #require(stopped, "serve did not stop within 10 s of the signal: \(server.stderr)")
        print("serve stopped by signal \(signal) in \(Int(result.seconds * 1000)) ms")
        #expect(result.seconds < 1, "took \(result.seconds) s")
        #expect(result.status == 128 + signal)
        let summary = try Self.summary(server)
        #expect(summary.number("steps") ?? 0 > 0 && summary.number("pages") == 1, "\(server.stdout)")
    }

    @Test func aConnectionWithoutARequestHeadIsClosedAfterTenSeconds() throws {
        let server = try ServeProcess(["Scenes/book.json"])
        defer { _ = server.stop() }
        let partial = try TestSocket(port: server.port, readTimeout: 15)
        let start = Date()
        partial.send("GET / HT")
        let (bytes, closed) = partial.receiveAll()
        let seconds = Date().timeIntervalSince(start)
        #expect(closed && bytes.isEmpty, "the half-sent request was not closed within 15 s")
        #expect(seconds > 9 && seconds < 13, "closed after \(seconds) s")
    }

    // MARK: Finding 2: /record of any size

    @Test func theRecordDownloadIsWholeAtFiftyMegabytes() throws {
        // The record holds the scene's text, so a scene padded with 50 MB of (valid JSON) blanks
        // makes a record over 50 MB from the first step on.
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let book = try String(contentsOfFile: Repository.path("Scenes/book.json"), encoding: .utf8)
        let scene = directory + "/big.json"
        try (book + String(repeating: " ", count: 50 << 20)).write(toFile: scene, atomically: false, encoding: .utf8)
        let record = directory + "/live.rec"
        let server = try ServeProcess([scene, "--record", record])
        defer { _ = server.stop() }
        // The server listens while the run creates its record: ask until there is one.
        var response = try TestSocket.get(port: server.port, "/record")
        let deadline = Date().addingTimeInterval(60)
        while response.status != 200 || response.body.count <= 50 << 20, Date() < deadline { response = try TestSocket.get(port: server.port, "/record") }
        // Once more as a slow client (a small window, a late start): the server waits for it.
        response = try TestSocket.get(port: server.port, "/record", slowReader: true)
        let file = try Data(contentsOf: URL(fileURLWithPath: record))
        print("/record: \(response.body.count) bytes, Content-Length \(response.headers["content-length"] ?? "none"), file \(file.count) bytes")
        #expect(response.status == 200 && response.closed)
        #expect(response.headers["content-length"] == String(response.body.count))
        #expect(response.body.count > 50 << 20)
        #expect(response.body.last == UInt8(ascii: "\n"))
        #expect(file.count >= response.body.count && file.prefix(response.body.count) == Data(response.body))
    }

    // MARK: Finding 3: a record that cannot be written

    @Test func aRecordThatCannotBeWrittenEndsServeWithExit74() throws {
        let server = try ServeProcess(["Scenes/book.json", "--record", "/dev/full"])
        // The run flushes the record every frame, so the failure ends it without a signal.
        let ended = server.waitForExit(within: 10)
        if !ended { _ = server.stop() }
        #expect(ended, "serve kept running with a record it could not write")
        #expect(server.process.terminationStatus == 74)
        #expect(server.stderr.contains("/dev/full: No space left on device; the record was not kept whole"), "\(server.stderr)")
        let summary = try Self.summary(server)
        #expect(server.stdout.contains("\"record\":null"), "\(summary)")
    }

    // MARK: Finding 5: a flood of messages

    @Test func aFloodOfMessagesNeitherStallsPhysicsNorCtrlC() throws {
        let server = try ServeProcess(["Scenes/pile-5000.json"])
        let watcher = try TestWebSocket(port: server.port)
        #expect(watcher.status == 101)
        let messages = [#"{"gravity":[0,-1000]}"#, #"{"gravity":[300,-900]}"#, #"{"command":"restart"}"#, #"{"command":"step"}"#,
                        #"{"command":"resume"}"#]
        let flooding = Atomic<Bool>(true)
        let sent = Atomic<Int>(0)
        let senders = DispatchGroup()
        // 4 sockets, 2500 messages a second each or more: 35 every 10 ms (a send blocks while the server is not reading).
        for index in 0..<4 {
            let socket = try TestWebSocket(port: server.port)
            #expect(socket.status == 101)
            DispatchQueue.global().async(group: senders) {
                var n = index
                while flooding.load(ordering: .relaxed) {
                    for _ in 0..<35 {
                        guard socket.send(text: messages[n % messages.count]) else { return }
                        n += 1
                        sent.add(1, ordering: .relaxed)
                    }
                    usleep(10_000)
                }
            }
        }
        // Watch 6 s of frames: (time, generation, step, dropped seconds).
        var frames: [(Double, UInt32, Double, Double)] = []
        let start = Date()
        while Date().timeIntervalSince(start) < 6, let frame = watcher.receive() {
            if frame.opcode == 2, let header = LiveFrameHeader(frame.payload) {
                frames.append((Date().timeIntervalSince(start), header.generation, header.step, header.droppedSeconds))
            }
        }
        let stopped = server.stop()
        flooding.store(false, ordering: .relaxed)
        senders.wait()
        let result = try #require(stopped, "serve did not stop within 10 s of Ctrl-C")
        // Within each world's run, simulated time plus the time the guard dropped keeps up with
        // the wall clock; restarts come at most every 250 ms.
        let stepRate = 60.0
        var simulated = 0.0, wall = 0.0, longest = 0.0, steps = 0.0
        for generation in Set(frames.map(\.1)) {
            let run = frames.filter { $0.1 == generation }
            guard let first = run.first, let last = run.last else { continue }
            simulated += (last.2 - first.2) / stepRate + (last.3 - first.3)
            wall += last.0 - first.0
            longest = max(longest, last.0 - first.0)
            steps += last.2 - first.2
        }
        let generations = Set(frames.map(\.1)).count
        print("flood: \(sent.load(ordering: .relaxed)) messages in \(String(format: "%.1f", frames.last?.0 ?? 0)) s, \(frames.count) frames, "
            + "\(generations) worlds, \(Int(steps)) steps, simulated+dropped \(String(format: "%.2f", simulated)) s of \(String(format: "%.2f", wall)) s, "
            + "Ctrl-C \(Int(result.seconds * 1000)) ms")
        #expect(result.seconds < 1 && result.status == 130, "Ctrl-C took \(result.seconds) s, status \(result.status)")
        #expect(frames.count > 30, "the page got \(frames.count) frames in 6 s")
        #expect(Double(generations) <= 6 / 0.25 + 1, "\(generations) restarts in 6 s")
        #expect(longest >= 0.2 && steps > 0, "no world ran longer than \(longest) s; \(steps) steps in all")
        // The guard keeps up to 8 steps of debt (neither stepped nor dropped) in each world, and a
        // frame is seen a little after it was made: 0.1 s a world.
        let slack = 0.1 * Double(generations)
        #expect(wall > 1 && simulated > wall - slack && simulated < wall + slack, "simulated+dropped \(simulated) s over \(wall) s")
        #expect(sent.load(ordering: .relaxed) > 20_000)
    }

    // MARK: Finding 6: Host and Origin

    @Test func requestsNamingAnotherHostAreRefused() throws {
        let server = try ServeProcess(["Scenes/book.json", "--allow-host", "phone.example"])
        defer { _ = server.stop() }
        let port = server.port
        for (host, status) in [("127.0.0.1:\(port)", 200), ("localhost:\(port)", 200), ("[::1]:\(port)", 200),
                               ("phone.example:\(port)", 200), ("evil.example:\(port)", 421), ("evil.example", 421)] {
            let response = try TestSocket.get(port: port, "/", headers: ["Host": host])
            #expect(response.status == status, "Host \(host)")
        }
        let refused = try TestSocket.get(port: port, "/record", headers: ["Host": "rebound.example:\(port)"])
        #expect(refused.status == 421 && String(decoding: refused.body, as: UTF8.self).contains("--allow-host"))
        for (origin, status) in [(nil, 101), ("http://127.0.0.1:\(port)", 101), ("http://localhost:\(port)", 101),
                                 ("http://phone.example:\(port)", 101), ("https://phone.example", 101),
                                 ("http://evil.example", 403), ("http://localhost:1", 403), ("null", 403)] as [(String?, Int)] {
            #expect(try TestWebSocket(port: port, origin: origin).status == status, "Origin \(origin ?? "none")")
        }
    }

    // MARK: Finding 7: the default record

    @Test func theDefaultRecordIsPrivateAndRemovedOnEveryExit() throws {
        let runtime = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        // A directory left by a killed run (no process 99999: pid_max is lower or it is free).
        let stale = runtime + "/cratedrop-serve-99999-AbCdEf"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: false)
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: stale + "/live.rec"))
        let environment = ["XDG_RUNTIME_DIR": runtime]
        for signal in [SIGINT, SIGTERM] {
            let server = try ServeProcess(["Scenes/book.json"], environment: environment)
            let names = try FileManager.default.contentsOfDirectory(atPath: runtime)
            #expect(!names.contains("cratedrop-serve-99999-AbCdEf"), "the stale record was not removed: \(names)")
            let mine = try #require(names.first { $0.hasPrefix("cratedrop-serve-\(server.pid)-") }, "\(names)")
            let directory = try FileManager.default.attributesOfItem(atPath: runtime + "/" + mine)
            let file = try FileManager.default.attributesOfItem(atPath: runtime + "/" + mine + "/live.rec")
            #expect((directory[.posixPermissions] as? Int) == 0o700 && (file[.posixPermissions] as? Int) == 0o600)
            #expect(try TestSocket.get(port: server.port, "/record").status == 200)
            let stopped = try #require(server.stop(signal))
            #expect(stopped.status == 128 + signal)
            #expect(try FileManager.default.contentsOfDirectory(atPath: runtime).isEmpty, "left behind after signal \(signal)")
        }
        // A setup error (the port is taken) removes it too.
        let holder = try ServeProcess(["Scenes/book.json", "--record", runtime + "/kept.rec"])
        let taken = try CLI.run(["serve", "Scenes/book.json", "--port", String(holder.port)], environment: environment)
        #expect(taken.status == 69)
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime) == ["kept.rec"])
        _ = holder.stop()
    }

    // MARK: Finding 11: RFC 6455

    @Test func fragmentsAreJoinedIntoOneMessage() throws {
        let server = try ServeProcess(["Scenes/book.json"])
        defer { _ = server.stop() }
        let page = try TestWebSocket(port: server.port)
        #expect(page.status == 101)
        page.send(text: #"{"comm"#, fin: false)
        page.send([UInt8](), opcode: 9)  // a ping between the pieces
        page.send(text: #"and":"pa"#, fin: false, opcode: 0)
        page.send(text: #"use"}"#, fin: true, opcode: 0)
        var pausedFrame = false, pong = false
        let start = Date()
        while Date().timeIntervalSince(start) < 10, !(pausedFrame && pong), let frame = page.receive() {
            if frame.opcode == 10 { pong = true }
            if frame.opcode == 2, LiveFrameHeader(frame.payload)?.paused == true { pausedFrame = true }
        }
        #expect(pausedFrame && pong, "paused frame \(pausedFrame), pong \(pong)")
    }

    @Test(arguments: [
        ("an unmasked frame", 1002),
        ("an RSV bit", 1002),
        ("a reserved opcode", 1002),
        ("invalid UTF-8", 1007),
        ("a message over the limit in pieces", 1009),
        ("a continuation with no message", 1002),
    ])
    func protocolViolationsCloseWithTheirCode(violation: String, code: Int) throws {
        let server = try ServeProcess(["Scenes/book.json"])
        defer { _ = server.stop() }
        let page = try TestWebSocket(port: server.port)
        #expect(page.status == 101)
        switch violation {
        case "an unmasked frame": page.send(Array(#"{"command":"pause"}"#.utf8), masked: false)
        case "an RSV bit": page.send(Array(#"{"command":"pause"}"#.utf8), rsv1: true)
        case "a reserved opcode": page.send([1, 2, 3], opcode: 3)
        case "invalid UTF-8": page.send([0x7B, 0xC3, 0x28, 0x7D])
        case "a message over the limit in pieces":
            page.send(Array(repeating: 0x20, count: 120), fin: false)
            for _ in 0..<9 { page.send(Array(repeating: 0x20, count: 120), opcode: 0, fin: false) }
        default: page.send(Array("}".utf8), opcode: 0)
        }
        let close = page.closeFrame()
        #expect(close?.code == code, "\(violation): \(String(describing: close))")
        #expect(page.socket.receiveAll().closed, "the socket stays open after \(violation)")
    }
}
