import Foundation
import TestSupport
import Testing

/// The README and the pages of `docs/` as a user meets them: every video recipe they show makes what
/// it says (checked with ffprobe), and every shell command of their `sh` blocks runs as written, in
/// order, in a fresh folder laid out like a clone, ends with the documented exit code and writes
/// nothing outside `out/`. Renders are shortened (`--seconds 10` becomes `--seconds 1`; 3 for a real-time run).
///
/// Serialized: each test blocks a thread of the test runner (of which there are as many as cores)
/// for as long as its commands run, and a time limit counts from when the test is started, waiting
/// for a thread included. Beside the in-order run (about 50 s alone, minutes on a busy 2-core
/// machine) the live-view recipes (3 s alone) ran out of their minute; one at a time, each limit
/// is the test's own. Limits: at least twenty times each test's time alone on 2 quiet cores.
@Suite(.serialized) struct RecipeTests {
    struct Recipe: Sendable, CustomStringConvertible {
        var lines: [String]
        var output: String
        var frames: Int
        var frameRate: String
        var description: String { lines.joined(separator: "; ") }
    }

    /// The README, then the pages of `docs/` in the order the README's "Documentation" list links them.
    static let pages: [String] = {
        let readme = (try? String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        let list = readme.components(separatedBy: "\n## Documentation\n").last ?? ""
        var linked: [String] = []
        for part in list.components(separatedBy: "](docs/").dropFirst() {
            let name = String(part.prefix { $0 != ")" })
            if !linked.contains(name) { linked.append(name) }
        }
        return ["README.md"] + linked.map { "docs/\($0)" }
    }()

    static func text(of page: String) -> String {
        (try? String(contentsOf: Repository.root.appendingPathComponent(page), encoding: .utf8)) ?? ""
    }

    static let documentation = pages.map(text(of:)).joined(separator: "\n")
    static let runHelp = (try? CLI.run(["run", "--help"]).stdout) ?? ""

    static let docRecipes = [
        Recipe(lines: ["cratedrop run Scenes/book.json --out out/first.mp4"], output: "out/first.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/tumbler.json --seconds 10 --fps 25 --size 300x300 --out out/tumbler.gif"],
               output: "out/tumbler.gif", frames: 25, frameRate: "25/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --fps 25 --size 300x300 --out out/book.gif"],
               output: "out/book.gif", frames: 25, frameRate: "25/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out out/book.webm"], output: "out/book.webm", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out out/book-slow.mkv --encoder-args \"-c:v libx264 -preset slow -crf 16 -pix_fmt yuv420p\""],
               output: "out/book-slow.mkv", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out out/book-frames",
                       "ffmpeg -loglevel error -framerate 60 -i out/book-frames/frame-%05d.ppm -c:v libx264 -pix_fmt yuv420p out/book-from-frames.mp4"],
               output: "out/book-from-frames.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out - | ffmpeg -y -loglevel error -f image2pipe -framerate 60 -c:v ppm -i - -c:v libx264 -pix_fmt yuv420p out/book-from-stream.mp4"],
               output: "out/book-from-stream.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/pile-colors.json --out out/pile-colors.mp4"], output: "out/pile-colors.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/pile-colors.json --seconds 4 --out out/debug.mp4 --overlay aabb,contacts,ids"],
               output: "out/debug.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/pile-100.json --seconds 10 --out out/pile.mp4 --trace out/pile.csv --stats out/pile-stats.jsonl"],
               output: "out/pile.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run out/ramp.json --seconds 5 --out out/ramp.mp4"], output: "out/ramp.mp4", frames: 60, frameRate: "60/1"),
    ]

    static let helpRecipes = [
        Recipe(lines: ["cratedrop run Scenes/book.json --seconds 10 --out out/crates.mp4"], output: "out/crates.mp4", frames: 60, frameRate: "60/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --out out/crates.gif"], output: "out/crates.gif", frames: 50, frameRate: "50/1"),
        Recipe(lines: ["cratedrop run Scenes/book.json --out - | ffmpeg -y -f image2pipe \\\n    -framerate 60 -c:v ppm -i - -c:v libx264 -pix_fmt yuv420p out/s.mp4"],
               output: "out/s.mp4", frames: 60, frameRate: "60/1"),
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

    /// A scratch directory laid out as a fresh clone as far as the documentation's commands reach: a
    /// copy of the shipped scenes (a command that wrote into them would not touch the repository),
    /// and with `outFolder`, the `out/` folder the README's `mkdir -p out` makes.
    static func workDirectory(outFolder: Bool = true) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recipe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repository.path("Scenes"), toPath: "\(directory)/Scenes")
        try FileManager.default.copyItem(atPath: Repository.path("Sweeps"), toPath: "\(directory)/Sweeps")
        if outFolder { try FileManager.default.createDirectory(atPath: "\(directory)/out", withIntermediateDirectories: false) }
        return directory
    }

    /// The command on 1 s renders: in each `cratedrop run` of it (a pipeline may hold one after a
    /// `|`), `--seconds N` made 1, or `--seconds 1` added after the scene (3 for `--realtime`). A still image
    /// (`--at T`) is left as written: it draws one frame, and its run must reach T.
    static func shortened(_ line: String) -> String {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var at = 0
        while at + 2 < words.count {
            defer { at += 1 }
            guard words[at] == "cratedrop", words[at + 1] == "run" else { continue }
            let end = words[at...].firstIndex { $0 == "|" || $0 == ">" || $0 == "2>" } ?? words.count
            if words[at..<end].contains("--at") { continue }
            // A real-time run steps by the wall clock and drops what a busy machine keeps it from
            // (58 steps of 1 s's 120 seen beside other work), and the next command may replay from
            // its step 60: 3 s.
            let length = words[at..<end].contains("--realtime") ? "3" : "1"
            if let seconds = words[at..<end].firstIndex(of: "--seconds"), seconds + 1 < end {
                words[seconds + 1] = length
            } else {
                words.insert(contentsOf: ["--seconds", length], at: at + 3)
            }
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
        try probe(recipe, in: directory)
    }

    static func probe(_ recipe: Recipe, in directory: String) throws {
        let probe = try VideoProbe("\(directory)/\(recipe.output)")
        let seconds = Double(recipe.frames) / Double(recipe.frameRate.split(separator: "/")[0])!
        #expect(probe.frames == recipe.frames && probe.frameRate == recipe.frameRate, "\(recipe)")
        #expect(abs(probe.duration - seconds) < 0.05, "\(recipe): duration \(probe.duration)")
    }

    @Test(.timeLimit(.minutes(3)), arguments: docRecipes)
    func documentedRecipesMakeWhatTheySay(recipe: Recipe) throws {
        for line in recipe.lines { #expect(Self.documentation.contains(line), "the README and docs/ no longer show: \(line)") }
        if recipe.lines[0].contains("out/ramp.json") {
            // The scene the README writes first.
            let directory = try Self.workDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let written = try #require(Self.commands(in: "README.md").first { $0.text.hasPrefix("cat > out/ramp.json") })
            #expect(try CLI.recipe(written.text, in: directory).status == 0)
            for line in recipe.lines { #expect(try CLI.recipe(Self.shortened(line), in: directory).status == 0, "\(line)") }
            try Self.probe(recipe, in: directory)
            return
        }
        try Self.check(recipe)
    }

    @Test(.timeLimit(.minutes(3)), arguments: helpRecipes)
    func helpRecipesMakeWhatTheySay(recipe: Recipe) throws {
        for line in recipe.lines { #expect(Self.runHelp.contains(line), "run --help no longer shows: \(line)") }
        try Self.check(recipe)
    }

    /// The live-view recipes: ffplay plays the whole stream and exits (-autoexit added, so the test
    /// ends; SDL's dummy video driver stands in for a display).
    @Test(.timeLimit(.minutes(3)))
    func liveViewRecipesPlayToTheEnd() throws {
        let stream = "cratedrop run Scenes/book.json --realtime --out - | ffplay -autoexit -f image2pipe -framerate 60 -vcodec ppm -i -"
        #expect(Self.documentation.contains(stream))
        let directory = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dummy = ["SDL_VIDEODRIVER": "dummy"]
        let played = try CLI.recipe(Self.shortened(stream) + " -loglevel error", in: directory, environment: dummy)
        #expect(played.status == 0, "\(played.stderr)")
        let view = "cratedrop run Scenes/pile-100.json --realtime --view"
        #expect(Self.documentation.contains(view) && Self.runHelp.contains(view))
        let viewed = try CLI.recipe(view.replacingOccurrences(of: "--view", with: "--view --seconds 1"), in: directory, environment: dummy)
        #expect(viewed.status == 0, "\(viewed.stderr)")
        let summary = try JSONFields(viewed.stdout.trimmingCharacters(in: .newlines))
        // Every one of the second's 60 frame slots reached the window, or was skipped (counted)
        // while it was busy: as many as an offline run draws, however many frames the loop itself
        // took (on a loaded machine a late frame takes several steps, and the presenter sends it
        // for each slot it passed), so not bounded by the summary's frame count.
        let render = try summary.object("render")
        let offered = (render.number("frames_written") ?? 0) + (render.number("frames_skipped") ?? 0)
        #expect(offered == 60, "\(viewed.stdout)")
        #expect((render.number("frames_written") ?? 0) >= 30)
    }

    // MARK: Every command of the documentation, in order

    /// A shell command as a page shows it: continuation lines joined, a here-document kept whole.
    struct Command: Sendable, CustomStringConvertible {
        var page: String
        var text: String
        /// The exit status its `# exit N` comment documents; 0 without one.
        var status: Int32
        /// With `# exit N on Debian's library`: N there, `status` (0) on the portable backend.
        var statusOnDebian: Int32?
        var description: String { "\(page): \(text)" }
    }

    /// Commands the in-order run does not execute, each with why. Everything else in an `sh` block runs.
    static let skipped: [(prefix: String, reason: String)] = [
        ("scripts/", "builds a release, installs packages or measures for minutes; scripts/test runs what CI needs"),
        ("cratedrop serve ", "serves until Ctrl-C; ServeCommandTests and scripts/browser-test run the server"),
        ("Backends/wasm/build", "builds the wasm core for minutes; scripts/wasm-test builds and checks it"),
        ("cratedrop page ", "needs the wasm build (Backends/wasm/build, minutes); scripts/wasm-test writes such pages and drives them in Chromium"),
        ("python3 -m http.server ", "serves until Ctrl-C; scripts/wasm-test serves the page to Chromium itself"),
        ("python3 -m venv .venv && .venv/bin/pip install dist/", "installs the wheel scripts/wheel builds (minutes); Tests/Python/wheel_test.py installs it into a fresh venv and runs the README's example"),
        ("cratedrop run Scenes/pile-100.json --realtime --view", "needs a display; liveViewRecipesPlayToTheEnd plays it with SDL's dummy driver"),
        ("cratedrop run Scenes/book.json --realtime --out - | ffplay ", "needs a display; liveViewRecipesPlayToTheEnd plays it with SDL's dummy driver"),
        ("SPEC=Sweeps/pile-seeds.json OUT=out/slurm-sweep sbatch ", "needs a Slurm cluster; scripts/slurm-test runs this recipe on a single-node Slurm it starts"),
        ("kubectl ", "needs a Kubernetes cluster; scripts/sweep-recipes-test checks the manifest and runs its command as each pod would"),
        ("parallel --joblog ", "scripts/sweep-recipes-test runs it, with a shard killed and resumed, after installing GNU parallel"),
        ("GLIBC_TUNABLES=", "what it shows depends on the CPU's glibc and on the library (Debian's parts with FMA masked); DeterminismClassTests cover the classes"),
    ]

    static func skipReason(_ command: Command) -> String? {
        skipped.first { command.text.hasPrefix($0.prefix) }?.reason
    }

    /// The commands of the `sh` blocks of `page`, in order. Lines starting with `#` are comments.
    static func commands(in page: String) -> [Command] {
        var commands: [Command] = []
        var inBlock = false, hereEnd: String?, current = ""
        for line in text(of: page).components(separatedBy: "\n") {
            if !inBlock {
                if line == "```sh" { inBlock = true }
                continue
            }
            if let end = hereEnd {
                current += "\n" + line
                if line == end { hereEnd = nil; commands.append(command(page, current)); current = "" }
                continue
            }
            if line == "```" { inBlock = false; continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current.isEmpty, trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            current += current.isEmpty ? line : "\n" + line
            if let here = line.range(of: "<<'") {
                hereEnd = String(line[here.upperBound...].prefix { $0 != "'" })
            } else if !line.hasSuffix("\\") {
                commands.append(command(page, current))
                current = ""
            }
        }
        return commands
    }

    private static func command(_ page: String, _ text: String) -> Command {
        var status: Int32 = 0, statusOnDebian: Int32?
        if let comment = text.range(of: "# exit ", options: .backwards) {
            let number = text[comment.upperBound...].prefix { $0.isNumber }
            let documented = Int32(number) ?? -1
            if text[comment.upperBound...].dropFirst(number.count).hasPrefix(" on Debian's library") {
                statusOnDebian = documented
            } else {
                status = documented
            }
        }
        return Command(page: page, text: text, status: status, statusOnDebian: statusOnDebian)
    }

    /// Whether the suite runs on the portable backend (`scripts/swiftpm test`, the default).
    static let portable = (try? CLI.run(["platform"]).stdout.contains("portable backend")) == true

    /// Every file under `directory`, as paths relative to it (folders end in `/`).
    static func files(under directory: String) -> Set<String> {
        var found: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: "\(directory)/\(path)", isDirectory: &isFolder)
            found.insert(isFolder.boolValue ? path + "/" : path)
        }
        return found
    }

    /// Every page the README links is in docs/, and every page in docs/ is linked, so none is left out.
    @Test func everyDocsPageIsLinkedAndRead() throws {
        let inFolder = try FileManager.default.contentsOfDirectory(atPath: Repository.path("docs")).filter { $0.hasSuffix(".md") }
        #expect(Set(Self.pages.dropFirst()) == Set(inFolder.map { "docs/\($0)" }))
        #expect(Self.pages.count >= 10)
        for page in Self.pages { #expect(!Self.text(of: page).isEmpty, "\(page) is empty or missing") }
    }

    /// The parser sees what a reader sees: here-documents whole, continuations joined, `# exit N` read.
    @Test func commandsAreReadAsWritten() {
        let all = Self.pages.flatMap(Self.commands(in:))
        #expect(all.count >= 40)
        let scene = all.first { $0.text.hasPrefix("cat > out/ramp.json <<'EOF'") }
        #expect(scene?.text.hasSuffix("\nEOF") == true && scene?.text.contains("\"crates\"") == true)
        #expect(all.contains { $0.status == 3 } && all.contains { $0.status == 65 } && all.contains { $0.status == 64 })
        #expect(!all.contains { $0.text.hasPrefix("#") || $0.text.hasSuffix("\\") })
    }

    /// Every command of the README and docs/, in order, in one fresh folder: each ends with its
    /// documented status, and afterwards nothing exists outside out/ and the scenes are unchanged.
    @Test(.timeLimit(.minutes(20)))
    func documentationRunsInOrderInAFreshFolder() throws {
        let directory = try Self.workDirectory(outFolder: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenesBefore = Self.files(under: "\(directory)/Scenes")
        var ran = 0
        for command in Self.pages.flatMap(Self.commands(in:)) where Self.skipReason(command) == nil {
            let result = try CLI.recipe(Self.shortened(command.text), in: directory)
            let expected = Self.portable ? command.status : command.statusOnDebian ?? command.status
            #expect(result.status == expected, "\(command) ended with \(result.status): \(result.stderr.suffix(600))")
            ran += 1
        }
        #expect(ran >= 40)
        let outside = try FileManager.default.contentsOfDirectory(atPath: directory).filter { !["out", "Scenes", "Sweeps"].contains($0) }
        #expect(outside.isEmpty, "files written outside out/: \(outside)")
        #expect(Self.files(under: "\(directory)/Scenes") == scenesBefore)
        for name in scenesBefore where !name.hasSuffix("/") {
            let copy = FileManager.default.contents(atPath: "\(directory)/Scenes/\(name)")
            #expect(copy == FileManager.default.contents(atPath: Repository.path("Scenes/\(name)")), "Scenes/\(name) changed")
        }
    }
}
