import ElbowroomCore
import ElbowroomTemplate
import ElbowroomAdapters

/// `serve`'s `GET /`: one self-contained HTML page — every account's windows as gauges (left %,
/// reset countdown, level), a chart of used % over the last 24 hours and 7 days, and each day's
/// peak over the last 90 (the daily summaries).
///
/// - Nothing outside the page: no script, no external URL, no framework; inline SVG and one
///   `<style>` whose SHA-256 the `Content-Security-Policy` names (`csp`), which allows nothing
///   else (`default-src 'none'`; `img-src data:` for the empty icon, so no `/favicon.ico` request).
/// - Refreshes itself every 60 s (`<meta http-equiv="refresh">`).
/// - Light and dark (`prefers-color-scheme`); levels and series differ in text and shape, not
///   only colour.
/// - A screen reader hears every gauge: `role="meter"` with `aria-valuenow` and an
///   `aria-valuetext` that says left %, the reset countdown and the level; each chart has a text
///   summary.
/// - Every string from the data (labels, names, errors) is HTML-escaped (`escape`).
enum DashboardPage {
    /// One account as the page shows it.
    struct Account {
        /// The heading: the account's label, or the agent ("Claude").
        var title: String
        var view: UsageView
        var samples: [HistorySample]
        /// Daily summaries, for the 90 days (each day's peak).
        var days: [DailySummary] = []
    }

    static let refreshSeconds = 60

    /// The one stylesheet; `csp` names its hash.
    static let style = """
        :root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--card:#f6f8fa;--line:#d1d9e0;\
        --ok:#1a7f37;--warn:#9a6700;--critical:#cf222e;--track:#e6e9ed;\
        --s0:#0969da;--s1:#8250df;--s2:#bf3989;--s3:#1a7f37;--s4:#bc4c00}
        @media (prefers-color-scheme: dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#161b22;--line:#3d444d;\
        --ok:#3fb950;--warn:#d29922;--critical:#f85149;--track:#30363d;\
        --s0:#4493f8;--s1:#ab7df8;--s2:#f778ba;--s3:#3fb950;--s4:#f0883e}}
        *{box-sizing:border-box}
        body{margin:0;padding:1.5rem;background:var(--bg);color:var(--fg);font:16px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif}
        h1{font-size:1.4rem;margin:0 0 .25rem}
        h2{font-size:1.15rem;margin:0 0 .75rem}
        h3{font-size:1rem;margin:1rem 0 .25rem;color:var(--muted);font-weight:600}
        .meta,.note{color:var(--muted);margin:0 0 1rem}
        .account{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1rem 1.25rem;margin:0 0 1.25rem}
        .gauges{display:flex;flex-wrap:wrap;gap:1rem}
        .gauge{display:flex;align-items:center;gap:.75rem;min-width:15rem;padding:.5rem .75rem;border:1px solid var(--line);border-radius:10px;background:var(--bg)}
        .gauge svg{width:84px;height:84px;flex:none}
        .track{fill:none;stroke:var(--track);stroke-width:12}
        .arc{fill:none;stroke-width:12;stroke-linecap:round}
        .ok .arc{stroke:var(--ok)}.warn .arc{stroke:var(--warn)}.critical .arc{stroke:var(--critical)}
        .pct{fill:var(--fg);font:700 26px system-ui,sans-serif}
        .name{font-weight:600}
        .left{font-size:1.3rem;font-weight:700}
        .level{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.8rem;font-weight:700;border:1px solid currentColor}
        .ok .level{color:var(--ok)}.warn .level{color:var(--warn)}.critical .level{color:var(--critical)}
        .detail{display:flex;flex-direction:column}
        .chart{width:100%;height:auto;max-width:60rem;display:block}
        .grid{stroke:var(--line);stroke-width:1}
        .axis{fill:var(--muted);font:12px system-ui,sans-serif}
        .series{fill:none;stroke-width:2.5;stroke-linejoin:round}
        .reset{stroke:var(--muted);stroke-width:1;stroke-dasharray:4 4}
        .s0{stroke:var(--s0);fill:var(--s0)}.s1{stroke:var(--s1);fill:var(--s1)}.s2{stroke:var(--s2);fill:var(--s2)}\
        .s3{stroke:var(--s3);fill:var(--s3)}.s4{stroke:var(--s4);fill:var(--s4)}
        polyline.s0,polyline.s1,polyline.s2,polyline.s3,polyline.s4{fill:none}
        .s1{stroke-dasharray:8 3}.s2{stroke-dasharray:2 3}.s3{stroke-dasharray:10 3 2 3}
        .legend{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;padding:0;margin:.25rem 0 0;color:var(--muted)}
        .legend svg{width:28px;height:10px;vertical-align:middle;margin-right:.3rem}
        .sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}

        """

    /// The `Content-Security-Policy` header's value.
    static var csp: String {
        "default-src 'none'; style-src 'sha256-\(styleHash)'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// Base64 of the SHA-256 of `style`, as CSP names a hash.
    static let styleHash: String = {
        let hex = Array(SHA256.hex(style).utf8)
        var bytes: [UInt8] = []
        var i = 0
        while i + 1 < hex.count {
            func nibble(_ c: UInt8) -> UInt8 { c <= UInt8(ascii: "9") ? c - UInt8(ascii: "0") : c - UInt8(ascii: "a") + 10 }
            bytes.append(nibble(hex[i]) << 4 | nibble(hex[i + 1]))
            i += 2
        }
        return Data(bytes).base64EncodedString()
    }()

    /// Text from anywhere, safe in an HTML element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in SafeText.clean(SafeText.prefix(text, maxBytes: ReadingLimits.maxTextBytes), lines: .join).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func html(_ accounts: [Account], now: Date) -> String {
        let utc = LocalTime.fixed(offsetSeconds: 0)
        var out = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta http-equiv="refresh" content="\(refreshSeconds)">
            <link rel="icon" href="data:,">
            <title>elbowroom: usage headroom</title>
            <style>\(style)</style>
            </head>
            <body>
            <header><h1>Usage headroom</h1>
            <p class="meta">As of \(utc.format(now, "%Y-%m-%d %H:%M:%S")) UTC; this page refreshes every \(refreshSeconds) seconds.</p></header>
            <main>

            """
        for (a, account) in accounts.enumerated() {
            out += section(account, index: a, now: now, utc: utc)
        }
        if accounts.isEmpty { out += "<p class=\"note\">No account to show.</p>\n" }
        out += "</main>\n</body>\n</html>\n"
        return out
    }

    static func section(_ account: Account, index a: Int, now: Date, utc: LocalTime) -> String {
        let view = account.view
        var out = "<section class=\"account\" aria-labelledby=\"acct\(a)\">\n<h2 id=\"acct\(a)\">\(escape(account.title))</h2>\n"
        let age = view.age.map { "data \(DurationText.short($0)) old" } ?? "no data yet"
        var status = "Status: \(escape(view.status.rawValue)), \(age)"
        if let error = view.error { status += ": " + escape(error) }
        out += "<p class=\"note\">\(status)</p>\n"
        let windows = view.windows
        if !windows.isEmpty {
            out += "<div class=\"gauges\">\n"
            for (w, window) in windows.enumerated() { out += gauge(window, id: "g\(a)-\(w)") }
            out += "</div>\n"
        }
        let end = Int64(now.timeIntervalSince1970.rounded(.down))
        for (title, span) in [("Last 24 hours", Int64(86400)), ("Last 7 days", Int64(7 * 86400))] {
            out += "<h3>\(title)</h3>\n"
            let samples = account.samples.filter { $0.at >= end - span && $0.at <= end }
            if samples.isEmpty {
                out += "<p class=\"note\">No history in this range yet.</p>\n"
            } else {
                out += chart(samples, start: end - span, end: end, windows: windows, title: title, utc: utc)
            }
        }
        let start = end - 90 * 86400
        let peaks = account.days.filter { $0.dayStart + 86400 > start }
            .map { HistorySample(at: min(end, max(start, $0.dayStart) + 43200), key: $0.key, used: $0.peak, resetsAt: nil) }
            .sorted { $0.at < $1.at }
        if peaks.count > 1 {
            out += "<h3>Last 90 days, each day's peak</h3>\n"
            out += chart(peaks, start: start, end: end, windows: windows, title: "Last 90 days, each day's peak", utc: utc)
        }
        return out + "</section>\n"
    }

    static func gauge(_ w: WindowView, id: String) -> String {
        let left = min(max(w.left, 0), 100)
        let whole = PercentText.whole(left)
        let level = w.hasReset ? "ok" : w.level.rawValue
        let resets = w.hasReset ? "has reset" : w.resetsIn.map { "resets in \(DurationText.short($0))" } ?? "reset time unknown"
        let circumference = 2 * Double.pi * 42
        let arc = JSONNumber.format(JSONNumber.rounded(circumference * left / 100, places: 2))
        let name = escape(w.label)
        return """
            <div class="gauge \(level)" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow="\(whole)" \
            aria-valuetext="\(whole)% left, \(resets), level \(level)" aria-labelledby="\(id)">
            <svg viewBox="0 0 100 100" aria-hidden="true"><circle class="track" cx="50" cy="50" r="42"/>\
            <circle class="arc" cx="50" cy="50" r="42" transform="rotate(-90 50 50)" \
            stroke-dasharray="\(arc) \(JSONNumber.format(JSONNumber.rounded(circumference, places: 2)))"/>\
            <text class="pct" x="50" y="59" text-anchor="middle">\(whole)</text></svg>
            <div class="detail"><span class="name" id="\(id)">\(name) (\(escape(w.name)))</span>\
            <span class="left" data-left="\(whole)">\(whole)% left</span>\
            <span class="resets">\(resets)</span>\
            <span><span class="level">\(level)</span></span></div>
            </div>

            """
    }

    /// Used % over `start…end`: one line per window (a new line at each reset), reset times as
    /// dashed verticals, a grid at every 25 %, a legend and a text summary.
    static func chart(_ samples: [HistorySample], start: Int64, end: Int64, windows: [WindowView], title: String,
                      utc: LocalTime) -> String {
        let width = 720.0, height = 200.0
        let left = 44.0, right = 710.0, top = 10.0, bottom = 170.0
        let span = Double(max(1, end - start))
        func x(_ at: Int64) -> Double { left + Double(at - start) / span * (right - left) }
        func y(_ used: Double) -> Double { bottom - min(max(used, 0), 100) / 100 * (bottom - top) }
        func n(_ v: Double) -> String { JSONNumber.format(JSONNumber.rounded(v, places: 1)) }
        var keys: [String] = []
        for s in samples where !keys.contains(s.key) { keys.append(s.key) }
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(n(width)) \(n(height))\" aria-hidden=\"true\">"
        for p in [0.0, 25, 50, 75, 100] {
            svg += "<line class=\"grid\" x1=\"\(n(left))\" x2=\"\(n(right))\" y1=\"\(n(y(p)))\" y2=\"\(n(y(p)))\"/>"
            svg += "<text class=\"axis\" x=\"\(n(left - 6))\" y=\"\(n(y(p) + 4))\" text-anchor=\"end\">\(Int(p))%</text>"
        }
        let format = end - start <= 2 * 86400 ? "%H:%M" : end - start <= 8 * 86400 ? "%a %d" : "%b %d"
        for (fraction, anchor) in [(0.0, "start"), (0.5, "middle"), (1.0, "end")] {
            let at = start + Int64(Double(end - start) * fraction)
            svg += "<text class=\"axis\" x=\"\(n(x(at)))\" y=\"\(n(bottom + 20))\" text-anchor=\"\(anchor)\">\(utc.format(Date(timeIntervalSince1970: TimeInterval(at)), format))</text>"
        }
        var summary: [String] = []
        var legend = ""
        for (k, key) in keys.enumerated() {
            let series = "s\(k % 5)"
            let mine = samples.filter { $0.key == key }
            let label = windows.first { $0.key == key }?.label ?? WindowCatalog.shortName(forKey: key)
            // A line per window instance, so a reset is a break, not a slope.
            var segments: [[HistorySample]] = []
            var resets: [Int64] = []
            for s in mine {
                if let last = segments.last?.last, HistorySample.sameInstance(last.resetsAt, s.resetsAt) {
                    segments[segments.count - 1].append(s)
                } else {
                    segments.append([s])
                }
                if let reset = s.resetsAt, reset > start, reset < end, !resets.contains(where: { HistorySample.sameInstance($0, reset) }) {
                    resets.append(reset)
                }
            }
            for reset in resets {
                svg += "<line class=\"reset\" x1=\"\(n(x(reset)))\" x2=\"\(n(x(reset)))\" y1=\"\(n(top))\" y2=\"\(n(bottom))\"/>"
            }
            for segment in segments {
                let points = segment.map { "\(n(x($0.at))),\(n(y($0.used)))" }
                if points.count == 1 {
                    svg += "<circle class=\"\(series)\" cx=\"\(n(x(segment[0].at)))\" cy=\"\(n(y(segment[0].used)))\" r=\"2.5\"/>"
                } else {
                    svg += "<polyline class=\"series \(series)\" points=\"\(points.joined(separator: " "))\"/>"
                }
            }
            let peak = mine.map(\.used).max() ?? 0
            let latest = mine.last?.used ?? 0
            summary.append("\(escape(label)): \(PercentText.whole(latest))% used at the latest sample, at most \(PercentText.whole(peak))%, \(resets.count) reset\(resets.count == 1 ? "" : "s")")
            legend += "<li><svg viewBox=\"0 0 28 10\" aria-hidden=\"true\"><line class=\"series \(series)\" x1=\"0\" x2=\"28\" y1=\"5\" y2=\"5\"/></svg>\(escape(label))</li>"
        }
        svg += "</svg>\n"
        return svg + "<ul class=\"legend\" aria-hidden=\"true\">\(legend)<li>dashed vertical: a reset</li></ul>\n"
            + "<p class=\"sr-only\">\(title), used percent: \(summary.joined(separator: "; ")).</p>\n"
    }
}
