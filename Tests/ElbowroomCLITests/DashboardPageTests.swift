import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomCLI

/// `DashboardPage` on its own: hostile text from the data stays text, and the policy names the
/// one stylesheet the page has.
@Suite struct DashboardPageTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func page(title: String, label: String, error: String? = nil) -> String {
        var cache = CacheFile(account: "t", reading: Reading(
            windows: [UsageWindow(key: "five_hour", label: label, used: 40, resetsAt: now.addingTimeInterval(3600), observedAt: now)],
            fetchedAt: now, source: .api))
        cache.fetch.recordSuccess(at: now)
        cache.fetch.message = error
        let view = UsageView(cache: cache, now: now, config: Config())
        let samples = [HistorySample(at: 1_800_000_000 - 600, key: "five_hour", used: 30, resetsAt: 1_800_003_600),
                       HistorySample(at: 1_800_000_000, key: "five_hour", used: 40, resetsAt: 1_800_003_600)]
        return DashboardPage.html([DashboardPage.Account(title: title, view: view, samples: samples)], now: now)
    }

    static let hostile = [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "' onmouseover='alert(1)",
        "</style><style>body{display:none}</style>", "<!--", "&lt;already&gt;", "javascript:alert(1)",
        "\u{202E}evil\u{1B}[31m", "<svg onload=alert(1)>",
    ]

    @Test(arguments: hostile)
    func everyStringFromTheDataIsEscaped(_ text: String) {
        let html = Self.page(title: text, label: text, error: text)
        for bad in ["<script", "<img", "<svg onload", "</style><style>", "<!--", "\u{202E}", "\u{1B}"] {
            #expect(!html.contains(bad), "\(bad) came through")
        }
        #expect(!html.contains("' onmouseover='"))
        #expect(!html.contains("\" onload"))
        // Exactly one style element, the one the policy hashes.
        #expect(html.components(separatedBy: "<style>").count == 2)
        #expect(html.contains("<style>\(DashboardPage.style)</style>"))
    }

    @Test func thePolicyAllowsOnlyTheOneStylesheetAndDataImages() {
        let csp = DashboardPage.csp
        #expect(csp.hasPrefix("default-src 'none'; style-src 'sha256-"))
        #expect(csp.contains("img-src data:") && !csp.contains("script-src") && !csp.contains("unsafe"))
        // The hash is SHA-256 of the style text, base64 (44 characters).
        #expect(DashboardPage.styleHash.count == 44 && DashboardPage.styleHash.hasSuffix("="))
        let html = Self.page(title: "Claude", label: "Session")
        #expect(!html.contains(" style=\""), "an inline style attribute the policy would block")
        #expect(!html.contains(" on"), "an inline event handler")
        #expect(html.contains("role=\"meter\" aria-valuemin=\"0\" aria-valuemax=\"100\" aria-valuenow=\"60\""))
        #expect(html.contains("aria-valuetext=\"60% left, resets in 1h, level ok\""))
        #expect(html.contains("<meta http-equiv=\"refresh\" content=\"60\">"))
        #expect(html.contains("prefers-color-scheme: dark"))
    }
}
