import Foundation
import Physics
import SceneModel
import Outputs
import Session
import TestSupport
import Testing

/// A run driven in-process through the session layer, as the CLI drives it: a plan in, an outcome out.
@Suite struct RunEngineTests {
    static func bookPlan(seconds: String, clock: RunPlan.Clock = .virtual(fps: 60)) throws -> RunPlan {
        let scene = try Repository.scene("book")
        let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/book.json"))))
        return RunPlan(start: .scene(scene, file: "Scenes/book.json", text: text), length: .duration(DecimalSeconds(seconds)!), clock: clock)
    }

    static func golden1200() throws -> String {
        try #require(GoldenFile(directory: Repository.path("Tests/PhysicsTests/Golden"), determinismClass: DeterminismClass.current.id,
                                name: "book-hashes.txt").value("1200"))
    }

    @Test func aHeadlessRunOfTheBookSceneReachesTheGoldenHash() throws {
        let engine = try RunEngine(plan: Self.bookPlan(seconds: "10", clock: .virtual(fps: 30)))
        var frames = 0
        let outcome = engine.run(shouldStop: { false }) { _, done in frames = done }
        #expect(outcome.result.counters.stepsTaken == 1200 && outcome.render == nil && frames == 300)
        #expect(outcome.result.stateHash.description == (try Self.golden1200()))
    }

    @Test func aRenderedRunWritesEveryNthFrameAndTheSameHash() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var plan = try Self.bookPlan(seconds: "1")
        plan.frames = .init(destination: .directory(directory), width: 32, height: 32, every: 3)
        #expect(plan.frameCount == 60 && plan.framesToDraw == 20)
        let outcome = try RunEngine(plan: plan).run(shouldStop: { false })
        #expect(outcome.render?.framesWritten == 20 && outcome.render?.failure == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 20)
        #expect(outcome.result.counters.stepsTaken == 120)
    }

    @Test func aGravityStreamAndARecordAreWiredByTheSession() throws {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).rec").path
        defer { try? FileManager.default.removeItem(atPath: record) }
        var plan = try Self.bookPlan(seconds: "8")
        plan.gravity = .init(.stream(path: Repository.path("Scenes/tilt.jsonl")))
        plan.recordPath = record
        let outcome = try RunEngine(plan: plan).run(shouldStop: { false })
        #expect(outcome.recordFailure == nil && outcome.gravity?.failure == nil && outcome.gravity?.readError == nil)
        #expect(outcome.result.counters.stepsTaken == 960 && (outcome.gravity?.changesApplied ?? 0) > 0)
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        #expect(lines.last?.contains("\"steps\":960,\"hash\":\"\(outcome.result.stateHash)\"") == true)
    }

    @Test func aMissingGravityFileIsASetupErrorBeforeAnyStep() throws {
        var plan = try Self.bookPlan(seconds: "1")
        plan.gravity = .init(.stream(path: "/nonexistent"))
        #expect {
            _ = try RunEngine(plan: plan)
        } throws: { error in
            guard case .gravityUnreadable = error as? RunSetupError else { return false }
            return true
        }
    }
}

/// The typed run report: the summary `cratedrop run` prints.
@Suite struct RunReportTests {
    @Test func theReportKeepsTheDocumentedKeyOrderAndDecodesBack() throws {
        let plan = try RunEngineTests.bookPlan(seconds: "0.5")
        let outcome = try RunEngine(plan: plan).run(shouldStop: { false })
        let report = RunReport(plan: plan, outcome: outcome, interrupted: "SIGINT")
        let json = report.json()
        let keys = ["scene", "mode", "fps", "step_rate", "interpolation", "frames", "steps", "simulated_seconds", "dropped_steps",
                    "dropped_seconds", "debt_steps", "frames_capped", "running_slowly", "ran_slowly", "peak_physics_load",
                    "load_warning", "step_time_us", "physics_seconds", "frame_interval_us", "wall_seconds", "state_hash",
                    "determinism_class", "render", "gravity", "interrupted", "trace", "stats"]
        let positions = keys.map { json.range(of: "\"\($0)\":")?.lowerBound }
        #expect(!positions.contains(nil))
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(json.contains("\"render\":null,\"gravity\":null,\"interrupted\":\"SIGINT\",\"trace\":null,\"stats\":null}"))
        let decoded = try JSONDecoder().decode(RunReport.self, from: Data(json.utf8))
        #expect(decoded == report && decoded.steps == 60 && decoded.stateHash == outcome.result.stateHash.description)
    }
}

/// The outputs through the session API, as a program using CrateDropSession would ask for them.
@Suite struct SessionOutputTests {
    @Test func aSessionMakesAVideoATraceAndStats() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-out-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var plan = try RunEngineTests.bookPlan(seconds: "1", clock: .virtual(fps: 30))
        plan.frames = .init(destination: .video("\(directory)/book.mp4", format: .mp4), width: 160, height: 160, overlays: [.contacts])
        plan.data = DataOutputSettings(tracePath: "\(directory)/book.jsonl", statsPath: "\(directory)/stats.jsonl")
        let outcome = try RunEngine(plan: plan).run(shouldStop: { false })
        #expect(outcome.render?.failure == nil && outcome.render?.framesWritten == 30 && outcome.dataFailures.isEmpty)
        #expect(outcome.stepsTraced == 30 && outcome.stepsMeasured == 120)
        let probe = try VideoProbe("\(directory)/book.mp4")
        #expect(probe.frames == 30 && probe.frameRate == "30/1")
        let traceLines = try String(contentsOfFile: "\(directory)/book.jsonl", encoding: .utf8).split(separator: "\n")
        // Rows only; what names the run is beside them.
        #expect(traceLines.count == 30 * 5)
        #expect(FileManager.default.fileExists(atPath: "\(directory)/book.meta.json") && FileManager.default.fileExists(atPath: "\(directory)/stats.meta.json"))
        let report = RunReport(plan: plan, outcome: outcome, interrupted: nil)
        #expect(report.render?.out == "\(directory)/book.mp4" && report.trace?.steps == 30 && report.stats?.steps == 120)
    }

    @Test func aSessionRefusesAnExistingVideoBeforeAnyStep() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).mp4").path
        try #require(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var plan = try RunEngineTests.bookPlan(seconds: "1")
        plan.frames = .init(destination: .video(path, format: .mp4), width: 64, height: 64)
        #expect {
            _ = try RunEngine(plan: plan)
        } throws: { error in
            guard case .output(.exists(path)) = error as? RunSetupError else { return false }
            return true
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "x")
    }
}
