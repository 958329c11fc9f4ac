#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CLISupport
import FileIO

/// `cratedrop bench`: the benchmark and its plain C baseline live in a program of their own,
/// `cratedrop-bench`, built and installed beside `cratedrop`, so the shipped tool carries neither.
/// This subcommand runs it with the same arguments.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measures stepping against plain C in the same run, snapshot copies, drawing and writing.",
        discussion: "Runs cratedrop-bench (beside cratedrop) with these arguments: `cratedrop bench --help` shows them.",
        shouldDisplay: true
    )

    @Argument(parsing: .captureForPassthrough, help: "Arguments for cratedrop-bench.")
    var arguments: [String] = []

    func run() throws {
        let path = Self.besideThisProgram("cratedrop-bench")
        guard access(path, X_OK) == 0 else {
            printError("cratedrop: bench needs cratedrop-bench beside cratedrop (\(path)): `swift build` builds it, scripts/install installs it")
            throw ExitCode(69)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        printError("cratedrop: cannot run \(path): \(errnoText())")
        throw ExitCode(69)
    }

    /// `name` in the folder of the running executable (/proc/self/exe, links resolved).
    static func besideThisProgram(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return name }
        let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return folder + "/" + name
    }
}
