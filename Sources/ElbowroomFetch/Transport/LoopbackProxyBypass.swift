// Apple platforms only: on Linux the fetcher reaches libcurl through elbowroom-http (HelperTransport).
#if !os(Linux)
import Foundation
import ElbowroomCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// No proxy ever sees a request to a loopback URL. Plain http is allowed only to loopback
/// (`EndpointURL`), and a proxy would receive such a request — bearer token included — in clear
/// text; a loopback server is on this machine anyway.
///
/// On Apple platforms an empty `connectionProxyDictionary` turns the system proxies off. On Linux
/// swift-corelibs-foundation ignores that dictionary and libcurl picks its proxy from the
/// environment at each connection (`http_proxy`, `https_proxy`/`HTTPS_PROXY`, `all_proxy`/
/// `ALL_PROXY`, minus `no_proxy`/`NO_PROXY`), so the proxy variables are removed from this
/// process before a loopback request. No `no_proxy` trick: its syntax differs between libcurl
/// versions (CIDR, `[::1]`), and this does not depend on it. The fetcher is a short-lived
/// process; its children (the Keychain's `security`) get an explicit environment.
///
/// For https URLs proxies stay as configured: libcurl tunnels through them with CONNECT, so the
/// proxy sees the host name, never the request.
enum LoopbackProxyBypass {
    static let variables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]

    static func applies(to url: URL) -> Bool {
        guard let host = url.host else { return false }
        return EndpointURL.isLoopback(host)
    }

    static func apply(to configuration: URLSessionConfiguration) {
        configuration.connectionProxyDictionary = [:]
        #if os(Linux)
        for name in variables where getenv(name) != nil {
            unsetenv(name)
        }
        #endif
    }
}
#endif
