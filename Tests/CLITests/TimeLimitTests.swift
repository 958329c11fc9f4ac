import Foundation
import TestSupport
import Testing

/// Every test's time limit holds on a busy 2-core machine (docs/testing.md, "Busy machines"):
/// at least 3 minutes, since Swift Testing counts a wait for a thread too. A limit written
/// shorter fails here, not on CI's busy day.
@Suite struct TimeLimitTests {
    @Test func noTestHasATimeLimitUnderThreeMinutes() throws {
        let tests = Repository.path("Tests")
        let files = try FileManager.default.subpathsOfDirectory(atPath: tests).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        let short = try Regex(#"\.timeLimit\(\.(seconds|milliseconds)\(|\.timeLimit\(\.minutes\([0-2]\)\)"#)
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOfFile: "\(tests)/\(file)", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line.contains(short) && !line.contains("Regex(") {
                found.append("Tests/\(file):\(number + 1)")
            }
        }
        #expect(found.isEmpty, "time limits under 3 minutes: \(found)")
    }
}
