#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CLISupport
import Bench
import FileIO
import Foundation
import SceneFile
import Physics
import SceneModel

@main
struct CrateDropBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cratedrop bench",
        abstract: "Measures stepping against plain C in the same run, snapshot copies, drawing and writing.",
        discussion: """
            For each scene: µs per step through CrateDrop's world and through a small C program stepping the same scene against the same libchipmunk, in alternating repetitions after an untimed warm-up; their ratio; the snapshot copy's share of a step; draw time per frame, file-write time per frame and stream throughput at 1280x720; peak memory. Both sides must reach the same state hash (exit 1 otherwise). Medians with min and max.

            --step-loop runs only the measured stepping loop of one scene, for counting instructions with callgrind (see docs/performance.md, "Benchmarks"); --instructions does that for both sides and prints the instructions per step.

            Examples:
              cratedrop bench
              cratedrop bench --quick --json
              cratedrop bench Scenes/pile-1000.json --instructions
            """
    )

    static let defaultScenes = ["Scenes/book.json", "Scenes/pile-100.json", "Scenes/pile-1000.json",
                                "Scenes/pile-5000.json", "Scenes/tumbler.json"]

    enum Side: String, ExpressibleByArgument, CaseIterable { case swift, c }

    @Argument(help: "Scene files (default: the book scene, the 100, 1000 and 5000-crate piles, the tumbler).", completion: .file())
    var scenes: [String] = []

    @Flag(help: "A few repetitions of a few steps: seconds, for smoke tests.")
    var quick = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Repetitions per scene (default 7, quick 3).", valueName: "N"))
    var repetitions: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Untimed steps before measuring (default 240, quick 10).", valueName: "N"))
    var warmup: Int?

    @Flag(help: "Run only the measured stepping loop of the first scene (for callgrind).")
    var stepLoop = false

    @Option(help: ArgumentHelp("With --step-loop: which side to step.", valueName: "swift|c"))
    var side: Side = .swift

    @Flag(help: "With --step-loop --side swift: the world notes its contact events every step (their cost, counted with callgrind: docs/performance.md).")
    var events = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --step-loop or --instructions: measured steps.", valueName: "N"))
    var steps: Int = 100

    @Flag(help: "Count instructions per step of both sides with valgrind's callgrind.")
    var instructions = false

    @Option(help: ArgumentHelp("With --instructions: also count another cratedrop-bench binary built on the other physics backend and give the ratio (scripts/count-instructions --backends).", valueName: "BINARY"))
    var compareWith: String?

    @Option(help: ArgumentHelp("Encode one 1280x720 frame of the first scene (after 300 steps) as PNG at level N, print the median time and the size as JSON, and write the frame as a PPM to --frame-out (for scripts/bench-outputs).", valueName: "N"))
    var png: Int?

    @Option(help: ArgumentHelp("With --png: where to write the encoded frame as PPM.", valueName: "FILE"))
    var frameOut: String?

    @Option(help: ArgumentHelp("Read a scene whose one wall is this PNG picture (terrain from a picture) --repetitions times (default 30): the median time to walls and the walls' count, as JSON.", valueName: "PNG"))
    var terrain: String?

    @Flag(help: "Saved states of the first scene after --warmup steps (default 600; with --inputs, its lines act meanwhile): median save and restore time in memory and bytes per body, as JSON (CrateDrop's Chipmunk).")
    var stateCost = false

    @Flag(help: "Print the first scene (or 'probe', the determinism probe) as the C baseline's text spec, for scripts/cross-arch.")
    var baselineSpec = false

    @Option(name: [.customLong("inputs"), .customLong("gravity")],
            help: ArgumentHelp("With --baseline-spec: the input stream's timed lines (gravity, bodies' inputs, structural changes) to include; with --step-loop --side c: applied, and the hash printed after every step (the C build's trail).", valueName: "FILE"))
    var gravity: String?

    func validate() throws {
        if let repetitions, !(1...1000).contains(repetitions) { throw ValidationError("--repetitions must be in 1...1000, got \(repetitions)") }
        if let warmup, !(0...1_000_000).contains(warmup) { throw ValidationError("--warmup must be in 0...1000000, got \(warmup)") }
        if !(1...1_000_000).contains(steps) { throw ValidationError("--steps must be in 1...1000000, got \(steps)") }
        if stepLoop, instructions { throw ValidationError("give --step-loop or --instructions, not both") }
        if compareWith != nil, !instructions { throw ValidationError("--compare-with goes with --instructions") }
        if let png, !(0...9).contains(png) { throw ValidationError("--png must be a level in 0...9, got \(png)") }
        if frameOut != nil, png == nil { throw ValidationError("--frame-out goes with --png") }
    }

    var settings: BenchSettings {
        var settings = quick ? BenchSettings.quick : BenchSettings.standard
        if let repetitions { settings.repetitions = repetitions }
        if let warmup { settings.warmupSteps = warmup }
        return settings
    }

    func run() throws {
        // Results go to stdout: the debug build's banner must not (the C baseline's spaces print it too).
        DebugBanner.silence()
        if baselineSpec { return try printBaselineSpec() }
        if let terrain { return try runTerrain(picture: terrain) }
        let paths = scenes.isEmpty ? (stepLoop || instructions ? ["Scenes/pile-1000.json"] : Self.defaultScenes) : scenes
        let loaded = try paths.map { try loadSceneOrExit($0) }
        if stepLoop { return try runStepLoop(loaded[0]) }
        if let png { return try runPNG(loaded[0], level: png) }
        if stateCost { return try runStateCost(loaded[0]) }
        if instructions { return try InstructionCount.report(paths: paths, scenes: loaded, warmup: settings.warmupSteps, steps: steps, json: json,
                                                             other: compareWith) }

        var results: [SceneBenchmark] = []
        for scene in loaded {
            if !json { printError("bench: \(scene.name) ...") }
            results.append(try Benchmark.run(scene: scene, settings: settings))
        }
        let report = BenchReport(settings: settings, results: results, peakMemoryMiB: Benchmark.peakMemoryMiB())
        try StandardOutput.print(json ? report.json() : report.table())
        let mismatched = results.filter { !$0.hashesMatch }
        if !mismatched.isEmpty {
            printError("cratedrop: bench: state hashes differ between CrateDrop and plain C for: \(mismatched.map(\.scene).joined(separator: ", "))")
            for result in mismatched where result.refusedSpawns > 0 {
                printError("cratedrop: bench: \(result.scene): CrateDrop refused \(result.refusedSpawns) spawned crate(s) (a heap where they appear), "
                    + "which the C baseline makes (\(result.cCrates) crates against \(result.crates)): compare scenes whose spawns all succeed")
            }
            throw ExitCode(3)
        }
    }

    /// `--state-cost`: save and restore in memory, each timed alone, median of the repetitions.
    /// Between the two the world takes a step (untimed), so every restore puts back a state the
    /// world has moved on from, as a planner's or a rewind's does. Then, after another step, the
    /// same state's bytes restored as if read from a file (checked in full, without the aid a
    /// state kept in memory carries).
    private func runStateCost(_ scene: Scene) throws {
        guard World.canSaveState else {
            printError("cratedrop: bench: --state-cost needs CrateDrop's Chipmunk, the portable backend (the default of scripts/install and scripts/swiftpm)")
            throw ExitCodes.unavailable
        }
        let world = try makeWorld(scene)
        // With --inputs, its lines act during the warm-up steps (a world that changed: the state's
        // make-up log is saved and restored with it).
        var pending = try gravity.map { try timedInputs(path: $0, scene: scene) }?[...] ?? []
        for _ in 0..<(warmup ?? 600) {
            while let next = pending.first, next.step <= world.stepCount {
                pending.removeFirst()
                switch next.action {
                case let .gravity(gravity): try world.setGravity(gravity)
                case let .body(id, input): try world.apply(input, to: id)
                case let .change(change): try world.apply(change)
                }
            }
            world.step()
        }
        // Wall time, and this thread's CPU time: on a shared machine the second leaves out the
        // time the thread waited for a core.
        func threadSeconds() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let clock = ContinuousClock()
        var saves: [Duration] = [], restores: [Duration] = [], fromBytes: [Duration] = [], saveCPU: [Double] = [], restoreCPU: [Double] = []
        var state = try world.saveState()
        for _ in 0..<(repetitions ?? 51) {
            var cpu = threadSeconds()
            saves.append(try clock.measure { state = try world.saveState() })
            saveCPU.append(threadSeconds() - cpu)
            world.step()
            cpu = threadSeconds()
            restores.append(try clock.measure { try world.restore(state) })
            restoreCPU.append(threadSeconds() - cpu)
            world.step()
            var asFromAFile = state
            asFromAFile.physics = state.physics  // any change to the bytes: checked in full
            fromBytes.append(try clock.measure { try world.restore(asFromAFile) })
        }
        func medianMs(_ values: [Duration]) -> Double {
            let sorted = values.sorted()
            let d = sorted[sorted.count / 2].components
            return Double(d.seconds) * 1e3 + Double(d.attoseconds) / 1e15
        }
        func medianMs(_ values: [Double]) -> Double { values.sorted()[values.count / 2] * 1e3 }
        let bodies = max(1, world.crates.count)
        let report: JSONOutput = [
            "scene": .string(scene.name), "step": .integer(world.stepCount), "bodies": .integer(world.crates.count),
            "save_ms": .number(medianMs(saves)), "restore_ms": .number(medianMs(restores)),
            "save_cpu_ms": .number(medianMs(saveCPU)), "restore_cpu_ms": .number(medianMs(restoreCPU)),
            "restore_from_bytes_ms": .number(medianMs(fromBytes)),
            "physics_bytes": .integer(state.physics.count), "bytes_per_body": .number(Double(state.physics.count) / Double(bodies)),
            "makeup_changes": .integer(world.makeup.count), "state_bytes": .integer(state.bytes.count),
        ]
        try StandardOutput.print(report.text)
    }

    /// `--png N`: one frame's PNG encode time (median of the repetitions) and size.
    private func runPNG(_ scene: Scene, level: Int) throws {
        let result = try PNGBenchmark.run(scene: scene, steps: 300, width: 1280, height: 720, level: level,
                                          repetitions: repetitions ?? 30)
        if let frameOut { try FileDescriptorIO.writeWhole([result.frame.ppmHeader, result.frame.pixels], to: frameOut) }
        let report: JSONOutput = [
            "scene": .string(scene.name), "level": .integer(level), "frame_size": "1280x720",
            "encode_ms": .number(result.milliseconds.median), "bytes": .integer(result.bytes),
        ]
        try StandardOutput.print(report.text)
    }

    /// `--terrain PNG`: a picture to checked walls, the median of the repetitions.
    private func runTerrain(picture: String) throws {
        let result = try sceneOrExit { () throws(SceneLoadError) in try TerrainBenchmark.run(picture: picture, repetitions: repetitions ?? 30) }
        let report: JSONOutput = [
            "picture": .string(picture), "walls": .integer(result.walls), "median_ms": .number(result.milliseconds.median),
            "min_ms": .number(result.milliseconds.min), "max_ms": .number(result.milliseconds.max),
        ]
        try StandardOutput.print(report.text)
    }

    /// Warm-up, then only the measured loop; prints the final state hash.
    private func runStepLoop(_ scene: Scene) throws {
        let world = try makeWorld(scene)
        world.recordsContactEvents = events
        switch side {
        case .swift:
            _ = measuredSwiftStepLoop(world, steps: settings.warmupSteps, snapshots: false)
            _ = measuredSwiftStepLoop(world, steps: steps, snapshots: true)
            try StandardOutput.print("\(world.stepCount) \(world.stateHash)")
        case .c:
            let inputs = try baselineInputs(path: gravity, scene: scene)
            try requireEverySpawn(scene: scene, inputs: inputs, steps: settings.warmupSteps + steps)
            if gravity != nil {
                // Every step's hash with the inputs, as `cratedrop hash --every 1 --inputs` prints it.
                let trail = BaselineRunner.trail(scene: scene, inputs: inputs, steps: settings.warmupSteps + steps)
                for (index, hash) in trail.enumerated() { try StandardOutput.print("\(index + 1) \(hash)") }
                return
            }
            let hash = BaselineRunner.run(scene: scene, warmup: settings.warmupSteps, steps: steps)
            try StandardOutput.print("\(settings.warmupSteps + steps) \(hash)")
        }
    }

    /// `--baseline-spec`: the scene (and its input stream's timed lines, or the probe's settings) as text.
    private func printBaselineSpec() throws {
        guard let path = scenes.first else { throw ValidationError("--baseline-spec needs a scene file or 'probe'") }
        if path == "probe" {
            try StandardOutput.print(String(BaselineSpec.text(scene: DeterminismClass.probeScene,
                                    probe: (DeterminismClass.angleSeed, DeterminismClass.angleCount, DeterminismClass.contactSteps)).dropLast()))
            return
        }
        let scene = try loadSceneOrExit(path)
        let inputs = try baselineInputs(path: gravity, scene: scene)
        try StandardOutput.print(String(BaselineSpec.text(scene: scene, inputs: inputs).dropLast()))
    }
}

/// The timed inputs of `path` (none when nil) for the C baseline, which makes every structural
/// change, breaks joints and releases spawners' crates as CrateDrop's world does.
private func baselineInputs(path: String?, scene: Scene) throws -> [(step: Int, action: InputAction)] {
    try path.map { try timedInputs(path: $0, scene: scene) } ?? []
}

/// Refuses (69) a scene whose spawned crates CrateDrop's world would not all make in `steps`
/// steps with `inputs`: the C baseline has no crowding check and makes every one, so its hashes
/// would part from CrateDrop's without a word. Scenes without spawners cost nothing here.
private func requireEverySpawn(scene: Scene, inputs: [(step: Int, action: InputAction)], steps: Int) throws {
    guard !scene.spawners.isEmpty else { return }
    let refused = try BaselineRunner.refusedSpawns(scene: scene, inputs: inputs, steps: steps)
    guard refused.count > 0 else { return }
    let first = refused.first.map { " (crate \($0.crate) of spawner \($0.spawner), at step \($0.step): \($0.reason))" } ?? ""
    printError("cratedrop-bench: \(scene.name): CrateDrop refuses a spawned crate\(first), which the C baseline would make (it has no "
        + "crowding check), so their hashes would differ: compare scenes whose spawns all succeed")
    throw ExitCodes.unavailable
}
