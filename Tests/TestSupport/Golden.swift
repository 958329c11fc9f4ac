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

    /// Golden values that depend on the physics give one file per determinism class:
    /// `DIRECTORY/CLASS/NAME`. A class with no file yet fails with how to record one; recording
    /// starts it from the header of the same file in another class.
    public init(directory: String, determinismClass: String, name: String) throws {
        let path = Self.path(directory: directory, determinismClass: determinismClass, name: name)
        if FileManager.default.fileExists(atPath: path) {
            try self.init(path: path)
            return
        }
        guard Self.isRecording else { throw MissingGolden(path: path, determinismClass: determinismClass) }
        // The header comes from the same file of another class, else (a new scene) from a file of
        // the same kind in this class (`book-hashes.txt` for `ramp-hashes.txt`).
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()) ?? []
        let classDirectory = "\(directory)/\(determinismClass)"
        let kind = name.split(separator: "-").last.map(String.init) ?? name
        let sameKind = ((try? FileManager.default.contentsOfDirectory(atPath: classDirectory).sorted()) ?? [])
            .filter { $0.hasSuffix("-" + kind) }.map { "\(classDirectory)/\($0)" }
        let template = (siblings.map { "\(directory)/\($0)/\(name)" } + sameKind).first { FileManager.default.fileExists(atPath: $0) }
        self.init(path: path, header: try template.map { try GoldenFile(path: $0).header } ?? [], values: [])
    }

    private init(path: String, header: [String], values: [(key: String, value: String)]) {
        self.path = path
        self.header = header
        self.values = values
    }

    /// Where the golden `name` of `determinismClass` lives (file or image).
    public static func path(directory: String, determinismClass: String, name: String) -> String {
        "\(directory)/\(determinismClass)/\(name)"
    }

    /// No golden values recorded for the class this machine runs in.
    public struct MissingGolden: Error, CustomStringConvertible {
        public let path: String
        public let determinismClass: String
        public init(path: String, determinismClass: String) {
            self.path = path
            self.determinismClass = determinismClass
        }
        public var description: String {
            "no golden values for determinism class \(determinismClass) (see `cratedrop platform`): \(path) does not exist. "
                + "Record them with RECORD_GOLDEN=1 (the same file of another class says how), and say in the commit which machine and backend made them."
        }
    }

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
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
