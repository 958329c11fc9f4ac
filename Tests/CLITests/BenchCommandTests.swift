import Foundation
import TestSupport
import Testing

@Suite struct BenchCommandTests {
    /// The quick bench runs both sides on each scene and they agree bit for bit; stdout is JSON only.
    @Test func quickBenchComparesLikeForLike() throws {
        let result = try CLI.run(["bench", "--quick", "--json", "Scenes/book.json", "Scenes/tumbler.json"])
        #expect(result.status == 0)
        let report = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
        let scenes = try #require(report.members.first { $0.key == "scenes" }?.value)
        guard case let .array(entries) = scenes.kind else {
            Issue.record("scenes is not an array")
            return
        }
        #expect(entries.count == 2)
        for entry in entries {
            guard case let .object(fields) = entry.kind else { continue }
            let field = { (key: String) in fields.first { $0.key == key }?.value.kind }
            #expect(field("hashes_match") == .bool(true))
            guard case let .string(swift)? = field("swift_hash"), case let .string(c)? = field("c_hash"),
                  case let .number(ratio, _)? = field("ratio") else {
                Issue.record("missing fields in \(entry)")
                continue
            }
            #expect(swift == c && swift.count == 16)
            #expect(ratio > 0.2 && ratio < 20)
        }
        #expect((report.number("peak_memory_mib") ?? 0) > 0)
    }

    /// The step loop used for instruction counting reaches the same state on both sides, and the
    /// same hash as `cratedrop hash` for the same number of steps.
    @Test func stepLoopsOfBothSidesAgreeWithHash() throws {
        let swift = try CLI.run(["bench", "Scenes/pile-100.json", "--step-loop", "--side", "swift", "--warmup", "20", "--steps", "30"])
        let c = try CLI.run(["bench", "Scenes/pile-100.json", "--step-loop", "--side", "c", "--warmup", "20", "--steps", "30"])
        let hash = try CLI.run(["hash", "Scenes/pile-100.json", "--steps", "50"])
        #expect(swift.status == 0 && c.status == 0)
        #expect(swift.stdout == hash.stdout && c.stdout == hash.stdout)
    }

    /// `--state-cost` times a save, a restore of the state kept in memory and a restore of its
    /// bytes as from a file, on the portable backend (each time positive, the state's size beside
    /// them); on Debian's library it refuses with 69.
    @Test func stateCostTimesSavesAndBothRestores() throws {
        let result = try CLI.run(["bench", "--state-cost", "Scenes/pile-100.json", "--repetitions", "5", "--warmup", "30"])
        guard SavedStateCommandTests.portable else {
            #expect(result.status == 69 && result.stdout.isEmpty && result.stderr.contains("portable backend"), "\(result.stderr)")
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONFields(result.stdout.trimmingCharacters(in: .newlines))
        for field in ["save_ms", "restore_ms", "restore_from_bytes_ms", "bytes_per_body"] {
            #expect((report.number(field) ?? 0) > 0, "\(field)")
        }
        #expect(report.number("step") == 30 && report.number("bodies") == 100)
    }
}

