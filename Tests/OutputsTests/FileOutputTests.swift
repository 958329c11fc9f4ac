import Foundation
@testable import Outputs
import Raster
import SceneModel
import TestSupport
import Testing

/// PNG and video outputs, read back with ffmpeg and ffprobe: decoders CrateDrop does not share.
@Suite struct FileOutputTests {
    static func temporaryPath(_ suffix: String = "") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-\(UUID().uuidString)\(suffix)").path
    }

    /// A rendered frame of the book scene mid-fall, with edges and several colours.
    static func frame(width: Int, height: Int, step: Int = 0) -> RGBImage {
        let crates = (0..<5).map { (i: Int) -> BodyState in
            let x = Double(i)
            let position = Vec2(40 + 50 * x, 150 - Double(step) + 20 * x)
            return BodyState(id: BodyID(UInt64(i + 1)), position: position, angle: 0.3 * x, velocity: .zero, angularVelocity: 0)
        }
        let shapes = BodyShapes((0..<5).map { (BodyID(UInt64($0 + 1)), .box(size: Vec2(30 + 4 * Double($0), 24))) })
        let walls = [WallState(from: Vec2(0, 0), to: Vec2(300, 0), radius: 2), WallState(from: Vec2(0, 0), to: Vec2(0, 300), radius: 2)]
        let renderer = FrameRenderer(world: Vec2(300, 300), walls: walls, bodyShapes: shapes, width: width, height: height,
                                     colors: RenderDefaults())
        return renderer.render(WorldSnapshot(step: step, bodies: crates))
    }

    @Test(arguments: [0, 1, 9])
    func pngFramesDecodeToExactlyThePPMPixels(level: Int) throws {
        let directory = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try DirectoryFrameWriter(directory: directory, expectedFrames: 1, format: .png(PNGEncoder(level: level)))
        let image = Self.frame(width: 321, height: 200)
        try writer.write(image, number: 1)
        #expect(try VideoProbe.rgbFrame("\(directory)/frame-00001.png") == image.pixels)
    }

    @Test func anMP4HoldsOneVideoFrameForEachFrameAtTheFrameRate() throws {
        let path = Self.temporaryPath(".mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try VideoFrameWriter(path: path, format: .mp4, width: 320, height: 240, fps: 30)
        for number in 1...45 { try writer.write(Self.frame(width: 320, height: 240, step: number), number: number) }
        #expect(!FileManager.default.fileExists(atPath: path), "the file appears only when it is finished")
        try writer.finish()
        let probe = try VideoProbe(path)
        #expect(probe.codec == "h264" && probe.width == 320 && probe.height == 240)
        #expect(probe.frames == 45 && probe.frameRate == "30/1" && abs(probe.duration - 1.5) < 0.05)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            .filter { $0.hasPrefix("." + (path as NSString).lastPathComponent) }
        #expect(leftovers.isEmpty)
    }

    /// The colour conversion is right if the decoded video, read as BT.709 limited range (what the
    /// stream is tagged with), is the frame again up to the encoder's loss: here none (lossless
    /// H.264), so only 8-bit rounding and 4:2:0 chroma at edges remain.
    @Test func decodedVideoColoursMatchTheFrame() throws {
        let path = Self.temporaryPath(".mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Saturated flat colours (where a wrong matrix shows most) above a rendered scene.
        var image = Self.frame(width: 320, height: 240)
        let colours: [[UInt8]] = [[200, 40, 40], [40, 60, 220], [30, 200, 60]]
        for row in 0..<60 {
            for column in 0..<320 {
                image.pixels.replaceSubrange((row * 320 + column) * 3..<(row * 320 + column) * 3 + 3, with: colours[row / 20])
            }
        }
        let writer = try VideoFrameWriter(path: path, format: .mkv, width: 320, height: 240, fps: 30,
                                          encoderArguments: ["-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"])
        try writer.write(image, number: 1)
        try writer.finish()
        let decoded = try VideoProbe.rgbFrame(path, filter: "scale=in_color_matrix=bt709:in_range=tv")
        try #require(decoded.count == image.pixels.count)
        let differences = zip(decoded, image.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean < 1.5, "mean difference \(mean)")
        // Inside each flat band (away from its edges) every channel is within rounding.
        for band in 0..<3 {
            let row = band * 20 + 10
            let worst = (0..<960).map { differences[row * 960 + $0] }.max()!
            #expect(worst <= 2, "band \(band): worst channel difference \(worst)")
        }
    }

    @Test func aGIFPlaysAtItsFrameRate() throws {
        let path = Self.temporaryPath(".gif")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try VideoFrameWriter(path: path, format: .gif, width: 160, height: 120, fps: 25)
        for number in 1...25 { try writer.write(Self.frame(width: 160, height: 120, step: number), number: number) }
        try writer.finish()
        let probe = try VideoProbe(path)
        #expect(probe.codec == "gif" && probe.frames == 25 && probe.frameRate == "25/1" && abs(probe.duration - 1) < 0.05)
    }

    @Test func anExistingFileNeedsReplaceExistingAndStaysUntilTheNewOneIsDone() throws {
        let path = Self.temporaryPath(".mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #require(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        #expect(throws: OutputSetupError.exists(path: path)) {
            try VideoFrameWriter(path: path, format: .mp4, width: 64, height: 64, fps: 10)
        }
        let writer = try VideoFrameWriter(path: path, format: .mp4, width: 64, height: 64, fps: 10, replaceExisting: true)
        try writer.write(Self.frame(width: 64, height: 64), number: 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
        try writer.finish()
        #expect(try VideoProbe(path).frames == 1)
    }

    /// Small frames are written into the pipe, large ones spliced: either way ffmpeg's own
    /// message explains its failure.
    @Test(arguments: [(64, 64), (1280, 720)])
    func ffmpegsOwnErrorTextIsReportedAndNoFileIsLeft(width: Int, height: Int) throws {
        let path = Self.temporaryPath(".mp4")
        let writer = try VideoFrameWriter(path: path, format: .mp4, width: width, height: height, fps: 10,
                                          encoderArguments: ["-c:v", "no-such-encoder"])
        var failure: FrameWriteError?
        let frame = Self.frame(width: width, height: height)
        do {
            for number in 1...50 { try writer.write(frame, number: number) }
            try writer.finish()
        } catch {
            failure = error
        }
        #expect(failure?.reason.contains("Unknown encoder 'no-such-encoder'") == true, "\(String(describing: failure))")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Large frames are spliced into ffmpeg's pipe from a ring of buffers (`VideoFrameWriter`): a
    /// buffer converted into again before ffmpeg had read it would show as a wrong frame. Moving
    /// crates from one renderer (so only drawn regions are converted) through a lossless codec
    /// decode to exactly each frame's own conversion.
    /// The last case switches to writing halfway, as `EncoderProcess.splice` does where the kernel
    /// refuses vmsplice.
    @Test(arguments: [(1280, 720, 2, false), (640, 480, nil, false), (320, 240, 1, false), (1280, 720, 2, true)])
    func splicedFramesReachTheEncoderUnchanged(width: Int, height: Int, ring: Int?, refusedHalfway: Bool) throws {
        let path = Self.temporaryPath(".mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let renderer = FrameRenderer(world: Vec2(300, 300), walls: [WallState(from: Vec2(0, 0), to: Vec2(300, 0), radius: 2)],
                                     bodyShapes: BodyShapes((0..<6).map { (BodyID(UInt64($0 + 1)), .box(size: Vec2(28 + 3 * Double($0), 20))) }),
                                     width: width, height: height, colors: RenderDefaults())
        let writer = try VideoFrameWriter(path: path, format: .mkv, width: width, height: height, fps: 30, encoderArguments: ["-c:v", "ffv1"])
        // 1280x720 frames (1.4 MB) need two buffers for any pipe of up to their size; 320x240
        // frames need more than the ring takes, so they are written; 640x480 depends on the pipe.
        if let ring { #expect(writer.framesHeld == ring) }
        var expected: [UInt8] = []
        let converter = YUV420Converter(width: width, height: height)
        // Each frame converted where it changed since the one before (as YUV420ConverterTests
        // shows equals converting it whole, which is slow in a debug build).
        var converted: [UInt8] = [], previous: RGBImage?
        for number in 1...16 {
            let crates = (0..<6).map { (i: Int) -> BodyState in
                let x = Double(i), t = Double(number)
                return BodyState(id: BodyID(UInt64(i + 1)), position: Vec2(30 + 45 * x + 3 * t, 60 + 30 * x + 4 * t), angle: 0.1 * t + x,
                                 velocity: .zero, angularVelocity: 0)
            }
            let image = renderer.render(WorldSnapshot(step: number, bodies: crates))
            let changed = previous.map { $0.drawnRegions!.rects + image.drawnRegions!.rects }
            converter.convert(image, into: &converted, previous: previous, changed: changed)
            previous = image
            expected += converted
            if refusedHalfway, number == 9 { writer.stopSplicing() }
            try writer.write(image, number: number)
        }
        try writer.finish()
        // Into a file: megabytes on stdout would be decoded as text too.
        let raw = Self.temporaryPath(".yuv")
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let decoded = try CLI.tool("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let frames = try Data(contentsOf: URL(fileURLWithPath: raw))
        try #require(frames.count == expected.count)
        let wrong = (0..<16).filter { n in
            frames.withUnsafeBytes { a in
                expected.withUnsafeBytes { b in memcmp(a.baseAddress! + n * converter.frameBytes, b.baseAddress! + n * converter.frameBytes, converter.frameBytes) != 0 }
            }
        }
        #expect(wrong.isEmpty, "frames decoding to something else: \(wrong.map { $0 + 1 })")
    }
}
