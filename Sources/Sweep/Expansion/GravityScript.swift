import SceneFile
import SceneModel
import Script

/// Gravity scripts in a sweep: JSON Lines files, or lines written inline in the spec.
enum GravityScript {
    /// Inline gravity lines as a JSON Lines file's text.
    static func text(_ lines: [JSONValue]) -> [UInt8] {
        Array(lines.map { JSONWriter.compact($0) + "\n" }.joined().utf8)
    }

    /// Every problem the stream reader would stop at, each `SOURCE:LINE: reason`.
    static func problems(_ bytes: [UInt8], source: String, scene: Scene) -> [String] {
        var parser = GravityLineParser(source: source, stepRate: scene.stepRate, gravityMagnitude: scene.gravity.length, axes: .portrait)
        var splitter = LineSplitter()
        var problems: [String] = []
        for piece in splitter.feed(bytes) + splitter.finish() {
            switch piece {
            case let .line(number, line):
                if case let .failure(error) = parser.parse(line, line: number) { problems.append(error.description) }
            case let .tooLong(number):
                problems.append("\(source):\(number): line longer than \(LineSplitter.defaultMaxLength) bytes")
            }
        }
        return problems
    }
}
