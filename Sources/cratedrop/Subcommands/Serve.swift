#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CLISupport
import FileIO
import Foundation
import LiveProtocol
import SceneFile
import Serve
import Session
import Synchronization

struct Serve: ParsableCommand {
    /// Where a browser reaches the server: the address itself, or for a wildcard (0.0.0.0, ::),
    /// which no browser can open, this machine's name and its first network address (IPv4, not
    /// loopback), e.g. `http://lab-3:8080/ (or http://192.168.1.20:8080/)`.
    static func urls(host: String, port: Int) -> String {
        func url(_ host: String) -> String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/" }
        let names = reachableNames(host: host)
        return url(names[0]) + names.dropFirst().map { " (or \(url($0)))" }.joined()
    }

    /// The names a browser reaches the server by: the address itself, or for a wildcard this
    /// machine's name and first network address (the server answers requests naming them).
    static func reachableNames(host: String) -> [String] {
        guard ["0.0.0.0", "::", "[::]"].contains(host) else { return [host] }
        var names: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0 {
            let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !name.isEmpty, name != "localhost" { names.append(name) }
        }
        if let address = firstNetworkAddress() { names.append(address) }
        if names.isEmpty { names = ["127.0.0.1"] }
        return names
    }

    /// The first IPv4 address of an interface that is up and not loopback.
    private static func firstNetworkAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = Int32(current.pointee.ifa_flags)
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var inet = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            guard inet_ntop(AF_INET, &inet, &text, socklen_t(text.count)) != nil else { continue }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }

    static let configuration = CommandConfiguration(
        abstract: "Runs a scene live in real time and shows it in a browser, tilted by arrow keys or a phone.",
        discussion: """
            Serves a page at http://HOST:PORT/ (printed on stderr). Where the WebAssembly build of CrateDrop's core is (Backends/wasm/build makes it; --wasm DIR), the page runs the world itself at the display's rate, as `cratedrop page` writes it, and the server only serves files (a browser without WebAssembly falls back to the server's world). With --streamed or --record, or without that build, the server runs the world and the page draws the frames it streams and sends tilts back over a WebSocket; tilts apply at step boundaries and go into the session's record (download it from the page, or --record FILE), which replays offline to the same state hash. On CrateDrop's Chipmunk (the default) streamed pages can also rewind the last 30 s and branch from there; the record then follows the branch. Ctrl-C stops the server and prints a JSON summary on stdout. Binds 127.0.0.1 unless --host says otherwise.

            Examples:
              cratedrop serve Scenes/book.json
              cratedrop serve Scenes/pile-100.json --streamed --port 9000 --record out/live.rec
            """
    )

    @Argument(help: "Scene file (JSON).", completion: .file())
    var scene: String

    @Option(help: ArgumentHelp("Address to listen on; 0.0.0.0 lets anyone on the network watch and tilt.", valueName: "HOST"))
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: ArgumentHelp("Port (0: any free port).", valueName: "PORT"))
    var port = 8080

    @Option(parsing: .unconditional, help: ArgumentHelp("Frames per second sent to pages.", valueName: "F"))
    var fps = 60

    @Option(help: ArgumentHelp("Keep the session's record in FILE (default: a private temporary file, removed at the end).", valueName: "FILE"), completion: .file())
    var record: String?

    @Option(name: .customLong("allow-host"),
            help: ArgumentHelp("Also answer requests and pages that name NAME as the host (a phone on the network, a proxy); repeatable.",
                               valueName: "NAME"))
    var allowHosts: [String] = []

    @Flag(help: "Run the world on the server and stream its frames to pages (the default with --record, or when there is no WebAssembly build of the core).")
    var streamed = false

    @Option(help: ArgumentHelp("Folder holding cratedrop.wasm and cratedrop.js for pages that run the world themselves (default: $CRATEDROP_WASM_DIR, else .build-wasm/out).",
                               valueName: "DIR"))
    var wasm: String?

    func validate() throws {
        if streamed || record != nil, wasm != nil {
            throw ValidationError("--wasm is for pages that run the world themselves; \(streamed ? "--streamed" : "--record") runs it on the server")
        }
        if !(0...65_535).contains(port) { throw ValidationError("--port must be in 0...65535, got \(port)") }
        if !(1...240).contains(fps) { throw ValidationError("--fps must be in 1...240, got \(fps)") }
        for name in allowHosts {
            if name.isEmpty || name.contains(where: { $0 == "/" || $0 == " " || $0 == "," }) {
                throw ValidationError("--allow-host takes a host name or address, such as 192.168.1.20 or my-laptop.local, got '\(name)'")
            }
            if name.contains(where: { $0 == "*" || $0 == "?" }) {
                throw ValidationError("--allow-host takes one host name or address, not a pattern, got '\(name)'")
            }
            // One colon is NAME:PORT (an IPv6 address has two or more): a Host header's port is
            // compared apart from its name, so such a name would never match.
            if name.filter({ $0 == ":" }).count == 1, let colon = name.firstIndex(of: ":") {
                throw ValidationError("--allow-host takes a host without its port (any port is allowed): give '\(name[..<colon])', got '\(name)'")
            }
        }
        try OutputChecks.check(inputs: [("the scene file", scene)], outputs: record.map { [("--record", $0)] } ?? [])
    }

    func run() throws {
        StopSignals.install()
        let (checked, sceneText) = try loadCheckedSceneOrExit(self.scene)
        let scene = checked.scene
        // The default record lives in a private directory, removed on every way out of this
        // function (a later start removes those of killed runs).
        var privateRecord: PrivateRecord?
        if record == nil {
            do {
                privateRecord = try PrivateRecord()
            } catch {
                printError("cratedrop: \(error.path): cannot create the record: \(error.reason)")
                throw ExitCodes.cannotCreate
            }
        }
        defer { privateRecord?.remove() }
        let recordPath = record ?? privateRecord!.path
        // One world: the scene message is drawn from it, rewinds are checked on it, and the first run steps it.
        let world = try makeWorld(checked)
        let live = LiveRun(checked: checked, sceneText: sceneText, sceneFile: self.scene, recordPath: recordPath, world: world)
        let sceneMessage = LiveMessages.scene(scene, world: world, rewind: live.rewind)
        // On a wildcard address the URLs printed name this machine: requests naming it are answered.
        let machineNames = ["0.0.0.0", "::", "[::]"].contains(host) ? Self.reachableNames(host: host) : []
        // A record is of the server's run: --record streams.
        let inPage = streamed || record != nil ? nil : try inPageHTML(sceneText: sceneText)
        let server = LiveServer(run: live, sceneMessage: sceneMessage, allowedHosts: allowHosts + machineNames, inPage: inPage)
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            printError("cratedrop: warning: listening on \(host): anyone who can reach this machine can watch and tilt the simulation")
        }
        let failure = Mutex<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let (host, port) = (self.host, self.port)
        Task {
            do {
                try await server.serve(host: host, port: port) { bound in
                    let mode = inPage == nil ? "" : "; the world runs in the page"
                    printError("cratedrop: serving \(scene.name) at \(Serve.urls(host: host, port: bound)) (Ctrl-C stops)\(mode)")
                }
            } catch let error as ListenError {
                failure.withLock { $0 = "cannot serve: \(error)" }
            } catch {
                failure.withLock { $0 = "cannot serve on \(host):\(port): \(error)" }
            }
            finished.signal()
        }
        // Stopping never waits long on connections: stop() closes every one, and whatever NIO
        // still has to finish gets half a second before the process ends anyway.
        func stopServer() {
            server.stop()
            _ = finished.wait(timeout: .now() + 0.5)
            server.shutdown(within: 0.3)
        }
        let outcome: RunOutcome
        do {
            outcome = try live.run(fps: fps, firstWorld: world, shouldStop: { StopSignals.received != nil || failure.withLock { $0 } != nil },
                                   onWarning: { printError("cratedrop: warning: \($0)") }) { frame in
                server.broadcast(frame)
            }
        } catch {
            if case .recordNotCreated = error {
                printError("cratedrop: \(recordPath): cannot create the record: \(error)")
            } else {
                printError("cratedrop: \(error)")
            }
            stopServer()
            throw RunExecution.exitCode(for: error)
        }
        stopServer()
        if let message = failure.withLock({ $0 }) {
            printError("cratedrop: \(message)")
            throw ExitCodes.unavailable
        }
        let counters = server.counters.withLock { $0 }
        let summary = ServeReport(scene: scene.name, outcome: outcome, counters: counters, record: record).json()
        try StandardOutput.print(summary)
        try RunExecution.finish(outcome)
    }

    /// The page that runs the world itself (`InPagePage`), or nil, with a word on stderr, when
    /// there is no WebAssembly build to put in it: pages are then streamed.
    private func inPageHTML(sceneText: [UInt8]) throws -> [UInt8]? {
        let engine: InPagePage.Engine
        do {
            engine = try InPagePage.engine(in: wasm)
        } catch {
            if wasm != nil {
                printError("cratedrop: \(error): make it with Backends/wasm/build")
                throw ExitCodes.unavailable
            }
            printError("cratedrop: note: no WebAssembly build of CrateDrop's core at \(error.folder) (Backends/wasm/build makes it): the server runs the world and streams it")
            return nil
        }
        let name = String(scene.split(separator: "/").last ?? Substring(scene))
        let pictures = try pagePictures(ofScene: scene, text: sceneText, name: name)
        do {
            return Array(try InPagePage.html(scene: sceneText, name: name, inputs: nil, engine: engine, pictures: pictures, served: true).utf8)
        } catch {
            printError("cratedrop: \(error)")
            throw ExitCodes.unavailable
        }
    }
}
