import Foundation
@testable import ElbowroomCore

// The slow, obvious form the hand-written cache reader is held equal to (CacheFileReaderTests):
// test support, not shipped code.
extension CacheFile {
    /// `decode` through `JSONDecoder` and `Codable`: what the hand-written reader must equal.
    static func decodeWithCodable(_ data: Data) -> CacheFile? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard var file = try? decoder.decode(CacheFile.self, from: data),
              file.version == currentVersion else { return nil }
        if let windows = file.reading?.windows { file.reading?.windows = windows.filter(isSane) }
        return file.datesAreSane ? file : nil
    }
}

// The status-line input through `JSONDecoder` and `Codable`, which the hand-written reader
// (`StatusLineReader`, on every status-line render) is held equal to (StatusLineReaderTests).
extension StatusLineInput {
    /// `decode` through `JSONDecoder` and `Codable`: what the hand-written reader must equal.
    static func decodeWithCodable(_ data: Data, observedAt: Date) -> StatusLineInput? {
        guard let raw = try? JSONDecoder().decode(Raw.self, from: data) else { return nil }
        var windows: [UsageWindow] = []
        var notes: [String] = []
        var spendLimit: ExtraUsage?
        if let entry = raw.rate_limits?.value?["spend_limit"], let limit = entry.value {
            spendLimit = Self.spendLimit(used: limit.used_percentage?.value, resetsAt: limit.resets_at?.date,
                                    usedUSD: limit.used_usd?.value, limitUSD: limit.limit_usd?.value,
                                    period: limit.period?.value)
        }
        for (key, entry) in raw.rate_limits?.value ?? [:] where WindowCatalog.isWindowKey(key) {
            guard let limit = entry.value, let value = limit.used_percentage?.value else { continue }
            guard let used = UsagePercent.accept(value) else {
                notes.append(UsagePercent.note(key: key, field: "used_percentage", value: value))
                continue
            }
            if let note = implausibleReset(key: key, limit.resets_at?.date, observedAt: observedAt) {
                notes.append(note)
                continue
            }
            windows.append(UsageWindow(key: key, used: used, resetsAt: limit.resets_at?.date, observedAt: observedAt))
        }
        return StatusLineInput(
            modelName: raw.model?.value?.display_name?.value,
            currentDir: raw.workspace?.value?.current_dir?.value,
            costUSD: raw.cost?.value?.total_cost_usd?.value.map(boundedCost),
            contextUsedPercent: raw.context_window?.value?.used_percentage?.value.map(boundedPercent),
            windows: WindowCatalog.sorted(windows), notes: notes.sorted(),
            spendLimit: spendLimit, sentRateLimits: raw.rate_limits?.value != nil,
            sessionID: raw.session_id?.value,
            project: raw.workspace?.value?.project_dir?.value ?? raw.cwd?.value ?? raw.workspace?.value?.current_dir?.value,
            tokens: tokenCount(raw.context_window?.value?.total_input_tokens?.value,
                               raw.context_window?.value?.total_output_tokens?.value))
    }

    struct Raw: Decodable {
        struct Model: Decodable { var display_name: Lenient<String>? }
        struct Workspace: Decodable { var current_dir: Lenient<String>?; var project_dir: Lenient<String>? }
        struct Cost: Decodable { var total_cost_usd: FlexibleNumber? }
        struct Context: Decodable {
            var used_percentage: FlexibleNumber?
            var total_input_tokens: FlexibleNumber?
            var total_output_tokens: FlexibleNumber?
        }
        struct Limit: Decodable {
            var used_percentage: FlexibleNumber?
            var resets_at: FlexibleDate?
            var used_usd: FlexibleNumber?
            var limit_usd: FlexibleNumber?
            var period: Lenient<String>?
        }
        var session_id: Lenient<String>?
        var cwd: Lenient<String>?
        var model: Lenient<Model>?
        var workspace: Lenient<Workspace>?
        var cost: Lenient<Cost>?
        var context_window: Lenient<Context>?
        var rate_limits: Lenient<[String: Lenient<Limit>]>?
    }
}
