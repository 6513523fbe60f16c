import Foundation
import Testing
@testable import ElbowroomCore

/// Bodies and status-line inputs other tools recorded from real accounts
/// (`Fixtures/RealWorld/SOURCES.md` says where each came from). Each decodes without an error, to
/// the windows in `expected` below — checked by hand against the JSON and its `.expect` notes.
@Suite struct RealWorldBodiesTests {
    static let dir: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Fixtures/RealWorld"
    }()

    static func files(_ kind: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/" + kind)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    static let observed = Date(timeIntervalSince1970: 1_700_000_000)

    /// One line per window: `key used resets` (`resets` is `-` when there is none), then notes.
    static func summary(_ reading: Reading?) -> String {
        guard let reading else { return "(no reading)" }
        var lines = reading.windows.map { w in
            let used = w.used == w.used.rounded() ? String(Int(w.used)) : String(w.used)
            return "\(w.key) \(used) \(w.resetsAt.map { ISO8601.format($0) } ?? "-")\(w.binding == true ? " binding" : "")"
        }
        lines += (reading.notes ?? []).map { "note: " + $0 }
        if let e = reading.extra {
            var line = "extra enabled=\(e.isEnabled.map(String.init) ?? "-") limit=\(e.monthlyLimitMinor.map { String($0) } ?? "-") used=\(e.usedMinor.map { String($0) } ?? "-") currency=\(e.currency ?? "-")"
            if let x = e.exponent { line += " exponent=\(x)" }
            if let p = e.utilization { line += " percent=\(p)" }
            if e.organisation == true { line += " organisation" }
            if let p = e.period { line += " period=\(p)" }
            if let r = e.resetsAt { line += " resets=\(ISO8601.format(r))" }
            lines.append(line)
        }
        if let keys = reading.unknownKeys { lines.append("unknown keys: " + keys.joined(separator: " ")) }
        return lines.joined(separator: "\n")
    }

    @Test(arguments: files("usage"))
    func usageBodyDecodes(file: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Self.dir + "/usage/" + file))
        // A Team seat's pool is the organisation's: the plan (from the credentials) says so.
        let reading = try UsageDecoder.decode(data, observedAt: Self.observed, plan: file.contains("-team-") ? "team" : nil)
        let actual = Self.summary(reading)
        if let out = ProcessInfo.processInfo.environment["ELBOWROOM_DUMP_FIXTURES"] {
            try actual.write(toFile: out + "/" + file + ".txt", atomically: true, encoding: .utf8)
        }
        let golden = Self.dir + "/usage/" + file.dropLast(5) + ".decoded"
        let expected = try #require(try? String(contentsOfFile: golden, encoding: .utf8), "no \(golden)")
        #expect(actual == expected.trimmingCharacters(in: .newlines), "\(file)")
    }

    @Test(arguments: files("statusline"))
    func statusLineInputDecodes(file: String) throws {
        let data = try #require(FileManager.default.contents(atPath: Self.dir + "/statusline/" + file))
        let observed = Self.statusLineTime(data)
        let input = StatusLineInput.decode(data, observedAt: observed)
        #expect(input != nil, "\(file) is a JSON object: it must decode")
        let reading = input.flatMap { i in i.windows.isEmpty && i.notes.isEmpty && i.spendLimit == nil ? nil :
            Reading(windows: i.windows, extra: i.spendLimit, fetchedAt: observed, source: .statusLine, notes: i.notes) }
        let actual = Self.summary(reading)
        if let out = ProcessInfo.processInfo.environment["ELBOWROOM_DUMP_FIXTURES"] {
            try actual.write(toFile: out + "/" + file + ".txt", atomically: true, encoding: .utf8)
        }
        let golden = Self.dir + "/statusline/" + file.dropLast(5) + ".decoded"
        let expected = try #require(try? String(contentsOfFile: golden, encoding: .utf8), "no \(golden)")
        #expect(actual == expected.trimmingCharacters(in: .newlines), "\(file)")
    }

    /// When a status line was read: an hour before its first reset, as when it was written (read
    /// years earlier, every reset would lie further ahead than a window lasts, and be left out).
    static func statusLineTime(_ data: Data) -> Date {
        let limits = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["rate_limits"] as? [String: Any]
        let resets = (limits ?? [:]).values.compactMap { ($0 as? [String: Any])?["resets_at"] as? Double }
        return resets.min().map { Date(timeIntervalSince1970: $0 - 3600) } ?? observed
    }

    @Test func thereAreRealBodiesToTest() {
        #expect(Self.files("usage").count >= 23)
        #expect(Self.files("statusline").count >= 8)
    }
}
