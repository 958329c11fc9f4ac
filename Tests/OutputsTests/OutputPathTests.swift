import Outputs
import Testing

@Suite struct OutputPathTests {
    @Test(arguments: [
        ("-", OutputPath.stream),
        ("frames", .directory),
        ("out/run.2024", .directory),
        ("frames.final", .directory),
        ("/tmp", .directory),
        ("crates.mp4", .video(.mp4)),
        ("Crates.MP4", .video(.mp4)),
        ("a/b.mkv", .video(.mkv)),
        ("x.webm", .video(.webm)),
        ("x.gif", .video(.gif)),
        ("x.avi", .unknownFileType("avi")),
        ("frame.png", .image),
        ("END.PNG", .image),
        ("x.jpg", .unknownFileType("jpg")),
        ("dir.v1/frames", .directory),
    ])
    func thePathAloneTellsTheOutput(path: String, expected: OutputPath) {
        #expect(OutputPath(path) == expected)
    }

    @Test func gifRefusesRatesItCannotPlayAndYUVFormatsRefuseOddSides() {
        #expect(VideoFormat.gif.problem(width: 301, height: 300, fps: 25) == nil)
        #expect(VideoFormat.gif.problem(width: 300, height: 300, fps: 60)?.contains("--fps must divide 100") == true)
        #expect(VideoFormat.gif.problem(width: 300, height: 300, fps: 100)?.contains("at most 50") == true)
        #expect(VideoFormat.mp4.problem(width: 301, height: 300, fps: 60)?.contains("try --size 302x300") == true)
        #expect(VideoFormat.webm.problem(width: 300, height: 300, fps: 60) == nil)
        #expect(VideoFormat.gif.problem(width: 300, height: 300, fps: VideoFormat.gif.defaultFPS) == nil)
        #expect(VideoFormat.allCases.filter { $0 != .gif }.allSatisfy { $0.defaultFPS == 60 })
    }
}
