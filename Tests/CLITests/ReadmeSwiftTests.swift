import Foundation
import TestSupport
import Testing

/// The README's Swift, as a user copies it: every ```swift block (but the `Package.swift`
/// fragment), in order, type-checks as one program against the library this build made (issue
/// 49: a first program written from calls shown without `try` or optionals had 5 compile errors).
@Suite struct ReadmeSwiftTests {
    /// The README's Swift blocks that are program code (a manifest fragment starts `dependencies:`).
    static func programBlocks() throws -> [String] {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks.filter { !$0.drop { $0.isWhitespace }.hasPrefix("dependencies:") }
    }

    /// `swiftc -typecheck` of `source` as a program's main.swift, against the modules of the build
    /// that made the `cratedrop` under test (and the C modules' maps they were built with).
    static func typecheck(_ source: String) throws -> CLI.Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let main = folder.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: main)
        // .build/<triple>/debug: its Modules, its C targets' generated maps; the package's own
        // maps in Sources; the dependencies' in .build/checkouts.
        let build = CLI.executable.resolvingSymlinksInPath().deletingLastPathComponent()
        let checkouts = build.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts")
        let maps = Self.moduleMaps(Repository.root.appendingPathComponent("Sources"), ["*", "*/include"])
            + Self.moduleMaps(build, ["*"])
            + Self.moduleMaps(checkouts, ["*/Sources/*", "*/Sources/*/include"])
        return try CLI.tool("swiftc", ["-typecheck", "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path]
            + maps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [main.path])
    }

    /// The `module.modulemap` files in `folder`'s subfolders that `patterns` name, each a path of
    /// folder names where `*` is any one folder.
    static func moduleMaps(_ folder: URL, _ patterns: [String]) -> [String] {
        func folders(_ base: [URL], _ parts: ArraySlice<Substring>) -> [URL] {
            guard let part = parts.first else { return base }
            let next = base.flatMap { url -> [URL] in
                guard part == "*" else { return [url.appendingPathComponent(String(part))] }
                return ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted().map { url.appendingPathComponent($0) }
            }
            return folders(next, parts.dropFirst())
        }
        return patterns.flatMap { folders([folder], $0.split(separator: "/")[...]) }
            .map { $0.appendingPathComponent("module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test(.timeLimit(.minutes(3))) func theReadmesSwiftCompilesAsShown() throws {
        let blocks = try Self.programBlocks()
        // The book world built and driven, then inputs, a joint, contacts and queries on it.
        #expect(blocks.count >= 2 && blocks.contains { $0.contains("func makeBookWorld()") }, "\(blocks.count) blocks")
        let result = try Self.typecheck(blocks.joined(separator: "\n"))
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The check can fail: the same program with one `try` left out does not compile.
    @Test(.timeLimit(.minutes(3))) func aCallShownWithoutTryIsCaught() throws {
        let program = try Self.programBlocks().joined(separator: "\n")
        let withoutTry = program.replacingOccurrences(of: "try world.apply(", with: "world.apply(")
        #expect(withoutTry != program)
        let result = try Self.typecheck(withoutTry)
        #expect(result.status != 0 && result.stderr.contains("not marked with 'try'"), "\(result.status) \(result.stderr)")
    }
}
