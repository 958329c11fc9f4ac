// swift-tools-version: 6.1
import PackageDescription

// Layers, each depending only on those before it (docs/architecture.md):
//   SceneModel (values, no deps), FileIO and Queues (plumbing)
//   CChipmunk, CBodyScan (C) -> Physics (the world; value snapshots out)
//   SceneFile parses JSON into SceneModel (with Physics to trace terrain pictures and decompose
//   outlines, CSpng to decode pictures)
//   Driver (fixed steps), InputLines (the input grammar) -> Script (input files, records, state files)
//   Raster (drawing snapshots into pixels: core, so Python draws as the CLI does) -> Outputs (the render
//   pipeline and frame sinks; CPipe, CDeflate)
//   Session (one run: the world, the driver, its inputs and outputs) -> Sweep (many runs), Serve (the live page)
//   CLISupport -> cratedrop (CLI);  CBaseline (C) -> Bench -> cratedrop-bench
let package = Package(
    name: "CrateDrop",
    products: [
        .executable(name: "cratedrop", targets: ["cratedrop"]),
        .executable(name: "cratedrop-bench", targets: ["cratedrop-bench"]),
        // One product per layer, as swift-nio does, so a program imports only what it uses
        // (README, "Use CrateDrop from Swift").
        .library(name: "CrateDropPhysics", targets: ["SceneModel", "SceneFile", "Physics"]),
        .library(name: "CrateDropDriver", targets: ["Driver"]),
        .library(name: "CrateDropSession", targets: ["Session"]),
        .library(name: "CrateDropScript", targets: ["Script"]),
        .library(name: "CrateDropRaster", targets: ["Raster"]),
        .library(name: "CrateDropOutputs", targets: ["Outputs"]),
        .library(name: "CrateDropSweep", targets: ["Sweep"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // API documentation (scripts/docs): DocC through SwiftPM, built offline.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Typed errno values and the write loop for FileIO.
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        // `cratedrop serve`: HTTP and WebSocket (README, "Live in a browser").
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CChipmunk",
            providers: [.apt(["libchipmunk-dev"])]
        ),
        .systemLibrary(
            name: "CSpng",
            providers: [.apt(["libspng-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CDeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .target(name: "SceneModel"),
        // Physics for a terrain picture's tracing and an outline's decomposition (Chipmunk's autogeometry), CSpng to decode the picture.
        .target(name: "SceneFile", dependencies: ["SceneModel", "FileIO", "Physics", "CSpng"]),
        // Scans of every body in one C loop, reading Chipmunk's structs out of the Swift module's sight.
        .target(name: "CBodyScan"),
        .target(name: "Physics", dependencies: ["CChipmunk", "CBodyScan", "SceneModel", "FileIO"]),
        .target(name: "Driver", dependencies: ["SceneModel"]),
        // One run's wiring: the world driven with gravity streams, records and verification.
        .target(name: "Session", dependencies: ["Driver", "Physics", "SceneModel", "SceneFile", "Script", "Raster", "Outputs", "FileIO"]),
        .target(name: "Queues"),
        // Sweeps: many runs from one spec, sharded, each sample's folder crash-safe; merge and verify.
        .target(name: "Sweep", dependencies: ["Session", "Physics", "SceneModel", "SceneFile", "Script", "Driver", "Raster", "Outputs", "FileIO"]),
        // The live run in a browser: real-time loop, HTTP and WebSocket server, the page.
        .target(
            name: "Serve",
            dependencies: ["Session", "LiveProtocol", "Physics", "Script", "SceneModel", "SceneFile", "FileIO",
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio")],
            resources: [.copy("Page")]
        ),
        // POSIX file output: write loops and the rules every output file follows.
        .target(name: "FileIO", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // The input-line grammar (gravity, pushes, drags, changes): core, compiled for wasm too.
        .target(name: "InputLines", dependencies: ["SceneModel", "SceneFile"]),
        // The C ABI over the core (handles, caller buffers, error text): the wasm page's and Python's
        // way in (Backends/wasm/build compiles it as Embedded Swift; natively it is tested here).
        .target(name: "CoreABI", dependencies: ["Driver", "InputLines", "LiveProtocol", "Physics", "Raster", "RecordLines", "SceneFile", "SceneModel"]),
        // What a live page is told (the scene, its parts as they change) and may ask (tilts, drags,
        // drops): core, so the server and the page's own engine say it with the same code.
        .target(name: "LiveProtocol", dependencies: ["Physics", "SceneFile", "SceneModel"]),
        // A run record's lines (header, scene, inputs, checkpoints, end) and a record kept in
        // memory: core, so the CLI's record files and the page's own engine write them with the same code.
        .target(name: "RecordLines", dependencies: ["Physics", "SceneFile", "SceneModel"]),
        .target(name: "Script", dependencies: ["InputLines", "RecordLines", "SceneModel", "SceneFile", "Queues", "FileIO"]),
        // Drawing a snapshot into pixels: core (Embedded-clean), so the library draws what the CLI draws.
        .target(name: "Raster", dependencies: ["SceneModel"]),
        // Where frames go: frame files (PPM, PNG through libspng), the PPM stream, video through ffmpeg.
        .target(name: "CPipe"),
        .target(name: "Outputs", dependencies: ["Raster", "SceneModel", "SceneFile", "Queues", "FileIO", "CDeflate", "CPipe"]),
        // The benchmark's yardstick: the same scenes stepped by plain C against the same library.
        .target(name: "CBaseline", linkerSettings: [.linkedLibrary("chipmunk")]),
        .target(name: "Bench", dependencies: ["CBaseline", "Physics", "Driver", "Raster", "Outputs", "SceneModel", "SceneFile", "FileIO"]),
        // What the command-line programs share: exit codes, diagnostics, checked stdout.
        .target(
            name: "CLISupport",
            dependencies: ["SceneModel", "SceneFile", "Physics", "Script", "FileIO",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "cratedrop",
            dependencies: [
                "SceneModel", "SceneFile", "Physics", "Driver", "Session", "Raster", "Outputs", "Script", "FileIO", "CLISupport", "LiveProtocol", "Serve", "Sweep",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmark and its C baseline, kept out of the shipped cratedrop (`cratedrop bench` runs it).
        .executableTarget(
            name: "cratedrop-bench",
            dependencies: [
                "Bench", "CLISupport", "SceneModel", "SceneFile", "Physics", "FileIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzz targets (scripts/fuzz builds them with libFuzzer; a plain build replays a corpus).
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        .executableTarget(
            name: "SceneFuzzer", dependencies: ["Physics", "SceneFile", "SceneModel", "FuzzSupport"], path: "Fuzz/SceneFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "GravityFuzzer", dependencies: ["Physics", "Script", "SceneModel", "FuzzSupport"], path: "Fuzz/GravityFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "StateFuzzer", dependencies: ["Physics", "SceneFile", "SceneModel", "Script", "FuzzSupport"], path: "Fuzz/StateFuzzer",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["SceneModel", "SceneFile"],
            path: "Tests/TestSupport"
        ),
        .executableTarget(
            name: "leak-check",
            dependencies: ["Physics", "SceneFile", "SceneModel"],
            path: "Tests/LeakCheck"
        ),
        .testTarget(name: "SceneModelTests", dependencies: ["SceneModel"]),
        .testTarget(name: "CoreABITests", dependencies: ["CoreABI", "Physics", "Raster", "SceneFile", "SceneModel", "TestSupport"]),
        .testTarget(name: "SceneFileTests", dependencies: ["SceneFile", "SceneModel", "TestSupport"]),
        .testTarget(
            name: "PhysicsTests",
            dependencies: ["Physics", "SceneModel", "SceneFile", "TestSupport"],
            exclude: ["Golden"]
        ),

        .testTarget(name: "QueuesTests", dependencies: ["Queues"]),
        .testTarget(name: "BenchTests", dependencies: ["Bench", "CBaseline", "SceneModel", "TestSupport"]),
        .testTarget(name: "RecordLinesTests", dependencies: ["RecordLines", "InputLines", "SceneModel"]),
        .testTarget(name: "ScriptTests", dependencies: ["Script", "SceneModel", "TestSupport"]),
        // With Outputs: the render pipeline is tested with the drawing tests' little scenes.
        .testTarget(name: "RasterTests", dependencies: ["Raster", "Outputs", "SceneModel", "TestSupport"]),
        .testTarget(name: "OutputsTests", dependencies: ["Outputs", "Raster", "SceneModel", "TestSupport", "CSpng", "CZlib"]),
        .testTarget(name: "DriverTests", dependencies: ["Driver", "Session", "Physics", "SceneModel", "Script", "TestSupport"]),
        .testTarget(name: "ServeTests", dependencies: ["Serve", "LiveProtocol", "Session", "Physics", "SceneFile", "SceneModel", "TestSupport"]),
        .testTarget(name: "SweepTests", dependencies: ["Sweep", "Session", "SceneFile", "SceneModel", "Script", "Physics", "FileIO", "TestSupport"]),
        .testTarget(name: "SessionTests", dependencies: ["Session", "Outputs", "Physics", "Raster", "SceneModel", "Script", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["cratedrop", "cratedrop-bench", "TestSupport"], exclude: ["Golden"]),
    ]
)
