#if canImport(Glibc)
import Glibc
#endif
import Driver
import Foundation
import Physics
import Outputs
import Raster
import SceneModel
import FileIO

/// Prices the render stage on a scene's current state: drawing a frame, writing it as a file, and
/// streaming frames into a pipe.
enum RenderBenchmark {
    struct Result {
        var draw: Spread
        var fileWrite: Spread
        var stream: Spread
    }

    static func run(scene: Scene, world: World, settings: BenchSettings) throws -> Result {
        let clock = MonotonicStopwatch()
        let renderer = FrameRenderer(world: scene.worldSize, walls: world.wallStates(), bodyShapes: world.bodyShapes, width: settings.renderWidth,
                                     height: settings.renderHeight, colors: scene.render)
        let snapshot = world.snapshot()
        var image = renderer.render(snapshot)
        var draw: [Double] = []
        for _ in 0..<settings.renderRepetitions {
            let start = clock.nanoseconds()
            image = renderer.render(snapshot)
            draw.append(Double(clock.nanoseconds() - start) / 1e6)
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cratedrop-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try DirectoryFrameWriter(directory: directory, expectedFrames: settings.renderRepetitions)
        var fileWrite: [Double] = []
        for number in 1...settings.renderRepetitions {
            let start = clock.nanoseconds()
            try files.write(image, number: number)
            fileWrite.append(Double(clock.nanoseconds() - start) / 1e6)
        }

        return Result(draw: Spread(draw), fileWrite: Spread(fileWrite),
                      stream: Spread(try streamThroughput(image, frames: settings.renderRepetitions)))
    }

    /// MB/s of whole frames written into a pipe that another thread drains, per frame.
    private static func streamThroughput(_ image: RGBImage, frames: Int) throws -> [Double] {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw FrameWriteError(target: "pipe", cause: .file(.fromErrno())) }
        let readEnd = fds[0]
        let drain = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
            close(readEnd)
        }
        drain.start()
        let stream = StreamFrameWriter(fd: fds[1], name: "pipe")
        let clock = MonotonicStopwatch()
        let bytes = Double(image.ppmHeader.count + image.pixels.count)
        var rates: [Double] = []
        for number in 1...frames {
            let start = clock.nanoseconds()
            try stream.write(image, number: number)
            rates.append(bytes / (Double(clock.nanoseconds() - start) / 1e9) / 1e6)
        }
        close(fds[1])
        return rates
    }
}
