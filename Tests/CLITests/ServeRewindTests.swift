import Foundation
import TestSupport
import Testing

/// Rewind and branch through a real `cratedrop serve`, over its WebSocket as pages do
/// (docs/serve.md, "Rewind and branch"). On the portable backend (`scripts/swiftpm test`, the default): a page
/// rewinds the paused run, every page's next frame shows the run's own state at that step, the
/// run branches with a new tilt, and the record downloaded then verifies with `replay --verify`.
/// On Debian's library the scene message says why rewind is off and a rewind is refused with
/// that reason, its socket open. Malformed rewinds close their socket on both.
@Suite(.serialized) struct ServeRewindTests {
    /// A page's view of the run: frames read until one satisfies `until`, with each step's hash noted.
    final class Page {
        let socket: TestWebSocket
        var hashes: [Int: String] = [:]
        var texts: [String] = []

        init(port: Int) throws {
            socket = try TestWebSocket(port: port)
        }

        /// Reads frames (at most `seconds`) until a frame header satisfies `until`; that header.
        func read(for seconds: Double = 20, until: (LiveFrameHeader) -> Bool) -> LiveFrameHeader? {
            let start = Date()
            while Date().timeIntervalSince(start) < seconds, let frame = socket.receive() {
                if frame.opcode == 1 { texts.append(String(decoding: frame.payload, as: UTF8.self)) }
                guard frame.opcode == 2, let header = LiveFrameHeader(frame.payload) else { continue }
                if header.rewinds == 0 { hashes[Int(header.step)] = header.hash }
                if until(header) { return header }
            }
            return nil
        }

        /// Reads until a text message containing `text` arrives (frames in between are read too).
        func text(containing text: String, within seconds: Double = 10) -> String? {
            let start = Date()
            while Date().timeIntervalSince(start) < seconds {
                if let found = texts.first(where: { $0.contains(text) }) { return found }
                guard let frame = socket.receive() else { return nil }
                if frame.opcode == 1 { texts.append(String(decoding: frame.payload, as: UTF8.self)) }
            }
            return nil
        }

        /// Pauses the run and reads until two paused frames show the same step: that frame.
        func pause() -> LiveFrameHeader? {
            socket.send(text: #"{"command":"pause"}"#)
            var last: LiveFrameHeader?
            return read { header in
                defer { last = header }
                return header.paused && last?.paused == true && last?.step == header.step
            }
        }
    }

    static func summary(_ process: ServeProcess) throws -> JSONFields {
        try JSONFields(process.stdout.trimmingCharacters(in: .newlines).components(separatedBy: "\n").last ?? "")
    }

    @Test(.timeLimit(.minutes(3)))
    func aPageRewindsTheRunAndTheRecordFollowsTheBranch() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-rewind-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServeProcess(["Scenes/book.json", "--record", "\(directory)/live.rec"])
        let page = try Page(port: server.port)
        let other = try Page(port: server.port)
        let scene = try #require(page.text(containing: #""type":"scene""#))
        // A malformed rewind closes its own socket, as any malformed message.
        let bad = try TestWebSocket(port: server.port)
        bad.send(text: #"{"rewind":-3}"#)
        let closed = bad.closeFrame()
        #expect(closed?.code == 1008 && closed?.reason.contains("rewind takes a step") == true, "\(String(describing: closed))")

        guard SavedStateCommandTests.portable else {
            #expect(scene.contains(#""rewind":{"unavailable":"rewind keeps saved states, and saved states need CrateDrop's Chipmunk (the portable physics backend)"#), "\(scene)")
            page.socket.send(text: #"{"rewind":10}"#)
            let refusal = page.text(containing: #""type":"refused""#)
            #expect(refusal?.contains("cannot rewind: rewind keeps saved states") == true, "\(refusal ?? "no answer")")
            #expect(page.read { $0.rewindSpan == nil } != nil, "the page's socket stays open, and frames say no history is kept")
            let result = try #require(server.stop())
            let summary = try Self.summary(server)
            #expect(result.status == 130 && summary.number("rewinds_refused") == 1 && summary.number("bad_messages") == 1, "\(server.stdout)")
            return
        }
        #expect(scene.contains(#""rewind":{"seconds":30}"#), "\(scene)")
        try #require(page.read { $0.step >= 240 } != nil)
        let paused = try #require(page.pause())
        let newest = Int(paused.step)
        #expect(paused.rewindSpan == 0...newest)
        // Back to a step the page saw while the run went on, between two kept states (every 60 steps).
        let target = try #require(page.hashes.keys.filter { $0 > 70 && $0 < newest - 40 && $0 % 60 != 0 }.min())
        page.socket.send(text: #"{"rewind":\#(target)}"#)
        let back = try #require(page.read { $0.rewinds == 1 })
        #expect(Int(back.step) == target && back.hash == page.hashes[target], "step \(back.step) hash \(back.hash), was \(page.hashes[target] ?? "")")
        #expect(back.paused && back.rewindSpan == 0...newest, "the newer steps stay reachable until the run goes on")
        // Another page sees the same world go back.
        let seen = try #require(other.read { $0.rewinds == 1 })
        #expect(Int(seen.step) == target && seen.hash == back.hash)
        // A step beyond what is kept is answered, and changes nothing.
        page.socket.send(text: #"{"rewind":\#(newest + 1000)}"#)
        let refusal = page.text(containing: #""type":"refused""#)
        #expect(refusal?.contains("cannot rewind: step \(newest + 1000) is outside the steps this run can go back to now, 0...\(newest)") == true,
                "\(refusal ?? "no answer")")
        // Branch here: a tilt, and on.
        page.socket.send(text: #"{"gravity":[400,-600]}"#)
        page.socket.send(text: #"{"command":"resume"}"#)
        let branched = try #require(page.read { $0.step >= Double(target + 120) })
        #expect(branched.rewindSpan?.upperBound == Int(branched.step), "the branch's newest step is its own")
        let end = try #require(page.pause())
        let download = try TestSocket.get(port: server.port, "/record")
        #expect(download.status == 200)
        let downloaded = "\(directory)/downloaded.rec"
        try Data(download.body).write(to: URL(fileURLWithPath: downloaded))
        let verify = try CLI.run(["replay", downloaded, "--verify"])
        #expect(verify.status == 0, "\(verify.stderr)")
        let hashed = try CLI.run(["hash", "Scenes/book.json", "--gravity", downloaded, "--steps", String(Int(end.step))])
        #expect(hashed.stdout == "\(Int(end.step)) \(end.hash)\n", "\(hashed.stdout) \(hashed.stderr)")
        let result = try #require(server.stop())
        let summary = try Self.summary(server)
        #expect(result.status == 130 && summary.number("rewinds") == 1 && summary.number("rewinds_refused") == 1
                    && summary.number("step") == end.step, "\(server.stdout)")
    }
}
