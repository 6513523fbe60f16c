import ElbowroomCore

/// The type of a variable or filter result; decides the default formatting and which filters apply.
enum ValueType: String, Sendable, Equatable, CaseIterable {
    case percent, duration, date, flag, text, level, money, spark

    /// For messages: "filter 'bar' needs a percentage, not text".
    var described: String {
        switch self {
        case .percent: "a percentage"
        case .duration: "a duration"
        case .date: "a date"
        case .flag: "a flag"
        case .text: "text"
        case .level: "a level"
        case .money: "money"
        case .spark: "a sparkline"
        }
    }
}

/// A value as a template sees it, before it becomes text.
enum Value: Sendable, Equatable {
    /// 0…100 (pace may exceed 100).
    case percent(Double)
    /// Seconds.
    case duration(TimeInterval)
    case date(Date)
    case flag(Bool)
    case text(String)
    case level(Level)
    /// Minor units (cents), an ISO 4217 code and the digits of its minor unit.
    case money(minor: Double, currency: String, exponent: Int)
    /// A window's history, drawn with `Sparkline.defaultPoints` points unless `spark(n)` says.
    case spark(Sparkline)

    /// False flags and empty text count as no value, like a missing window.
    var isPresent: Bool {
        switch self {
        case .flag(let on): on
        case .text(let s): !s.isEmpty
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
            let format = abs(date.timeIntervalSince(now)) > 86400 ? "%a %H:%M" : "%H:%M"
            return localTime.format(date, format)
        case .flag: return ""
        case .text(let s): return SafeText.clean(s, lines: .join)
        case .level(let l): return l.rawValue
        case .money(let minor, let currency, let exponent):
            return NumberText.money(minor: minor, currency: currency, exponent: exponent, decimals: exponent)
        case .spark(let line): return line.render(points: Sparkline.defaultPoints)
        }
    }
}

/// Number text without `String(format:)` (which FoundationEssentials lacks).
enum NumberText {
    /// `value` rounded to `decimals` places (half away from zero unless told): `36.6`, `37`, `-0.5`.
    static func fixed(_ value: Double, decimals: Int,
                      rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(rule)
        guard scaled < 9e15 else { return String(value) }
        let whole = Int64(scaled)
        let factor = Int64(scale)
        var text = String(whole / factor)
        if decimals > 0 {
            let fraction = String(whole % factor)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return (value < 0 && scaled != 0 ? "-" : "") + text
    }

    /// `minor` in units of 10^-`exponent` of `currency`, with `decimals` places and thousands
    /// grouped: `$5,000.00`, `€3.10`, `¥1,234`, `12.34 CHF`. A code that is not three letters
    /// is not shown.
    static func money(minor: Double, currency: String, exponent: Int = 2, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<min(max(exponent, 0), 12) { scale *= 10 }
        let amount = fixed(minor / scale, decimals: decimals)
        let negative = amount.hasPrefix("-")
        var digits = negative ? String(amount.dropFirst()) : amount
        digits = grouped(digits)
        let sign = negative ? "-" : ""
        switch currency.uppercased() {
        case "USD": return sign + "$" + digits
        case "EUR": return sign + "€" + digits
        case "GBP": return sign + "£" + digits
        case "JPY": return sign + "¥" + digits
        case "KRW": return sign + "₩" + digits
        default:
            guard let code = MinorUnits.code(currency) else { return sign + digits }
            return sign + digits + " " + code
        }
    }

    /// `5000.00` → `5,000.00`: commas every three digits of the whole part.
    static func grouped(_ number: String) -> String {
        let point = number.firstIndex(of: ".") ?? number.endIndex
        let whole = number[..<point]
        guard whole.count > 3, whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return number }
        var out = ""
        for (i, ch) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return out + number[point...]
    }
}

/// Durations as people read them: `45s`, `13m`, `2h13m`, `3d4h` (floored: a countdown never
/// claims more time than is left), or spelled out.
/// Durations as people read them: `short` is `2h13m`, `3d4h`, `45s` (rounded down); `long` is
/// `2 hours 13 minutes`. Command output (`cache show`, `doctor`) uses the same forms.
public enum DurationText {
    private static func parts(_ seconds: TimeInterval) -> (d: Int, h: Int, m: Int, s: Int) {
        // Saturating: a duration beyond ~30 million years (an absurd date) never traps.
        let total = seconds.isFinite ? Int(min(max(seconds, 0), 1e15).rounded(.down)) : 0
        return (total / 86400, total % 86400 / 3600, total % 3600 / 60, total % 60)
    }

    public static func short(_ seconds: TimeInterval) -> String {
        let (d, h, m, s) = parts(seconds)
        if d > 0 { return h > 0 ? "\(d)d\(h)h" : "\(d)d" }
        if h > 0 { return m > 0 ? "\(h)h\(m)m" : "\(h)h" }
        if m > 0 { return "\(m)m" }
        return "\(s)s"
    }

    public static func long(_ seconds: TimeInterval) -> String {
        func unit(_ n: Int, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s")" }
        let (d, h, m, s) = parts(seconds)
        if d > 0 { return h > 0 ? unit(d, "day") + " " + unit(h, "hour") : unit(d, "day") }
        if h > 0 { return m > 0 ? unit(h, "hour") + " " + unit(m, "minute") : unit(h, "hour") }
        if m > 0 { return unit(m, "minute") }
        return unit(s, "second")
    }
}
