import Foundation
import Testing
import ElbowroomCore
import ElbowroomAdapters
@testable import ElbowroomCLI

/// The real-account classes through every adapter with its default template: an idle account is
/// numbers, not a blank; a binding per-model limit shows on the default line; a status-line value
/// that is not data never raises an alarm; and status-line renders write only news.
@Suite struct RealAccountRenderTests {
    static let adapters = AdapterRegistry.builtIn.map(\.name)

    func saveReading(_ s: CLISandbox, body: String) throws {
        let reading = try UsageDecoder.decode(Data(body.utf8), observedAt: s.clock.now.addingTimeInterval(-20))
        var cache = CacheFile(account: s.store.account, reading: reading)
        cache.fetch.recordSuccess(at: reading.fetchedAt)
        try s.store.save(cache)
    }

    @Test(arguments: adapters)
    func anIdleAccountShowsFullWindowsEverywhere(adapter: String) throws {
        let s = CLISandbox()
        try saveReading(s, body: #"{"five_hour":{"utilization":0,"resets_at":null},"seven_day":{"utilization":0,"resets_at":null}}"#)
        #expect(s.run("-a", adapter, "--offline") == 0)
        #expect(s.stdout.text.contains("100"), "\(adapter): \(s.stdout.text)")
        if adapter == "waybar" { #expect(!s.stdout.text.contains(#""text":"""#)) }
    }

    @Test(arguments: adapters)
    func aBindingModelLimitIsOnTheDefaultLine(adapter: String) throws {
        let s = CLISandbox()
        let reset = ISO8601.format(s.clock.now.addingTimeInterval(3 * 86400))
        try saveReading(s, body: """
        {"limits":[{"kind":"session","percent":12,"resets_at":"\(reset)"},{"kind":"weekly_all","percent":40,"resets_at":"\(reset)"},
         {"kind":"weekly_scoped","percent":91,"severity":"warning","is_active":true,"resets_at":"\(reset)","scope":{"model":{"display_name":"Fable"}}}]}
        """)
        #expect(s.run("-a", adapter, "--offline") == (adapter == "i3blocks" ? 33 : 0))
        let out = s.stdout.text
        switch adapter {
        case "json":
            #expect(out.contains(#""key":"seven_day_fable""#) && out.contains(#""binding":true"#))
        case "prometheus":
            #expect(out.contains("seven_day_fable"))
        default:
            #expect(out.contains("Fable 9%"), "\(adapter): \(out)")
        }
    }

    @Test func theResetEpochInTheStatusLineIsNotAnAlarm() throws {
        let s = CLISandbox()
        let now = Int(s.clock.now.timeIntervalSince1970)
        s.stdin = Data(#"{"rate_limits":{"five_hour":{"used_percentage":\#(now + 18000),"resets_at":\#(now + 18000)},"seven_day":{"used_percentage":20,"resets_at":\#(now + 86400)}}}"#.utf8)
        #expect(s.run("-a", "claude", "--offline", "--verbose") == 0)
        #expect(s.stdout.text.contains("7d 80%"))
        #expect(!s.stdout.text.contains("5h"), "unknown, not 0 % left: \(s.stdout.text)")
        #expect(s.stderr.text.contains("five_hour: used_percentage \(now + 18000) is not a percentage"))
    }

    @Test func statusLineRendersWriteTheCacheOnlyWhenSomethingChanged() throws {
        let s = CLISandbox()
        let now = Int(s.clock.now.timeIntervalSince1970)
        let input = #"{"rate_limits":{"five_hour":{"used_percentage":30,"resets_at":\#(now + 3600)},"seven_day":{"used_percentage":20,"resets_at":\#(now + 86400)}}}"#
        s.stdin = Data(input.utf8)
        #expect(s.run("-a", "claude", "--offline") == 0)
        let file = s.store.file
        let first = try FileManager.default.attributesOfItem(atPath: file)
        try FileManager.default.removeItem(atPath: s.store.lockFile)
        s.clock.advance(by: 5)
        #expect(s.run("-a", "claude", "--offline") == 0)
        let second = try FileManager.default.attributesOfItem(atPath: file)
        #expect(first[.systemFileNumber] as? Int == second[.systemFileNumber] as? Int, "the same numbers are not rewritten")
        #expect(!FileManager.default.fileExists(atPath: s.store.lockFile), "and take no lock")
        s.stdin = Data(input.replacingOccurrences(of: #""used_percentage":30"#, with: #""used_percentage":31"#).utf8)
        s.clock.advance(by: 5)
        #expect(s.run("-a", "claude", "--offline") == 0)
        #expect(s.store.load()?.reading?.window(key: "five_hour")?.used == 31)
    }
}
