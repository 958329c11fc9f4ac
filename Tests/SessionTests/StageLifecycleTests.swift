import Foundation
import Outputs
import Physics
import Raster
import Script
import SceneModel
@testable import Session
import TestSupport
import Testing

/// Stages own their lifecycle: each reports its typed part and its problems, and the engine
/// orders the problems by kind whatever stage told them.
@Suite struct StageLifecycleTests {
    private struct Told: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    @Test func problemsComeInOrderOfPrecedenceThenInTheStagesOrder() {
        var reports = StageReports()
        reports.add(RunProblem(.notice, Told(description: "window closed")))
        reports.add(RunProblem(.inputOutput, Told(description: "disk full, first")))
        reports.add(RunProblem(.diverged, Told(description: "parted")))
        reports.add(RunProblem(.badValues, Told(description: "bad line")))
        reports.add(RunProblem(.inputOutput, Told(description: "disk full, second")))
        #expect(reports.problems.map(\.description) == ["bad line", "disk full, first", "disk full, second", "parted", "window closed"])
    }

    @Test func aPartIsFoundByItsTypeAndOnlyByIt() {
        var reports = StageReports()
        reports[RunOutcome.PeriodicStates.self] = RunOutcome.PeriodicStates(saved: 7)
        #expect(reports[RunOutcome.PeriodicStates.self]?.saved == 7)
        #expect(reports[RunOutcome.CheckSummary.self] == nil)
    }

    @Test func everyStageKindHasItsPlaceAndAPlanWithoutThemMakesNoStage() throws {
        // The engine knows stages only through this list: each kind has a position, and a plan
        // that asks for nothing (no watch either) makes no stage at all.
        var plan = try RunEngineTests.bookPlan(seconds: "1")
        plan.watchesBodiesLeaving = false
        let world = try World(scene: plan.start.scene)
        let setup = StageSetup(plan: plan, world: world, shouldStop: { false }, onWarning: { _ in })
        let made = try RunPlan.stageKinds.compactMap { kind in try kind.make(setup) }
        #expect(made.isEmpty)
        #expect(Set(RunPlan.stageKinds.map { ObjectIdentifier($0) }).count == RunPlan.stageKinds.count)
    }

    @Test func aRunWithTwoProblemsReportsBothAndTheBadLineDecides() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stages-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stream = "\(directory)/bad.jsonl"
        try Data("{\"t\":0.5,\"gravity\":[-1000,0]}\n{\"t\":1.0,\"gravity\":\"down\"}\n".utf8).write(to: URL(fileURLWithPath: stream))
        var plan = try RunEngineTests.bookPlan(seconds: "2")
        plan.gravity = .init(.stream(path: stream))
        plan.data = DataOutputSettings(tracePath: "/dev/full", traceFormat: .csv)
        let outcome = try RunEngine(plan: plan).run(shouldStop: { false })
        #expect(outcome.problems.map(\.kind) == [.badValues, .inputOutput])
        #expect(outcome.failure?.cause is GravityLineError)
        #expect(outcome.problems.last?.cause is FrameWriteError)
        #expect(outcome.gravity?.failure != nil && outcome.dataFailures.count == 1)
    }

    @Test func aRunWithoutProblemsHasNoFailure() throws {
        let outcome = try RunEngine(plan: RunEngineTests.bookPlan(seconds: "1")).run(shouldStop: { false })
        #expect(outcome.problems.isEmpty && outcome.failure == nil)
    }
}
