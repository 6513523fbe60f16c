import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// How each consumer reads adapter output, reduced to what decides safety: which parts are
/// syntax and what is shown. Each parser knows exactly the syntax elbowroom itself writes and
/// throws on any other — syntax there can only have come from the data. All of them walk Unicode
/// scalars (the consumers read bytes; a `Character` would hide a `#` behind a Prepend mark).
enum ConsumerModel {
    struct LiveSyntax: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    typealias Scalars = [Unicode.Scalar]

    static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// The index of `scalar` at or after `from`, if any.
    static func index(of scalar: Unicode.Scalar, in s: Scalars, from: Int) -> Int? {
        var i = from
        while i < s.count { if s[i] == scalar { return i }; i += 1 }
        return nil
    }

    static func isWord(_ text: String, extra: String = "") -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || extra.unicodeScalars.contains($0)
        }
    }

    static func isHexColour(_ text: String) -> Bool {
        let s = Array(text.unicodeScalars)
        return s.count == 7 && s[0] == "#"
            && s.dropFirst().allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    // MARK: tmux

    /// A `#(…)` line after format expansion: `##` shows `#`; `#[…]` with our style words is a
    /// style; any other `#` is live (`#[` with other words, `#{`, `#(`, `#S`, …).
    static func tmux(_ text: String) throws -> String {
        let s = Array(text.unicodeScalars)
        var shown: Scalars = []
        var i = 0
        while i < s.count {
            guard s[i] == "#" else { shown.append(s[i]); i += 1; continue }
            guard i + 1 < s.count else { throw LiveSyntax("a lone # at the end") }
            if s[i + 1] == "#" { shown.append("#"); i += 2; continue }
            if s[i + 1] == "[", let close = index(of: "]", in: s, from: i + 2) {
                let token = string(s[(i + 2)..<close])
                guard isTmuxStyle(token) else { throw LiveSyntax("tmux style #[\(token)] is not one of ours") }
                i = close + 1
                continue
            }
            throw LiveSyntax("live tmux #\(s[i + 1])")
        }
        return string(shown)
    }

    static func isTmuxStyle(_ token: String) -> Bool {
        if token == "default" { return true }
        return token.split(separator: ",").allSatisfy { word in
            if ["bold", "italics", "underscore"].contains(word) { return true }
            guard word.hasPrefix("fg=") || word.hasPrefix("bg=") else { return false }
            let colour = String(word.dropFirst(3))
            return isWord(colour) || isHexColour(colour)
        }
    }

    // MARK: zsh

    /// A prompt-expanded `$(…)` result: `%%` shows `%`; `%F{c}` `%K{c}` `%f` `%k` `%B` `%b` `%U`
    /// `%u` are ours; any other `%` is live (`%n`, `%{…%}`, `%F{` with another colour, …).
    static func zsh(_ text: String) throws -> String {
        let s = Array(text.unicodeScalars)
        var shown: Scalars = []
        var i = 0
        while i < s.count {
            guard s[i] == "%" else { shown.append(s[i]); i += 1; continue }
            guard i + 1 < s.count else { throw LiveSyntax("a lone % at the end") }
            switch s[i + 1] {
            case "%": shown.append("%"); i += 2
            case "f", "k", "B", "b", "U", "u": i += 2
            case "F", "K":
                guard i + 2 < s.count, s[i + 2] == "{", let close = index(of: "}", in: s, from: i + 3) else {
                    throw LiveSyntax("zsh %\(s[i + 1]) without a colour")
                }
                let colour = string(s[(i + 3)..<close])
                guard isWord(colour) || isHexColour(colour) else { throw LiveSyntax("zsh colour {\(colour)} is not ours") }
                i = close + 1
            default: throw LiveSyntax("live zsh %\(s[i + 1])")
            }
        }
        return string(shown)
    }

    // MARK: polybar

    /// A `custom/script` line: `%{…}` is a tag; ours are `F#rrggbb` `F-` `B#rrggbb` `B-` `+u`
    /// `-u`; any other (`A1:cmd:`, …) is live. Zero width spaces are not shown.
    static func polybar(_ text: String) throws -> String {
        let s = Array(text.unicodeScalars)
        var shown: Scalars = []
        var i = 0
        while i < s.count {
            if s[i] == "%" && i + 1 < s.count && s[i + 1] == "{" {
                guard let close = index(of: "}", in: s, from: i + 2) else { throw LiveSyntax("an unclosed polybar tag") }
                let tag = string(s[(i + 2)..<close])
                let ours = ["F-", "B-", "+u", "-u"].contains(tag)
                    || ((tag.hasPrefix("F") || tag.hasPrefix("B")) && isHexColour(String(tag.dropFirst())))
                guard ours else { throw LiveSyntax("polybar tag %{\(tag)} is not one of ours") }
                i = close + 1
                continue
            }
            if s[i] != "\u{200B}" { shown.append(s[i]) }
            i += 1
        }
        return string(shown)
    }

    // MARK: ANSI

    /// Terminal text: every ESC must open one of our SGR sequences `ESC [ digits;… m`; with
    /// `wrapped` (bash) each sits inside 0x01 … 0x02 and those bytes appear nowhere else.
    static func sgr(_ text: String, wrapped: Bool) throws -> String {
        let s = Array(text.unicodeScalars)
        var shown: Scalars = []
        var i = 0
        while i < s.count {
            if wrapped && s[i] == "\u{01}" {
                guard i + 1 < s.count, s[i + 1] == "\u{1B}" else { throw LiveSyntax("0x01 not before ESC") }
                i += 1
            }
            guard s[i] == "\u{1B}" else {
                guard s[i] != "\u{01}" && s[i] != "\u{02}" else { throw LiveSyntax("a stray 0x01/0x02") }
                shown.append(s[i])
                i += 1
                continue
            }
            if wrapped && (i == 0 || s[i - 1] != "\u{01}") { throw LiveSyntax("ESC outside 0x01…0x02") }
            guard i + 1 < s.count, s[i + 1] == "[" else { throw LiveSyntax("ESC not starting CSI") }
            var j = i + 2
            while j < s.count && (("0"..."9").contains(s[j]) || s[j] == ";") { j += 1 }
            guard j < s.count, s[j] == "m" else { throw LiveSyntax("a CSI that is not SGR") }
            i = j + 1
            if wrapped {
                guard i < s.count, s[i] == "\u{02}" else { throw LiveSyntax("SGR not closed with 0x02") }
                i += 1
            }
        }
        return string(shown)
    }

    // MARK: Pango

    /// Pango markup as GMarkup reads it (an XML subset): well-formed, only `<span>` with our
    /// attributes; returns the text shown.
    static func pango(_ markup: String) throws -> String {
        let delegate = PangoReader()
        let parser = XMLParser(data: Data(("<markup>" + markup + "</markup>").utf8))
        parser.delegate = delegate
        guard parser.parse() else { throw LiveSyntax("not well-formed Pango: \(parser.parserError.map { "\($0)" } ?? "")") }
        if let bad = delegate.foreign { throw LiveSyntax("markup not ours: \(bad)") }
        return delegate.text
    }

    final class PangoReader: NSObject, XMLParserDelegate {
        var text = ""
        var foreign: String?
        static let attributes: Set<String> = ["foreground", "background", "weight", "style", "underline"]

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            if elementName == "markup" && text.isEmpty { return }
            if elementName != "span" || !Set(attributeDict.keys).isSubset(of: Self.attributes) {
                foreign = foreign ?? "<\(elementName) \(attributeDict)>"
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }

    // MARK: Prometheus

    struct Sample {
        var name: String
        var labels: [(name: String, value: String)]
    }

    /// The text exposition format, line by line: `# HELP name text`, `# TYPE name gauge`, or
    /// `name{label="value",…} number`, label values with only `\\` `\"` `\n` escapes. Returns
    /// the samples with their label values unescaped.
    static func prometheus(_ text: String) throws -> [Sample] {
        var scalars = Array(text.unicodeScalars)
        guard scalars.last == "\n" else { throw LiveSyntax("the exposition does not end in a newline") }
        scalars.removeLast()
        var samples: [Sample] = []
        for line in scalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init) {
            if line.first == "#" {
                let words = string(line).split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard words.count >= 3, words[0] == "#", ["HELP", "TYPE"].contains(words[1]), isMetricName(Array(words[2].unicodeScalars))
                else { throw LiveSyntax("a comment line that is not HELP/TYPE: \(string(line).debugDescription)") }
                if words[1] == "TYPE" && (words.count != 4 || words[3] != "gauge") { throw LiveSyntax("bad TYPE line") }
                continue
            }
            samples.append(try sample(line))
        }
        return samples
    }

    static func isMetricName(_ s: Scalars) -> Bool {
        guard let first = s.first, !("0"..."9").contains(first) else { return false }
        return s.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == ":" }
    }

    static func sample(_ s: Scalars) throws -> Sample {
        var i = 0
        while i < s.count && s[i] != "{" && s[i] != " " { i += 1 }
        guard isMetricName(Array(s[0..<i])) else { throw LiveSyntax("bad metric name in \(string(s).debugDescription)") }
        var result = Sample(name: string(s[0..<i]), labels: [])
        if i < s.count && s[i] == "{" {
            i += 1
            while true {
                let start = i
                while i < s.count && s[i] != "=" { i += 1 }
                let name = Array(s[start..<i])
                guard !name.isEmpty, isMetricName(name), i + 1 < s.count, s[i + 1] == "\"" else {
                    throw LiveSyntax("bad label in \(string(s).debugDescription)")
                }
                i += 2
                var value: Scalars = []
                while true {
                    guard i < s.count else { throw LiveSyntax("unterminated label value in \(string(s).debugDescription)") }
                    if s[i] == "\"" { i += 1; break }
                    if s[i] == "\\" {
                        guard i + 1 < s.count else { throw LiveSyntax("a lone backslash") }
                        switch s[i + 1] {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw LiveSyntax("unknown escape \\\(s[i + 1]) in a label value")
                        }
                        i += 2
                        continue
                    }
                    value.append(s[i])
                    i += 1
                }
                result.labels.append((string(name), string(value)))
                guard i < s.count else { throw LiveSyntax("unclosed labels") }
                if s[i] == "," { i += 1; continue }
                guard s[i] == "}" else { throw LiveSyntax("after a label value: \(s[i]) in \(string(s).debugDescription)") }
                i += 1
                break
            }
        }
        guard i < s.count, s[i] == " ", Double(string(s[(i + 1)...])) != nil else {
            throw LiveSyntax("no value at the end of \(string(s).debugDescription)")
        }
        return result
    }

    // MARK: SwiftBar

    struct MenuLine {
        var title: String
        var parameters: [String]
    }

    /// SwiftBar / xbar: per line, the first `|` starts the parameters, which must be ours
    /// (`color=#rrggbb`, `refresh=true`); a title whose first non-blank scalar is `-` or `~` is a
    /// separator or submenu, allowed only as our exact `---` / `~~~` lines.
    static func swiftbar(_ text: String) throws -> [MenuLine] {
        var scalars = Array(text.unicodeScalars)
        guard scalars.last == "\n" else { throw LiveSyntax("no final newline") }
        scalars.removeLast()
        var lines: [MenuLine] = []
        for line in scalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init) {
            let bar = index(of: "|", in: line, from: 0)
            let title = string(line[..<(bar ?? line.count)])
            let parameters = bar.map { string(line[($0 + 1)...]).split(separator: " ").map(String.init) } ?? []
            for p in parameters where !(p == "refresh=true" || (p.hasPrefix("color=") && isHexColour(String(p.dropFirst(6))))) {
                throw LiveSyntax("swiftbar parameter \(p) is not ours")
            }
            if title != "---" && title != "~~~",
               let first = title.unicodeScalars.first(where: { $0 != " " && $0 != "\t" }), first == "-" || first == "~" {
                throw LiveSyntax("a data line starts with \(first): \(title.debugDescription)")
            }
            lines.append(MenuLine(title: title, parameters: parameters))
        }
        return lines
    }
}
