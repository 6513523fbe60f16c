#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// `--probe`: is the usage api reachable? Sends the usual headers but no `Authorization`, so no
/// token leaves the machine; any HTTP answer counts as reachable: `reachable: URL in 85 ms`, with
/// the status only when it is not the 401 a request without a token gets.
public enum Probe {
    public static func run(context: FetchContext) -> (ok: Bool, line: String) {
        let api: URL
        do {
            api = try EndpointURL.api(context.environment)
        } catch {
            return (false, "refused: \(error)")
        }
        let config = try? Config.load(paths: context.paths)
        if config?.usageSource.mayFetch == false { return (false, "not checked: " + UsageSource.statusLineRefusal) }
        let timeout = config?.timeout ?? 10
        // The fetch's own agent (`user_agent`): the endpoint answers an agent it does not know
        // with a lasting 429, and the probe must see what the fetch would.
        let client = UsageClient(apiBase: api, transport: context.transport, timeout: timeout,
                                 userAgent: config?.userAgent ?? UsageClient.defaultUserAgent)
        let started = Date()
        do {
            let response = try context.transport.send(client.request(accessToken: nil))
            let ms = Int(Date().timeIntervalSince(started) * 1000)
            // Without a token the endpoint's 401 is the expected answer: reachable, nothing more
            // to say. Another status is worth a word (429: rate limited; 5xx: it is down).
            let note = response.status == 401 || (200..<300).contains(response.status)
                ? "" : " (without a token it answered \(response.status))"
            return (true, "reachable: \(client.usageURL.absoluteString) in \(ms) ms" + note)
        } catch {
            return (false, "unreachable: \(client.usageURL.absoluteString): \(error)")
        }
    }
}
