import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomCLI

/// `cache show` and `doctor` print text from the data (window keys, plan, the last fetch's
/// message, the credentials' plan and tier) to a terminal: no escape sequence, control or bidi
/// control from it may get there, and no line break may add a line.
@Suite struct HostileOutputTests {
    static let payload = "\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\u{9B}31m\u{9D}0;retitled\u{9C}\u{202E}gpj.exe\u{00}\u{7F}a\r\nb\u{2028}c"

    /// Scalars a terminal must not get from the data: controls but newline, DEL, C1, bidi
    /// controls, U+2028/U+2029.
    static func forbidden(_ text: String) -> [String] {
        text.unicodeScalars.filter { s in
            let v = s.value
            if v == 0x0A { return false }
            return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x061C || v == 0x200E || v == 0x200F
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    static func lineCount(_ text: String) -> Int { text.unicodeScalars.filter { $0 == "\n" }.count }

    static func saveCache(_ s: CLISandbox, data: String) throws {
        let now = s.clock.now
        let observed = now.addingTimeInterval(-60)
        let reading = Reading(
            windows: [UsageWindow(key: "k" + data, label: "L" + data, used: 40, resetsAt: now.addingTimeInterval(3600), observedAt: observed)],
            plan: "P" + data, fetchedAt: observed, source: .api)
        var cache = CacheFile(account: s.store.account, reading: reading)
        cache.fetch.recordSuccess(at: observed)
        cache.fetch.recordFailure(.server, message: "E" + data, at: now.addingTimeInterval(-5))
        try s.store.save(cache)
    }

    static func writeCredentials(_ s: CLISandbox, data: String) throws {
        let document: [String: Any] = ["claudeAiOauth": [
            "accessToken": "sk-ant-oat01-SECRET", "refreshToken": "sk-ant-ort01-SECRET", "expiresAt": 1_795_370_400_000,
            "subscriptionType": "max" + data, "rateLimitTier": "tier" + data,
        ]]
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: s.paths.credentialsFile))
    }

    @Test func cacheShowPrintsNoControlFromTheData() throws {
        let hostile = CLISandbox(), benign = CLISandbox()
        try Self.saveCache(hostile, data: Self.payload)
        try Self.saveCache(benign, data: "x")
        #expect(hostile.run("cache", "show") == 0)
        #expect(benign.run("cache", "show") == 0)
        let out = hostile.stdout.text
        #expect(Self.forbidden(out).isEmpty, "\(out.debugDescription)")
        #expect(Self.lineCount(out) == Self.lineCount(benign.stdout.text), "\(out.debugDescription)")
        #expect(out.contains("plan: P]52;c;ZXZpbA==[2J31m0;retitledgpj.exea b c"))
    }

    @Test func doctorPrintsNoControlFromTheData() throws {
        let hostile = CLISandbox(), benign = CLISandbox()
        try Self.saveCache(hostile, data: Self.payload)
        try Self.writeCredentials(hostile, data: Self.payload)
        try Self.saveCache(benign, data: "x")
        try Self.writeCredentials(benign, data: "x")
        hostile.run("doctor")
        benign.run("doctor")
        let out = hostile.stdout.text
        #expect(Self.forbidden(out).isEmpty, "\(out.debugDescription)")
        #expect(Self.lineCount(out) == Self.lineCount(benign.stdout.text), "one line per part: \(out.debugDescription)")
        #expect(out.contains("plan max]52;c;ZXZpbA==[2J31m0;retitledgpj.exea b c (tier]52;c;"))
        #expect(!out.contains("SECRET"))
    }
}
