import SceneFile

/// A scene file given where JSON Lines are read (a record to `replay`, an input stream to
/// `--gravity`): people pass `Scenes/book.json` there, whose first line, `{`, is no JSON object,
/// and "invalid JSON at column 2" of a valid file tells them nothing.
package enum SceneFileMistake {
    /// Whether line 1 of a JSON Lines file is a scene instead: the opening brace of a JSON
    /// document written over several lines, or one line holding an object with a scene's `world`.
    package static func isScene(firstLine bytes: [UInt8], members: [(key: String, value: JSONValue)]?) -> Bool {
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        let trimmed = bytes.drop { whitespace.contains($0) }.reversed().drop { whitespace.contains($0) }
        if Array(trimmed) == [UInt8(ascii: "{")] { return true }
        return members?.contains { $0.key == "world" } ?? false
    }
}
