// swift-tools-version: 6.1
// A program that uses CrateDrop as a library: the book scene built in code and driven by the
// fixed-step driver from a simulated 60 fps frame clock. CI builds and tests it (scripts/test).
import PackageDescription

let package = Package(
    name: "BookDrop",
    dependencies: [
        .package(name: "CrateDrop", path: "../.."),
    ],
    targets: [
        .target(
            name: "BookDrop",
            dependencies: [
                .product(name: "CrateDropPhysics", package: "CrateDrop"),
                .product(name: "CrateDropDriver", package: "CrateDrop"),
                .product(name: "CrateDropSession", package: "CrateDrop"),
            ]
        ),
        .testTarget(name: "BookDropTests", dependencies: ["BookDrop"]),
    ]
)
