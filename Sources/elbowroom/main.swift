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
// The arguments as the C library passed them (Sources/CSystem/arguments.c, which the standard
// library's `CommandLine` asks too), read here without `CommandLine`: its one-time set-up is code
// a render otherwise never runs, in the part of the standard library laid out far from ours.
var argc: Int32 = 0
let argv = elbowroom_start_arguments(&argc)!  // never NULL: an empty argv before its constructor
/// The arguments from the `first`th on, as `CommandLine.arguments` has them. (Handed argc and
/// argv: a function that read the globals would be the main actor's, and calling it would check
/// the executor, code of the concurrency runtime a render otherwise never runs.)
func arguments(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ argc: Int32, from first: Int) -> [String] {
    first < Int(argc) ? (first..<Int(argc)).map { argv[$0].map { CString.string($0) } ?? "" } : []
}
let byName = FetcherName.matches(argv[0])
if byName || (argc > 1 && FetcherName.isName(argv[1])) {
    // No core file, not dumpable, working from `/`: before any token is read.
    ProcessHardening.apply()
    // What a source plugin leaves behind comes back to us, to be ended with it.
    StrayReaper.becomeSubreaper()
    exit(FetcherCommand.main(arguments: arguments(argv, argc, from: byName ? 1 : 2)))
}
exit(ElbowroomMain.run(arguments(argv, argc, from: 1), context: .live()))
