#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The JSON Claude Code writes to its status-line command's stdin. Only what elbowroom uses is
/// decoded; every field is optional. `rate_limits` appears for Pro/Max after the first response.
public struct StatusLineInput: Sendable, Equatable {
    public var modelName: String?
    public var currentDir: String?
    public var costUSD: Double?
    public var contextUsedPercent: Double?
    /// The windows from `rate_limits` (`five_hour`, `seven_day`, …), or empty.
    public var windows: [UsageWindow]

    public init(modelName: String? = nil, currentDir: String? = nil, costUSD: Double? = nil,
                contextUsedPercent: Double? = nil, windows: [UsageWindow] = []) {
        self.modelName = modelName
        self.currentDir = currentDir
        self.costUSD = costUSD
        self.contextUsedPercent = contextUsedPercent
        self.windows = windows
    }

    /// Decodes stdin; `nil` when it is not a JSON object at all.
    public static func decode(_ data: Data, observedAt: Date) -> StatusLineInput? {
        guard let raw = try? JSONDecoder().decode(Raw.self, from: data) else { return nil }
        var windows: [UsageWindow] = []
        for (key, entry) in raw.rate_limits?.value ?? [:] {
            guard let limit = entry.value, let used = limit.used_percentage?.value else { continue }
            let resetsAt = limit.resets_at?.date
            if used == 0 && resetsAt == nil { continue }
            windows.append(UsageWindow(key: key, used: used, resetsAt: resetsAt, observedAt: observedAt))
        }
        return StatusLineInput(
            modelName: raw.model?.value?.display_name?.value,
            currentDir: raw.workspace?.value?.current_dir?.value,
            costUSD: raw.cost?.value?.total_cost_usd?.value,
            contextUsedPercent: raw.context_window?.value?.used_percentage?.value,
            windows: WindowCatalog.sorted(windows))
    }

    /// The rate limits as a reading, or `nil` when Claude Code sent none.
    public func reading(at date: Date) -> Reading? {
        windows.isEmpty ? nil : Reading(windows: windows, fetchedAt: date, source: .statusLine)
    }

    struct Raw: Decodable {
        struct Model: Decodable { var display_name: Lenient<String>? }
        struct Workspace: Decodable { var current_dir: Lenient<String>? }
        struct Cost: Decodable { var total_cost_usd: FlexibleNumber? }
        struct Context: Decodable { var used_percentage: FlexibleNumber? }
        struct Limit: Decodable {
            var used_percentage: FlexibleNumber?
            var resets_at: FlexibleDate?
        }
        var model: Lenient<Model>?
        var workspace: Lenient<Workspace>?
        var cost: Lenient<Cost>?
        var context_window: Lenient<Context>?
        var rate_limits: Lenient<[String: Lenient<Limit>]>?
    }
}
