// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import CSystem
import ElbowroomCLI
import ElbowroomCore
import ElbowroomFetch

// Before anything reads the environment: what the start-up set there for the Swift runtime
// alone goes (Sources/CSystem/backtrace.c).
elbowroom_restore_environment()

// One program, two names. Started as `elbowroom-fetch` (the link installed beside it, which the
// renderer starts detached, and `elbowroom fetch` replaces itself with), or as `elbowroom
// elbowroom-fetch ...` where there is no link, it is the network side; otherwise the renderer.
let argv = CommandLine.unsafeArgv
let byName = FetcherName.matches(argv[0])
if byName || (CommandLine.argc > 1 && FetcherName.isName(argv[1])) {
    // No core file, not dumpable, working from `/`: before any token is read.
    ProcessHardening.apply()
    // What a source plugin leaves behind comes back to us, to be ended with it.
    StrayReaper.becomeSubreaper()
    exit(FetcherCommand.main(arguments: Array(CommandLine.arguments.dropFirst(byName ? 1 : 2))))
}
exit(ElbowroomMain.run(Array(CommandLine.arguments.dropFirst()), context: .live()))
