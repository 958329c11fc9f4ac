import FileIO
import Foundation
import LiveProtocol
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// The HTTP and WebSocket server of `cratedrop serve`: the page's files at `/`, `/app.js` and
/// `/style.css` (package resources), the session's record at `/record`, and a WebSocket at `/live`
/// that carries frames to the page and tilts and commands from it.
///
/// Every page has a slot holding the newest frame not yet sent: a new frame replaces an unsent
/// one (counted as dropped), so a slow page never holds up physics or other pages. With the frame
/// goes the world's parts (`LiveParts`) it shows; before sending it, a page's writer sends what
/// differs from the parts that page was last told (`LiveMessages.parts`), so a page never draws a
/// frame whose bodies it does not know, and a slow page gets one difference, never a backlog.
///
/// Every connection is tracked from the moment it is accepted: it must send its request head
/// within `ServeLimits.requestHeadTimeout`, a page is pinged and closed when silent, and `stop()`
/// closes all of them, whatever state they are in (docs/serve.md, "Limits").
package final class LiveServer: Sendable {
    package struct Counters: Sendable {
        package var pages = 0
        package var framesSent = 0
        package var framesDropped = 0
        package var badMessages = 0
        /// Requests refused for their `Host` or `Origin`.
        package var refusedRequests = 0
        /// Rewinds pages asked for that the run took, and those it refused (outside the kept
        /// span, or a run that cannot rewind).
        package var rewinds = 0
        package var rewindsRefused = 0
    }

    private let run: LiveRun
    private let sceneMessage: String
    /// The page served at `/` when the world runs in pages (`InPagePage`); nil: the streamed page.
    /// With it the run waits, paused, for the first streamed page (only a browser without
    /// WebAssembly falls back to the server's world).
    private let inPage: [UInt8]?
    /// The parts of the newest frame's world, and what they were worked out from (its generation,
    /// rewinds and structural version): worked out again only when one of those changes.
    private let parts: Mutex<(key: PartsKey, parts: LiveParts)>
    private let allowedHosts: [String]
    private let clients = Mutex<[Int: Client]>([:])
    private let nextClient = Mutex(0)
    package let counters = Mutex(Counters())
    private let serverChannel = Mutex<(any Channel)?>(nil)
    private let policy = Mutex<AccessPolicy?>(nil)
    /// Every accepted connection not yet closed; nil once stopped (a late one is closed at once).
    private let connections = Mutex<[ObjectIdentifier: any Channel]?>([:])
    /// The server's own threads, shut down by `shutdown(within:)`.
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// What a frame's parts are worked out from: another world (a restart), a rewind, a structural change.
    private struct PartsKey: Equatable {
        var generation: Int
        var rewinds: Int
        var version: Int
    }

    /// One page's newest unsent frame, with the parts of the world it shows.
    final class Client: Sendable {
        let slot = Mutex<(frame: [UInt8], parts: LiveParts)?>(nil)
        let wake: AsyncStream<Void>.Continuation
        let signals: AsyncStream<Void>

        init() {
            (signals, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        }
    }

    /// - Parameter allowedHosts: host names besides this machine's that requests may name
    ///   (`--allow-host`).
    /// - Parameter inPage: the page to serve at `/` instead of the streamed one, whose world runs
    ///   in the browser; the run is paused here and resumes when the first streamed page connects.
    package init(run: LiveRun, sceneMessage: String, allowedHosts: [String] = [], inPage: [UInt8]? = nil) {
        self.run = run
        self.sceneMessage = sceneMessage
        self.inPage = inPage
        if inPage != nil { _ = run.post(.pause) }
        self.allowedHosts = allowedHosts
        parts = Mutex((PartsKey(generation: 0, rewinds: 0, version: 0), run.baseParts))
    }

    /// Hands a frame to every page, with the parts of the world it shows; an unsent older frame
    /// is dropped and counted (the parts then go with the newer one).
    package func broadcast(_ frame: LiveFrame) {
        let bytes = LiveMessages.frame(frame)
        let shown = parts(of: frame)
        let all = clients.withLock { Array($0.values) }
        var dropped = 0
        for client in all {
            client.slot.withLock { slot in
                if slot != nil { dropped += 1 }
                slot = (bytes, shown)
            }
            client.wake.yield()
        }
        if dropped > 0 { counters.withLock { $0.framesDropped += dropped } }
    }

    /// The parts of the world `frame` shows: the last frame's value while its world, rewinds and
    /// structural version are the same (a changed world's snapshots carry one value until it
    /// changes again), else worked out from the snapshot (the scene's when it carries none: a
    /// world that has not changed, restarted or rewound to before its changes).
    private func parts(of frame: LiveFrame) -> LiveParts {
        let snapshot = frame.snapshot
        let key = PartsKey(generation: frame.generation, rewinds: frame.rewind?.rewinds ?? 0, version: snapshot.parts?.version ?? 0)
        return parts.withLock { last in
            guard key != last.key else { return last.parts }
            let now = snapshot.parts.map { LiveParts(parts: $0, bodies: snapshot.bodies) } ?? run.baseParts
            // The same parts (a rewind within one make-up) stay the one value, which pages hold.
            last = (key, now.sameParts(as: last.parts) ? last.parts : now)
            return last.parts
        }
    }

    /// Binds and serves until `stop()`; `onListening` gets the bound port. A bind that fails
    /// throws a `ListenError`.
    package func serve(host: String, port: Int, onListening: @Sendable (Int) -> Void) async throws {
        let channel: NIOAsyncChannel<EventLoopFuture<Upgrade>, Never>
        do {
            channel = try await bind(host: host, port: port)
        } catch {
            throw ListenError(host: host, port: port, cause: error)
        }
        let bound = channel.channel.localAddress?.port ?? port
        policy.withLock { $0 = AccessPolicy(boundHost: host, port: bound, allowedHosts: allowedHosts) }
        serverChannel.withLock { $0 = channel.channel }
        if connections.withLock({ $0 == nil }) { channel.channel.close(promise: nil) }
        onListening(bound)
        try await withThrowingDiscardingTaskGroup { group in
            try await channel.executeThenClose { inbound in
                for try await upgrade in inbound {
                    group.addTask { await self.handle(upgrade) }
                }
            }
            group.cancelAll()
        }
    }

    /// The listening channel, each connection's pipeline set up as it arrives.
    private func bind(host: String, port: Int) async throws -> NIOAsyncChannel<EventLoopFuture<Upgrade>, Never> {
        try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                self.track(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline(timeout: ServeLimits.requestHeadTimeout))
                    let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                        maxFrameSize: LiveCommand.maxMessageBytes,
                        shouldUpgrade: { channel, head in
                            channel.eventLoop.makeSucceededFuture(self.mayUpgrade(head) ? HTTPHeaders() : nil)
                        },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                let pipeline = channel.pipeline.syncOperations
                                try pipeline.handler(type: RequestHeadDeadline.self).cancel()
                                try pipeline.addHandlers([
                                    WebSocketFrameRules(),
                                    PageKeepAlive(),
                                    NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: ServeLimits.maxFragments,
                                                                maxAccumulatedFrameSize: LiveCommand.maxMessageBytes),
                                    FragmentErrors(),
                                ])
                                return Upgrade.websocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                            }
                        })
                    let configuration = NIOTypedHTTPServerUpgradeConfiguration(upgraders: [upgrader], notUpgradingCompletionHandler: { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.handler(type: RequestHeadDeadline.self).cancel()
                            try channel.pipeline.syncOperations.addHandler(ResponseAdapter())
                            return Upgrade.http(try NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>(
                                wrappingChannelSynchronously: channel))
                        }
                    })
                    let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                    let upgradeHandler = try channel.pipeline.syncOperations.handler(type: NIOTypedHTTPServerUpgradeHandler<Upgrade>.self)
                    try channel.pipeline.syncOperations.addHandler(
                        RequestGate(policy: { self.policy.withLock { $0 } }, onRefusal: { self.counters.withLock { $0.refusedRequests += 1 } }),
                        position: .before(upgradeHandler))
                    return upgrade
                }
            }
    }

    /// Keeps `channel` until it closes, so `stop()` can close it.
    private func track(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let open = connections.withLock { connections -> Bool in
            guard connections != nil else { return false }
            connections?[id] = channel
            return true
        }
        guard open else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { _ in self.connections.withLock { _ = $0?.removeValue(forKey: id) } }
    }

    /// Stops accepting pages and closes the listening socket and every connection, whatever it
    /// is doing; `serve` then returns.
    package func stop() {
        let open = connections.withLock { connections in
            defer { connections = nil }
            return connections.map { Array($0.values) } ?? []
        }
        serverChannel.withLock { $0 }?.close(promise: nil)
        for channel in open { channel.close(promise: nil) }
        for client in clients.withLock({ Array($0.values) }) { client.wake.finish() }
    }

    /// Shuts the server's threads down, waiting at most `seconds` (the process is about to end
    /// either way).
    package func shutdown(within seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        group.shutdownGracefully(queue: .global()) { _ in done.signal() }
        _ = done.wait(timeout: .now() + seconds)
    }

    enum Upgrade {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>)
    }

    private func handle(_ upgrade: EventLoopFuture<Upgrade>) async {
        do {
            switch try await upgrade.get() {
            case let .websocket(channel): try await page(channel)
            case let .http(channel): try await http(channel)
            }
        } catch {
            // One connection's failure (a page that went away) never stops the server.
        }
    }

    /// Whether an upgrade request may become a page (`RequestGate` has refused the others).
    private func mayUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.uri == "/live"
    }

    private func page(_ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async throws {
        let client = Client()
        let id = nextClient.withLock { next in defer { next += 1 }; return next }
        clients.withLock { $0[id] = client }
        let first = counters.withLock { counters in
            counters.pages += 1
            return counters.pages == 1
        }
        if first, inPage != nil { _ = run.post(.resume) }
        defer { clients.withLock { _ = $0.removeValue(forKey: id) } }
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: sceneMessage)))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // What this page was told of the world's parts: the scene message's, then each
                    // difference sent before the frame that shows it.
                    var known = self.run.baseParts
                    for await _ in client.signals {
                        guard let (frame, parts) = client.slot.withLock({ slot in defer { slot = nil }; return slot }) else { continue }
                        if parts !== known {
                            for message in LiveMessages.parts(from: known, to: parts, scene: self.run.scene) {
                                try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: message)))
                            }
                            known = parts
                        }
                        try await outbound.write(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: frame)))
                        self.counters.withLock { $0.framesSent += 1 }
                    }
                }
                group.addTask {
                    // Whole messages only (NIOWebSocketFrameAggregator joined the fragments), read
                    // as the run takes them: NIOAsyncChannel stops reading the socket while a few
                    // are waiting here, so a flood queues in the sender's kernel, not in memory.
                    func refuse(_ code: WebSocketErrorCode, _ reason: String) async throws {
                        self.counters.withLock { $0.badMessages += 1 }
                        var data = ByteBuffer()
                        data.write(webSocketErrorCode: code)
                        data.writeString(String(reason.prefix(100)))
                        try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
                    }
                    var pace = MessagePace()
                    for try await frame in inbound {
                        let wait = pace.take(at: .now)
                        if wait > .zero { try await Task.sleep(for: wait) }
                        switch frame.opcode {
                        case .text:
                            let data = frame.unmaskedData
                            guard let text = String(validating: data.readableBytesView, as: UTF8.self) else {
                                try await refuse(.dataInconsistentWithMessage, "text message is not valid UTF-8")
                                return
                            }
                            switch LiveCommand.parse(text) {
                            case let .success(command):
                                let refusal = self.run.post(command)
                                if case .rewind = command {
                                    self.counters.withLock { if refusal == nil { $0.rewinds += 1 } else { $0.rewindsRefused += 1 } }
                                }
                                // A well-formed request the run cannot grant: answered, the page stays.
                                if let refusal {
                                    try await outbound.write(WebSocketFrame(fin: true, opcode: .text,
                                                                            data: ByteBuffer(string: LiveMessages.refusal(refusal))))
                                }
                            case let .failure(error):
                                try await refuse(.policyViolation, error.description)
                                return
                            }
                        case .connectionClose:
                            var data = frame.unmaskedData
                            let code = data.readSlice(length: 2) ?? ByteBuffer()
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
                            return
                        case .ping:
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
                        case .pong:
                            continue
                        default:
                            // Binary messages are not part of the protocol.
                            try await refuse(.unacceptableData, "only text messages")
                            return
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
                client.wake.finish()
            }
        }
    }

    private func http(_ channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>) async throws {
        try await channel.executeThenClose { inbound, _ in
            for try await part in inbound {
                guard case let .head(head) = part else { continue }
                var headers = HTTPHeaders()
                headers.add(name: "Cache-Control", value: "no-store")
                headers.add(name: "Connection", value: "close")
                if head.uri == "/record", head.method == .GET {
                    guard let record = run.openRecord() else {
                        try await respond(.internalServerError, "text/plain", ByteBuffer(string: "no record\n"), headers, on: channel.channel)
                        return
                    }
                    headers.add(name: "Content-Type", value: "application/x-ndjson")
                    headers.add(name: "Content-Length", value: String(record.length))
                    headers.add(name: "Content-Disposition", value: "attachment; filename=\"\(run.scene.name).rec\"")
                    // Written on the channel, each chunk awaited until it is in the socket: one chunk in
                    // memory at a time, and the connection closes only after the last byte went out
                    // (closing with writes still queued would cut the download short).
                    let connection = channel.channel
                    connection.write(HTTPPart<HTTPResponseHead, ByteBuffer>.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)),
                                     promise: nil)
                    var offset: Int64 = 0
                    while offset < record.length {
                        let chunk = try await record.chunk(at: offset)
                        offset += Int64(chunk.readableBytes)
                        try await connection.writeAndFlush(HTTPPart<HTTPResponseHead, ByteBuffer>.body(chunk)).get()
                    }
                    // A record cut back or started again since: cut off, never completed.
                    guard record.isCurrent else { throw RecordDownload.Truncated() }
                    try await connection.writeAndFlush(HTTPPart<HTTPResponseHead, ByteBuffer>.end(nil)).get()
                    return
                }
                let (status, type, body) = response(for: head)
                try await respond(status, type, body, headers, on: channel.channel)
                return
            }
        }
    }

    /// Writes a whole response and returns once it is in the socket.
    private func respond(_ status: HTTPResponseStatus, _ type: String, _ body: ByteBuffer, _ headers: HTTPHeaders,
                         on connection: any Channel) async throws {
        var headers = headers
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        typealias Part = HTTPPart<HTTPResponseHead, ByteBuffer>
        connection.write(Part.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)), promise: nil)
        connection.write(Part.body(body), promise: nil)
        try await connection.writeAndFlush(Part.end(nil)).get()
    }

    private func response(for head: HTTPRequestHead) -> (HTTPResponseStatus, String, ByteBuffer) {
        guard head.method == .GET else { return (.methodNotAllowed, "text/plain", ByteBuffer(string: "GET only\n")) }
        let files = ["/": ("index.html", "text/html; charset=utf-8"), "/index.html": ("index.html", "text/html; charset=utf-8"),
                     "/app.js": ("app.js", "text/javascript; charset=utf-8"), "/local.js": ("local.js", "text/javascript; charset=utf-8"),
                     "/blend.js": ("blend.js", "text/javascript; charset=utf-8"), "/style.css": ("style.css", "text/css; charset=utf-8")]
        if let inPage, head.uri == "/" || head.uri == "/index.html" { return (.ok, "text/html; charset=utf-8", ByteBuffer(bytes: inPage)) }
        guard let (name, type) = files[head.uri], let data = PageFiles.contents(name) else {
            return (.notFound, "text/plain", ByteBuffer(string: "not found\n"))
        }
        return (.ok, type, ByteBuffer(bytes: data))
    }
}

/// The page's files, shipped as package resources (`Sources/Serve/Page`).
enum PageFiles {
    static func contents(_ name: String) -> [UInt8]? {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Page") else { return nil }
        return try? FileBytes.read(path: url.path, limit: 16 << 20)
    }
}
