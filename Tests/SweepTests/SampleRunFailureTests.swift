import Foundation
import SceneFile
import SceneModel
import FileIO
import Script
import Session
@testable import Sweep
import Testing

/// A sample's failure keeps the run's typed problem: its values' fault or its folder's.
@Suite struct SampleRunFailureTests {
    @Test func aBadGravityLineIsTheSamplesFaultWithItsTypedCause() throws {
        let fixture = try SweepFixture()
        defer { fixture.remove() }
        let scenePath = try fixture.smallPile()
        let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scenePath)))
        let gravity = "\(fixture.folder)/gravity.jsonl"
        try "{\"t\": 0.1, \"gravity\": \"down\"}\n".write(toFile: gravity, atomically: true, encoding: .utf8)
        let request = SampleRun.Request(scene: try SceneLoader.load(path: scenePath), sceneText: text, state: nil, steps: 60,
                                        gravityPath: gravity, outputs: SampleOutputs(), folder: nil)
        guard case let .failure(.run(problem)) = SampleRun.run(request, shouldStop: { false }) else {
            Issue.record("a bad gravity line is the sample's failure")
            return
        }
        #expect(problem.kind == .badValues && problem.cause is GravityLineError)
        #expect(problem.description.hasPrefix("\(gravity):1:"), "\(problem)")
    }

    @Test func aFileThatCannotBeCreatedNamesItsPathWhatAndWhy() throws {
        let path = "/nonexistent-\(UUID().uuidString)/done.json"
        #expect(throws: FolderIO.Failure(path, .create, .system(.noSuchFileOrDirectory))) {
            try FolderIO.writeNew(path, [1, 2, 3], sync: false)
        }
        #expect(FolderIO.Failure(path, .create, .system(.noSuchFileOrDirectory)).description
            == "\(path): cannot create: No such file or directory")
    }
}
