import Foundation
import ElbowroomAdapters
import ElbowroomCore

/// The frames every adapter's golden files are made from: hand-made spans (the template engine
/// is tested on its own) over views computed from caches built in code, at a fixed `now`.
enum GoldenCase: String, CaseIterable, Sendable, CustomStringConvertible {
    case freshOK = "fresh_ok"
    case warn
    case critical
    case stale
    case offline
    case signedOut = "signed_out"
    case resetWindow = "reset_window"
    case hostile

    var description: String { rawValue }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

    /// Text that every consumer must show literally: markup, format and prompt specials, quotes,
    /// a backslash, a newline, and a raw escape sequence that must not reach the terminal.
    static let hostileText = "a&b<c>d%e#f|g%{h\"i\\j'k $(x) #[fg=red] %F{red} \u{1B}[31mX"

    var frame: RenderedFrame {
        let ok = Style(semantic: .ok)
        let warnBold = Style(semantic: .warn, bold: true)
        let critBold = Style(semantic: .critical, bold: true)
        let dim = Style(semantic: .dim)
        switch self {
        case .freshOK:
            return Self.frame(
                cache: Self.cache(windows: [("five_hour", 37, 2 * 3600 + 13 * 60), ("seven_day", 20, 3 * 86400 + 4 * 3600)]),
                spans: [Span("5h "), Span("63%", style: ok), Span(" · 7d "), Span("80%", style: ok)],
                tooltip: [Span("Session "), Span("63%", style: ok), Span(" left, resets in 2h13m\nWeekly "),
                          Span("80%", style: ok), Span(" left, resets in 3d4h")])
        case .warn:
            return Self.frame(
                cache: Self.cache(windows: [("five_hour", 80, 3600), ("seven_day", 41, 3 * 86400)]),
                spans: [Span("5h "), Span("20%", style: warnBold), Span(" · 7d "), Span("59%", style: ok)],
                tooltip: [Span("Session "), Span("20%", style: warnBold), Span(" left, resets in 1h0m")])
        case .critical:
            return Self.frame(
                cache: Self.cache(windows: [("five_hour", 95, 1800), ("seven_day", 70, 86400)]),
                spans: [Span("5h "), Span("5%", style: critBold), Span(" · 7d "), Span("30%", style: ok)],
                tooltip: [Span("Session "), Span("5%", style: critBold), Span(" left, resets in 30m")])
        case .stale:
            return Self.frame(
                cache: Self.cache(windows: [("five_hour", 80, 3600)], observedAgo: 2000),
                spans: [Span("5h "), Span("20%", style: warnBold), Span(" stale 33m", style: Style(semantic: .stale))],
                tooltip: [Span("data from 33m ago")])
        case .offline:
            var fetch = FetchState()
            fetch.recordSuccess(at: Self.now.addingTimeInterval(-600))
            fetch.recordFailure(.network, message: "connection refused", at: Self.now.addingTimeInterval(-60))
            return Self.frame(
                cache: Self.cache(windows: [("five_hour", 37, 3600)], observedAgo: 600, fetch: fetch),
                spans: [Span("5h "), Span("63%", style: ok), Span(" ⚠ offline", style: dim)],
                tooltip: [Span("offline: connection refused")])
        case .signedOut:
            var fetch = FetchState()
            fetch.recordFailure(.signedOut, message: nil, at: Self.now.addingTimeInterval(-30))
            return Self.frame(
                cache: CacheFile(account: "test", reading: nil, fetch: fetch),
                spans: [Span("signed out", style: dim)],
                tooltip: [Span("sign in to Claude Code")])
        case .resetWindow:
            return Self.frame(
                cache: Self.cache(windows: [("five_hour", 90, -600), ("seven_day", 30, 2 * 86400)], observedAgo: 700),
                spans: [Span("5h "), Span("100%", style: ok), Span(" · 7d "), Span("70%", style: ok)],
                tooltip: [Span("Session reset")])
        case .hostile:
            var fetch = FetchState()
            fetch.recordSuccess(at: Self.now.addingTimeInterval(-300))
            fetch.recordFailure(.server, message: "bad \"gateway\" <502> & co | 100%", at: Self.now.addingTimeInterval(-10))
            let cache = Self.cache(windows: [("iguana_necktie", 50, 3600)], observedAgo: 300, fetch: fetch,
                                   label: Self.hostileText)
            let fancy = Style(foreground: .rgb(255, 136, 0), background: .palette(236), italic: true, underline: true)
            return Self.frame(
                cache: cache,
                spans: [Span(Self.hostileText + " "), Span("50%", style: ok), Span(" line1\nline2 "),
                        Span("x", style: fancy), Span(" 10%", style: Style(foreground: .palette(208), bold: true)),
                        Span(" |end", style: Style(foreground: .named(.brightBlue)))],
                tooltip: [Span(Self.hostileText + "\n"), Span("50%", style: ok), Span(" left")])
        }
    }

    static func frame(cache: CacheFile, spans: [Span], tooltip: [Span]) -> RenderedFrame {
        RenderedFrame(spans: spans, tooltip: tooltip, view: UsageView(cache: cache, now: now, config: Config()),
                      palette: Palette(), useColor: true)
    }

    /// A cache with the given windows (key, percent used, seconds until reset), observed
    /// `observedAgo` seconds before `now`.
    static func cache(windows: [(String, Double, TimeInterval)], observedAgo: TimeInterval = 42,
                      fetch: FetchState? = nil, label: String? = nil) -> CacheFile {
        let observed = now.addingTimeInterval(-observedAgo)
        let reading = Reading(
            windows: windows.map {
                UsageWindow(key: $0.0, label: label, used: $0.1, resetsAt: now.addingTimeInterval($0.2), observedAt: observed)
            },
            plan: "max", fetchedAt: observed, source: .api)
        var state = FetchState()
        state.recordSuccess(at: observed)
        return CacheFile(account: "test", reading: reading, fetch: fetch ?? state)
    }
}
