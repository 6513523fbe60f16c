import Foundation
import Testing
import ElbowroomAdapters
import ElbowroomCore

/// The burn rate reaches the adapters that print the numbers themselves.
@Suite struct RateOutputTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The session window went from 40 % to 70 % over the last hour: 30 %/h.
    static var frame: RenderedFrame {
        let reset = now.addingTimeInterval(3 * 3600)
        let window = UsageWindow(key: "five_hour", used: 70, resetsAt: reset, observedAt: now)
        let cache = CacheFile(account: "t", reading: Reading(windows: [window], fetchedAt: now, source: .api))
        let history = UsageHistory(samples: (0...60).map {
            HistorySample(at: 1_800_000_000 - 3600 + Int64($0) * 60, key: "five_hour", used: 40 + Double($0) / 2,
                          resetsAt: Int64(reset.timeIntervalSince1970))
        })
        return RenderedFrame(spans: [], view: UsageView(cache: cache, now: now, config: Config(), history: history))
    }

    @Test func prometheusHasARateGaugeWhenThereIsARate() {
        let text = PrometheusAdapter().render(Self.frame).text
        #expect(text.contains("""
            # HELP elbowroom_window_rate_percent_per_hour Percent of the usage window used per hour, now.
            # TYPE elbowroom_window_rate_percent_per_hour gauge
            elbowroom_window_rate_percent_per_hour{window="five_hour"} 30

            """))
    }

    @Test func jsonAndPluginsCarryTheRate() {
        #expect(JSONAdapter().render(Self.frame).text.contains(#""rate":30,"#))
        #expect(FrameJSON.value(Self.frame, adapter: "x", mode: "render").encoded.contains(#""rate":30,"#))
    }

    @Test func onlyAdaptersThatPrintTheNumbersNeedTheHistory() {
        let printing = AdapterRegistry.builtIn.filter(\.printsView).map(\.name)
        #expect(printing == ["json", "prometheus"])
        #expect(ExternalAdapter(name: "x", path: "/bin/true", environment: ElbowroomEnvironment([:])).printsView)
    }
}
