// Apple platforms only: on Linux the fetcher reaches libcurl through elbowroom-http (HelperTransport).
#if !os(Linux)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Keeps URLSession from creating anything on disk. The fetcher stores nothing but its own cache.
///
/// On Linux (swift-corelibs-foundation) every `URLSessionConfiguration` — `.ephemeral` included —
/// is built from `.default`, which touches the shared singletons:
/// - `URLCache.shared` creates `$XDG_CACHE_HOME/org.swift.foundation.URLCache/<process>/`, and
///   `.ephemeral` creates one more `URLCache` with the same directory;
/// - `HTTPCookieStorage.shared` creates `$XDG_DATA_HOME/<name of the executable's directory>/`
///   (`~/.local/share/bin` for `~/.local/bin/elbowroom-fetch`).
/// So before the first configuration the shared cache is replaced by one whose directory cannot
/// exist, the shared cookie storage is created while `XDG_DATA_HOME` names a place where no
/// directory can be made, and sessions start from `.default` with every store set to `nil`.
/// On Apple platforms `.ephemeral` is what it says.
enum FoundationStorage {
    /// Below a character device: `mkdir` there fails with ENOTDIR, always, for everyone.
    static let nowhere = "/dev/null/elbowroom-stores-nothing"

    private static let prepared: Bool = {
        #if os(Linux)
        URLCache.shared = URLCache(memoryCapacity: 0, diskCapacity: 0, diskPath: nowhere)
        let saved = getenv("XDG_DATA_HOME").map { String(cString: $0) }
        setenv("XDG_DATA_HOME", nowhere, 1)
        _ = HTTPCookieStorage.shared
        if let saved { setenv("XDG_DATA_HOME", saved, 1) } else { unsetenv("XDG_DATA_HOME") }
        #endif
        return true
    }()

    /// A configuration with no cache, cookie or credential store.
    static func configuration() -> URLSessionConfiguration {
        _ = prepared
        #if os(Linux)
        let configuration = URLSessionConfiguration.default
        #else
        let configuration = URLSessionConfiguration.ephemeral
        #endif
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        return configuration
    }
}
#endif
