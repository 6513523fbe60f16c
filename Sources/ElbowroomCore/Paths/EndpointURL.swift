#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The two endpoints and their overrides. A token may travel only over HTTPS, or over plain
/// HTTP to this machine (127.0.0.0/8, ::1, localhost) for tests.
public enum EndpointURL {
    public static let defaultAPI = "https://api.anthropic.com"
    public static let defaultTokenURL = "https://platform.claude.com/v1/oauth/token"

    public struct Refused: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// `ELBOWROOM_API_URL` or the default, checked.
    public static func api(_ env: ElbowroomEnvironment) throws -> URL {
        try validated(env["ELBOWROOM_API_URL"] ?? defaultAPI, variable: "ELBOWROOM_API_URL")
    }

    /// `ELBOWROOM_TOKEN_URL` or the default, checked.
    public static func token(_ env: ElbowroomEnvironment) throws -> URL {
        try validated(env["ELBOWROOM_TOKEN_URL"] ?? defaultTokenURL, variable: "ELBOWROOM_TOKEN_URL")
    }

    public static func validated(_ text: String, variable: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              let host = url.host, !host.isEmpty else {
            throw Refused(description: "\(variable) is not a valid url: \(text)")
        }
        if url.user != nil || url.password != nil {
            throw Refused(description: "\(variable) must not carry a user or password")
        }
        switch scheme {
        case "https":
            return url
        case "http" where isLoopback(host):
            return url
        case "http":
            throw Refused(description: "\(variable) must use https (plain http is allowed only to 127.0.0.1, ::1 or localhost): \(text)")
        default:
            throw Refused(description: "\(variable) must be an https url: \(text)")
        }
    }

    public static func isLoopback(_ host: String) -> Bool {
        let h = String(host.lowercased().filter { $0 != "[" && $0 != "]" })
        if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { UInt8($0) != nil }
    }
}
