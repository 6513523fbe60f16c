import Foundation
import Testing
import ElbowroomTestSupport
@testable import ElbowroomCore

/// Issue 24, second hostile round: text caps that count the wrong thing, times from the future
/// and one login under two names.
@Suite struct HostileTimeAndIdentityTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: Caps count bytes

    /// 64 characters of one letter and a thousand combining marks each are 128 KB: the cache's
    /// cap on labels and the plan counts bytes, cut between scalars.
    @Test func labelsAndThePlanAreCappedInBytesNotCharacters() {
        let heavy = String(repeating: "e" + String(repeating: "\u{0301}", count: 1000), count: 64)
        let reading = Reading(windows: [UsageWindow(key: "seven_day_x", label: heavy, used: 10, resetsAt: nil, observedAt: Self.now)],
                              plan: heavy, fetchedAt: Self.now, source: .api)
        let limited = reading.limitedForCache().reading
        let label = limited.windows[0].label ?? ""
        #expect(label.utf8.count <= ReadingLimits.maxTextBytes && label.utf8.count >= ReadingLimits.maxTextBytes - 3)
        #expect((limited.plan ?? "").utf8.count <= ReadingLimits.maxTextBytes)
        #expect(label.unicodeScalars.first == "e")
        // Short text is kept whole, and a cut never splits a scalar.
        #expect(SafeText.prefix("Sonnet", maxBytes: ReadingLimits.maxTextBytes) == "Sonnet")
        #expect(SafeText.prefix("aé€😀", maxBytes: 7) == "aé€")
        #expect(SafeText.prefix("aé€😀", maxBytes: 6) == "aé€")
        #expect(SafeText.prefix("aé€😀", maxBytes: 5) == "aé")
    }
}
