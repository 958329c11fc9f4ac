import LiveProtocol
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The server's limits on one connection (docs/serve.md, "Limits").
package enum ServeLimits {
    /// A connection must deliver a whole request head within this time of being accepted, or it
    /// is closed: an idle or half-sent request never holds the server.
    package static let requestHeadTimeout = TimeAmount.seconds(10)
    /// How often the server pings a page.
    package static let pingInterval = TimeAmount.seconds(10)
    /// A page that sends nothing (not even the pong a browser sends for every ping) for this long
    /// is closed.
    package static let pageSilenceTimeout = TimeAmount.seconds(30)
    /// At most this many pieces make one fragmented message.
    package static let maxFragments = 64
}

/// Closes the connection unless `cancel()` is called within `timeout` of its being added: the
/// server cancels it once a request head has arrived (routing or upgrading it).
final class RequestHeadDeadline: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    /// The request head arrived in time.
    func cancel() {
        timer?.cancel()
        timer = nil
    }
}

/// The frame rules of RFC 6455 that NIO's decoder leaves to the application (section 5.1-5.2):
/// a client's frames are masked, no extension was negotiated so the RSV bits are 0, and the
/// opcode is a known one. A frame that breaks them closes the socket with 1002.
final class WebSocketFrameRules: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var closed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closed else { return }
        let frame = Self.unwrapInboundIn(data)
        let problem: String?
        if frame.maskKey == nil {
            problem = "client frames must be masked"
        } else if frame.rsv1 || frame.rsv2 || frame.rsv3 {
            problem = "RSV bits set without an extension"
        } else if ![.continuation, .text, .binary, .connectionClose, .ping, .pong].contains(frame.opcode) {
            problem = "unknown opcode"
        } else {
            problem = nil
        }
        guard let problem else {
            context.fireChannelRead(data)
            return
        }
        closed = true
        WebSocketClose.send(.protocolError, problem, on: context.channel)
    }
}

/// Turns the failures of `NIOWebSocketFrameAggregator` (which only reports them) into closes:
/// a message over the size limit closes with 1009, a broken fragment sequence with 1002.
final class FragmentErrors: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? NIOWebSocketFrameAggregator.Error else {
            context.fireErrorCaught(error)
            return
        }
        switch error {
        case .accumulatedFrameSizeIsTooLarge, .tooManyFragments:
            WebSocketClose.send(.messageTooLarge, "message longer than \(LiveCommand.maxMessageBytes) bytes", on: context.channel)
        default:
            WebSocketClose.send(.protocolError, "bad fragment sequence", on: context.channel)
        }
    }
}

/// Pings the page every `ServeLimits.pingInterval` and closes it when nothing (frames, pongs)
/// arrived for `ServeLimits.pageSilenceTimeout`: a page whose peer vanished does not stay open.
final class PageKeepAlive: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var lastRead = NIODeadline.now()
    private var task: RepeatedTask?

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        task = context.eventLoop.scheduleRepeatedTask(initialDelay: ServeLimits.pingInterval, delay: ServeLimits.pingInterval) { _ in
            if NIODeadline.now() - loopBoundSelf.value.lastRead > ServeLimits.pageSilenceTimeout {
                channel.close(promise: nil)
            } else {
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer()), promise: nil)
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        task?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        task?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = .now()
        context.fireChannelRead(data)
    }
}

enum WebSocketClose {
    /// Sends a close frame with `code` and `reason` (cut to fit a control frame), then closes.
    static func send(_ code: WebSocketErrorCode, _ reason: String, on channel: any Channel) {
        var data = ByteBuffer()
        data.write(webSocketErrorCode: code)
        data.writeString(String(decoding: reason.utf8.prefix(120), as: UTF8.self))
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

/// Sits before the upgrade handler and answers, then closes, a request this server refuses: a
/// `Host` that is not this server (421), a WebSocket upgrade from another page's origin (403) or
/// to a path other than `/live` (404). Everything else passes on untouched.
final class RequestGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let policy: @Sendable () -> AccessPolicy?
    private let onRefusal: @Sendable () -> Void
    private var refused = false

    init(policy: @escaping @Sendable () -> AccessPolicy?, onRefusal: @escaping @Sendable () -> Void) {
        self.policy = policy
        self.onRefusal = onRefusal
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case let .head(head) = Self.unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        guard let (status, text) = refusal(of: head) else {
            // One request a connection: once its head passed, the gate is done (and must not see
            // the WebSocket frames that follow an upgrade).
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        refused = true
        onRefusal()
        let body = ByteBuffer(string: text + "\n")
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Connection", value: "close")
        context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(Self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    private func refusal(of head: HTTPRequestHead) -> (HTTPResponseStatus, String)? {
        guard let policy = policy() else { return (.serviceUnavailable, "not ready") }
        let host = head.headers.first(name: "Host")
        guard policy.allowsHost(host) else {
            return (.misdirectedRequest, "host \(host.map { "'\($0.prefix(100))'" } ?? "(none)") is not this server; "
                + "start cratedrop serve with --allow-host NAME to allow another name")
        }
        guard head.headers.contains(name: "Upgrade") else { return nil }
        guard head.uri == "/live" else { return (.notFound, "no WebSocket at \(head.uri.prefix(100)); the page's is /live") }
        let origin = head.headers.first(name: "Origin")
        guard policy.allowsOrigin(origin) else {
            return (.forbidden, "origin '\(origin?.prefix(100) ?? "")' is not this page's; "
                + "start cratedrop serve with --allow-host NAME to allow another name")
        }
        return nil
    }
}
