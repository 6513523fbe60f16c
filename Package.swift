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
    name: "elbowroom",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "elbowroom", targets: ["elbowroom"]),
        .executable(name: "elbowroom-fetch", targets: ["elbowroom-fetch"]),
    ],
    targets: [
        // Renderer side: FoundationEssentials only.
        .target(name: "ElbowroomCore"),
        .target(name: "ElbowroomTemplate", dependencies: ["ElbowroomCore"]),
        .target(name: "ElbowroomAdapters", dependencies: ["ElbowroomCore", "ElbowroomTemplate"]),
        .target(name: "ElbowroomCLI", dependencies: ["ElbowroomCore", "ElbowroomTemplate", "ElbowroomAdapters"]),
        .executableTarget(
            name: "elbowroom", dependencies: ["ElbowroomCLI"],
            swiftSettings: staticOnLinuxRelease, linkerSettings: staticLinkOnLinuxRelease),

        // Network side: Foundation + FoundationNetworking, started detached by the renderer.
        .target(name: "ElbowroomFetch", dependencies: ["ElbowroomCore"]),
        .executableTarget(name: "elbowroom-fetch", dependencies: ["ElbowroomFetch"]),

        // Tests.
        .target(name: "ElbowroomTestSupport", dependencies: ["ElbowroomCore"], path: "Tests/ElbowroomTestSupport"),
        .testTarget(name: "ElbowroomCoreTests", dependencies: ["ElbowroomCore", "ElbowroomTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ElbowroomTemplateTests", dependencies: ["ElbowroomTemplate", "ElbowroomTestSupport"]),
        .testTarget(name: "ElbowroomAdaptersTests", dependencies: ["ElbowroomAdapters", "ElbowroomTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "ElbowroomFetchTests", dependencies: ["ElbowroomFetch", "ElbowroomTestSupport"]),
        // Seeded fuzzing of every parser (scripts/fuzz runs the same checks under libFuzzer).
        .testTarget(name: "ElbowroomFuzzTests", dependencies: ["ElbowroomAdapters", "ElbowroomTestSupport"]),
        .testTarget(
            name: "ElbowroomCLITests",
            dependencies: ["ElbowroomCLI", "ElbowroomTestSupport", "elbowroom", "elbowroom-fetch"]),
    ]
)
