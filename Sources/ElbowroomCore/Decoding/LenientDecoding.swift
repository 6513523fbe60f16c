#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// A timestamp as the API or Claude Code writes it: an ISO-8601 string (with microseconds and
/// offset), or a number of epoch seconds (milliseconds when it is too large to be seconds).
/// Anything else — or a time more than about a century from 1970 — decodes as `nil`, never as an error: every
/// field of the endpoint is optional.
struct FlexibleDate: Decodable {
    let date: Date?

    init(from decoder: Decoder) throws {
        date = Self.decode(decoder).flatMap { EpochTime.isSane($0) ? $0 : nil }
    }

    private static func decode(_ decoder: Decoder) -> Date? {
        guard let container = try? decoder.singleValueContainer(), !container.decodeNil() else { return nil }
        if let text = try? container.decode(String.self) {
            return ISO8601.parse(text.trimmed)
        }
        if let number = try? container.decode(Double.self) {
            return EpochTime.date(unix: number)
        }
        return nil
    }
}

/// A number that may arrive as a JSON number or a numeric string; anything else is `nil`.
struct FlexibleNumber: Decodable {
    let value: Double?

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self), number.isFinite {
            value = number
        } else if let text = try? container.decode(String.self), let number = Double(text), number.isFinite {
            value = number
        } else {
            value = nil
        }
    }
}

/// Decodes a value when it is there and well-formed; a wrong type or `null` becomes `nil`.
struct Lenient<T: Decodable>: Decodable {
    let value: T?
    init(from decoder: Decoder) throws {
        value = try? decoder.singleValueContainer().decode(T.self)
    }
}

/// A coding key for objects whose keys are data (usage windows by name, unknown top-level keys).
struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
