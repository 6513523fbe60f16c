#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run of the fetcher did.
public struct FetchReport: Sendable {
    public enum Result: Sendable, Equatable {
        /// A request was made and the reading is in the cache.
        case fetched
        /// Nothing to do, or another process is doing it; `reason` says which.
        case skipped(reason: String)
        case failed(FetchError)
    }

    public var result: Result
    /// The cache after the run (what `--json` prints).
    public var cache: CacheFile?

    public var exitCode: Int32 {
        if case .failed = result { return 1 }
        return 0
    }
}
