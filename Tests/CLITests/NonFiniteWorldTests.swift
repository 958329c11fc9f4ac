import Foundation
import TestSupport
import Testing

/// A world that goes NaN stops its run with a clear error, naming the step and the body (issue 49,
/// audit finding 3): a rotary spring of the largest stiffness pulled a million radians from rest
/// overflows within a few dozen steps. Before, such runs exited 0 and wrote NaN into traces,
/// records and saved states, and a sweep sample was written complete. On Debian's libchipmunk7, a
/// debug build, Chipmunk's own checks abort the process inside the step that overflows (exit 134),
/// before CrateDrop can look: the test is CrateDrop's Chipmunk's.
@Suite struct NonFiniteWorldTests {
    static let scene = """
        {"world": [400, 400], "gravity": [0, -100],
         "crates": [{"center": [100, 200], "size": [20, 20], "mass": 1}, {"center": [200, 200], "size": [20, 20], "mass": 1}],
         "joints": [{"kind": "damped_rotary_spring", "a": 0, "b": 1, "rest_angle": 1000000, "stiffness": 1e15, "damping": 0}]}
        """

    @Test(.enabled(if: SavedStateCommandTests.portable, "Debian's libchipmunk7, a debug build, aborts on the body's value itself"))
    func aRunStopsAtTheStepTheWorldWentNonFinite() throws {
        let folder = SavedStateCommandTests.temporary("nonfinite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.scene.write(toFile: "\(folder)/spring.json", atomically: true, encoding: .utf8)
        let message = "the world went non-finite in step 32: body 1's angular_velocity is"
        let hash = try CLI.run(["hash", "\(folder)/spring.json", "--steps", "100", "--trace", "\(folder)/t.csv", "--record", "\(folder)/r.rec"])
        #expect(hash.status == 65 && hash.stderr.contains(message), "\(hash.status) \(hash.stderr)")
        // Nothing written holds a value that is not a number: the trace stops at step 31.
        let rows = try String(contentsOfFile: "\(folder)/t.csv", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(!rows.contains { $0.lowercased().contains("nan") || $0.contains("inf") } && rows.last?.hasPrefix("31,") == true, "\(rows.suffix(2))")
        // The record's checkpoints stop before it too (JSON writes a value that is not a number as null).
        let record = try String(contentsOfFile: "\(folder)/r.rec", encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix(#"{"step""#) }
        #expect(!record.contains { $0.contains("null") || $0.hasPrefix(#"{"step":32,"#) } && !record.isEmpty)
        // A sweep's sample fails with the reason, and is not written complete.
        try """
            {"scene": "spring.json", "steps": 100, "axes": [{"field": "gravity", "values": [[0, -100]]}], "outputs": {"hash_every": 10}}
            """.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let sweep = try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"])
        #expect(sweep.status == 65 && !FileManager.default.fileExists(atPath: "\(folder)/out/samples/000000"), "\(sweep.stdout) \(sweep.stderr)")
        let failure = try String(contentsOfFile: "\(folder)/out/failed/000000.json", encoding: .utf8)
        #expect(failure.contains(message), "\(failure)")
    }

    /// A synctest's look-ahead that steps past the world's finite values does not end the run:
    /// the restored world goes on, and the run ends at its own last step (review of stop 45).
    @Test(.needsSavedStates(SavedStateCommandTests.portable)) func aLookAheadPastTheOverflowDoesNotEndTheRun() throws {
        let scene = SavedStateCommandTests.temporary("spring-synctest.json")
        try Self.scene.write(toFile: scene, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scene) }
        let plain = try CLI.run(["hash", scene, "--steps", "30"])
        let synctest = try CLI.run(["hash", scene, "--steps", "30", "--synctest", "3"])
        #expect(plain.status == 0 && synctest.status == 0 && synctest.stdout == plain.stdout && synctest.stdout.hasPrefix("30 "),
                "\(synctest.status) \(synctest.stdout) \(synctest.stderr)")
    }
}
