#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// A duration on the command line or in the config: `24h`, `90m`, `7d`, `45s`, `1h30m`, `2w`, or plain seconds.
public enum DurationArgument {
    public static func parse(_ text: String) -> TimeInterval? {
        if let seconds = Double(text), seconds.isFinite, seconds > 0 { return seconds }
        var total = 0.0
        var number = ""
        for ch in text {
            if ch.isASCII && (ch.isNumber || ch == ".") {
                number.append(ch)
                continue
            }
            let unit: Double
            switch ch {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86400
            case "w": unit = 7 * 86400
            default: return nil
            }
            guard let n = Double(number), n.isFinite else { return nil }
            total += n * unit
            number = ""
        }
        guard number.isEmpty, total > 0, total.isFinite else { return nil }
        return total
    }
}
