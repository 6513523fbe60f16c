// swift-tools-version:6.0
import PackageDescription

// The renderer runs on every prompt: on Linux release builds it is a fully static executable
// (FoundationEssentials only). The flag must be in both swift and linker settings.
let staticOnLinuxRelease: [SwiftSetting] = [
    .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))
]
let staticLinkOnLinuxRelease: [LinkerSetting] = [
    .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "headroom",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "headroom", targets: ["headroom"]),
        .executable(name: "headroom-fetch", targets: ["headroom-fetch"]),
    ],
    targets: [
        // Renderer side: FoundationEssentials only.
        .target(name: "HeadroomCore"),
        .target(name: "HeadroomTemplate", dependencies: ["HeadroomCore"]),
        .target(name: "HeadroomAdapters", dependencies: ["HeadroomCore", "HeadroomTemplate"]),
        .target(name: "HeadroomCLI", dependencies: ["HeadroomCore", "HeadroomTemplate", "HeadroomAdapters"]),
        .executableTarget(
            name: "headroom", dependencies: ["HeadroomCLI"],
            swiftSettings: staticOnLinuxRelease, linkerSettings: staticLinkOnLinuxRelease),

        // Network side: Foundation + FoundationNetworking, started detached by the renderer.
        .target(name: "HeadroomFetch", dependencies: ["HeadroomCore"]),
        .executableTarget(name: "headroom-fetch", dependencies: ["HeadroomFetch"]),

        // Tests.
        .target(name: "HeadroomTestSupport", dependencies: ["HeadroomCore"], path: "Tests/HeadroomTestSupport"),
        .testTarget(name: "HeadroomCoreTests", dependencies: ["HeadroomCore", "HeadroomTestSupport"]),
        .testTarget(name: "HeadroomTemplateTests", dependencies: ["HeadroomTemplate", "HeadroomTestSupport"]),
        .testTarget(name: "HeadroomAdaptersTests", dependencies: ["HeadroomAdapters", "HeadroomTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "HeadroomFetchTests", dependencies: ["HeadroomFetch", "HeadroomTestSupport"]),
        .testTarget(
            name: "HeadroomCLITests",
            dependencies: ["HeadroomCLI", "HeadroomTestSupport", "headroom", "headroom-fetch"]),
    ]
)
