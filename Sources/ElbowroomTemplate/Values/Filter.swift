// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// The filters a placeholder can chain with `|`. This table is the manual: scripts/generate
/// copies it into docs/templates.md and man/elbowroom.5.
///
/// | filter | applies to | result |
/// |---|---|---|
/// | `round` | percent | the percentage rounded to a whole number (the default formatting already does this) |
/// | `fixed(n)` | percent, money | `n` decimals (0…6): `{5h.left\|fixed(1)}` → `36.6`, `{extra.used\|fixed(0)}` → `$12` |
/// | `pad(n)` | any | right-aligned to `n` characters (-100…100); `pad(-n)` left-aligns |
/// | `bar(n)` | percent | a bar exactly `n` cells wide (1…100) in eighths `▏▎▍▌▋▊▉█`; `bar(n, "░")` fills the rest |
/// | `spark(n)` | sparkline | the history in `n` points (1…100): `{5h.spark\|spark(12)}` |
/// | `icon(a, b, …)` | percent, level | on a percent, one of the icons (1 to 100) spread evenly over 0…100; on a level, exactly three: ok, warn, critical |
/// | `time(fmt)` | date | local time through `strftime`: `time("%a %H:%M")` → `Thu 16:40` |
/// | `duration(short\|long)` | duration | `2h13m` (the default) or `2 hours 13 minutes` |
/// | `default(text)` | any | `text` when there is no value, which makes the placeholder count as having one |
/// | `upper`, `lower` | any | the formatted text in upper / lower case |
/// | `exists` | any | a flag: true when there is a value; shows nothing, so `({5h.left\|exists} · )` is a separator only when `5h` exists |
/// | `not` | any | a flag: true when there is no value: `({stale\|not}fresh)`, `({age\|not}no data yet)` |
///
/// Arguments are numbers, bare words (`short`, `●`) or double-quoted strings (`"%a %H:%M"`,
/// with `\"` and `\\` inside). A filter on a placeholder without a value does nothing, except
/// `default`.
enum Filter: Sendable, Equatable {
    case round
    case fixed(Int)
    case pad(Int)
    case bar(width: Int, fill: String)
    case spark(Int)
    case icon([String])
    case time(String)
    case duration(long: Bool)
    case `default`(String)
    case upper
    case lower
    case exists
    case not

    struct Argument: Sendable, Equatable {
        var text: String
        var range: SourceRange
    }

    /// Bounds on arguments, so no template can make a render allocate without limit.
    static let maxIcons = 100
    static let maxFillScalars = 10

    static let names = ["round", "fixed", "pad", "bar", "spark", "icon", "time", "duration", "default", "upper", "lower", "exists", "not"]

    private static let usage: [String: String] = [
        "fixed": "fixed(1)", "pad": "pad(3)", "bar": "bar(8)", "spark": "spark(12)", "icon": "icon(○, ◑, ●)",
        "time": "time(\"%H:%M\")", "duration": "duration(long)", "default": "default(\"-\")",
    ]

    /// What types the filter takes, `nil` for any.
    private static func accepts(_ name: String) -> [ValueType]? {
        switch name {
        case "round", "bar": [.percent]
        case "fixed": [.percent, .money]
        case "icon": [.percent, .level]
        case "time": [.date]
        case "duration": [.duration]
        case "spark": [.spark]
        default: nil
        }
    }

    /// Checks a filter against its arguments and the type flowing into it; returns the filter and
    /// the type flowing out.
    static func bind(name: String, nameRange: SourceRange, arguments: [Argument], argumentsRange: SourceRange,
                     input: ValueType, subject: String, reporter: ErrorReporter) throws(TemplateError) -> (Filter, ValueType) {
        guard names.contains(name) else {
            throw reporter.error("unknown filter '\(name)'", at: nameRange, suggestion: Suggest.closest(to: name, in: names))
        }
        if let accepted = accepts(name), !accepted.contains(input) {
            let wanted = accepted.map(\.described).joined(separator: " or ")
            throw reporter.error("filter '\(name)' needs \(wanted), but \(subject) is \(input.described)", at: nameRange)
        }
        func count(_ range: ClosedRange<Int>, _ what: String) throws(TemplateError) {
            guard !range.contains(arguments.count) else { return }
            let message = range.upperBound == 0
                ? "filter '\(name)' takes no arguments"
                : "filter '\(name)' takes \(what), got \(arguments.count)"
            throw reporter.error(message, at: arguments.isEmpty ? nameRange : argumentsRange,
                                 suggestion: usage[name])
        }
        func integer(_ arg: Argument, _ bounds: ClosedRange<Int>, _ what: String) throws(TemplateError) -> Int {
            guard let n = Int(arg.text), bounds.contains(n) else {
                throw reporter.error(
                    "filter '\(name)' needs \(what) from \(bounds.lowerBound) to \(bounds.upperBound), got '\(arg.text)'",
                    at: arg.range)
            }
            return n
        }
        switch name {
        case "round":
            try count(0...0, "")
            return (.round, .percent)
        case "upper", "lower":
            try count(0...0, "")
            return (name == "upper" ? .upper : .lower, .text)
        case "exists", "not":
            try count(0...0, "")
            return (name == "not" ? .not : .exists, .flag)
        case "fixed":
            try count(1...1, "1 argument (decimals)")
            return (.fixed(try integer(arguments[0], 0...6, "a number of decimals")), .text)
        case "pad":
            try count(1...1, "1 argument (width)")
            return (.pad(try integer(arguments[0], -100...100, "a width")), .text)
        case "bar":
            try count(1...2, "1 or 2 arguments (width, fill)")
            let width = try integer(arguments[0], 1...100, "a width")
            var fill = " "
            if arguments.count == 2 {
                // One character, and not a cluster of hundreds of combining marks repeated 100 times.
                guard arguments[1].text.count == 1, arguments[1].text.unicodeScalars.count <= Self.maxFillScalars else {
                    throw reporter.error("filter 'bar' needs one character to fill with, got '\(arguments[1].text)'",
                                         at: arguments[1].range)
                }
                fill = arguments[1].text
            }
            return (.bar(width: width, fill: fill), .text)
        case "spark":
            try count(1...1, "1 argument (points)")
            return (.spark(try integer(arguments[0], 1...100, "a number of points")), .text)
        case "icon":
            if input == .level {
                guard arguments.count == 3 else {
                    throw reporter.error(
                        "filter 'icon' on a level takes 3 icons (ok, warn, critical), got \(arguments.count)",
                        at: arguments.isEmpty ? nameRange : argumentsRange, suggestion: "icon(●, ◐, ○)")
                }
            } else {
                try count(1...Self.maxIcons, "1 to \(Self.maxIcons) icons")
            }
            return (.icon(arguments.map(\.text)), .text)
        case "time":
            try count(1...1, "1 argument (a strftime format)")
            return (.time(arguments[0].text), .text)
        case "duration":
            try count(0...1, "0 or 1 argument (short or long)")
            guard let style = arguments.first else { return (.duration(long: false), .text) }
            guard style.text == "short" || style.text == "long" else {
                throw reporter.error("filter 'duration' takes 'short' or 'long', got '\(style.text)'", at: style.range,
                                     suggestion: Suggest.closest(to: style.text, in: ["short", "long"]))
            }
            return (.duration(long: style.text == "long"), .text)
        default:  // "default"
            try count(1...1, "1 argument (the text to show)")
            return (.default(arguments[0].text), input)
        }
    }

    // MARK: Applying

    /// (One switch on the filter, then a look at the value: a switch on the pair copied both
    /// into a tuple and destroyed it, and `self == .exists` called `==` on filters, ~120
    /// instructions a filter.)
    func apply(_ value: Value?, context: RenderContext) -> Value? {
        switch self {
        case .default(let text): return value?.isPresent == true ? value : .text(text)
        case .exists: return .flag(value?.isPresent == true)
        case .not: return .flag(value?.isPresent != true)
        default: break
        }
        guard let value, value.isPresent else { return value }
        switch self {
        case .round:
            if case .percent(let p) = value { return .percent(p.rounded(PercentText.rule)) }
        case .fixed(let n):
            if case .percent(let p) = value { return .clean(NumberText.fixed(p, decimals: n, rule: PercentText.rule)) }
            if case .money(let minor, let currency, let exponent) = value {
                return .clean(NumberText.money(minor: minor, currency: currency, exponent: exponent, decimals: n))
            }
        case .pad(let width):
            // (Formatted text is clean, and so are the spaces around it.)
            return .clean(Self.pad(value.formatted(now: context.view.now, localTime: context.localTime), width: width))
        case .bar(let width, let fill):
            if case .percent(let p) = value {
                // The fill is the template's, and cleaned with the bar if it needs to be.
                let bar = Self.bar(p, width: width, fill: fill)
                return SafeText.mayNeedCleaning(fill) ? .text(bar) : .clean(bar)
            }
        case .spark(let points):
            if case .spark(let line) = value { return .clean(line.render(points: points)) }
        case .icon(let icons):
            if case .percent(let p) = value {
                let clamped = p.isFinite ? min(max(p, 0), 100) : 0
                return .text(icons[min(icons.count - 1, Int(clamped / 100 * Double(icons.count)))])
            }
            if case .level(let level) = value {
                let index = Level.allCases.firstIndex(of: level) ?? 0
                return .text(icons[min(index, icons.count - 1)])
            }
        case .time(let format):
            if case .date(let date) = value { return .text(context.localTime.format(date, format)) }
        case .duration(let long):
            if case .duration(let seconds) = value {
                return .clean(long ? DurationText.long(seconds) : DurationText.short(seconds))
            }
        case .upper:
            return .text(value.formatted(now: context.view.now, localTime: context.localTime).uppercased())
        case .lower:
            return .text(value.formatted(now: context.view.now, localTime: context.localTime).lowercased())
        case .default, .exists, .not:
            break
        }
        // A value of another type than the filter was checked for: only after `default` put
        // text in place of a missing one. Leave it as it is.
        return value
    }

    /// `text` with spaces before it (after it, for a negative `width`) to `abs(width)` characters.
    /// Text of ASCII without a CR (each byte a `Character`: a number, most labels) is measured
    /// in bytes, not by walking its `Character`s, and written with its spaces in one string
    /// (`count`, `String(repeating:)` and a join cost a pad ~500 instructions).
    static func pad(_ text: String, width: Int) -> String {
        var text = text  // (`withUTF8` copies only a string that is not contiguous UTF-8 already)
        let bytes = text.withUTF8 { utf8 -> Int? in
            for byte in utf8 where byte >= 0x80 || byte == 0x0D { return nil }
            return utf8.count
        }
        let padding = max(0, abs(width) - (bytes ?? text.count))
        guard padding > 0 else { return text }
        return text.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: utf8.count + padding) { out in
                let start = width < 0 ? 0 : padding
                for i in 0..<utf8.count { out[start + i] = utf8[i] }
                let spaces = width < 0 ? utf8.count : 0
                for i in spaces..<spaces + padding { out[i] = 0x20 }
                return utf8.count + padding
            }
        }
    }

    /// `percent` of `width` cells, to the nearest eighth of a cell.
    static func bar(_ percent: Double, width: Int, fill: String) -> String {
        let clamped = percent.isFinite ? min(max(percent, 0), 100) : 0
        let total = Int((clamped / 100 * Double(width * 8)).rounded())
        let full = total / 8
        let partial = total % 8
        let empty = width - full - (partial > 0 ? 1 : 0)
        // As UTF-8 written into the string's own buffer: `█` is E2 96 88 and the eighths
        // `▉`…`▏` are U+2589…U+258F, E2 96 (90 − eighths). Three strings joined cost a bar ~4 k
        // instructions, bytes appended to an array and decoded ~2 k.
        var fill = fill  // (`withUTF8` copies only a string that is not contiguous UTF-8 already)
        return fill.withUTF8 { fill in
            let empties = max(0, empty)
            return String(unsafeUninitializedCapacity: 3 * (full + 1) + fill.count * empties) { bytes in
                var n = 0
                for _ in 0..<full {
                    bytes[n] = 0xE2
                    bytes[n + 1] = 0x96
                    bytes[n + 2] = 0x88
                    n += 3
                }
                if partial > 0 {
                    bytes[n] = 0xE2
                    bytes[n + 1] = 0x96
                    bytes[n + 2] = 0x90 - UInt8(truncatingIfNeeded: partial)
                    n += 3
                }
                for _ in 0..<empties {
                    for byte in fill {
                        bytes[n] = byte
                        n += 1
                    }
                }
                return n
            }
        }
    }
}
