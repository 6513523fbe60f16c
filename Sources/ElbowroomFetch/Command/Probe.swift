#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// `--probe`: is the usage api reachable? Sends the usual headers but no `Authorization`, so no
/// token leaves the machine; any HTTP answer (a 401 is expected) counts as reachable.
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
            return (true, "reachable: \(client.usageURL.absoluteString) answered \(response.status) in \(ms) ms")
        } catch {
            return (false, "unreachable: \(client.usageURL.absoluteString): \(error)")
        }
    }
}
