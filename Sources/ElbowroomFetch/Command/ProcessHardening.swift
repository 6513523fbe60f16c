#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the fetcher does to itself before it reads a token: it holds both tokens in memory, so
/// - no core file, whatever `ulimit -c` or `core_pattern` say (a crash once left a 32 MB core
///   with both tokens in the prompt's working directory);
/// - not dumpable (Linux): no other process of the same user may ptrace it or read its memory
///   through /proc;
/// - its working directory is `/`, so nothing it might leave lands in a caller's directory and it
///   holds none of them busy. Every path it uses is absolute (relative path variables are ignored).
public enum ProcessHardening {
    public static func apply() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        #else
        _ = setrlimit(RLIMIT_CORE, &none)
        #endif
        _ = elbowroom_set_not_dumpable()
        _ = chdir("/")
    }
}
