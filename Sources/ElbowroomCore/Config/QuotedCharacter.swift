extension Character {
    /// The character as an error message quotes it: `'x'`, plus its code points when it is a
    /// space, a control character or anything else outside printable ASCII, so that a pasted
    /// non-breaking space reads `' ' (U+00A0)` instead of looking like an ordinary space.
    public var quotedForError: String {
        if let ascii = asciiValue, ascii > 0x20, ascii < 0x7f { return "'\(self)'" }
        let codes = unicodeScalars.map { scalar -> String in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        // Controls and format characters (bidi overrides) are not printed, only named.
        let printable = unicodeScalars.allSatisfy {
            switch $0.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: false
            default: true
            }
        }
        let shown = printable ? "\(self)" : "?"
        return "'\(shown)' (\(codes.joined(separator: " ")))"
    }
}
