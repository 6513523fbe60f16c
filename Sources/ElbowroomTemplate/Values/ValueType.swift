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
