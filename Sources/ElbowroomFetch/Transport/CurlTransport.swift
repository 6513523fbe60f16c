#if canImport(CCurl)
import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
#if canImport(Glibc)
import Glibc
#endif

/// `HTTPTransport` over the system libcurl, called directly (Linux).
///
/// Why not URLSession: on Linux it is itself a libcurl wrapper, and a wrapper that traps. An
/// answer cut off inside its headers (`HTTP/1.1 200 OK\r\nContent-Le`, then close) made
/// FoundationNetworking stop the process with a fatal error ("Transfer completed, but there's no
/// response"): no outcome was recorded, so no backoff, and a core file with both tokens could land
/// in the prompt's directory. Here every way an exchange can end is a `CURLcode` we map to a
/// `TransportError`; nothing in this file can trap on what a server sends. It also drops
/// FoundationNetworking (and the HTTP stack's half of the fetcher's size).
///
/// What every request gets, whatever its caller:
/// - `Accept-Encoding: identity` and no decoder: a compressed body is never inflated (a 1 MB
///   gzip bomb stays 1 MB of bytes that do not parse);
/// - bytes counted as they arrive, the body capped at `bodyLimit` and the headers at
///   `headerLimit`: past either the transfer stops;
/// - one hard deadline for the whole exchange (`CURLOPT_TIMEOUT_MS`, and a progress check
///   against a monotonic clock as well), however slowly a server trickles;
/// - no redirects followed (the 3xx is the answer), http and https only, no cookies, no netrc,
///   no proxy for a loopback URL (a proxy would see a loopback request, token included, in clear
///   text); https through the environment's proxies as libcurl does it (a CONNECT tunnel);
/// - IPv4 and IPv6 alike (`http://[::1]:PORT`).
public struct CurlTransport: HTTPTransport {
    public let bodyLimit: Int
    public static let headerLimit = 64 * 1024

    public init(bodyLimit: Int = HTTPLimits.bodyLimit) {
        self.bodyLimit = bodyLimit
    }

    public func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        // Callers validate URLs (EndpointURL); this is the last line: no bearer token in clear
        // text to another machine, whoever builds the request.
        guard (try? EndpointURL.validated(request.url.absoluteString, variable: "url")) != nil else {
            throw .network("refused: https is required (plain http only to 127.0.0.1, ::1 or localhost)")
        }
        guard CurlGlobal.ready, let handle = curl_easy_init() else {
            throw .network("cannot start libcurl")
        }
        defer { curl_easy_cleanup(handle) }
        let timeout = request.timeout.isFinite ? min(max(request.timeout, 0.1), 86400) : 10
        let exchange = CurlExchange(bodyLimit: bodyLimit, headerLimit: Self.headerLimit,
                                    deadline: Monotonic.now() + timeout)
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        for header in request.headers where !header.name.isEmpty {
            headers = curl_slist_append(headers, "\(Self.clean(header.name)): \(Self.clean(header.value))")
        }
        if !request.headers.contains(where: { $0.name.lowercased() == "accept-encoding" }) {
            headers = curl_slist_append(headers, "Accept-Encoding: identity")
        }
        // No `Expect: 100-continue` round trip for a POST.
        headers = curl_slist_append(headers, "Expect:")

        let code: CURLcode = withExtendedLifetime(exchange) {
            let context = Unmanaged.passUnretained(exchange).toOpaque()
            // Every option must take: a libcurl that refuses one (too old for `PROTOCOLS_STR`,
            // say) must not send the request without it (a proxy for a loopback token, a redirect).
            var setup = CURLE_OK
            func must(_ result: CURLcode) { if setup == CURLE_OK { setup = result } }
            must(elbowroom_curl_set_string(handle, CURLOPT_URL, request.url.absoluteString))
            must(elbowroom_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
            must(elbowroom_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout * 1000)))
            must(elbowroom_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(timeout * 1000)))
            must(elbowroom_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
            must(elbowroom_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
            must(elbowroom_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(bodyLimit)))
            must(elbowroom_curl_set_long(handle, CURLOPT_NETRC, 0))
            if let host = request.url.host, EndpointURL.isLoopback(host) {
                // "" switches proxies off, the environment's included.
                must(elbowroom_curl_set_string(handle, CURLOPT_PROXY, ""))
            }
            must(elbowroom_curl_set_list(handle, CURLOPT_HTTPHEADER, headers))
            switch request.method {
            case "GET": break
            case "POST": must(elbowroom_curl_set_long(handle, CURLOPT_POST, 1))
            default: must(elbowroom_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
            }
            if let body = request.body {
                must(elbowroom_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                body.withUnsafeBytes { bytes in
                    // COPY: libcurl keeps its own copy for the transfer.
                    must(elbowroom_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS,
                                                   UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)))
                }
            }
            must(elbowroom_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, curlBodyCallback))
            must(elbowroom_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
            must(elbowroom_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback))
            must(elbowroom_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))
            must(elbowroom_curl_set_long(handle, CURLOPT_NOPROGRESS, 0))
            must(elbowroom_curl_set_progress_callback(handle, curlProgressCallback))
            must(elbowroom_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context))
            guard setup == CURLE_OK else { return setup }
            return curl_easy_perform(handle)
        }

        if exchange.oversized { throw .oversized(limit: bodyLimit) }
        switch code {
        case CURLE_OK:
            var status = 0
            elbowroom_curl_response_code(handle, &status)
            guard (100...999).contains(status), exchange.sawStatusLine else {
                throw .network("the server did not answer with http")
            }
            guard exchange.headersComplete else { throw .network("connection closed before an answer") }
            return HTTPResponse(status: status, headers: exchange.headers, body: exchange.body)
        case CURLE_FILESIZE_EXCEEDED:
            throw .oversized(limit: bodyLimit)
        case CURLE_OPERATION_TIMEDOUT, CURLE_ABORTED_BY_CALLBACK:
            throw .timeout(request.timeout)
        default:
            throw Self.map(code)
        }
    }

    /// Every other way an exchange ends, in words that say what the user can do about it.
    static func map(_ code: CURLcode) -> TransportError {
        switch code {
        case CURLE_COULDNT_CONNECT: return .network("connection refused")
        case CURLE_COULDNT_RESOLVE_HOST: return .network("cannot resolve the host name")
        case CURLE_COULDNT_RESOLVE_PROXY: return .network("cannot resolve the proxy's host name")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .network("connection closed before an answer")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_CONTENT_ENCODING:
            return .network("the server did not answer with http")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .network("tls handshake failed")
        case CURLE_WRITE_ERROR: return .network("the answer's headers were larger than \(headerLimit / 1024) KiB")
        case CURLE_OUT_OF_MEMORY: return .network("out of memory")
        default: return .network("network error (curl \(code.rawValue))")
        }
    }

    /// A header line cannot be split by what it carries: CR and LF never reach the wire.
    static func clean(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else { return text }
        return String(decoding: text.utf8.filter { $0 != 0x0D && $0 != 0x0A && $0 != 0 }, as: UTF8.self)
    }
}

/// `curl_global_init`, once, before the first handle.
private enum CurlGlobal {
    static let ready: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// What one exchange collected; libcurl calls back into it from `curl_easy_perform`, on the
/// calling thread.
final class CurlExchange {
    let bodyLimit: Int
    let headerLimit: Int
    let deadline: Double
    var body = Data()
    var headers: [String: String] = [:]
    var headerBytes = 0
    var sawStatusLine = false
    /// The blank line that ends a header block arrived. libcurl reports a connection closed in
    /// the middle of the headers as a finished transfer; this tells the two apart.
    var headersComplete = false
    var oversized = false

    init(bodyLimit: Int, headerLimit: Int, deadline: Double) {
        self.bodyLimit = bodyLimit
        self.headerLimit = headerLimit
        self.deadline = deadline
    }

    /// One header line, CRLF included. A status line starts a new set: an interim `100
    /// Continue` or a proxy's `200 Connection established` is not the answer's.
    func header(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        headerBytes += line.count
        guard headerBytes <= headerLimit else { return false }
        var bytes = line[...]
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = bytes.dropLast() }
        if bytes.starts(with: "HTTP/".utf8) {
            sawStatusLine = true
            headersComplete = false
            headers = [:]
            return true
        }
        if bytes.isEmpty {
            headersComplete = sawStatusLine
            return true
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return true }
        let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        var value = bytes[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        if headers[name] == nil { headers[name] = String(decoding: value, as: UTF8.self) }
        return true
    }

    func append(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
        guard body.count + chunk.count <= bodyLimit else {
            oversized = true
            body = Data()
            return false
        }
        body.append(chunk)
        return true
    }
}

/// The exchange and the bytes of one callback, or `nil` when libcurl's numbers make no buffer.
private func callbackBytes(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                           _ context: UnsafeMutableRawPointer?) -> (CurlExchange, UnsafeBufferPointer<UInt8>)? {
    guard let context else { return nil }
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, total >= 0 else { return nil }
    let bytes = UnsafeBufferPointer(start: data.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }, count: data == nil ? 0 : total)
    return (Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue(), bytes)
}

/// Returning anything but the byte count stops the transfer.
private let curlBodyCallback: elbowroom_curl_data_callback = { data, size, count, context in
    guard let (exchange, chunk) = callbackBytes(data, size, count, context) else { return 0 }
    return chunk.isEmpty || exchange.append(chunk) ? chunk.count : 0
}

private let curlHeaderCallback: elbowroom_curl_data_callback = { data, size, count, context in
    guard let (exchange, line) = callbackBytes(data, size, count, context) else { return 0 }
    return line.isEmpty || exchange.header(line) ? line.count : 0
}

/// Past the deadline the transfer stops, whatever libcurl's own timers think.
private let curlProgressCallback: elbowroom_curl_progress_callback = { context, _, _, _, _ in
    guard let context else { return 1 }
    let exchange = Unmanaged<CurlExchange>.fromOpaque(context).takeUnretainedValue()
    return Monotonic.now() > exchange.deadline + 0.5 ? 1 : 0
}

/// Seconds on a clock that never jumps.
enum Monotonic {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
#endif
