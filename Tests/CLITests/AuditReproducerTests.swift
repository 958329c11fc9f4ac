import Foundation
import TestSupport
import Testing

/// The audit reproducers of issue 23 (round 3) and issue 35 (round 4) for the command-line
/// findings (`scripts/audit`, one case per finding), run against the binary under test: each case
/// does what the audit did and fails if the finding comes back. The time limit is some twenty
/// times case 9's time alone on 2 quiet cores (two 200 MB trails: about a minute).
@Suite struct AuditReproducerTests {
    @Test(.timeLimit(.minutes(20)), arguments: [
        ("4", "two outputs on one file, or inside the frames folder: 64 before anything is written"),
        ("8", "headless replay stops on SIGINT, SIGTERM, SIGHUP with its JSON line"),
        ("9", "diff streams two 200 MB trails under 100 MB RSS; records checked while read"),
        ("10", "text from files is escaped before it reaches the terminal"),
        ("12", "outputs that are links: one rule (64), links above them followed"),
        ("13", "a record contradicting its own hashes is bad data (65)"),
        ("14", "a SIGKILLed encode's temporary video is removed by the next run"),
        // Round 4 (issue 35).
        ("r4-1", "crafted saved states refused by validate, hash and run, none hanging"),
        ("r4-5", "a second axis on one field: 65 at plan"),
        ("r4-6", "done markers no spec can give: 65 naming the key"),
        ("r4-7", "a sweep of 10^9 samples costs what it holds"),
        ("r4-9", "an edited manifest row fails verify; a marker naming another sample is not complete"),
        ("r4-10", "writes past a file-size limit: 74, no temporary"),
        ("r4-14", "--allow-host with a port: 64"),
        ("r4-15", "records of another version refused; a record without its end line says so"),
        ("r4-small", "a repeated value, 200,000 crates, 200,000 values"),
    ])
    func theFindingIsFixed(finding: String, what: String) throws {
        let result = try CLI.shell("scripts/audit \(finding)")
        #expect(result.status == 0, "finding \(finding) (\(what)): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ok finding \(finding): ") || result.stdout.contains("skip finding \(finding)"), "\(result.stdout)")
    }
}
