#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore

/// A usage source as a plugin (`provider = "plugin:NAME"`): the executable
/// `elbowroom-source-NAME`, found in `$XDG_CONFIG_HOME/elbowroom/sources/` first, then on `PATH`
/// (absolute entries only). Run by the fetcher only — never on the render path — with the
/// argument `read`, a small JSON request on stdin, a clean environment (`environment`: no
/// credential, no variable of the parent but the few below), a time limit (`timeout` in the
/// config; it and everything it started are killed after it) and an output cap (`maxOutput`);
/// anything it leaves running, daemonised or not, is ended when it ends (`StrayReaper`).
/// It prints one reading as JSON (`Output`, docs/accounts-and-agents.md#source-plugins); any
/// failure is a fetch failure, with its backoff, shown on the account's part of the line.
struct PluginProvider: UsageProvider {
    var name: String
    var context: FetchContext
    var config: Config
    var spawner: any ProcessSpawner = PosixSpawner()

    /// A plugin account's files from before each account had its own become its own, when they
    /// can only be its (`PluginCacheMigration`).
    mutating func prepare() -> FetchReport.Result? {
        let log = context.log
        PluginCacheMigration.run(paths: context.paths, config: config, log: { log($0) })
        return nil
    }

    func credentialsChanged() -> Date? { nil }

    /// Named as this plugin's, not the usage api's.
    func failure(_ error: FetchError) -> FetchError { .at("source plugin " + name, error) }

    static let prefix = "elbowroom-source-"
    /// The most a plugin may print (64 KiB: a reading is well under 4 KiB).
    static let maxOutput = 64 << 10
    /// The only variables a plugin gets from the parent.
    static let passed = ["HOME", "USER", "LOGNAME", "PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
                         "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"]

    /// Where the plugin is, or `nil`.
    func find() -> String? {
        let env = context.environment
        let sources = Paths.join(context.paths.configHome, "sources")
        return env.findExecutable(Self.prefix + name, in: [sources] + env.executableSearchPath)
    }


    /// The plugin's environment: `passed` from ours, and `ELBOWROOM_ACCOUNT`.
    var environment: [String: String] {
        var env: [String: String] = [:]
        for name in Self.passed { if let value = context.environment[name] { env[name] = value } }
        env["ELBOWROOM_ACCOUNT"] = context.accountName ?? ""
        return env
    }

    func read(cache: CacheFile?) throws(FetchError) -> Reading {
        guard let path = find() else {
            throw .config("source plugin \(Self.prefix + name) not found in \(Paths.join(context.paths.configHome, "sources")) or on PATH")
        }
        if let why = ExecutableTrust.refusal(path) {
            context.log("refusing \(path): \(why)")
            throw .config("source plugin \(Self.prefix + name) refused: \(ExecutableTrust.withoutPath)")
        }
        let now = context.clock()
        let request = JSONDocument.object([
            .init("version", .number("1")), .init("account", .string(context.accountName ?? "")),
            .init("now", .string(ISO8601.format(now))),
        ]).serializedString() + "\n"
        context.log("running \(path) read")
        let result: (status: Int32, stdout: Data)
        // Whatever it started ends with it (`StrayReaper`), whether it finished or was killed.
        defer {
            let strays = StrayReaper.endStrays()
            if strays > 0 { context.log("ended \(strays) process(es) the plugin left running") }
        }
        do {
            result = try spawner.run(path: path, arguments: ["read"], environment: environment,
                                     stdin: Data(request.utf8), timeout: config.timeout)
        } catch is PosixSpawner.TimedOut {
            throw .timeout(config.timeout)
        } catch {
            // (The fetch names the plugin: "cannot reach source plugin NAME: …".)
            throw .network("it could not start: \(error)")
        }
        guard result.status == 0 else { throw .network("it exited with status \(result.status)") }
        guard result.stdout.count <= Self.maxOutput else {
            throw .undecodable("source plugin \(name) printed more than \(Self.maxOutput / 1024) KiB")
        }
        return try Self.reading(result.stdout, plugin: name, now: now)
    }

    /// What a plugin prints (docs/accounts-and-agents.md#source-plugins).
    struct Output: Decodable {
        var version: Int?
        var status: String?
        var error: String?
        var plan: String?
        var windows: [OutputWindow]?
    }

    struct OutputWindow: Decodable {
        var key: String?
        var label: String?
        var used: Double?
        var left: Double?
        var resets_at: Date?
        /// `resets_at` was given but is no time (`EpochTime`: Unix seconds, or milliseconds by
        /// magnitude, within a century of 1970; or ISO 8601): the window is left out.
        var unreadableReset = false

        enum CodingKeys: String, CodingKey { case key, label, used, left, resets_at }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            key = try? c.decodeIfPresent(String.self, forKey: .key)
            label = try? c.decodeIfPresent(String.self, forKey: .label)
            used = try? c.decodeIfPresent(Double.self, forKey: .used)
            left = try? c.decodeIfPresent(Double.self, forKey: .left)
            if let seconds = try? c.decodeIfPresent(Double.self, forKey: .resets_at) {
                resets_at = EpochTime.date(unix: seconds)
            } else if let text = try? c.decodeIfPresent(String.self, forKey: .resets_at) {
                resets_at = ISO8601.parse(text).flatMap { EpochTime.isSane($0) ? $0 : nil }
            }
            unreadableReset = resets_at == nil && c.contains(.resets_at) && (try? c.decodeNil(forKey: .resets_at)) != true
        }
    }

    static func reading(_ data: Data, plugin: String, now: Date) throws(FetchError) -> Reading {
        guard let output = try? JSONDecoder().decode(Output.self, from: data) else {
            throw .undecodable("source plugin \(plugin) printed no reading (expected one json object)")
        }
        if let error = output.error, !error.isEmpty {
            let message = "\(plugin): " + SafeText.clean(SafeText.prefix(error, maxBytes: 200), lines: .join)
            switch output.status {
            case "signed_out": throw .signedOut(message)
            case "expired": throw .expired(message)
            case "rate_limited": throw .rateLimited(retryAfter: FetchState.defaultRetryAfter)
            default: throw .network(message)
            }
        }
        var windows: [UsageWindow] = []
        var notes: [String] = []
        for w in output.windows ?? [] {
            guard let name = w.key, !name.isEmpty, let used = w.used ?? w.left.map({ 100 - $0 }), used.isFinite else { continue }
            let key = WindowCatalog.key(forName: name)
            // A reset that is no time (`EpochTime`) drops its window, never the reading.
            if w.unreadableReset {
                notes.append("\(SafeText.clean(SafeText.prefix(key, maxBytes: 64), lines: .join)): resets_at is no time; left out")
                continue
            }
            guard !windows.contains(where: { $0.key == key }) else { continue }
            windows.append(UsageWindow(key: key, label: w.label, used: used, resetsAt: w.resets_at, observedAt: now))
        }
        return Reading(windows: windows, plan: output.plan, fetchedAt: now, source: .plugin, notes: notes)
    }
}
