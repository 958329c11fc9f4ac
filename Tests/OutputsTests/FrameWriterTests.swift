import Foundation
import Outputs
import Raster
import SceneModel
import TestSupport
import Testing

@Suite struct FrameWriterTests {
    static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-\(UUID().uuidString)").path
        return path
    }

    @Test func directoryWriterNamesFramesToFitTheCountAndLeavesNoTemporaries() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try DirectoryFrameWriter(directory: directory, expectedFrames: 123_456)
        #expect(writer.fileName(7) == "frame-000007.ppm")
        #expect(try DirectoryFrameWriter(directory: directory, expectedFrames: 600).fileName(7) == "frame-00007.ppm")
        let image = RGBImage(width: 4, height: 3, fill: RGB(9, 8, 7))
        try writer.write(image, number: 1)
        try writer.write(image, number: 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["frame-000001.ppm", "frame-000002.ppm"])
        let read = try PPMImage.readFile(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/frame-000002.ppm"))))
        #expect(read == PPMImage(width: 4, height: 3, pixels: image.pixels))
    }

    @Test func directoryWriterRefusesAMissingParentOrAFile() throws {
        #expect(throws: FrameWriteError(target: "/nonexistent/frames", reason: "cannot create it: its parent directory does not exist")) {
            try DirectoryFrameWriter(directory: "/nonexistent/frames", expectedFrames: 1)
        }
        let file = Self.temporaryDirectory()
        try #require(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: FrameWriteError(target: file, reason: "exists and is not a directory")) {
            try DirectoryFrameWriter(directory: file, expectedFrames: 1)
        }
    }

    @Test func streamWriterReportsAFullDisk() throws {
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        let writer = StreamFrameWriter(fd: full, name: "stdout")
        #expect(throws: FrameWriteError(target: "stdout", reason: "No space left on device")) {
            try writer.write(RGBImage(width: 2, height: 2, fill: RGB(0, 0, 0)), number: 1)
        }
    }

    @Test func streamWriterReportsAClosedPipe() throws {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        let writer = StreamFrameWriter(fd: fds[1], name: "stdout")
        #expect(throws: FrameWriteError(target: "stdout", reason: "the reader closed the pipe (Broken pipe)")) {
            try writer.write(RGBImage(width: 2, height: 2, fill: RGB(0, 0, 0)), number: 1)
        }
    }
}
