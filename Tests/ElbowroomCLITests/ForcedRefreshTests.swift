import Foundation
import Testing
@testable import ElbowroomCLI

/// `watch` and `tray` coalesce refresh requests the same way (`ForcedRefresh`).
@Suite struct ForcedRefreshTests {
    @Test func requestsWithinTheIntervalCollapseIntoOneWhenItIsUp() {
        var refresh = ForcedRefresh()
        let start = Date(timeIntervalSince1970: 1_000_000)
        refresh.request()
        var due = refresh.due(now: start, allowed: true)
        #expect(due)
        for i in 1...10 {
            refresh.request()
            due = refresh.due(now: start.addingTimeInterval(Double(i) * 0.1), allowed: true)
            #expect(!due)
        }
        // The sleep is cut short to when the pending one comes due.
        #expect(refresh.timeout(60, now: start.addingTimeInterval(1)) == ForcedRefresh.interval - 1)
        due = refresh.due(now: start.addingTimeInterval(ForcedRefresh.interval), allowed: true)
        #expect(due)
        due = refresh.due(now: start.addingTimeInterval(60), allowed: true)
        #expect(!due, "ten requests, two refreshes")
        #expect(refresh.timeout(60, now: start) == 60, "nothing pending: the whole interval")
    }

    @Test func demoAndOfflineDropRequests() {
        var refresh = ForcedRefresh()
        refresh.request()
        var due = refresh.due(now: Date(), allowed: false)
        #expect(!due)
        due = refresh.due(now: Date(), allowed: true)
        #expect(!due, "dropped, not kept for later")
    }
}
