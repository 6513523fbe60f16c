import ElbowroomCore

/// The head of one HTTP/1.x request, as `serve` reads it: the method, the path (the query
/// dropped), whether the connection stays open after the answer, and the `Host` it names.
struct HTTPRequestHead: Equatable {
    var method: String
    var path: String
    var keepAlive: Bool
    /// `Host`, as sent (nil: none, which only HTTP/1.0 may leave out). `HostCheck` decides on it.
    var host: String? = nil

    enum Parse: Equatable {
        /// The head has not ended yet.
        case incomplete
        /// A head of `consumed` bytes.
        case request(HTTPRequestHead, consumed: Int)
        /// Answer with this status and close: 400 malformed (an HTTP/1.1 request without `Host`,
        /// or with two, included), 431 too large, 505 not HTTP/1.x.
        case refuse(Int)
    }

    /// Reads a head from the start of `buffer`, which may hold at most `limit` bytes of it.
    static func parse(_ buffer: [UInt8], limit: Int) -> Parse {
        guard let end = headEnd(buffer) else {
            return buffer.count > limit ? .refuse(431) : .incomplete
        }
        guard end.head <= limit else { return .refuse(431) }
        // Lines split on bytes: as Characters, CR LF is one and would not split on LF.
        var lines = buffer[0..<end.head].split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0.last == 0x0D ? $0.dropLast() : $0, as: UTF8.self)[...]
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { return .refuse(400) }
        let parts = first.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }),
              parts[1].hasPrefix("/") else { return .refuse(400) }
        let version = parts[2]
        guard version.hasPrefix("HTTP/") else { return .refuse(400) }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .refuse(505) }
        var keepAlive = version == "HTTP/1.1"
        var host: String?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  !line[..<colon].contains(" ") else { return .refuse(400) }
            let name = line[..<colon].lowercased()
            if name == "host" {
                // Two could be read two ways (a proxy takes one, we the other): refused, as RFC 9112 says.
                guard host == nil else { return .refuse(400) }
                host = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
                while let last = host?.last, last == " " || last == "\t" { host?.removeLast() }
                continue
            }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }.lowercased()
            switch name {
            case "connection":
                if value.contains("close") { keepAlive = false }
                if value.contains("keep-alive") && version == "HTTP/1.0" { keepAlive = true }
            case "content-length":
                // A body is not read: close after the answer instead of reading it as a request.
                guard let n = Int(value), n >= 0 else { return .refuse(400) }
                if n > 0 { keepAlive = false }
            case "transfer-encoding":
                keepAlive = false
            default:
                break
            }
        }
        if host == nil && version == "HTTP/1.1" { return .refuse(400) }
        let target = parts[1]
        let path = target.firstIndex(of: "?").map { target[..<$0] } ?? target
        return .request(HTTPRequestHead(method: String(parts[0]), path: String(path), keepAlive: keepAlive, host: host),
                        consumed: end.total)
    }

    /// Where the head ends: after a blank line (CRLF CRLF, or bare LF LF as servers tolerate).
    static func headEnd(_ buffer: [UInt8]) -> (head: Int, total: Int)? {
        var i = 0
        while i < buffer.count {
            if buffer[i] == 0x0A {
                if i + 1 < buffer.count, buffer[i + 1] == 0x0A { return (i + 1, i + 2) }
                if i + 2 < buffer.count, buffer[i + 1] == 0x0D, buffer[i + 2] == 0x0A { return (i + 1, i + 3) }
            }
            i += 1
        }
        return nil
    }
}

/// One answer.
struct HTTPResponse {
    var status: Int
    var contentType = "text/plain; charset=utf-8"
    var body: String
    /// Extra header lines, each ending in CRLF (`Allow: GET, HEAD\r\n`).
    var headers = ""

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 421: "Misdirected Request"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }

    /// The bytes on the wire; `head` leaves the body out (a HEAD request).
    func bytes(keepAlive: Bool, head: Bool = false) -> [UInt8] {
        let body = Array(self.body.utf8)
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        text += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        text += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n" + headers
        text += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Array(text.utf8) + (head ? [] : body)
    }
}
