// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// Reads Claude Code's status-line JSON by hand (see `JSONReader` for why): every status-line
/// render does this. It takes exactly what the `Codable` reader (`StatusLineInput.Raw` with
/// `Lenient`, `FlexibleNumber`, `FlexibleDate`, in Tests/ElbowroomCoreTests/ReferenceDecoding.swift)
/// takes — a test holds the two equal over real and
/// mutated inputs: a document that is not JSON, or not an object, is `nil`; within it every
/// field is lenient (a wrong type or an unreadable value is absent, never an error).
enum StatusLineReader {
    typealias Failure = JSONReader.Failure

    /// What `Raw` decodes to, before `StatusLineInput.decode` makes windows of it.
    struct Fields {
        var modelName: String?
        var currentDir: String?
        var costUSD: Double?
        var contextUsedPercent: Double?
        /// For attribution (`AttributionState`): the session, where it works, what it used so far.
        var sessionID: String?
        var cwd: String?
        var projectDir: String?
        var inputTokens: Double?
        var outputTokens: Double?
        /// `rate_limits` entries in document order (first of a repeated key), `nil` when absent
        /// or not an object.
        var limits: [Entry]?
    }

    /// One `rate_limits` entry; the dollar fields and `period` are a gateway's `spend_limit`'s.
    struct Entry: Equatable {
        var key: String
        var used: Double?
        var resetsAt: Date?
        var isObject: Bool
        var usedUSD: Double?
        var limitUSD: Double?
        var period: String?
    }

    static func read(_ data: Data) -> Fields? {
        var reader = JSONReader(data)
        var fields = Fields()
        do throws(Failure) {
            try reader.object { r, key throws(Failure) in
                switch key {
                case "model":
                    fields.modelName = try Self.field("display_name", of: &r) { r throws(Failure) in try r.lenientString() }
                case "session_id":
                    fields.sessionID = try r.lenientString()
                case "cwd":
                    fields.cwd = try r.lenientString()
                case "workspace":
                    var current: String?, project: String?
                    let ok = try r.leniently { r throws(Failure) in
                        current = nil
                        project = nil
                        try r.object { r, key throws(Failure) in
                            switch key {
                            case "current_dir": current = try r.lenientString()
                            case "project_dir": project = try r.lenientString()
                            default: try r.skipValue()
                            }
                        }
                    }
                    fields.currentDir = ok ? current : nil
                    fields.projectDir = ok ? project : nil
                case "cost":
                    fields.costUSD = try Self.field("total_cost_usd", of: &r) { r throws(Failure) in try Self.flexibleNumber(&r) }
                case "context_window":
                    var used: Double?, input: Double?, output: Double?
                    let ok = try r.leniently { r throws(Failure) in
                        used = nil
                        input = nil
                        output = nil
                        try r.object { r, key throws(Failure) in
                            switch key {
                            case "used_percentage": used = try Self.flexibleNumber(&r)
                            case "total_input_tokens": input = try Self.flexibleNumber(&r)
                            case "total_output_tokens": output = try Self.flexibleNumber(&r)
                            default: try r.skipValue()
                            }
                        }
                    }
                    fields.contextUsedPercent = ok ? used : nil
                    fields.inputTokens = ok ? input : nil
                    fields.outputTokens = ok ? output : nil
                case "rate_limits":
                    fields.limits = try Self.rateLimits(&r)
                default:
                    try r.skipValue()
                }
            }
            try reader.end()
        } catch {
            return nil
        }
        return fields
    }

    /// One field of a `Lenient<Object>?`: `nil` when the value is `null`, not an object, or an
    /// object that does not read (then none of it counts), or lacks the field.
    private static func field<T>(_ name: String, of r: inout JSONReader,
                                 _ read: (inout JSONReader) throws(Failure) -> T?) throws(Failure) -> T? {
        var value: T?
        let ok = try r.leniently { r throws(Failure) in
            try r.object { r, key throws(Failure) in
                if key == name { value = try read(&r) } else { try r.skipValue() }
            }
        }
        return ok ? value : nil
    }

    private static func rateLimits(_ r: inout JSONReader) throws(Failure) -> [Entry]? {
        var limits: [Entry] = []
        let ok = try r.leniently { r throws(Failure) in
            limits = []
            try r.object { r, key throws(Failure) in
                var entry = Entry(key: key, isObject: false)
                let isObject = try r.leniently { r throws(Failure) in
                    entry = Entry(key: key, isObject: false)
                    try r.object { r, field throws(Failure) in
                        switch field {
                        case "used_percentage": entry.used = try Self.flexibleNumber(&r)
                        case "resets_at": entry.resetsAt = try Self.flexibleDate(&r)
                        case "used_usd": entry.usedUSD = try Self.flexibleNumber(&r)
                        case "limit_usd": entry.limitUSD = try Self.flexibleNumber(&r)
                        case "period": entry.period = try r.lenientString()
                        default: try r.skipValue()
                        }
                    }
                }
                limits.append(isObject ? Entry(key: key, used: entry.used, resetsAt: entry.resetsAt, isObject: true,
                                               usedUSD: entry.usedUSD, limitUSD: entry.limitUSD, period: entry.period)
                                       : Entry(key: key, isObject: false))
            }
        }
        return ok ? limits : nil
    }

    /// `FlexibleNumber`: a finite number, or a string `Double` reads as a finite number.
    private static func flexibleNumber(_ r: inout JSONReader) throws(Failure) -> Double? {
        if try r.null() { return nil }
        if r.atString() {
            guard let text = try r.lenientString(), let number = Double(text), number.isFinite else { return nil }
            return number
        }
        return try r.lenientNumber()
    }

    /// `FlexibleDate`: an ISO-8601 string, or epoch seconds (milliseconds when too large to be
    /// seconds); within about a century of 1970.
    private static func flexibleDate(_ r: inout JSONReader) throws(Failure) -> Date? {
        if try r.null() { return nil }
        let date: Date?
        if r.atString() {
            date = try r.lenientString().flatMap { ISO8601.parse($0.trimmed) }
        } else if let number = try r.lenientNumber(), number > 0 {
            date = Date(timeIntervalSince1970: number > 1e11 ? number / 1000 : number)
        } else {
            date = nil
        }
        return date.flatMap { abs($0.timeIntervalSince1970) < 3.2e9 ? $0 : nil }
    }
}
