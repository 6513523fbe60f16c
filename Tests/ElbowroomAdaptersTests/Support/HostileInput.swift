import Foundation
import ElbowroomAdapters
import ElbowroomCore
import ElbowroomTemplate

/// Hostile strings, and frames that carry one through every data field that reaches output.
///
/// The test's own idea of "what the user should see" (`Oracle`) is written here independently of
/// the code under test: controls, DEL, C1 and bidi controls gone; a line break in the data is a
/// space (the data is one line; only a template adds lines), and so is a tab.
enum Hostile {
    /// Each consumer's live syntax, starting with its special character.
    static let live: [String] = [
        "#[fg=red]X#[default]", "#{pane_id}", "#(touch /tmp/elbowroom-pwned)", "##S",
        "%F{red}X%f", "%n", "%{A1:touch /tmp/elbowroom-pwned:}click%{A}", "%{F#ff0000}",
        "|bash=/bin/sh param1=-c terminal=false", "| color=red refresh=true",
        "\"} 1\nelbowroom_fake 1", "\\\"", "<b>X</b>", "&amp;", "&", "<span foreground=\"red\">",
        "---", "--sub", "~~~", "$(touch /tmp/elbowroom-pwned)", "`id`", "\\[\\e[31m\\]", "'", "{", "}",
    ]

    /// Terminal escapes and other controls, line breaks, bidi controls.
    static let controls: [String] = [
        "\u{1B}[31mred", "\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}", "\u{1B}]0;retitled\u{07}", "\u{1B}]8;;http://x\u{1B}\\",
        "\u{9B}31m", "\u{9D}0;retitled\u{9C}", "\u{07}", "\u{00}", "\u{7F}", "\u{01}\u{02}", "\u{0B}\u{0C}",
        "a\rb", "a\nb", "a\r\nb", "a\u{2028}b", "a\u{2029}b", "a\u{85}b", "a\tb\t\t",
        "\u{202E}exe.txt", "\u{2066}x\u{2069}", "\u{200F}\u{200E}\u{061C}", "\u{202A}\u{202B}\u{202C}\u{202D}",
    ]

    /// Combining mark, joiner, Prepend code point, variation selector.
    static let glue: [String] = ["\u{0301}", "\u{200D}", "\u{0600}", "\u{FE0F}"]

    /// Every live payload with each glue scalar before it, after its first scalar, and after it.
    static var glued: [String] {
        var out: [String] = []
        for payload in live {
            let scalars = Array(payload.unicodeScalars)
            let head = String(String.UnicodeScalarView(scalars.prefix(1)))
            let tail = String(String.UnicodeScalarView(scalars.dropFirst()))
            for g in glue {
                out.append(g + payload)
                out.append(head + g + tail)
                out.append("x" + g + payload + g)
            }
        }
        return out
    }

    static var all: [String] { live + controls + glued + [live.joined(separator: " ") + controls.joined()] }

    /// `count` payloads from a fixed seed: one to six pieces (a live payload, a control, glue, a
    /// tab, a consumer's special, a run of combining marks, a scalar from anywhere in Unicode).
    static func generated(count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next(_ n: Int) -> Int {
            // SplitMix64: the same sequence on every machine.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(n))
        }
        let specials = ["\t", "\t\t", "#", "%", "{", "}", "|", "<", ">", "&", "\"", "'", "\\", "-", "~", "$(", "`", " "]
        var out: [String] = []
        for _ in 0..<count {
            var payload = ""
            for _ in 0..<(1 + next(6)) {
                switch next(7) {
                case 0: payload += live[next(live.count)]
                case 1: payload += controls[next(controls.count)]
                case 2: payload += glue[next(glue.count)]
                case 3: payload += specials[next(specials.count)]
                case 4: payload += "e" + String(repeating: glue[next(glue.count)], count: 1 + next(200))
                case 5:
                    let value = next(2) == 0 ? UInt32(next(0x100)) : UInt32(next(0x11_0000))
                    // (Not U+FFFE/U+FFFF: Pango drops those, on purpose, where the oracle shows them.)
                    let scalar = Unicode.Scalar(value).flatMap { $0.value & 0xFFFE == 0xFFFE ? nil : $0 }
                    payload.unicodeScalars.append(scalar ?? "\u{FFFD}")
                default: payload += String(repeating: "x", count: next(8))
                }
            }
            out.append(payload)
        }
        return out
    }

    /// Every payload with its frame and the frame the user should see, built once.
    static let cases: [(payload: String, frame: RenderedFrame, expected: RenderedFrame)] =
        all.map { ($0, frame($0), expectedFrame($0)) }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A view whose window key and label, error, plan and extra-usage currency all carry
    /// `payload` (with a visible marker each, so none is empty once cleaned). The hostile window
    /// is the worst one, so `worst.*` shows it.
    static func view(_ payload: String, clean: (String) -> String = { $0 }) -> UsageView {
        let observed = now.addingTimeInterval(-300)
        let reading = Reading(
            windows: [
                UsageWindow(key: "five_hour", used: 10, resetsAt: now.addingTimeInterval(3600), observedAt: observed),
                UsageWindow(key: clean("k" + payload), label: clean("L" + payload + "L"), used: 90,
                            resetsAt: now.addingTimeInterval(7200), observedAt: observed),
            ],
            extra: ExtraUsage(isEnabled: true, monthlyLimitMinor: 5000, usedMinor: 1234, currency: clean(payload + "C")),
            plan: clean("P" + payload), fetchedAt: observed, source: .api)
        var fetch = FetchState()
        fetch.recordSuccess(at: observed)
        fetch.recordFailure(.server, message: clean("E" + payload), at: now.addingTimeInterval(-10))
        let cache = CacheFile(account: "test", reading: reading, fetch: fetch)
        return UsageView(cache: cache, now: now, config: Config())
    }

    static func statusLine(_ payload: String, clean: (String) -> String = { $0 }) -> StatusLineInput {
        StatusLineInput(modelName: clean("M" + payload), currentDir: clean("/d" + payload))
    }

    /// Every data field, some inside styled groups (so styled runs carry data too); conditional
    /// groups hold only their placeholder, so a field cleaned to nothing cannot change the rest.
    static let mainTemplate = try! Template.parse(
        "{worst.name} [{worst.label}](bold red) {worst.left}% ({error}) [({plan})](level) "
            + "({extra.used}) [({claude.model})](fg:#ff8800 bg:236 italic underline) [5h {5h.left}%](level)")
    static let tooltipTemplate = try! Template.parse(
        "{worst.label}: {worst.left}% left\n[({error})](critical)\n({plan}) ({claude.model})")

    /// The frame an adapter gets when the data carries `payload`.
    static func frame(_ payload: String) -> RenderedFrame {
        frame(view: view(payload), statusLine: statusLine(payload))
    }

    /// The frame the user should see: the same templates over the data as `Oracle` cleans it.
    static func expectedFrame(_ payload: String) -> RenderedFrame {
        frame(view: view(payload, clean: Oracle.oneLine), statusLine: statusLine(payload, clean: Oracle.oneLine))
    }

    static func frame(view: UsageView, statusLine: StatusLineInput) -> RenderedFrame {
        let local = LocalTime.fixed(offsetSeconds: 0)
        return RenderedFrame(
            spans: mainTemplate.render(view, statusLine: statusLine, localTime: local),
            tooltip: tooltipTemplate.render(view, statusLine: statusLine, localTime: local),
            view: view, palette: Palette(), useColor: true)
    }
}

/// What must never reach a consumer from the data, and the text the user should see.
enum Oracle {
    static func isLineBreak(_ s: Unicode.Scalar) -> Bool {
        [0x0A, 0x0D, 0x85, 0x2028, 0x2029].contains(s.value)
    }

    /// C0 but tab (line breaks are asked about first), DEL, C1, bidi controls.
    static func isForbidden(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v == 0x09 { return false }
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x061C || v == 0x200E || v == 0x200F
            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// Data as one line of plain text: controls and bidi controls gone, each line break (CRLF
    /// counted once) and each tab a space.
    static func oneLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for s in text.unicodeScalars {
            defer { previous = s }
            if s == "\n" && previous == "\r" { continue }
            if isLineBreak(s) || s == "\t" { out.append(" ") } else if !isForbidden(s) { out.append(s) }
        }
        return String(out)
    }

    /// The same with line breaks kept as `\n` (what the `json` adapter and Prometheus carry).
    static func keepingLines(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for s in text.unicodeScalars {
            defer { previous = s }
            if s == "\n" && previous == "\r" { continue }
            if isLineBreak(s) { out.append("\n") } else if !isForbidden(s) { out.append(s) }
        }
        return String(out)
    }

    /// The scalars of `text` that must not be there: every control (newline too unless
    /// `newlines`), DEL, C1, bidi controls, U+2028/U+2029.
    static func forbidden(in text: String, newlines: Bool = false) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { s in
            if s == "\n" { return !newlines }
            return isForbidden(s) || isLineBreak(s)
        }
    }

    /// Whether `needle`'s scalars appear in `haystack`'s (String search is by `Character`, which
    /// a Prepend code point before the needle would defeat).
    static func scalars(_ haystack: String, contain needle: String) -> Bool {
        let h = Array(haystack.unicodeScalars), n = Array(needle.unicodeScalars)
        guard !n.isEmpty, h.count >= n.count else { return n.isEmpty }
        for start in 0...(h.count - n.count) where h[start..<(start + n.count)].elementsEqual(n) { return true }
        return false
    }
}
