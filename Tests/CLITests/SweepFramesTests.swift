import Foundation
import TestSupport
import Testing

/// A sweep's samples draw frames, masks and a trace of the frames with bounding boxes
/// (`outputs.frames`), the same bytes `cratedrop run` draws for the sample's scene, and refuse at
/// plan what they cannot draw.
@Suite struct SweepFramesTests {
    static func spec(frames: String, trace: String = #""trace": "csv","#) -> String {
        """
        {
          "scene": "\(Repository.path("Scenes/book.json"))",
          "seconds": 1,
          "axes": [{ "field": "gravity", "values": [[0, -1000], [300, -950]] }],
          "outputs": {
            \(trace)
            "frames": \(frames)
          }
        }
        """
    }

    @Test func eachSampleWritesTheFramesMasksAndBoxesItsRunWould() throws {
        let folder = try Self.temporaryFolder("frames-sweep")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.spec(frames: #"{ "fps": 12, "size": [160, 120], "masks": true }"#)
            .write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        let run = try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"])
        #expect(run.status == 0, "\(run.stderr)")
        var firstFrames: [Data] = []
        for sample in 0..<2 {
            let path = "\(folder)/out/samples/00000\(sample)"
            let frameNames = (1...12).map { String(format: "frame-%05d.png", $0) }, maskNames = (1...12).map { String(format: "mask-%05d.png", $0) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(path)/frames").sorted() == frameNames)
            #expect(try FileManager.default.contentsOfDirectory(atPath: "\(path)/masks").sorted() == maskNames)
            // `cratedrop run` of the sample's scene at the same rate and size draws the same bytes.
            let alone = try CLI.run(["run", "\(path)/scene.json", "--seconds", "1", "--fps", "12", "--size", "160x120", "--format", "png",
                                     "--out", "\(folder)/alone-\(sample)", "--masks", "\(folder)/alone-masks-\(sample)", "--quiet"])
            #expect(alone.status == 0, "\(alone.stderr)")
            for (names, sweepFolder, runFolder) in [(frameNames, "frames", "alone-\(sample)"), (maskNames, "masks", "alone-masks-\(sample)")] {
                for name in names {
                    let drawn = try Data(contentsOf: URL(fileURLWithPath: "\(path)/\(sweepFolder)/\(name)"))
                    #expect(drawn == (try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(runFolder)/\(name)"))), "sample \(sample) \(name)")
                }
            }
            firstFrames.append(try Data(contentsOf: URL(fileURLWithPath: "\(path)/frames/frame-00012.png")))
            // One row per body per frame: frame N holds step N × 120 / 12, with its box in the frame's pixels.
            let rows = try String(contentsOfFile: "\(path)/trace.csv", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(rows.first == "step,time,id,shape,width,height,x,y,angle,vx,vy,angular_velocity,sleeping,frame,box_x0,box_y0,box_x1,box_y1")
            let cells = rows.dropFirst().map { $0.split(separator: ",").map(String.init) }
            let bodies = Set(cells.map { $0[2] }).count
            #expect(bodies > 1 && cells.count == 12 * bodies)
            for cell in cells {
                let step = Int(cell[0])!, frame = Int(cell[13])!
                #expect(step == frame * 10, "\(cell)")
                let (x0, y0, x1, y1) = (Double(cell[14])!, Double(cell[15])!, Double(cell[16])!, Double(cell[17])!)
                #expect(x0 < x1 && y0 < y1 && x1 - x0 < 160 && y1 - y0 < 120, "\(cell)")
            }
            let meta = try JSONFields(String(contentsOfFile: "\(path)/meta.json", encoding: .utf8))
            #expect(meta.number("frames") == 12 && meta.number("fps") == 12 && meta.number("steps_per_frame") == 10)
            #expect(meta.number("width") == 160 && meta.number("height") == 120 && meta.string("frames_path") == "frames/frame-%05d.png")
            let done = try JSONFields(String(contentsOfFile: "\(path)/done.json", encoding: .utf8))
            #expect(meta.string("hash") == done.string("hash") && meta.string("determinism_class") == done.string("determinism_class"))
            let transform = try meta.object("world_to_pixel"), masks = try meta.object("masks")
            #expect(transform.number("scale") != nil && masks.number("first_wall") == 61440 && masks.string("path") == "masks/mask-%05d.png")
        }
        #expect(firstFrames[0] != firstFrames[1], "gravity to the side moves the crates")
    }

    /// `sweep verify` draws a sample's frames and masks again and compares their bytes; its
    /// `meta.json` and `done.json` are written again from the spec and compared, not read back.
    @Test func verifyComparesTheFramesAndMasksBytes() throws {
        let folder = try Self.temporaryFolder("frames-verify")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.spec(frames: #"{ "fps": 10, "size": [96, 64], "masks": true }"#, trace: "")
            .write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["sweep", "run", "\(folder)/spec.json", "--out", "\(folder)/out"]).status == 0)
        let sample = "\(folder)/out/samples/000001"
        let verified = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "1"])
        #expect(verified.status == 0 && verified.stdout.contains(#""result":"identical""#), "\(verified.stdout)\(verified.stderr)")
        for (file, other) in [("frames/frame-00003.png", "frames/frame-00004.png"), ("masks/mask-00007.png", "masks/mask-00002.png")] {
            let kept = try Data(contentsOf: URL(fileURLWithPath: "\(sample)/\(file)"))
            try Data(contentsOf: URL(fileURLWithPath: "\(sample)/\(other)")).write(to: URL(fileURLWithPath: "\(sample)/\(file)"))
            let tampered = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "1"])
            #expect(tampered.status == 3 && tampered.stdout.contains("\(file): byte "), "\(tampered.stdout)")
            try kept.write(to: URL(fileURLWithPath: "\(sample)/\(file)"))
        }
        let meta = try String(contentsOfFile: "\(sample)/meta.json", encoding: .utf8)
        try meta.replacingOccurrences(of: #""fps":10"#, with: #""fps":7"#).write(toFile: "\(sample)/meta.json", atomically: true, encoding: .utf8)
        // meta.json is written again and compared, not read back: an edited rate differs.
        let bad = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "1"])
        #expect(bad.status == 3 && bad.stderr.contains("meta.json: at \"fps\": written 7, now 10"), "\(bad.stderr)")
        // A done.json that no longer lists meta.json: its files are the spec's, so it differs.
        try meta.write(toFile: "\(sample)/meta.json", atomically: true, encoding: .utf8)
        let done = try String(contentsOfFile: "\(sample)/done.json", encoding: .utf8)
        try done.replacingOccurrences(of: #","meta.json""#, with: "").write(toFile: "\(sample)/done.json", atomically: true, encoding: .utf8)
        let unlisted = try CLI.run(["sweep", "verify", "\(folder)/out", "--sample", "1"])
        #expect(unlisted.status == 3 && unlisted.stderr.contains("done.json: at \"files["), "\(unlisted.stderr)")
    }

    /// What a sample cannot draw is refused by `plan` before anything runs, naming the file, the
    /// line and the field.
    @Test(arguments: [
        (#"{ "fps": 25 }"#, ":7: outputs.frames.fps", "25 does not divide the scene's step rate 120"),
        (#"{ "fps": 0 }"#, ":7: outputs.frames.fps", "must be"),
        (#"{ "size": [256, 0] }"#, ":7: outputs.frames.size[1]", "must be"),
        (#"{ "size": [256] }"#, ":7: outputs.frames.size", "[width, height]"),
        (#"{ "format": "gif" }"#, ":7: outputs.frames.format", #"must be one of "png", "mp4", "webm", got "gif""#),
        (#"{ "mask": true }"#, ":7: outputs.frames.mask", "did you mean 'masks'?"),
        (#"{ "masks": 1 }"#, ":7: outputs.frames.masks", "must be"),
    ])
    func framesASampleCannotDrawAreRefusedAtPlan(frames: String, place: String, message: String) throws {
        let plan = try Self.plan(Self.spec(frames: frames))
        #expect(plan.status == 65 && plan.stderr.contains(place) && plan.stderr.contains(message), "\(plan.stderr)")
        #expect(plan.stdout.isEmpty)
    }

    /// Frame N shows step N × rate / fps, so a length between two frames is refused for the sample.
    @Test func aLengthThatIsNotAWholeNumberOfFramesIsRefused() throws {
        let plan = try Self.plan(Self.spec(frames: #"{ "fps": 12 }"#).replacingOccurrences(of: #""seconds": 1,"#, with: #""seconds": 1.05,"#))
        #expect(plan.status == 65 && plan.stderr.contains("sample 0") && plan.stderr.contains("outputs.frames.fps: the sample's 126 steps are not a whole number of frames of 10 steps"),
                "\(plan.stderr)")
    }

    @Test func aStillImageBesideFramesIsRefused() throws {
        let plan = try Self.plan(Self.spec(frames: #"{ "fps": 30 }"#, trace: #""image": true,"#))
        #expect(plan.status == 65 && plan.stderr.contains("spec.json:6: outputs.image: the frames end with the last frame"), "\(plan.stderr)")
    }

    /// `cratedrop sweep plan` of `spec`, written as `spec.json` in a folder of its own (removed after).
    static func plan(_ spec: String) throws -> CLI.Result {
        let folder = try temporaryFolder("plan")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try spec.write(toFile: "\(folder)/spec.json", atomically: true, encoding: .utf8)
        return try CLI.run(["sweep", "plan", "\(folder)/spec.json"])
    }

    static func temporaryFolder(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
