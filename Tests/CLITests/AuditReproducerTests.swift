import Foundation
import TestSupport
import Testing

/// Issue 23's audit reproducers for the command-line findings (`scripts/audit`, one case per
/// finding), run against the binary under test: each case does what the audit did and fails if
/// the finding comes back.
@Suite struct AuditReproducerTests {
    @Test(.timeLimit(.minutes(10)), arguments: [
        (4, "two outputs on one file, or inside the frames folder: 64 before anything is written"),
        (8, "headless replay stops on SIGINT, SIGTERM, SIGHUP with its JSON line"),
        (9, "diff streams two 200 MB trails under 100 MB RSS; records checked while read"),
        (10, "text from files is escaped before it reaches the terminal"),
        (12, "outputs that are links: one rule (64), links above them followed"),
        (13, "a record contradicting its own hashes is bad data (65)"),
        (14, "a SIGKILLed encode's temporary video is removed by the next run"),
    ])
    func theFindingIsFixed(finding: Int, what: String) throws {
        let result = try CLI.shell("scripts/audit \(finding)")
        #expect(result.status == 0, "finding \(finding) (\(what)): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ok finding \(finding): ") || result.stdout.contains("skip finding \(finding)"), "\(result.stdout)")
    }
}
