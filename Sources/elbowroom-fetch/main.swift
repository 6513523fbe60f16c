#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ElbowroomFetch

// The network side of elbowroom: started detached by the renderer, or by `elbowroom fetch`.
// No core file, not dumpable, working from `/`: before any token is read.
ProcessHardening.apply()
exit(FetcherCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
