import Foundation
import ElbowroomCore

/// swift-corelibs-foundation creates the directories of its shared cookie store and URL cache as
/// soon as any `URLSessionConfiguration` exists: `$XDG_DATA_HOME/<name of the executable's
/// directory>` (so `~/.local/share/bin`) and `$XDG_CACHE_HOME/org.swift.foundation.URLCache/`,
/// although `URLSessionTransport` uses neither. `confine` points both, for this process only, at
/// one directory inside elbowroom's cache. `main` calls it after reading the environment and
/// before any request; the fetcher starts no child that would inherit the change on Linux.
public enum FoundationStorage {
    public static func confine(environment: ElbowroomEnvironment) {
        #if canImport(FoundationNetworking)
        let directory = Paths(environment: environment).cacheDir + "/foundation"
        setenv("XDG_DATA_HOME", directory, 1)
        setenv("XDG_CACHE_HOME", directory, 1)
        #endif
    }
}
