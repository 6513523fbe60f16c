import Foundation
import Testing
@testable import ElbowroomCore

@Suite struct ConfigTests {
    /// The config's text is read as `String(data:encoding: .utf8)` reads it: a byte order mark
    /// dropped, invalid UTF-8 refused, NUL and every scalar kept.
    @Test func configTextIsReadAsFoundationReadsUTF8() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        var cases: [[UInt8]] = [[], bom, bom + bom, Array("a = 1\n".utf8), bom + Array("[x]\n".utf8),
                                Array("é ü ✓ 🙂 \u{0}\n".utf8), [0xFF], [0xC3], [0xED, 0xA0, 0x80], bom + [0x80],
                                [0xEF, 0xBB], [0xEF, 0xBB, 0xBE], Array("x".utf8) + bom, [0xF4, 0x90, 0x80, 0x80],
                                [0x61, 0x00, 0xFF], bom + [0x00]]
        var seed: UInt64 = 36
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(seed % 12) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes.append([0x61, 0x0A, 0xC3, 0xA9, 0xEF, 0xBB, 0xBF, 0xE2, 0x9C, 0x93, 0x80, 0x00][Int(seed >> 60) % 12])
            }
            cases.append(bytes)
        }
        for bytes in cases {
            #expect(Config.utf8Text(bytes) == String(data: Data(bytes), encoding: .utf8), "\(bytes)")
        }
    }

    @Test func everyKeyRoundTrips() throws {
        let config = try Config.parse("""
        # elbowroom config
        max_age = 60            # seconds
        stale_after = 1_200
        refresh = "never"
        timeout = 2.5

        [thresholds]
        warn = 30
        critical = 5

        [templates]
        default = "full"
        waybar = '[{5h.left}%](level)'
        "tmux" = "minimal"

        [colors]
        ok = "#00ff00"
        warn = "bright_yellow bold"
        critical = "196"
        stale = "grey"
        dim = "black"
        """, file: "c.toml")
        #expect(config.maxAge == 60)
        #expect(config.staleAfter == 1200)
        #expect(config.refresh == .never)
        #expect(config.timeout == 2.5)
        #expect(config.thresholds == Thresholds(warn: 30, critical: 5))
        #expect(config.templates == ["default": "full", "waybar": "[{5h.left}%](level)", "tmux": "minimal"])
        #expect(config.colors["critical"] == "196")
        let palette = Palette(config: config)
        #expect(palette.colors[.ok] == .rgb(0, 255, 0))
        #expect(palette.colors[.critical] == .palette(196))
        #expect(palette.colors[.warn] == .named(.brightYellow))
    }

    @Test func aColourOfDefaultLeavesTheConsumersOwn() throws {
        let config = try Config.parse("[colors]\nok = \"default\"\nstale = \"none\"\n", file: "c.toml")
        let palette = Palette(config: config)
        #expect(palette.colors.ok == nil)
        #expect(palette.colors.stale == nil)
        #expect(palette.resolve(Style(semantic: .ok)) == Style())
        #expect(palette.colors.warn == .named(.yellow))
    }

    @Test(arguments: ["", " ", "bold", "bg:red"])
    func aColourThatIsNoColourIsAnError(spec: String) {
        do {
            _ = try Config.parse("[colors]\nok = \"\(spec)\"\n", file: "c.toml")
            Issue.record("'\(spec)' accepted")
        } catch {
            #expect(error.message.contains("colors.ok must be a colour"), "\(error.message)")
        }
    }

    @Test func oneAdaptersColoursGoOverTheRestForThatAdapterOnly() throws {
        let config = try Config.parse("[colors]\nok = \"cyan\"\nwarn = \"208\"\n[colors.tmux]\nok = \"green\"\n", file: "c.toml")
        let tmuxDefaults = Palette.Colors(ok: nil, warn: .named(.yellow), critical: .named(.red), stale: nil, dim: nil)
        let tmux = Palette(config: config, adapter: "tmux", defaults: tmuxDefaults)
        #expect(tmux.colors.ok == .named(.green))
        #expect(tmux.colors.warn == .palette(208))
        #expect(tmux.colors.critical == .named(.red))
        let waybar = Palette(config: config, adapter: "waybar")
        #expect(waybar.colors.ok == .named(.cyan))
        #expect(throws: ConfigError.self) { try Config.parse("[colors.tmux]\nokk = \"red\"\n", file: "c.toml") }
        #expect(throws: ConfigError.self) { try Config.parse("[thresholds.tmux]\nwarn = 3\n", file: "c.toml") }
    }

    /// A badge by default (tmux's warn is black on yellow); the user's colour replaces it whole.
    @Test func aUsersColourReplacesTheDefaultsBackgroundToo() throws {
        let config = try Config.parse("[colors.tmux]\nwarn = \"blue\"\ncritical = \"black bg:#ff8800\"\nstale = \"none\"\n", file: "c.toml")
        let tmux = Palette(config: config, adapter: "tmux", defaults: Palette.tmux)
        #expect(tmux.resolve(Style(semantic: .warn, bold: true)) == Style(foreground: .named(.blue), bold: true))
        #expect(tmux.resolve(Style(semantic: .critical)) == Style(foreground: .named(.black), background: .rgb(255, 136, 0)))
        #expect(tmux.resolve(Style(semantic: .stale)) == Style())
        let defaults = Palette(adapter: "tmux", defaults: Palette.tmux)
        #expect(defaults.resolve(Style(semantic: .warn)) == Style(foreground: .palette(16), background: .named(.yellow)))
        // A template's own background wins over the badge's.
        #expect(defaults.resolve(Style(semantic: .warn, background: .named(.blue))).background == .named(.blue))
    }

    @Test func displayIsLeftOrUsed() throws {
        #expect(Config().display == .left)
        #expect(try Config.parse("display = \"used\"\n", file: "c.toml").display == .used)
        #expect(throws: ConfigError.self) { try Config.parse("display = \"remaining\"\n", file: "c.toml") }
    }

    @Test func emptyFileIsDefaults() throws {
        var expected = Config()
        expected.source = "c.toml"
        #expect(try Config.parse("\n# nothing\n", file: "c.toml") == expected)
        #expect(Config().maxAge == 180 && Config().staleAfter == 900 && Config().refresh == .auto && Config().timeout == 10)
    }

    @Test(arguments: [
        ("max_ag = 3", 1, 1, "unknown key 'max_ag' (did you mean 'max_age'?)"),
        ("max_age = \"3\"", 1, 11, "'max_age' must be a number, not a string"),
        ("max_age = 0", 1, 11, "'max_age' must be between 1 and 31536000"),
        ("stale_after = 1e19", 1, 15, "'stale_after' must be between 1 and 31536000"),
        ("max_age = 3\nmax_age = 4", 2, 1, "key 'max_age' is defined twice"),
        ("refresh = \"sometimes\"", 1, 11, "refresh must be \"auto\", \"always\" or \"never\", not \"sometimes\""),
        ("refresh = auto", 1, 11, "invalid value 'auto' (strings need quotes)"),
        ("[thresholds]\nwarn = 120", 2, 8, "'warn' must be between 0 and 100"),
        ("[thresholds]\nwarm = 20", 2, 1, "unknown key 'thresholds.warm' (did you mean 'warn'?)"),
        ("[thresholds]\nwarn = 10\ncritical = 20", 3, 12, "thresholds.critical (20) must not be above thresholds.warn (10)"),
        ("[colours]\nok = \"red\"", 2, 1, "unknown table [colours] (did you mean 'colors'?)"),
        ("[colors]\nok = \"redd\"", 2, 6, "colors.ok: unknown style 'redd' (did you mean 'red'?)"),
        ("[colors]\nokk = \"red\"", 2, 1, "unknown colour 'okk' (did you mean 'ok'?); colours are set for ok, warn, critical, stale, dim"),
        ("[colors]\nbackground = \"red\"", 2, 1, "unknown colour 'background'; colours are set for ok, warn, critical, stale, dim"),
        ("[templates]\nwaybar = 3", 2, 10, "'waybar' must be a string, not a number"),
        ("timeout = [1, 2]", 1, 11, "arrays are not supported"),
        ("timeout = {a = 1}", 1, 11, "inline tables are not supported"),
        ("a.b = 1", 1, 2, "dotted keys are not supported"),
        ("[a.b]", 1, 3, "nested tables are not supported"),
        ("[[a]]", 1, 2, "arrays of tables are not supported"),
        ("[thresholds", 1, 12, "expected ']' to close the table name"),
        ("max_age 3", 1, 9, "expected '=' after the key 'max_age'"),
        ("max_age =", 1, 10, "expected a value"),
        ("refresh = \"auto", 1, 11, "unterminated string"),
        ("refresh = \"a\\qb\"", 1, 13, "invalid escape '\\q'"),
        ("max_age = 3 4", 1, 13, "unexpected '4' after the value"),
        ("= 3", 1, 1, "expected a key name, found '='"),
        ("x = \"\"\"multi", 1, 5, "multi-line strings are not supported"),
        ("[thresholds]\n[thresholds]", 2, 1, "table [thresholds] is defined twice"),
        // A pasted non-breaking space is named, not shown as an ordinary space.
        ("max_age = 3\u{00A0}# x", 1, 12, "unexpected '\u{00A0}' (U+00A0) after the value"),
        ("\u{00A0}max_age = 3", 1, 1, "expected a key name, found '\u{00A0}' (U+00A0)"),
        ("\u{1}max_age = 3", 1, 1, "expected a key name, found '?' (U+0001)"),
        // \u takes exactly four hex digits; UInt32 would also read a sign.
        ("[templates]\na = \"\\u+041\"", 2, 8, "invalid unicode escape"),
        // Lines count "\r\n" as one break.
        ("max_age = 3\r\n\r\nmax_ag = 4", 3, 1, "unknown key 'max_ag' (did you mean 'max_age'?)"),
    ])
    func errorsNameLineAndColumn(text: String, line: Int, column: Int, message: String) {
        #expect(throws: ConfigError(file: "c.toml", line: line, column: column, message: message)) {
            try Config.parse(text, file: "c.toml")
        }
    }

    @Test func errorDescriptionIsCompilerStyle() {
        let error = ConfigError(file: "/home/u/.config/elbowroom/config.toml", line: 3, column: 7, message: "unknown key 'x'")
        #expect(error.description == "/home/u/.config/elbowroom/config.toml:3:7: error: unknown key 'x'")
    }

    @Test func stringEscapesAndLiteralStrings() throws {
        let config = try Config.parse(#"[templates]"# + "\n" + #"a = "q\"b\\c\n\u00e9""# + "\nb = 'C:\\raw\\{5h}'\n", file: "c")
        #expect(config.templates["a"] == "q\"b\\c\né")
        #expect(config.templates["b"] == "C:\\raw\\{5h}")
    }

    @Test func crlfLineEndsAreLineEnds() throws {
        let config = try Config.parse("max_age = 60\r\n[thresholds]\r\nwarn = 30\r\n", file: "c")
        #expect(config.maxAge == 60)
        #expect(config.thresholds.warn == 30)
    }

    /// A config file over 256 KiB is refused with its size, before anything is parsed, and is
    /// never read further than the limit.
    @Test func aConfigOver256KiBIsAClearError() throws {
        let dir = TempDirectory()
        let paths = Paths(environment: ElbowroomEnvironment(["HOME": dir.path, "XDG_CONFIG_HOME": dir.path + "/cfg"]))
        try FileManager.default.createDirectory(atPath: dir.path + "/cfg/elbowroom", withIntermediateDirectories: true)
        let big = String(repeating: "# filler line\n", count: 1 << 16)  // 917 504 bytes
        try big.write(toFile: paths.configFile, atomically: true, encoding: .utf8)
        let expected = ConfigError(file: paths.configFile, line: 1, column: 1,
                                   message: "config file too large: 917504 bytes, at most 262144 (256 KiB)")
        #expect(throws: expected) { try Config.load(paths: paths) }
        #expect(throws: ConfigError(file: "c", line: 1, column: 1, message: expected.message)) {
            try Config.parse(big, file: "c")
        }
        // Exactly 256 KiB of comments is a config.
        let limit = String(repeating: "#", count: Config.maxFileBytes - 1) + "\n"
        try limit.write(toFile: paths.configFile, atomically: true, encoding: .utf8)
        #expect(try Config.load(paths: paths).maxAge == 180)
    }

    @Test func aConfigThatIsNotUTF8SaysSo() throws {
        let dir = TempDirectory()
        let paths = Paths(environment: ElbowroomEnvironment(["HOME": dir.path, "XDG_CONFIG_HOME": dir.path + "/cfg"]))
        try FileManager.default.createDirectory(atPath: dir.path + "/cfg/elbowroom", withIntermediateDirectories: true)
        try Data([0x6d, 0x61, 0xff, 0xfe, 0x0a]).write(to: URL(fileURLWithPath: paths.configFile))
        #expect(throws: ConfigError(file: paths.configFile, line: 1, column: 1, message: "the config file is not UTF-8 text")) {
            try Config.load(paths: paths)
        }
    }

    /// The file's text rides along with the config (a render must not free it: docs/performance.md)
    /// and counts for nothing in `==`.
    @Test func theLoadedTextIsKeptAndIsNoPartOfEquality() throws {
        let dir = TempDirectory()
        let paths = Paths(environment: ElbowroomEnvironment(["HOME": dir.path, "XDG_CONFIG_HOME": dir.path + "/cfg"]))
        try FileManager.default.createDirectory(atPath: dir.path + "/cfg/elbowroom", withIntermediateDirectories: true)
        let text = "# a comment long enough to be over sixty-four bytes of config text\nmax_age = 5\n"
        try text.write(toFile: paths.configFile, atomically: true, encoding: .utf8)
        let loaded = try Config.load(paths: paths)
        #expect(loaded.text.value == text)
        var parsed = try Config.parse(text, file: paths.configFile)
        #expect(parsed.text.value.isEmpty && parsed == loaded)
        parsed.maxAge = 6
        #expect(parsed != loaded)
    }

    @Test func loadsFromPathsAndMissingFileIsDefaults() throws {
        let dir = TempDirectory()
        let env = ElbowroomEnvironment(["HOME": dir.path, "XDG_CONFIG_HOME": dir.path + "/cfg"])
        let paths = Paths(environment: env)
        #expect(try Config.load(paths: paths) == Config())
        try FileManager.default.createDirectory(atPath: dir.path + "/cfg/elbowroom", withIntermediateDirectories: true)
        try "max_age = 5\n".write(toFile: paths.configFile, atomically: true, encoding: .utf8)
        #expect(try Config.load(paths: paths).maxAge == 5)
        try "max_age = nope\n".write(toFile: paths.configFile, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try Config.load(paths: paths) }
    }
}
