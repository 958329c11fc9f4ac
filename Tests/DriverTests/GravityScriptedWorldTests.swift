import Driver
import Foundation
import Physics
import SceneModel
import Script
import TestSupport
import Testing

@Suite struct GravityScriptedWorldTests {
    static func scripted(fd: Int32, waits: Bool) throws -> GravityScriptedWorld {
        let world = try World(scene: Repository.scene("book"))
        let parser = GravityLineParser(source: "pipe", stepRate: 120, gravityMagnitude: 1000, axes: .portrait)
        return GravityScriptedWorld(world: world, stream: GravityStream(source: .descriptor(fd), parser: parser),
                                    waitsForInput: waits, policy: .stop, recorder: nil) { _ in }
    }

    /// In real time a producer that says nothing never holds up a step.
    @Test func aSilentProducerNeverStallsRealTimeStepping() throws {
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

    /// Offline, the step waits until it is known whether a change applies to it.
    @Test func offlineStepsWaitForTheLineThatDecidesThem() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let scripted = try Self.scripted(fd: fds[0], waits: true)
        let writeEnd = fds[1]
        let writer = Thread {
            usleep(50_000)
            let line = Array("{\"step\": 0, \"gravity\": [0, 1000]}\n".utf8)
            _ = line.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            close(writeEnd)
        }
        writer.start()
        #expect(scripted.prepareStep())
        // The line arrived late, yet it was applied before step 0.
        #expect(scripted.world.gravity == Vec2(0, 1000) && scripted.world.stepCount == 0)
    }
}
