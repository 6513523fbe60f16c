#if os(Linux)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
import Glibc

/// `HTTPTransport` over the system libcurl, through `elbowroom-http` (Linux).
///
/// elbowroom is one static program, and a static program cannot load a shared library; libcurl
/// is the system's HTTP stack (its TLS, CA store and proxy rules), so each request goes to a
/// small C program linked against it (`Sources/elbowroom-http/main.c`, which documents the pipe
/// protocol). The request — bearer or refresh token included — travels on the child's stdin,
/// never in its argv or environment; the child is not dumpable and dies with its parent.
///
/// Why libcurl and not URLSession: on Linux URLSession is itself a libcurl wrapper, and one that
/// traps. An answer cut off inside its headers (`HTTP/1.1 200 OK\r\nContent-Le`, then close)
/// made FoundationNetworking stop the process with a fatal error ("Transfer completed, but
/// there's no response"). Here every way an exchange can end is an outcome word we map to a
/// `TransportError`, and a helper that dies or prints nonsense is one more of those.
///
/// What every request gets, whatever its caller:
/// - `Accept-Encoding: identity` and no decoder: a compressed body is never inflated (a 1 MB
///   gzip bomb stays 1 MB of bytes that do not parse);
/// - bytes counted as they arrive, the body capped at `bodyLimit` and the headers at
///   `headerLimit`: past either the transfer stops;
/// - one hard deadline for the whole exchange, kept by the helper and, should it hang, by the
///   kill that ends it (`PosixSpawner.run`);
/// - no redirects followed (the 3xx is the answer), http and https only, no cookies, no netrc,
///   no proxy for a loopback URL (a proxy would see a loopback request, token included, in clear
///   text); https through the environment's proxies as libcurl does it (a CONNECT tunnel);
/// - IPv4 and IPv6 alike (`http://[::1]:PORT`);
/// - the helper gets only the variables libcurl and its TLS library read (`passedVariables`):
///   nothing else of the fetcher's environment, a token variable least of all.
public struct HelperTransport: HTTPTransport {
    public let bodyLimit: Int
    public static let headerLimit = 64 * 1024

    /// What the helper may see of the environment: the proxy variables, where the CA store is
    /// (Nix's OpenSSL reads `NIX_SSL_CERT_FILE`), OpenSSL's and libcurl's settings, and where
    /// libraries are.
    static let passedVariables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                                  "no_proxy", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE",
                                  "NIX_SSL_CERT_FILE", "OPENSSL_CONF", "CURL_SSL_BACKEND", "LD_LIBRARY_PATH"]

    let helper: String?
    let spawner: any ProcessSpawner

    public init(bodyLimit: Int = HTTPLimits.bodyLimit, helper: String? = HTTPHelper.locate(),
                spawner: any ProcessSpawner = PosixSpawner()) {
        self.bodyLimit = bodyLimit
        self.helper = helper
        self.spawner = spawner
    }

    public func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        // Callers validate URLs (EndpointURL); this is the last line: no bearer token in clear
        // text to another machine, whoever builds the request.
        guard (try? EndpointURL.validated(request.url.absoluteString, variable: "url")) != nil else {
            throw .network("refused: https is required (plain http only to 127.0.0.1, ::1 or localhost)")
        }
        guard let helper else {
            throw .network("\(HTTPHelper.name) is missing: it belongs in PREFIX/libexec/elbowroom/ beside PREFIX/bin/elbowroom (reinstall elbowroom)")
        }
        let timeout = request.timeout.isFinite ? min(max(request.timeout, 0.1), 86400) : 10
        let output: (status: Int32, stdout: Data)
        do {
            // The helper keeps the deadline itself; this kill is for a helper that does not.
            output = try spawner.run(path: helper, arguments: [], environment: Self.environment(),
                                     stdin: encode(request, timeout: timeout), timeout: timeout + 2)
        } catch is PosixSpawner.TimedOut {
            throw .timeout(request.timeout)
        } catch {
            throw .network("cannot start \(HTTPHelper.name): \(error)")
        }
        guard let answer = HelperAnswer(output.stdout) else {
            throw .network(Self.failure(status: output.status))
        }
        return try answer.response(bodyLimit: bodyLimit, headerLimit: Self.headerLimit, timeout: request.timeout)
    }

    /// The request in the helper's protocol. Header names and values are cleaned of CR, LF and
    /// NUL, so a header cannot add a line, here or on the wire.
    func encode(_ request: HTTPRequest, timeout: TimeInterval) -> Data {
        var headers = request.headers.filter { !$0.name.isEmpty }.map { "\(Self.clean($0.name)): \(Self.clean($0.value))" }
        if !request.headers.contains(where: { $0.name.lowercased() == "accept-encoding" }) {
            headers.append("Accept-Encoding: identity")
        }
        // No `Expect: 100-continue` round trip for a POST.
        headers.append("Expect:")
        let loopback = request.url.host.map(EndpointURL.isLoopback) ?? false
        var lines = ["elbowroom-http 1", Self.clean(request.method), Self.clean(request.url.absoluteString),
                     String(Int(timeout * 1000)), String(bodyLimit), String(Self.headerLimit), loopback ? "1" : "0",
                     String(headers.count)] + headers
        lines.append(request.body.map { String($0.count) } ?? "-1")
        var data = Data((lines.joined(separator: "\n") + "\n").utf8)
        if let body = request.body { data.append(body) }
        return data
    }

    /// Why no answer came, from how the helper ended.
    static func failure(status: Int32) -> String {
        switch status {
        case 126, 127: "\(HTTPHelper.name) cannot start (exit \(status)); is libcurl installed? (Debian: libcurl4)"
        case 2: "\(HTTPHelper.name) refused the request (exit 2): it does not belong to this elbowroom; reinstall elbowroom"
        case 129...: "\(HTTPHelper.name) stopped by signal \(status - 128)"
        default: "\(HTTPHelper.name) failed (exit \(status))"
        }
    }

    static func environment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in passedVariables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    static func clean(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else { return text }
        return String(decoding: text.utf8.filter { $0 != 0x0D && $0 != 0x0A && $0 != 0 }, as: UTF8.self)
    }
}

/// What `elbowroom-http` printed: how the exchange ended, and the answer's headers and body.
struct HelperAnswer {
    var outcome: String
    var curlCode: Int
    var status: Int
    var sawStatusLine: Bool
    var headersComplete: Bool
    var headerBlock: Data
    var body: Data

    /// `nil` for anything that is not a whole answer in the protocol (a helper that crashed, or
    /// one from another version).
    init?(_ output: Data) {
        var reader = ByteReader(output)
        guard reader.line() == "elbowroom-http 1", let summary = reader.line() else { return nil }
        let words = summary.split(separator: " ")
        guard words.count == 5, let code = Int(words[1]), let status = Int(words[2]),
              let headerLength = reader.line().flatMap({ Int($0) }), let headerBlock = reader.bytes(headerLength),
              let bodyLength = reader.line().flatMap({ Int($0) }), let body = reader.bytes(bodyLength), reader.atEnd
        else { return nil }
        outcome = String(words[0])
        curlCode = code
        self.status = status
        sawStatusLine = words[3] == "1"
        headersComplete = words[4] == "1"
        self.headerBlock = headerBlock
        self.body = body
    }

    func response(bodyLimit: Int, headerLimit: Int, timeout: TimeInterval) throws(TransportError) -> HTTPResponse {
        switch outcome {
        case "ok":
            guard (100...999).contains(status), sawStatusLine else { throw .network("the server did not answer with http") }
            guard headersComplete else { throw .network("connection closed before an answer") }
            guard body.count <= bodyLimit else { throw .oversized(limit: bodyLimit) }
            return HTTPResponse(status: status, headers: Self.headers(headerBlock), body: body)
        case "oversized": throw .oversized(limit: bodyLimit)
        case "timeout": throw .timeout(timeout)
        case "connect": throw .network("connection refused")
        case "resolve": throw .network("cannot resolve the host name")
        case "resolve-proxy": throw .network("cannot resolve the proxy's host name")
        case "closed": throw .network("connection closed before an answer")
        case "not-http": throw .network("the server did not answer with http")
        case "tls": throw .network("tls handshake failed")
        case "setup" where curlCode == 2: throw .network("cannot start libcurl")
        case "setup": throw .network("libcurl refused an option elbowroom needs (curl \(curlCode)); a newer libcurl may help")
        case "headers-too-large": throw .network("the answer's headers were larger than \(headerLimit / 1024) KiB")
        case "memory": throw .network("out of memory")
        default: throw .network("network error (curl \(curlCode))")
        }
    }

    /// `Name: value` lines, names lowercased, values trimmed of blanks; the first of a repeated
    /// name wins, and a line without a colon is passed over.
    static func headers(_ block: Data) -> [String: String] {
        var headers: [String: String] = [:]
        for rawLine in block.split(separator: 0x0A) {
            var line = rawLine[...]
            while let last = line.last, last == 0x0D { line = line.dropLast() }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            if headers[name] == nil { headers[name] = String(decoding: value, as: UTF8.self) }
        }
        return headers
    }
}

/// Reads the helper's answer: text lines and counted runs of bytes.
private struct ByteReader {
    let data: Data
    var offset: Int

    init(_ data: Data) {
        self.data = data
        offset = data.startIndex
    }

    var atEnd: Bool { offset == data.endIndex }

    mutating func line() -> String? {
        guard let newline = data[offset...].firstIndex(of: 0x0A) else { return nil }
        defer { offset = newline + 1 }
        return String(decoding: data[offset..<newline], as: UTF8.self)
    }

    mutating func bytes(_ count: Int) -> Data? {
        guard count >= 0, data.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return Data(data[offset..<(offset + count)])
    }
}
#endif
