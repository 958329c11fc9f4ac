// swift-tools-version: 6.1
// A program that uses CrateDrop as a library for rollback netcode: a body steered by inputs, a
// saved state kept for every recent step, and a late input (a remote player's, arriving after
// its step was simulated) handled by restoring the state of its step and simulating forward
// again. CI builds and tests it (scripts/test), on CrateDrop's Chipmunk (saved states).
import PackageDescription

let package = Package(
    name: "Rollback",
    dependencies: [
        .package(name: "CrateDrop", path: "../.."),
    ],
    targets: [
        .target(name: "Rollback", dependencies: [.product(name: "CrateDropPhysics", package: "CrateDrop")]),
        .testTarget(name: "RollbackTests", dependencies: ["Rollback"]),
    ]
)
