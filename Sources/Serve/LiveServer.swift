import Foundation
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
/// one (counted as dropped), so a slow page never holds up physics or other pages.
public final class LiveServer: Sendable {
    public struct Counters: Sendable {
        public var pages = 0
        public var framesSent = 0
        public var framesDropped = 0
        public var badMessages = 0
    }

    private let run: LiveRun
    private let sceneMessage: String
    private let clients = Mutex<[Int: Client]>([:])
    private let nextClient = Mutex(0)
    public let counters = Mutex(Counters())
    private let serverChannel = Mutex<(any Channel)?>(nil)

    /// One page's newest unsent frame.
    final class Client: Sendable {
        let slot = Mutex<[UInt8]?>(nil)
        let wake: AsyncStream<Void>.Continuation
        let signals: AsyncStream<Void>

        init() {
            (signals, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        }
    }

    public init(run: LiveRun, sceneMessage: String) {
        self.run = run
        self.sceneMessage = sceneMessage
    }

    /// Hands a frame to every page; an unsent older frame is dropped and counted.
    public func broadcast(_ frame: [UInt8]) {
        let all = clients.withLock { Array($0.values) }
        var dropped = 0
        for client in all {
            client.slot.withLock { slot in
                if slot != nil { dropped += 1 }
                slot = frame
            }
            client.wake.yield()
        }
        if dropped > 0 { counters.withLock { $0.framesDropped += dropped } }
    }

    /// Binds and serves until `stop()`; `onListening` gets the bound port.
    public func serve(host: String, port: Int, onListening: @Sendable (Int) -> Void) async throws {
        let channel: NIOAsyncChannel<EventLoopFuture<Upgrade>, Never> = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                        maxFrameSize: LiveCommand.maxMessageBytes * 4,
                        shouldUpgrade: { channel, head in
                            channel.eventLoop.makeSucceededFuture(head.uri == "/live" ? HTTPHeaders() : nil)
                        },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                Upgrade.websocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                            }
                        })
                    let configuration = NIOTypedHTTPServerUpgradeConfiguration(upgraders: [upgrader], notUpgradingCompletionHandler: { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(ResponseAdapter())
                            return Upgrade.http(try NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>(
                                wrappingChannelSynchronously: channel))
                        }
                    })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
        serverChannel.withLock { $0 = channel.channel }
        onListening(channel.channel.localAddress?.port ?? port)
        try await withThrowingDiscardingTaskGroup { group in
            try await channel.executeThenClose { inbound in
                for try await upgrade in inbound {
                    group.addTask { await self.handle(upgrade) }
                }
            }
            group.cancelAll()
        }
    }

    /// Stops accepting pages and closes the listening socket; `serve` then returns.
    public func stop() {
        serverChannel.withLock { $0 }?.close(promise: nil)
        for client in clients.withLock({ Array($0.values) }) { client.wake.finish() }
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

    private func page(_ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async throws {
        let client = Client()
        let id = nextClient.withLock { next in defer { next += 1 }; return next }
        clients.withLock { $0[id] = client }
        counters.withLock { $0.pages += 1 }
        defer { clients.withLock { _ = $0.removeValue(forKey: id) } }
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: sceneMessage)))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in client.signals {
                        guard let frame = client.slot.withLock({ slot in defer { slot = nil }; return slot }) else { continue }
                        try await outbound.write(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: frame)))
                        self.counters.withLock { $0.framesSent += 1 }
                    }
                }
                group.addTask {
                    for try await frame in inbound {
                        switch frame.opcode {
                        case .text:
                            var data = frame.unmaskedData
                            let text = data.readString(length: data.readableBytes) ?? ""
                            switch LiveCommand.parse(text) {
                            case let .success(command): self.run.post(command)
                            case let .failure(error):
                                self.counters.withLock { $0.badMessages += 1 }
                                var reason = ByteBuffer()
                                reason.write(webSocketErrorCode: .policyViolation)
                                reason.writeString(String(error.description.prefix(100)))
                                try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: reason))
                                return
                            }
                        case .connectionClose:
                            var data = frame.unmaskedData
                            let code = data.readSlice(length: 2) ?? ByteBuffer()
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
                            return
                        case .ping:
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
                        default:
                            // Binary and fragmented messages are not part of the protocol.
                            self.counters.withLock { $0.badMessages += 1 }
                            var reason = ByteBuffer()
                            reason.write(webSocketErrorCode: .unacceptableData)
                            reason.writeString("only text messages")
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: reason))
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
        try await channel.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case let .head(head) = part else { continue }
                let (status, type, body) = response(for: head)
                var headers = HTTPHeaders()
                headers.add(name: "Content-Type", value: type)
                headers.add(name: "Content-Length", value: String(body.readableBytes))
                headers.add(name: "Cache-Control", value: "no-store")
                if head.uri == "/record" { headers.add(name: "Content-Disposition", value: "attachment; filename=\"\(run.scene.name).rec\"") }
                headers.add(name: "Connection", value: "close")
                try await outbound.write(contentsOf: [.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)),
                                                      .body(body), .end(nil)])
                return
            }
        }
    }

    private func response(for head: HTTPRequestHead) -> (HTTPResponseStatus, String, ByteBuffer) {
        guard head.method == .GET else { return (.methodNotAllowed, "text/plain", ByteBuffer(string: "GET only\n")) }
        switch head.uri {
        case "/record":
            guard let bytes = run.recordBytes() else { return (.internalServerError, "text/plain", ByteBuffer(string: "no record\n")) }
            return (.ok, "application/x-ndjson", ByteBuffer(bytes: bytes))
        default:
            let files = ["/": ("index.html", "text/html; charset=utf-8"), "/index.html": ("index.html", "text/html; charset=utf-8"),
                         "/app.js": ("app.js", "text/javascript; charset=utf-8"), "/style.css": ("style.css", "text/css; charset=utf-8")]
            guard let (name, type) = files[head.uri], let data = PageFiles.contents(name) else {
                return (.notFound, "text/plain", ByteBuffer(string: "not found\n"))
            }
            return (.ok, type, ByteBuffer(bytes: data))
        }
    }
}

/// The page's files, shipped as package resources (`Sources/Serve/Page`).
enum PageFiles {
    static func contents(_ name: String) -> [UInt8]? {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Page"),
              let data = try? Data(contentsOf: url) else { return nil }
        return [UInt8](data)
    }
}
