// Apple platforms only: on Linux the fetcher reaches libcurl through elbowroom-http (HelperTransport).
#if !os(Linux)
import Foundation
import ElbowroomCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPTransport` over URLSession: a session per request with no cookies, no cache and no
/// credential store, in memory or on disk (`FoundationStorage`); redirects refused (so a bearer
/// token never travels to a `Location`); no proxy for a loopback URL (`LoopbackProxyBypass`);
/// the body capped; and a hard deadline even if the stack's own timers do not fire.
public struct URLSessionTransport: HTTPTransport {
    public let bodyLimit: Int

    public init(bodyLimit: Int = HTTPLimits.bodyLimit) {
        self.bodyLimit = bodyLimit
    }

    public func send(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        // Callers validate URLs (EndpointURL); this is the last line: no bearer token in clear
        // text to another machine, whoever builds the request.
        guard (try? EndpointURL.validated(request.url.absoluteString, variable: "url")) != nil else {
            throw .network("refused: https is required (plain http only to 127.0.0.1, ::1 or localhost)")
        }
        let configuration = FoundationStorage.configuration()
        if LoopbackProxyBypass.applies(to: request.url) {
            LoopbackProxyBypass.apply(to: configuration)
        }
        configuration.timeoutIntervalForRequest = request.timeout
        configuration.timeoutIntervalForResource = request.timeout
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCredentialStorage = nil

        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
                                    timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for header in request.headers {
            urlRequest.setValue(header.value, forHTTPHeaderField: header.name)
        }
        urlRequest.httpBody = request.body

        let exchange = Exchange(bodyLimit: bodyLimit)
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        task.resume()
        // URLSession's own timers cover the usual cases; this bounds the rest (a server that
        // trickles bytes, a stuck resolver).
        let finished = exchange.done.wait(timeout: .now() + request.timeout + 0.5) == .success
        if !finished {
            task.cancel()
        }
        session.invalidateAndCancel()
        guard finished else { throw .timeout(request.timeout) }
        return try exchange.result(timeout: request.timeout)
    }
}

/// The delegate of one exchange: collects the answer, refuses redirects, enforces the cap.
private final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let bodyLimit: Int
    private var response: HTTPURLResponse?
    private var body = Data()
    private var error: Error?
    private var oversized = false

    init(bodyLimit: Int) {
        self.bodyLimit = bodyLimit
    }

    func result(timeout: TimeInterval) throws(TransportError) -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        if oversized { throw .oversized(limit: bodyLimit) }
        if let error { throw Self.map(error, timeout: timeout) }
        guard let response else { throw .network("no http response") }
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return HTTPResponse(status: response.statusCode, headers: headers, body: body)
    }

    static func map(_ error: Error, timeout: TimeInterval) -> TransportError {
        guard let urlError = error as? URLError else { return .network("network error") }
        switch urlError.code {
        case .timedOut: return .timeout(timeout)
        case .cannotConnectToHost: return .network("connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .network("cannot resolve the host name")
        case .notConnectedToInternet: return .network("not connected to the internet")
        case .networkConnectionLost: return .network("connection closed before an answer")
        case .badServerResponse: return .network("the server did not answer with http")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return .network("tls handshake failed")
        default: return .network("network error (\(urlError.code.rawValue))")
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.lock()
        self.response = response as? HTTPURLResponse
        let tooLarge = response.expectedContentLength > Int64(bodyLimit)
        if tooLarge { oversized = true }
        lock.unlock()
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        if !oversized {
            body.append(data)
            if body.count > bodyLimit {
                oversized = true
                body = Data()
            }
        }
        let cancel = oversized
        lock.unlock()
        if cancel { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask,
                    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
                    completionHandler: @escaping (URLRequest?) -> Void) {
        // Never follow: the 3xx itself becomes the answer, and the token stays here.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        if self.response == nil, let http = task.response as? HTTPURLResponse { self.response = http }
        self.error = error
        lock.unlock()
        done.signal()
    }
}
#endif
