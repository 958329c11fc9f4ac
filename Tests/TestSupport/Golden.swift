import Foundation

/// Golden values kept in text files beside the tests that use them.
///
/// A golden file holds `#` comment lines (how it was made, how to regenerate it) and `KEY VALUE`
/// lines. Run the tests with `RECORD_GOLDEN=1` to rewrite it from the current results: the test
/// then fails on purpose, so a recording can never pass as a green run.
public struct GoldenFile {
    public let path: String
    public let header: [String]
    public private(set) var values: [(key: String, value: String)]

    public static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" }

    public init(path: String) throws {
        self.path = path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var header: [String] = []
        var values: [(String, String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") {
                header.append(String(line))
            } else {
                let parts = line.split(separator: " ", maxSplits: 1)
                if parts.count == 2 { values.append((String(parts[0]), String(parts[1]))) }
            }
        }
        self.header = header
        self.values = values
    }

    public func value(_ key: String) -> String? { values.first { $0.key == key }?.value }

    /// Rewrites the file with the same header and `newValues`.
    public func record(_ newValues: [(key: String, value: String)]) throws {
        let lines = header + newValues.map { "\($0.key) \($0.value)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
