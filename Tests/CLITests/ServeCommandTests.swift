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
        #expect(result.stderr.contains("cannot serve on 127.0.0.1:\(port)") && result.stderr.contains("Address already in use"))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["--port", "70000"], Int32(64), "--port must be in 0...65535"),
        (["--fps", "0"], 64, "--fps must be in 1...240"),
        (["--record", "/nonexistent/x.rec", "--port", "0"], 73, "/nonexistent/x.rec: cannot create the record"),
    ] as [([String], Int32, String)])
    func badArgumentsEndItBeforeAnyStep(arguments: [String], status: Int32, message: String) throws {
        let result = try CLI.run(["serve", "Scenes/book.json"] + arguments)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
