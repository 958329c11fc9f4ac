import Foundation
import TestSupport
import Testing

/// A terrain picture that cannot become walls is refused before any step, naming the scene
/// file, the line and `walls[i].image` (or the key at fault): 66 when the file cannot be read, as
/// for the scene file itself; 65 for everything else (not a PNG, a damaged one, too large, no
/// walls, too many walls), with the limit it passes.
@Suite(.timeLimit(.minutes(3))) struct TerrainBadInputTests {
    /// A folder holding `scene.json` (its one wall the picture `level.png`, on line 4, with
    /// `keys` added) and, unless nil, `level.png` with `picture`'s bytes. The caller removes it.
    static func folder(picture: [UInt8]?, keys: String = "") throws -> (folder: String, scene: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("terrain-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let scene = """
            {
              "world": [400, 300], "gravity": [0, -1000],
              "walls": [
                {"image": "level.png", "radius": 1\(keys)}
              ],
              "crates": [{"center": [200, 290], "size": [10, 10], "mass": 1}]
            }
            """
        try Data(scene.utf8).write(to: URL(fileURLWithPath: "\(folder)/scene.json"))
        if let picture { try Data(picture).write(to: URL(fileURLWithPath: "\(folder)/level.png")) }
        return (folder, "\(folder)/scene.json")
    }

    /// `cratedrop hash` on the scene: its status and stderr, checked to have printed no hash.
    static func refusal(picture: [UInt8]?, keys: String = "") throws -> (status: Int32, message: String, folder: String) {
        let (folder, scene) = try folder(picture: picture, keys: keys)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CLI.run(["hash", scene, "--steps", "1"])
        #expect(result.stdout.isEmpty, "no step may run")
        return (result.status, result.stderr, folder)
    }

    /// Isolated dark pixels, one in every 2×2 block of a `columns`×`rows` grid of blocks: each a
    /// closed outline of its own.
    static func dots(columns: Int, rows: Int) -> [UInt8] {
        TestPicture.png(width: 2 * columns, height: 2 * rows) { x, row in x % 2 == 1 && row % 2 == 1 ? 0 : 255 }
    }

    @Test func aMissingPictureCannotBeRead() throws {
        let (status, message, folder) = try Self.refusal(picture: nil)
        #expect(status == 66)
        #expect(message.hasPrefix("cratedrop: \(folder)/scene.json:4: walls[0].image: \(folder)/level.png: "), "\(message)")
    }

    @Test func aFileThatIsNotAPNGIsBadData() throws {
        let (status, message, folder) = try Self.refusal(picture: Array("GIF89a, not a PNG".utf8))
        #expect(status == 65)
        #expect(message == "cratedrop: \(folder)/scene.json:4: walls[0].image: \(folder)/level.png: not a PNG file "
            + "(it does not start with PNG's signature)\n", "\(message)")
    }

    @Test func aDamagedPNGIsBadData() throws {
        var picture = TestPicture.png(width: 8, height: 8) { x, _ in x < 4 ? 0 : 255 }
        picture[picture.count - 20] ^= 0xff  // inside the pixel data: its chunk's CRC no longer matches
        let (status, message, folder) = try Self.refusal(picture: picture)
        #expect(status == 65)
        #expect(message.hasPrefix("cratedrop: \(folder)/scene.json:4: walls[0].image: \(folder)/level.png: not a readable PNG: "), "\(message)")
    }

    @Test(arguments: [(5000, 1, "larger than 4096 pixels on a side"), (2100, 2100, "2100×2100 is more than 4194304 pixels")])
    func aPictureTooLargeIsRefusedFromItsHeader(width: Int, height: Int, reason: String) throws {
        let (status, message, folder) = try Self.refusal(picture: TestPicture.header(width: width, height: height))
        #expect(status == 65)
        #expect(message == "cratedrop: \(folder)/scene.json:4: walls[0].image: \(folder)/level.png: the picture is too large: \(reason)\n",
                "\(message)")
    }

    @Test func aPictureWithNothingSolidYieldsNoWalls() throws {
        let (status, message, folder) = try Self.refusal(picture: TestPicture.png(width: 20, height: 10) { _, _ in 255 })
        #expect(status == 65)
        #expect(message == "cratedrop: \(folder)/scene.json:4: walls[0].image: \(folder)/level.png: yields no walls: no pixel's "
            + "luminance solidity is above threshold 0.5 (dark pixels are solid)\n", "\(message)")
    }

    /// 3,000 dots, four walls each without simplification: past the world's 10,000 walls.
    @Test func aPictureOfMoreWallsThanTheWorldMayHoldNamesTheLimit() throws {
        let (status, message, folder) = try Self.refusal(picture: Self.dots(columns: 60, rows: 50), keys: #", "tolerance": 0"#)
        #expect(status == 65)
        #expect(message == "cratedrop: \(folder)/scene.json:4: walls[0].image: yields too many walls: 12000 segment walls, which bring "
            + "the scene to 12000 walls, more than the world's limit of 10000 (raise tolerance or scale the picture down)\n", "\(message)")
    }

    /// 10,000 dots: refused while joining, as soon as the outlines pass 5,000.
    @Test func aPictureOfMoreOutlinesThanWallsCouldHoldIsRefusedWhileTracing() throws {
        let (status, message, folder) = try Self.refusal(picture: Self.dots(columns: 100, rows: 100))
        #expect(status == 65)
        #expect(message == "cratedrop: \(folder)/scene.json:4: walls[0].image: \(folder)/level.png: yields too many walls: more than "
            + "5000 separate outlines at threshold 0.5, each at least two walls, past the world's limit of 10000 walls\n", "\(message)")
    }

    /// 512 one-pixel stripes 512 pixels tall: some 525,000 contour segments in 512 outlines,
    /// refused at the 500,000th segment rather than joined.
    @Test func aPictureTooDetailedToTraceIsRefusedAtTheSegmentLimit() throws {
        let stripes = TestPicture.png(width: 1024, height: 512) { x, _ in x % 2 == 0 ? 0 : 255 }
        let (status, message, folder) = try Self.refusal(picture: stripes)
        #expect(status == 65)
        #expect(message == "cratedrop: \(folder)/scene.json:4: walls[0].image: \(folder)/level.png: its outline is too detailed: tracing "
            + "it at threshold 0.5 gives more than 500000 segments before simplification (a noisy picture?)\n", "\(message)")
    }

    @Test(arguments: [
        (#", "threshold": 1"#, "walls[0].threshold: must be strictly between 0 and 1 (at 1 every pixel is on one side), got 1"),
        (#", "threshold": 1.5"#, "walls[0].threshold: must be in 0...1, got 1.5"),
        (#", "scale": 0"#, "walls[0].scale: must be > 0, got 0"),
        (#", "tolerance": -1"#, "walls[0].tolerance: must be in 0...64, got -1"),
        (#", "channel": "red""#, #"walls[0].channel: must be one of "alpha", "luminance", got "red""#),
    ])
    func aBadValueIsNamedBeforeThePictureIsTraced(keys: String, problem: String) throws {
        let picture = TestPicture.png(width: 8, height: 8) { x, _ in x < 4 ? 0 : 255 }
        let (status, message, folder) = try Self.refusal(picture: picture, keys: keys)
        #expect(status == 65)
        #expect(message == "cratedrop: \(folder)/scene.json:4: \(problem)\n", "\(message)")
    }
}
