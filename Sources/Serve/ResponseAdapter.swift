import NIOCore
import NIOHTTP1

/// Lets the HTTP side write bodies as `ByteBuffer`s: NIOHTTP1's server encoder takes `IOData`.
final class ResponseAdapter: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = HTTPPart<HTTPResponseHead, ByteBuffer>
    typealias OutboundOut = HTTPServerResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let converted: HTTPServerResponsePart
        switch unwrapOutboundIn(data) {
        case let .head(head): converted = .head(head)
        case let .body(bytes): converted = .body(.byteBuffer(bytes))
        case let .end(trailers): converted = .end(trailers)
        }
        context.write(wrapOutboundOut(converted), promise: promise)
    }
}
