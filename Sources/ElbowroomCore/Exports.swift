// What every renderer target needs, imported once: FoundationEssentials (never full Foundation
// on Linux: it costs every prompt start-up time) and the C library. `import ElbowroomCore` brings them.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
