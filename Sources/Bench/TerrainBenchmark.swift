import Driver
import SceneFile
import SceneModel

/// Prices terrain from a picture: a scene whose only wall is the picture, read and checked as a
/// scene file is (the PNG read, decoded, traced by `cpMarchSoft`, joined, simplified and made into
/// checked segment walls), `repetitions` times; the median time and the walls it gave.
package enum TerrainBenchmark {
    package struct Result: Sendable {
        package var milliseconds: Spread
        package var walls: Int
    }

    /// - Parameter picture: a PNG path; the scene is taken to lie beside it.
    package static func run(picture: String, repetitions: Int) throws(SceneLoadError) -> Result {
        let folderEnd = picture.lastIndex(of: "/")
        let name = folderEnd.map { String(picture[picture.index(after: $0)...]) } ?? picture
        let file = (folderEnd.map { String(picture[...$0]) } ?? "") + "terrain-bench.json"
        let scene = #"{"world": [100000, 100000], "gravity": [0, 0], "walls": [{"image": "\#(name)", "radius": 1}]}"#
        let clock = MonotonicStopwatch()
        var times: [Double] = []
        var walls = 0
        for _ in 0..<repetitions {
            let start = clock.nanoseconds()
            walls = try SceneLoader.parse(Array(scene.utf8), file: file).walls.count
            times.append(Double(clock.nanoseconds() - start) / 1e6)
        }
        return Result(milliseconds: Spread(times), walls: walls)
    }
}
