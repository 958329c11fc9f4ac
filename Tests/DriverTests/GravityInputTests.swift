import Driver
import Foundation
import Physics
import SceneModel
import Script
import Session
import Synchronization
import TestSupport
import Testing

/// The gravity input stage in the step pipeline, with its world, stepped as the driver steps it.
final class ScriptedWorld {
    let world: World
    let input: GravityInput
    let pipeline: StepPipeline

    init(world: World, input: GravityInput) {
        self.world = world
        self.input = input
        pipeline = StepPipeline(world: world, stages: [(.input, input)])
    }

    func prepareStep() -> Bool { pipeline.prepareStep() }
    func step() { pipeline.step() }
    var changesApplied: Int { input.changesApplied }
    var linesSkipped: Int { input.linesSkipped }
}

@Suite struct GravityInputTests {
    static func scripted(fd: Int32, waits: Bool, policy: GravityInput.BadLinePolicy = .stop,
                         shouldStop: @escaping () -> Bool = { false }) throws -> ScriptedWorld {
        let world = try World(scene: Repository.scene("book"))
        let parser = GravityLineParser(source: "pipe", stepRate: 120, gravityMagnitude: 1000, axes: .portrait)
        let input = GravityInput(events: GravityStream(source: .descriptor(fd), parser: parser), waitsForInput: waits, policy: policy,
                                 inputs: RunInputs(world: world), shouldStop: shouldStop) { _ in }
        return ScriptedWorld(world: world, input: input)
    }

    /// In real time a producer that says nothing never holds up a step.
    @Test(.timeLimit(.minutes(3)))
    func aSilentProducerNeverStallsRealTimeStepping() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[1]) }
        let scripted = try Self.scripted(fd: fds[0], waits: false)
        for _ in 0..<240 {
            #expect(scripted.prepareStep())
            scripted.step()
        }
        #expect(scripted.world.stepCount == 240 && scripted.changesApplied == 0)
    }

    /// In real time an untimed line applies at the first step after it is read.
    @Test func anUntimedLineAppliesAtTheNextStepInRealTime() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let scripted = try Self.scripted(fd: fds[0], waits: false)
        for _ in 0..<10 {
            _ = scripted.prepareStep()
            scripted.step()
        }
        let line = Array("{\"gravity\": [250, 0]}\n".utf8)
        _ = line.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        // The reader thread delivers it soon; poll steps until it lands (bounded).
        var polls = 0
        while scripted.changesApplied == 0, polls < 10_000 {
            _ = scripted.prepareStep()
            polls += 1
            usleep(100)
        }
        #expect(scripted.world.gravity == Vec2(250, 0))
        #expect(scripted.world.stepCount == 10)
    }

    /// Offline, the step waits until it is known whether a change applies to it. The line is
    /// written only once the step is seen waiting (its stop check runs after 50 ms without input).
    @Test(.timeLimit(.minutes(3)))
    func offlineStepsWaitForTheLineThatDecidesThem() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let waiting = DispatchSemaphore(value: 0)
        let asked = Mutex(0)
        let scripted = try Self.scripted(fd: fds[0], waits: true, shouldStop: {
            // The first check comes before any wait; a second one only from inside the wait.
            if asked.withLock({ $0 += 1; return $0 }) == 2 { waiting.signal() }
            return false
        })
        let writeEnd = fds[1]
        let writer = Thread {
            waiting.wait()
            let line = Array("{\"step\": 0, \"gravity\": [0, 1000]}\n".utf8)
            _ = line.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            close(writeEnd)
        }
        writer.start()
        #expect(scripted.prepareStep())
        // The line arrived while the step waited, and it was applied before step 0.
        #expect(asked.withLock { $0 } >= 2)
        #expect(scripted.world.gravity == Vec2(0, 1000) && scripted.world.stepCount == 0)
    }

    /// A flood of bad lines skipped one after another never holds off a stop request: the
    /// request (here, on the 1000th check) is seen between two lines.
    @Test(.timeLimit(.minutes(3)))
    func aStopRequestEndsAFloodOfSkippedLines() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let checks = Mutex(0)
        let scripted = try Self.scripted(fd: fds[0], waits: true, policy: .skip,
                                         shouldStop: { checks.withLock { $0 += 1; return $0 >= 1000 } })
        // 5000 bad lines (25 kB: the pipe takes them all, and the stream's queue what is left
        // after the stop), then the end; the stream closes its own end of the pipe when done.
        let flood = Array(String(repeating: "oops\n", count: 5000).utf8)
        _ = flood.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        #expect(!scripted.prepareStep())
        #expect(scripted.linesSkipped >= 900 && scripted.linesSkipped < 1000)
    }
}
