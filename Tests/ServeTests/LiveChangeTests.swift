import Foundation
import LiveProtocol
import Physics
import SceneFile
import SceneModel
@testable import Serve
import Session
import Synchronization
import TestSupport
import Testing

/// Pages change the world (docs/serve.md, "Changing the world"): a click's drop and a key's
/// removal reach the run as page commands, are applied at a step boundary and recorded as the
/// `add` and `remove` input lines, so the record verifies; every page is told of the change in a
/// parts message before the first frame that shows it.
@Suite(.serialized) struct LiveChangeTests {
    /// What a body run on a thread of its own found: Swift Testing knows the running test only
    /// on the test's own task, so checks made on another thread are kept here and reported there.
    final class Checks: @unchecked Sendable {
        struct Failed: Error {}
        private var found: [(passed: Bool, what: String, location: SourceLocation)] = []

        func expect(_ passed: Bool, _ what: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) {
            found.append((passed, passed ? "" : what(), sourceLocation))
        }

        func require(_ passed: Bool, _ what: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
            expect(passed, what(), sourceLocation: sourceLocation)
            if !passed { throw Failed() }
        }

        func require<T>(_ value: T?, _ what: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
            try require(value != nil, what(), sourceLocation: sourceLocation)
            return value!
        }

        /// Records every check with the running test.
        func report() {
            for check in found { #expect(check.passed, Comment(rawValue: check.what), sourceLocation: check.location) }
        }
    }

    /// Runs `body` on a thread of its own (its socket reads block, and the server it talks to
    /// runs on Swift's cooperative threads, which a blocked test would hold), then reports its checks.
    static func onThread(_ body: @escaping @Sendable (Checks) throws -> Void) async throws {
        let checks = Checks()
        let failure = await withCheckedContinuation { (done: CheckedContinuation<(any Error)?, Never>) in
            Thread {
                do {
                    try body(checks)
                    done.resume(returning: nil)
                } catch {
                    done.resume(returning: error)
                }
            }.start()
        }
        checks.report()
        if let failure, !(failure is Checks.Failed) { throw failure }
    }

    /// A page over a real socket: the texts it got, and the bodies of the newest frame.
    final class Page {
        let socket: TestWebSocket
        var texts: [String] = []
        /// Each frame's body ids, in the order the frames came; a text's place among them is
        /// `textsBeforeFrame`.
        var frames: [[UInt32]] = []
        /// How many frames had come when each text came.
        var framesBeforeText: [Int] = []
        var lastHeader: LiveFrameHeader?

        init(port: Int) throws {
            socket = try TestWebSocket(port: port)
        }

        /// Reads (at most `seconds`: room for a 2-core machine running other suites) until `until` holds.
        @discardableResult
        func read(for seconds: Double = 60, until: (Page) -> Bool) -> Bool {
            let start = Date()
            while Date().timeIntervalSince(start) < seconds {
                if until(self) { return true }
                guard let frame = socket.receive() else { return false }
                if frame.opcode == 1 {
                    texts.append(String(decoding: frame.payload, as: UTF8.self))
                    framesBeforeText.append(frames.count)
                } else if frame.opcode == 2, frame.payload.count >= 76 {
                    let bytes = frame.payload
                    func u32(_ at: Int) -> UInt32 { bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
                    frames.append((0..<Int(u32(4))).map { u32(76 + 16 * $0) })
                    lastHeader = LiveFrameHeader(bytes)
                }
            }
            return until(self)
        }

        /// The parts messages so far, parsed.
        var parts: [JSONFields] { texts.filter { $0.hasPrefix(#"{"type":"parts""#) }.compactMap { try? JSONFields($0) } }
    }

    /// A live run of book served in this process, as `serve` wires it: the run on a thread of its
    /// own, frames to the server, the server on a free port.
    final class Served: @unchecked Sendable {
        let live: LiveRun
        let server: LiveServer
        let record: String
        let port = Atomic<Int>(0)
        let stopping = Atomic<Bool>(false)
        let runDone = DispatchSemaphore(value: 0)
        let serveDone = DispatchSemaphore(value: 0)
        var outcome: RunOutcome?
        /// The servers' tasks' thread (one for every test's server: they take turns).
        static let serverThread = DedicatedThreadExecutor(name: "LiveChangeTests server")

        init(scene name: String = "book") throws {
            let scene = try Repository.scene(name)
            let checked = try CheckedScene(scene)
            let world = try World(checked: checked)
            let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/\(name).json"))))
            record = LiveRunTests.temporary("change.rec")
            live = LiveRun(checked: checked, sceneText: text, sceneFile: "Scenes/\(name).json", recordPath: record, world: world)
            server = LiveServer(run: live, sceneMessage: LiveMessages.scene(scene, world: world, rewind: live.rewind))
            // On a thread of its own: the cooperative pool, which a busy run of the suite holds for
            // minutes, once kept the server from binding and sending frames for over a minute.
            Task(executorPreference: Self.serverThread) { [self] in
                try? await server.serve(host: "127.0.0.1", port: 0) { self.port.store($0, ordering: .relaxed) }
                serveDone.signal()
            }
            Thread { [self] in
                outcome = try? live.run(fps: 120, shouldStop: { self.stopping.load(ordering: .relaxed) }) {
                    self.server.broadcast($0)
                }
                runDone.signal()
            }.start()
            // A busy machine can still make the bind wait a while.
            let start = Date()
            while port.load(ordering: .relaxed) == 0, Date().timeIntervalSince(start) < 120 { usleep(10_000) }
        }

        /// Stops the run and the server (once; later calls do nothing).
        func stop() {
            guard !stopping.exchange(true, ordering: .relaxed) else { return }
            _ = runDone.wait(timeout: .now() + 60)
            server.stop()
            // Its threads go only once `serve` has returned: a task that has not yet bound would
            // bind on a group already shut down, which NIO ends the process for. (A stopped server
            // that binds late closes at once and returns.)
            guard serveDone.wait(timeout: .now() + 120) == .success else { return }
            server.shutdown(within: 1)
        }
    }

    static func numbers(_ fields: JSONFields, _ key: String) -> [Double] {
        guard case let .array(items)? = fields.members.first(where: { $0.key == key })?.value.kind else { return [] }
        return items.compactMap { if case let .number(value, _) = $0.kind { value } else { nil } }
    }

    /// The ids of a parts message's added bodies.
    static func added(_ fields: JSONFields) -> [Double] {
        guard case let .array(items)? = fields.members.first(where: { $0.key == "add" })?.value.kind else { return [] }
        return items.compactMap { item in
            guard case let .array(entry) = item.kind, case let .number(id, _)? = entry.first?.kind else { return nil }
            return id
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func aPagesDropAndRemovalAreRecordedAndPagesAreToldOfThem() async throws {
        try await Self.onThread(Self.dropAndRemove)
    }

    static func dropAndRemove(_ checks: Checks) throws {
        let served = try Served()
        defer {
            served.stop()
            unlink(served.record)
        }
        let port = served.port.load(ordering: .relaxed)
        try checks.require(port > 0)
        let page = try Page(port: port)
        checks.expect(page.read { $0.frames.count >= 5 })
        checks.expect(page.texts.first?.hasPrefix(#"{"type":"scene""#) == true)

        // A click on empty space, above the crates: the run makes body 6 (book has 5), of book's
        // typical crate (32 px, mass 100), and every page hears of it before a frame shows it.
        page.socket.send(text: #"{"drop":{"at":[250,150]}}"#)
        checks.expect(page.read { $0.frames.last?.contains(6) == true }, "body 6 appears in the frames")
        let told = try checks.require(page.parts.first, "a parts message came")
        checks.expect(added(told) == [6] && numbers(told, "remove").isEmpty, "\(page.texts.last ?? "")")
        checks.expect(page.texts.contains { $0.contains(##""add":[[6,32.0,32.0,"#b5834a","box"]]"##) }, "\(page.texts)")
        let toldAt = try checks.require(page.framesBeforeText.last)
        checks.expect(page.frames[..<toldAt].allSatisfy { !$0.contains(6) }, "no frame showed body 6 before the page was told of it")

        // A dropped crate is pushed as a scene's crate is (the run knows its mass).
        page.socket.send(text: #"{"push":{"body":6,"velocity":[0,300],"at":[250,150]}}"#)

        // A page that connects now is told what the scene message does not say before its first frame.
        let late = try Page(port: port)
        checks.expect(late.read { $0.frames.count >= 1 })
        checks.expect(late.texts.count == 2 && late.parts.first.map(Self.added) == [6] && late.framesBeforeText.last == 0, "\(late.texts)")

        // Delete over it: body 6 leaves; a body the world does not hold is refused, the socket open.
        page.socket.send(text: #"{"remove":{"body":6}}"#)
        page.socket.send(text: #"{"remove":{"body":99}}"#)
        checks.expect(page.read { $0.frames.count > 10 && $0.frames.last?.contains(6) == false })
        checks.expect(page.read { $0.parts.count >= 2 })
        let removal = try checks.require(page.parts.dropFirst().first)
        checks.expect(numbers(removal, "remove") == [6] && added(removal).isEmpty, "\(page.texts)")
        checks.expect(page.read { $0.texts.contains { $0.contains("cannot remove: body 99 is not in the scene") } }, "\(page.texts)")
        // A drop outside the world is refused, its socket open.
        page.socket.send(text: #"{"drop":{"at":[-5,150]}}"#)
        checks.expect(page.read { $0.texts.contains { $0.contains("cannot drop: (-5.0, 150.0) is outside the world") } }, "\(page.texts)")
        checks.expect(page.read { $0.frames.count > 40 })

        served.stop()
        let lines = try String(contentsOfFile: served.record, encoding: .utf8).split(separator: "\n")
        let add = lines.filter { $0.contains(#""add":{"#) }
        let remove = lines.filter { $0.contains(#""body":6,"remove":true"#) }
        checks.expect(add.count == 1 && add.first?.contains(#""center":[250.0,150.0],"shape":"box","size":[32.0,32.0],"mass":100.0"#) == true, "\(add)")
        checks.expect(lines.contains { $0.contains(#""body":6,"impulse":[0.0,30000.0]"#) }, "\(lines.filter { $0.contains("impulse") })")
        checks.expect(remove.count == 1 && lines.filter { $0.contains(#""remove""#) }.count == 1, "\(lines.filter { $0.contains("remove") })")
        let replay = try CLI.run(["replay", served.record, "--verify"])
        checks.expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "\(replay.stdout) \(replay.stderr)")
    }

    /// After a restart the world is the scene's again: pages are told the dropped crate is gone.
    @Test(.timeLimit(.minutes(3)))
    func aRestartTellsPagesTheDroppedCratesAreGone() async throws {
        try await Self.onThread(Self.dropAndRestart)
    }

    static func dropAndRestart(_ checks: Checks) throws {
        let served = try Served()
        defer {
            served.stop()
            unlink(served.record)
        }
        let page = try Page(port: served.port.load(ordering: .relaxed))
        checks.expect(page.read { $0.frames.count >= 5 })
        page.socket.send(text: #"{"drop":{"at":[250,150]}}"#)
        checks.expect(page.read { $0.frames.last?.contains(6) == true })
        page.socket.send(text: #"{"command":"restart"}"#)
        checks.expect(page.read { $0.parts.count >= 2 })
        let back = try checks.require(page.parts.last)
        checks.expect(numbers(back, "remove") == [6] && added(back).isEmpty && back.number("version") == 0, "\(page.texts)")
        checks.expect(page.read { $0.frames.last?.count == 5 })
        served.stop()
    }

    /// A spawned crate is pushed with its own mass: a page's push is a change of velocity, which
    /// the server turns into the impulse that gives it (the server took every body beyond the
    /// scene's for a page's drop, of the drop's mass).
    @Test(.timeLimit(.minutes(3)))
    func aSpawnedCrateIsPushedWithItsOwnMass() async throws {
        try await Self.onThread(Self.pushASpawnedCrate)
    }

    static func pushASpawnedCrate(_ checks: Checks) throws {
        let served = try Served(scene: "crate-drop")
        defer {
            served.stop()
            unlink(served.record)
        }
        let page = try Page(port: served.port.load(ordering: .relaxed))
        // Body 2 is the second spawner's first crate (a circle from 0.25 s on).
        checks.expect(page.read { $0.frames.last?.contains(2) == true }, "\(page.texts)")
        page.socket.send(text: #"{"push":{"body":2,"velocity":[0,300],"at":[150,150]}}"#)
        checks.expect(page.read { $0.frames.count > 60 })
        served.stop()
        let mass = try Repository.scene("crate-drop").spawners[1].crate(0).mass
        let pushes = try String(contentsOfFile: served.record, encoding: .utf8).split(separator: "\n").filter { $0.contains(#""impulse""#) }
        let impulse = pushes.first.flatMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.flatMap { $0["impulse"] as? [Double] }
        checks.expect(pushes.count == 1 && pushes[0].contains(#""body":2"#) && impulse?[1] == 300 * mass && mass != 60, "\(pushes) \(mass)")
    }

    /// A rewind to before a drop takes the crate away on every page; the branch's own drop gets
    /// the same id again (ids after the rewound step were never made in this branch), and pages
    /// are told of it. Needs saved states (the portable backend).
    @Test(.needsSavedStates(World.canSaveState), .timeLimit(.minutes(3)))
    func aRewindAcrossADropTellsPagesAndTheBranchsDropIsToldAgain() async throws {
        try await Self.onThread(Self.dropRewindAndDropAgain)
    }

    static func dropRewindAndDropAgain(_ checks: Checks) throws {
        let served = try Served()
        defer {
            served.stop()
            unlink(served.record)
        }
        let page = try Page(port: served.port.load(ordering: .relaxed))
        var step = 0.0
        // Past the first kept state (every 60 steps), then a drop.
        checks.expect(page.read { _ in
            guard let header = page.lastHeader else { return false }
            step = header.step
            return step >= 130
        })
        page.socket.send(text: #"{"drop":{"at":[250,150]}}"#)
        checks.expect(page.read { $0.frames.last?.contains(6) == true })
        page.socket.send(text: #"{"command":"pause"}"#)
        page.socket.send(text: "{\"rewind\":\(Int(step) - 10)}")
        checks.expect(page.read { $0.parts.count >= 2 && $0.frames.last?.contains(6) == false }, "\(page.texts)")
        let gone = try checks.require(page.parts.last)
        checks.expect(numbers(gone, "remove") == [6] && added(gone).isEmpty && gone.number("version") == 0, "\(page.texts)")
        // The branch: a drop elsewhere, body 6 again, in the page's tables again.
        page.socket.send(text: #"{"command":"resume"}"#)
        page.socket.send(text: #"{"drop":{"at":[200,200]}}"#)
        checks.expect(page.read { $0.parts.count >= 3 && $0.frames.last?.contains(6) == true }, "\(page.texts)")
        checks.expect(page.parts.last.map(added) == [6])
        checks.expect(page.read { $0.frames.count > 60 })
        served.stop()
        let replay = try CLI.run(["replay", served.record, "--verify"])
        checks.expect(replay.status == 0 && replay.stdout.contains(#""verified":true"#), "\(replay.stdout) \(replay.stderr)")
        let adds = try String(contentsOfFile: served.record, encoding: .utf8).split(separator: "\n").filter { $0.contains(#""add":"#) }
        checks.expect(adds.count == 1 && adds[0].contains(#""center":[200.0,200.0]"#), "the branch's record holds its own drop only: \(adds)")
    }

    /// What a parts message holds: only what changed (a body made, a body gone, the walls or
    /// joints whole when they differ), nothing when nothing did, and a long list of bodies made
    /// in messages of at most `bodiesPerPartsMessage`.
    @Test func aPartsMessageSaysOnlyWhatChangedAndSplitsALongList() throws {
        let scene = try Repository.scene("book")
        let world = try World(scene: scene)
        let base = LiveParts(world: world, scene: scene)
        #expect(LiveMessages.parts(from: base, to: base, scene: scene).isEmpty)
        #expect(LiveMessages.parts(from: base, to: LiveParts(world: world, scene: scene), scene: scene).isEmpty)

        let red = RGB(0xC8, 0x10, 0x2E)
        var bodies = Array(base.bodies.dropFirst())
        bodies.append(.init(id: BodyID(6), shape: .box(size: Vec2(32, 32)), color: red))
        bodies.append(.init(id: BodyID(7), shape: .polygon(vertices: [Vec2(0, 0), Vec2(10, 0), Vec2(0, 10)], radius: 1), color: nil))
        let changed = LiveParts(version: 2, bodies: bodies, walls: base.walls, joints: base.joints)
        #expect(LiveMessages.parts(from: base, to: changed, scene: scene) == [
            ##"{"type":"parts","version":2,"remove":[1],"add":[[6,32.0,32.0,"#c8102e","box"],"##
                + ##"[7,22.0,22.0,"#b5834a","polygon",[0.0,0.0,10.0,0.0,0.0,10.0],1.0]]}"##,
        ])
        // Back to the scene's (a restart): body 1 again, 6 and 7 gone.
        #expect(LiveMessages.parts(from: changed, to: base, scene: scene) == [
            ##"{"type":"parts","version":0,"remove":[6,7],"add":[[1,32.0,32.0,"#b5834a","box"]]}"##,
        ])
        // An id made again after a rewind, in another colour, replaces the page's.
        var again = bodies
        again[again.count - 2].color = nil
        #expect(LiveMessages.parts(from: changed, to: LiveParts(version: 2, bodies: again, walls: base.walls, joints: []), scene: scene) == [
            ##"{"type":"parts","version":2,"remove":[],"add":[[6,32.0,32.0,"#b5834a","box"]]}"##,
        ])

        // A wall added: the walls whole, as the scene message gives them.
        let walled = LiveParts(version: 1, bodies: base.bodies, walls: base.walls + [WallState(from: Vec2(0, 100), to: Vec2(50, 100), radius: 2)],
                               joints: base.joints)
        let wallMessage = try #require(LiveMessages.parts(from: base, to: walled, scene: scene).first)
        #expect(wallMessage == ##"{"type":"parts","version":1,"remove":[],"add":[],"walls":["##
            + ##"{"points":[0.0,0.0,300.0,0.0],"radius":1.0,"color":"#3c3c46"},{"points":[300.0,0.0,300.0,300.0],"radius":1.0,"color":"#3c3c46"},"##
            + ##"{"points":[300.0,300.0,0.0,300.0],"radius":1.0,"color":"#3c3c46"},{"points":[0.0,300.0,0.0,0.0],"radius":1.0,"color":"#3c3c46"},"##
            + ##"{"points":[0.0,100.0,50.0,100.0],"radius":2.0,"color":"#3c3c46"}]}"##, "\(wallMessage)")

        // 600 bodies made: three messages, in id order.
        let many = (0..<600).map { LiveParts.Body(id: BodyID(UInt64(6 + $0)), shape: .box(size: Vec2(4, 4)), color: nil) }
        let messages = LiveMessages.parts(from: base, to: LiveParts(version: 600, bodies: base.bodies + many, walls: base.walls, joints: []),
                                          scene: scene)
        let counts = try messages.map { Self.added(try JSONFields($0)) }
        #expect(counts.map(\.count) == [256, 256, 88] && counts.joined().map { Int($0) } == Array(6..<606))
    }

    /// What a page's drop is made of: book's typical crate; a pile's typical crate, in its palette
    /// dealt out in turn; a 30 px box where the scene has no dynamic body.
    @Test func aDropIsTheScenesTypicalCrate() throws {
        let book = DropTemplate(scene: try Repository.scene("book"))
        #expect(book.side == 32 && book.mass == 100 && book.friction == 0.5 && book.elasticity == 0.8 && book.colors.isEmpty)
        let colors = DropTemplate(scene: try Repository.scene("pile-colors"))
        #expect(colors.side > 10 && colors.side < 20 && abs(colors.mass / (colors.side * colors.side) - 0.01) < 1e-9)
        #expect(colors.spec(at: Vec2(1.234, 5.678), index: 6).color == RGB(0x6A, 0xCC, 0x65))
        #expect(colors.spec(at: Vec2(1.234, 5.678), index: 6).center == Vec2(1.23, 5.68))
        let empty = DropTemplate(scene: Scene(name: "empty", worldSize: Vec2(400, 400), gravity: Vec2(0, -1000)))
        #expect(empty.side == 30 && empty.mass == 9)
    }

    /// Page values are outside input: a drop outside the world, or faster than pages may change
    /// the world, is refused with the reason; nothing is posted.
    @Test func dropsOutsideTheWorldOrTooFastAreRefused() throws {
        let live = try LiveRunTests.live(record: LiveRunTests.temporary("drops.rec"))
        #expect(live.post(.drop(at: Vec2(301, 10))) == "cannot drop: (301.0, 10.0) is outside the world, 0...300.0 × 0...300.0")
        #expect(live.post(.drop(at: Vec2(10, -0.5))) == "cannot drop: (10.0, -0.5) is outside the world, 0...300.0 × 0...300.0")
        // A burst of 10 passes (one more if the machine stalled 100 ms meanwhile), then the rate refuses.
        var accepted = 0
        var refusal: String?
        while refusal == nil, accepted < 15 {
            refusal = live.post(.drop(at: Vec2(20 + Double(accepted) * 18, 150)))
            if refusal == nil { accepted += 1 }
        }
        #expect((10...11).contains(accepted) && refusal == "cannot drop: pages may change the world at most 10 times a second", "\(accepted) \(refusal ?? "")")
        #expect(live.post(.remove(body: BodyID(2))) == "cannot remove: pages may change the world at most 10 times a second")
        #expect(live.post(.remove(body: BodyID(9))) == "cannot remove: body 9 is not in the scene (its bodies are 1...5)")
    }
}
