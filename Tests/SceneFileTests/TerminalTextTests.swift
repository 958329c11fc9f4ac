import SceneFile
import Testing

@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("book", "book"),
        ("a\u{1B}[2Jb", "a\\u001b[2Jb"),
        ("line\nnext\r\t", "line\\u000anext\\u000d\\u0009"),
        ("del\u{7F} csi\u{9B}1m", "del\\u007f csi\\u009b1m"),
        ("abc\u{202E}fed\u{2066}", "abc\\u202efed\\u2066"),
        ("crème brûlée — ✓ \\ \u{2028}", "crème brûlée — ✓ \\ \u{2028}"),
    ])
    func controlCharactersAreShownEscaped(text: String, shown: String) {
        #expect(TerminalText.escaped(text) == shown)
    }

    @Test func linesKeepTheirNewlinesAndEscapeTheRest() {
        #expect(TerminalText.lines("one\u{1B}[31m\ntwo\r") == "one\\u001b[31m\ntwo\\u000d")
    }
}
