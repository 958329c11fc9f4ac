import Foundation
import TestSupport
import Testing

/// Every ffmpeg, ffplay and video recipe in the README and in `run --help`, run as written on a
/// shorter render (`--seconds 10` becomes `--seconds 1`) and checked with ffprobe.
@Suite struct RecipeTests {
    struct Recipe: Sendable, CustomStringConvertible {
        var lines: [String]
        var output: String
        var frames: Int
        var frameRate: String
        var description: String { lines.joined(separator: "; ") }
    }

    static let readme = (try? String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    static let runHelp = (try? CLI.run(["run", "--help"]).stdout) ?? ""

    static let readmeRecipes = [
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out crates.mp4"], output: "crates.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --fps 25 --size 300x300 --out crates.gif"],
               output: "crates.gif", frames: 25, frameRate: "25/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out crates.webm"], output: "crates.webm", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out frames",
                       "ffmpeg -y -framerate 60 -i frames/frame-%05d.ppm -c:v libx264 -pix_fmt yuv420p crates.mp4"],
               output: "crates.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out - | ffmpeg -y -f image2pipe -framerate 60 -c:v ppm -i - -c:v libx264 -pix_fmt yuv420p crates.mp4"],
               output: "crates.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/pile-colors.json --out pile.mp4"], output: "pile.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/pile-colors.json --seconds 4 --out debug.mp4 --overlay aabb,contacts,ids"],
               output: "debug.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/pile-100.json --seconds 10 --out pile.mp4 --trace pile.csv --stats pile-stats.jsonl"],
               output: "pile.mp4", frames: 60, frameRate: "60/1"),
    ]

    static let helpRecipes = [
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out crates.mp4"], output: "crates.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --fps 25 --out crates.gif"], output: "crates.gif", frames: 25, frameRate: "25/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --out - | ffmpeg -y -f image2pipe \\\n    -framerate 60 -c:v ppm -i - -c:v libx264 -pix_fmt yuv420p crates.mp4"],
               output: "crates.mp4", frames: 60, frameRate: "60/1"),
    ]

    /// No example in `run --help` is wrapped by the help's 80-column layout: a wrapped line would
    /// continue at column 0 inside the indented Examples block.
    @Test func helpExamplesAreNotWrapped() throws {
        let examples = try #require(Self.runHelp.components(separatedBy: "Examples:\n").last)
        let block = examples.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        #expect(block.count >= 8)
        let wrapped = block.filter { !$0.hasPrefix("  ") }
        #expect(wrapped.isEmpty, "\(wrapped)")
    }

    /// A scratch directory holding a link to the shipped scenes, as a user's working copy would.
    static func workDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recipe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/Scenes", withDestinationPath: Repository.path("Scenes"))
        return directory
    }

    /// The recipe on a 1 s render: its `--seconds N` made 1, or `--seconds 1` added after the scene.
    static func shortened(_ line: String) -> String {
        guard line.hasPrefix("cratedrop run ") else { return line }
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if let at = words.firstIndex(of: "--seconds") {
            words[at + 1] = "1"
        } else {
            words.insert(contentsOf: ["--seconds", "1"], at: 3)
        }
        return words.joined(separator: " ")
    }

    static func check(_ recipe: Recipe) throws {
        let directory = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for line in recipe.lines {
            let result = try CLI.recipe(shortened(line), in: directory)
            #expect(result.status == 0, "\(line): \(result.stderr)")
        }
        let probe = try VideoProbe("\(directory)/\(recipe.output)")
        let seconds = Double(recipe.frames) / Double(recipe.frameRate.split(separator: "/")[0])!
        #expect(probe.frames == recipe.frames && probe.frameRate == recipe.frameRate, "\(recipe)")
        #expect(abs(probe.duration - seconds) < 0.05, "\(recipe): duration \(probe.duration)")
    }

    @Test(.timeLimit(.minutes(2)), arguments: readmeRecipes)
    func readmeRecipesMakeWhatTheySay(recipe: Recipe) throws {
        for line in recipe.lines { #expect(Self.readme.contains(line), "the README no longer shows: \(line)") }
        try Self.check(recipe)
    }

    @Test(.timeLimit(.minutes(2)), arguments: helpRecipes)
    func helpRecipesMakeWhatTheySay(recipe: Recipe) throws {
        for line in recipe.lines { #expect(Self.runHelp.contains(line), "run --help no longer shows: \(line)") }
        try Self.check(recipe)
    }

    /// The live-view recipes: ffplay plays the whole stream and exits (-autoexit added, so the test
    /// ends; SDL's dummy video driver stands in for a display).
    @Test(.timeLimit(.minutes(1)))
    func liveViewRecipesPlayToTheEnd() throws {
        let stream = "cratedrop run Scenes/book.json --realtime --out - | ffplay -f image2pipe -framerate 60 -vcodec ppm -i -"
        #expect(Self.readme.contains(stream))
        let directory = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dummy = ["SDL_VIDEODRIVER": "dummy"]
        let played = try CLI.recipe(Self.shortened(stream) + " -autoexit -loglevel error", in: directory, environment: dummy)
        #expect(played.status == 0, "\(played.stderr)")
        let view = "cratedrop run Scenes/pile-100.json --realtime --view"
        #expect(Self.readme.contains(view) && Self.runHelp.contains(view))
        let viewed = try CLI.recipe(view.replacingOccurrences(of: "--view", with: "--view --seconds 1"), in: directory, environment: dummy)
        #expect(viewed.status == 0, "\(viewed.stderr)")
        let summary = try JSONFields(viewed.stdout.trimmingCharacters(in: .newlines))
        // Every frame of the second reached the window, or was skipped (counted) while it was busy.
        let render = try summary.object("render")
        let offered = (render.number("frames_written") ?? 0) + (render.number("frames_skipped") ?? 0)
        #expect(offered >= 60 && offered <= (summary.number("frames") ?? 0))
        #expect((render.number("frames_written") ?? 0) >= 30)
    }
}
