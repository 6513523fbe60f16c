// swift-tools-version:6.0
import Foundation
import PackageDescription

// The renderer runs on every prompt: on Linux release builds it is a fully static executable
// (FoundationEssentials only). The flag must be in both swift and linker settings.
let linuxRelease = BuildSettingCondition.when(platforms: [.linux], configuration: .release)

// ...and the code a render runs is laid out together. Every function gets a section of its own
// (-function-sections) and lld places the ones listed in Sources/elbowroom/render-path.order
// (written by scripts/gen-symbol-order from what callgrind sees a render run) at the front of
// .text. A render then maps ~2 MB less of the binary and takes ~30 fewer page faults, which
// took 0.2-0.3 x /bin/true off its start-up (BENCHMARKS.md). Without ld.lld on PATH (it ships
// with the swift.org toolchains) the default linker is used: the same program, laid out by chance.
let renderPathOrder = Context.packageDirectory + "/Sources/elbowroom/render-path.order"
// ...and the standard library's own .text (one 1.6 MB section, of which a render runs ~16 kB)
// starts where those few functions fall in the fewest 64 kB windows (the kernel maps code a
// window per page fault): Sources/elbowroom/render-path.ld, written by the same script.
let renderPathScript = Context.packageDirectory + "/Sources/elbowroom/render-path.ld"
let haveLLD = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/ld.lld")
}
// -disable-type-layout: without it, copying a large struct (or an Optional of one) goes through
// its value witnesses, and each such type's metadata is built at run time on first use:
// ~70 k instructions of a render (BENCHMARKS.md), for output that is byte for byte the same.
// -disable-concrete-type-metadata-mangled-name-accessors: the first use of a generic type
// (`[Span]`'s storage, say) calls its metadata accessor instead of handing the runtime a mangled
// name to demangle and look up, ~4.5 k instructions less for each of the ten or so a render
// instantiates (a tmux render 422 k -> 377 k; the binary 4 kB larger).
let rendererSwiftSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-function-sections", "-Xfrontend", "-disable-type-layout",
                  "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], linuxRelease)
]
let staticOnLinuxRelease: [SwiftSetting] = rendererSwiftSettings + [
    .unsafeFlags(["-static-executable"], linuxRelease)
]
// For size (BENCHMARKS.md, "Download and installed size"): lld folds functions whose code is
// identical (--icf=all: 0.3 MB; nothing here compares function addresses, and Swift objects carry
// no address-significance table for --icf=safe to go by), and the unwind tables nothing reads are
// left out (Sources/elbowroom/no-unwind-tables.ld says why: 1.5-1.75 MB). .ci/release-check fails
// when the install grows back past 17 MB.
let smallLinkFlags = ["-Xlinker", "--icf=all",
                      "-Xlinker", "--no-eh-frame-hdr", "-Xlinker", Context.packageDirectory + "/Sources/elbowroom/no-unwind-tables.ld"]
// --wrap=_libdispatch_init: libdispatch's constructor waits for the fetcher, the one part of the
// program that uses libdispatch, instead of running before main in every render (~20 µs of its
// start: Sources/CSystem/dispatch.c).
let staticLinkOnLinuxRelease: [LinkerSetting] = [
    .unsafeFlags(["-static-executable"], linuxRelease)
] + (haveLLD ? [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(renderPathOrder)",
                  "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--wrap=_libdispatch_init",
                  "-Xlinker", renderPathScript] + smallLinkFlags,
                 linuxRelease)
] : [])
// The HTTP helper (a small C program over the system libcurl). swiftc links every executable,
// and would make this one need the Swift runtime (libswiftCore.so, a toolchain library at run
// time) for nothing: without the Swift start-up object (-nostartfiles) nothing refers to the
// runtime, and from the static archives (-static-stdlib) nothing of it is then taken. Release
// builds: the same small link as the other program, and not position-independent.
let helperLinkOnLinuxRelease: [LinkerSetting] = [
    .linkedLibrary("curl"),
    .unsafeFlags(["-nostartfiles", "-static-stdlib", "-no-stdlib-rpath"], .when(platforms: [.linux])),
] + (haveLLD ? [
    .unsafeFlags(["-use-ld=lld", "-Xclang-linker", "-no-pie", "-Xlinker", "--icf=all"], linuxRelease)
] : [])

let package = Package(
    name: "elbowroom",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "elbowroom", targets: ["elbowroom"]),
        .executable(name: "elbowroom-http", targets: ["elbowroom-http"]),
    ],
    targets: [
        // Renderer side: FoundationEssentials only.
        .target(name: "ElbowroomCore", dependencies: ["CSystem"], swiftSettings: rendererSwiftSettings),
        .target(name: "ElbowroomTemplate", dependencies: ["ElbowroomCore"], swiftSettings: rendererSwiftSettings),
        .target(name: "ElbowroomAdapters", dependencies: ["ElbowroomCore", "ElbowroomTemplate"], swiftSettings: rendererSwiftSettings),
        .target(name: "ElbowroomCLI", dependencies: ["ElbowroomCore", "ElbowroomTemplate", "ElbowroomAdapters", "ElbowroomDBus"], swiftSettings: rendererSwiftSettings),
        // A small D-Bus client (the wire protocol over the session bus socket) for `elbowroom
        // tray`; a render never calls into it (docs/tray.md says why it is written here).
        .target(name: "ElbowroomDBus", swiftSettings: rendererSwiftSettings),
        // One program, renderer and fetcher: `elbowroom`, and `elbowroom-fetch` when started by that
        // name (a link beside it; main.swift picks by the name it was started as).
        .executableTarget(
            name: "elbowroom", dependencies: ["ElbowroomCLI", "ElbowroomFetch", "CSystem"],
            exclude: ["render-path.order", "render-path.files", "render-path.ld", "no-unwind-tables.ld"],
            swiftSettings: staticOnLinuxRelease, linkerSettings: staticLinkOnLinuxRelease),

        // Network side, started detached by the renderer as `elbowroom-fetch`. Reads credentials,
        // fetches, refreshes tokens; never on the render path. CSystem holds the process calls
        // Swift cannot make, and the program's arguments as the C library hands them over, which
        // spares every start the Swift runtime's own search for them (arguments.c).
        // DWARF 4: valgrind (Debian 12's 3.19, which scripts/bench --budget and gen-symbol-order
        // run) gives up on a program with more than one C compile unit in clang's DWARF 5.
        .target(name: "CSystem", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .target(name: "ElbowroomFetch", dependencies: ["ElbowroomCore", "CSystem"], swiftSettings: rendererSwiftSettings),
        // Its HTTP on Linux: the system libcurl (the library the toolchain's own URLSession
        // wraps), in a small C program of its own, because a static program cannot load a shared
        // library (main.c says why and how; HelperTransport is the Swift side). Debian: libcurl4
        // to run it, libcurl4-openssl-dev to build it.
        .executableTarget(name: "elbowroom-http", linkerSettings: helperLinkOnLinuxRelease),

        // Development only, never installed: writes (or with --check, checks) every derived file
        // from its one source. Run it as scripts/generate.
        .executableTarget(
            name: "elbowroom-generate",
            dependencies: ["ElbowroomCore", "ElbowroomTemplate", "ElbowroomAdapters", "ElbowroomCLI"]),

        // Development only, never installed: a static program (in every configuration, so the
        // tests see what the release program does) that prints the arguments CommandLine gives it
        // and the C library's (Sources/CSystem/arguments.c), for ArgumentsProbeTests. `swift
        // build` builds it; no test target depends on it, as a dependency's static link flag
        // would reach the test bundle's link.
        .executableTarget(
            name: "elbowroom-arguments-probe", dependencies: ["CSystem"], path: "Tests/ArgumentsProbe",
            swiftSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))],
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]),

        // Tests.
        .target(name: "ElbowroomTestSupport", dependencies: ["ElbowroomCore"], path: "Tests/ElbowroomTestSupport"),
        .testTarget(name: "ElbowroomCoreTests", dependencies: ["ElbowroomCore", "ElbowroomTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ElbowroomTemplateTests", dependencies: ["ElbowroomTemplate", "ElbowroomTestSupport"]),
        .testTarget(name: "ElbowroomAdaptersTests", dependencies: ["ElbowroomAdapters", "ElbowroomTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "ElbowroomFetchTests", dependencies: ["ElbowroomFetch", "CSystem", "ElbowroomTestSupport", "elbowroom-http"]),
        // Seeded fuzzing of every parser (scripts/fuzz runs the same checks under libFuzzer).
        .testTarget(name: "ElbowroomDBusTests", dependencies: ["ElbowroomDBus", "ElbowroomTestSupport"]),
        .testTarget(name: "ElbowroomFuzzTests", dependencies: ["ElbowroomAdapters", "ElbowroomTestSupport"]),
        .testTarget(
            name: "ElbowroomCLITests",
            dependencies: ["ElbowroomCLI", "ElbowroomDBus", "ElbowroomFetch", "ElbowroomTestSupport", "elbowroom", "elbowroom-http", "elbowroom-generate"]),
    ]
)
