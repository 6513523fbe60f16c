// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// A value as a template sees it, before it becomes text.
enum Value: Sendable, Equatable {
    /// 0…100 (pace may exceed 100).
    case percent(Double)
    /// Seconds.
    case duration(TimeInterval)
    case date(Date)
    case flag(Bool)
    case text(String)
    /// Text a filter made that can hold no control or line break — digits, glyphs, spaces around
    /// formatted text — shown as it is: checked for them again (a bar's or a sparkline's 30 bytes
    /// of non-ASCII especially), it cost ~250 instructions a value.
    case clean(String)
    case level(Level)
    /// Minor units (cents), an ISO 4217 code and the digits of its minor unit.
    case money(minor: Double, currency: String, exponent: Int)
    /// A window's history, drawn with `Sparkline.defaultPoints` points unless `spark(n)` says.
    case spark(Sparkline)

    /// False flags and empty text count as no value, like a missing window.
    var isPresent: Bool {
        switch self {
        case .flag(let on): on
        case .text(let s), .clean(let s): !s.isEmpty
        default: true
        }
    }

    /// The default formatter for each type. Text (labels, keys, error, plan, model, currency: data
    /// from the API or Claude Code) comes out one line without controls (`SafeText`): a line
    /// break in the data must not add a line to a one-line template.
    func formatted(now: Date, localTime: LocalTime) -> String {
        switch self {
        case .percent(let p): return NumberText.fixed(p, decimals: 0, rule: PercentText.rule)
        case .duration(let d): return DurationText.short(d)
        case .date(let date):
            return localTime.clock(date, weekday: abs(date.timeIntervalSince(now)) > 86400)
        case .flag: return ""
        case .text(let s): return SafeText.clean(s, lines: .join)
        case .clean(let s): return s
        case .level(let l): return l.rawValue
        case .money(let minor, let currency, let exponent):
            return NumberText.money(minor: minor, currency: currency, exponent: exponent, decimals: exponent)
        case .spark(let line): return line.render(points: Sparkline.defaultPoints)
        }
    }

    /// `formatted(now:localTime:)` appended to `text` (a span's, grown as `GrowingText` says):
    /// text is appended from where it is, not returned as a string of its own first.
    func append(to text: inout String, now: Date, localTime: LocalTime) {
        switch self {
        case .text(let s): SafeText.clean(s, lines: .join, into: &text)
        case .clean(let s): GrowingText.append(s, to: &text)
        case .flag: return  // (shows nothing)
        default: GrowingText.append(formatted(now: now, localTime: localTime), to: &text)
        }
    }
}
