import Foundation
import TestSupport
import Testing

/// `cratedrop serve`'s failures before it serves (the page itself: Tests/Browser).
@Suite struct ServeCommandTests {
    @Test func aPortInUseIsExit69() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(listener, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try CLI.run(["serve", "Scenes/book.json", "--port", String(port)])
        #expect(result.status == 69)
        // In words that say what to do, not NIO's system call and errno.
        #expect(result.stderr.contains("cannot serve: port \(port) on 127.0.0.1 is in use by another program: choose another with --port"))
        #expect(!result.stderr.contains("errno") && !result.stderr.contains("bind("))
        #expect(result.stdout.isEmpty)
    }

    @Test func anAddressNotOfThisMachineIsExit69InWords() throws {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of a test machine.
        let result = try CLI.run(["serve", "Scenes/book.json", "--host", "192.0.2.1", "--port", "0"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot serve: 192.0.2.1 is not an address of this machine"))
        #expect(result.stdout.isEmpty)
    }

    /// `--host 0.0.0.0` binds every address, which no browser opens: the URL printed names this
    /// machine (its name, then its first network address), and the page loads from each.
    @Test(.timeLimit(.minutes(3)))
    func aWildcardHostPrintsAUsableURL() throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["serve", "Scenes/book.json", "--host", "0.0.0.0", "--port", "0"]
        process.currentDirectoryURL = Repository.root
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
        }
        var text = ""
        while !text.contains("(Ctrl-C stops)") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let line = try #require(text.split(separator: "\n").first { $0.contains("serving book at ") })
        #expect(!line.contains("0.0.0.0"), "\(line)")
        let urls = line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "()")) }.filter { $0.hasPrefix("http://") }
        #expect(!urls.isEmpty, "\(line)")
        for url in urls {
            let fetched = try CLI.tool("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).status)", url])
            #expect(fetched.stdout == "200\n", "\(url): \(fetched.stderr)")
        }
    }

    @Test(arguments: [
        (["--port", "70000"], Int32(64), "--port must be in 0...65535"),
        (["--fps", "0"], 64, "--fps must be in 1...240"),
        (["--record", "/nonexistent/x.rec", "--port", "0"], 73, "/nonexistent/x.rec: cannot create the record"),
        // A name with a port never matched a Host header (audit round 4, finding 14); a wildcard
        // was taken literally.
        (["--allow-host", "phone.local:8080"], 64, "--allow-host takes a host without its port (any port is allowed): give 'phone.local', got 'phone.local:8080'"),
        (["--allow-host", "*"], 64, "--allow-host takes one host name or address, not a pattern, got '*'"),
        // The page that runs the world itself: its engine named but missing, or named for a streamed run.
        (["--wasm", "/nonexistent/wasm", "--port", "0"], 69, "/nonexistent/wasm: no WebAssembly build of CrateDrop's core there"),
        (["--streamed", "--wasm", "/nonexistent/wasm"], 64, "--wasm is for pages that run the world themselves; --streamed runs it on the server"),
        (["--record", "/tmp/x.rec", "--wasm", "/nonexistent/wasm"], 64, "--wasm is for pages that run the world themselves; --record runs it on the server"),
    ] as [([String], Int32, String)])
    func badArgumentsEndItBeforeAnyStep(arguments: [String], status: Int32, message: String) throws {
        let result = try CLI.run(["serve", "Scenes/book.json"] + arguments)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
