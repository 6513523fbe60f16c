// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// `prometheus`: the node_exporter textfile collector format (write to a temp file, then rename
/// it to `*.prom`). Gauges, no timestamps; windows are labelled by API key (`window="five_hour"`).
///
/// | metric | value |
/// |---|---|
/// | `elbowroom_up` | 1 when the status is `ok` (fresh data), else 0 |
/// | `elbowroom_status{status="…"}` | 1 for the current status, 0 for the others |
/// | `elbowroom_data_age_seconds` | seconds since the data was observed (absent without data) |
/// | `elbowroom_window_used_percent{window}` | percent used |
/// | `elbowroom_window_left_percent{window}` | percent left |
/// | `elbowroom_window_resets_at_seconds{window}` | reset time, Unix seconds (only when known) |
/// | `elbowroom_window_level{window}` | 0 ok, 1 warn, 2 critical |
/// | `elbowroom_window_rate_percent_per_hour{window}` | percent used per hour now (only when the history gives a rate) |
///
/// Every window is a series of its own: a key that the escaping changes (it drops a control or a
/// bidi control, or writes CR as `\n`) and so would repeat another window's label value gets
/// ` (2)`, ` (3)`, … after it (node_exporter keeps one of two equal series and drops the other).
/// Keys shown as they are keep their value.
///
/// With several `[accounts.NAME]` every sample carries `account="NAME"` as its first label.
public struct PrometheusAdapter: OutputAdapter {
    public init() {}
    public let name = "prometheus"
    public let summary = "Prometheus textfile collector (node_exporter *.prom)"
    public var printsView: Bool { true }

    struct Family {
        var name: String
        var help: String
        var samples: [(labels: String, value: Double)] = []
    }

    static func levelValue(_ level: Level) -> Double {
        switch level {
        case .ok: 0
        case .warn: 1
        case .critical: 2
        }
    }

    static func text(_ families: [Family]) -> String {
        var out = ""
        for f in families where !f.samples.isEmpty {
            out += "# HELP \(f.name) \(PrometheusEscaping.help(f.help))\n# TYPE \(f.name) gauge\n"
            for s in f.samples { out += f.name + s.labels + " " + JSONNumber.format(s.value) + "\n" }
        }
        return out
    }

    static func window(_ value: String) -> String { "{window=\"\(value)\"}" }

    /// The escaped `window` label value of each key, all different (see above). Arrays and a
    /// linear search: a reading has at most `ReadingLimits.maxWindows` windows.
    static func windowLabelValues(_ keys: [String]) -> [String] {
        var values = [String](repeating: "", count: keys.count)
        var taken: [String] = []
        func isTaken(_ value: String) -> Bool { taken.contains { $0.utf8.elementsEqual(value.utf8) } }
        // Keys the escaping keeps whole first, so they never get a suffix; escaping is one to one
        // on them, so none repeats another.
        for keptWhole in [true, false] {
            for i in keys.indices where keys[i].utf8.elementsEqual(SafeText.clean(keys[i], lines: .keep).utf8) == keptWhole {
                let base = PrometheusEscaping.labelValue(keys[i])
                var value = base
                var n = 2
                while isTaken(value) {
                    value = base + " (\(n))"
                    n += 1
                }
                taken.append(value)
                values[i] = value
            }
        }
        return values
    }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        var up = Family(name: "elbowroom_up", help: "1 when elbowroom has fresh usage data (status ok), else 0.")
        var status = Family(name: "elbowroom_status", help: "The current display status (1) among all statuses (0).")
        var age = Family(name: "elbowroom_data_age_seconds", help: "Seconds since the usage data was observed.")
        var used = Family(name: "elbowroom_window_used_percent", help: "Percent of the usage window used.")
        var left = Family(name: "elbowroom_window_left_percent", help: "Percent of the usage window left.")
        var resets = Family(name: "elbowroom_window_resets_at_seconds", help: "When the usage window resets, Unix time.")
        var level = Family(name: "elbowroom_window_level", help: "Severity of the usage window: 0 ok, 1 warn, 2 critical.")
        var rate = Family(name: "elbowroom_window_rate_percent_per_hour", help: "Percent of the usage window used per hour, now.")
        // Several accounts: every sample of each carries `account="NAME"` first.
        let parts: [(account: String?, view: UsageView)] = frame.accounts.isEmpty
            ? [(nil, frame.view)] : frame.accounts.map { ($0.name, $0.view) }
        for (account, view) in parts {
            let accountLabel = account.map { "account=\"\(PrometheusEscaping.labelValue($0))\"" }
            func labels(_ other: String?) -> String {
                let inner = [accountLabel, other].compactMap { $0 }.joined(separator: ",")
                return inner.isEmpty ? "" : "{" + inner + "}"
            }
            up.samples.append((labels(nil), view.status == .ok ? 1 : 0))
            for s in DisplayStatus.allCases {
                status.samples.append((labels("status=\"\(s.rawValue)\""), s == view.status ? 1 : 0))
            }
            if let a = view.age { age.samples.append((labels(nil), a.rounded())) }
            let values = Self.windowLabelValues(view.windows.map(\.key))
            for (w, value) in zip(view.windows, values) {
                let labels = labels("window=\"\(value)\"")
                used.samples.append((labels, JSONNumber.rounded(w.used, places: 2)))
                left.samples.append((labels, JSONNumber.rounded(w.left, places: 2)))
                if let r = w.resetsAt { resets.samples.append((labels, r.timeIntervalSince1970.rounded(.down))) }
                level.samples.append((labels, Self.levelValue(w.level)))
                if let r = w.rate { rate.samples.append((labels, JSONNumber.rounded(r, places: 2))) }
            }
        }
        return AdapterOutput(Self.text([up, status, age, used, left, resets, level, rate]))
    }

    /// `elbowroom_up 0`, so an alert fires rather than the series silently vanishing.
    public var errorReader: ErrorReader { .consumer }

    public func renderError(_ message: String) -> AdapterOutput {
        var up = Family(name: "elbowroom_up", help: "1 when elbowroom has fresh usage data (status ok), else 0.")
        up.samples = [("", 0)]
        return AdapterOutput(Self.text([up]), exitCode: 0)
    }
}
