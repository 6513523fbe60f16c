// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
import ElbowroomCore

/// Shipped and user templates, and what `-t NAME|TEXT` means.
///
/// A user template is `$XDG_CONFIG_HOME/elbowroom/templates/NAME.tmpl` and wins over a shipped one
/// of the same name. A template file's final newline is not part of the template.
public enum TemplateLibrary {
    /// `-t NAME|TEXT`: a bare word (`[A-Za-z0-9_-]+`) names a user or shipped template and is an
    /// error, with did-you-mean, when it names none; a path to an existing `.tmpl` file is read;
    /// anything else is inline template text.
    public static func resolve(_ nameOrText: String, paths: Paths) throws(TemplateError) -> Template {
        if isName(nameOrText) {
            if let (source, origin, isShipped) = try lookup(nameOrText, paths: paths) {
                // A shipped template comes parsed at build time (`ShippedTemplates.swift`, made
                // from the same text by scripts/generate); a user's file is parsed.
                if isShipped, let compiled = compiled(nameOrText) {
                    return Template(name: origin, source: source, program: compiled.program, namedKeys: compiled.namedKeys)
                }
                return try Template.parse(source, name: origin)
            }
            let names = list(paths: paths).map(\.name)
            throw TemplateError(
                name: Template.inlineName, line: 1, column: 1, length: nameOrText.count,
                message: "unknown template '\(nameOrText)'; templates are \(names.joined(separator: ", "))",
                suggestion: Suggest.closest(to: nameOrText, in: names), sourceLine: nameOrText)
        }
        if nameOrText.hasSuffix(".tmpl"), let source = try readTemplateFile(nameOrText) {
            return try Template.parse(source, name: nameOrText)
        }
        return try Template.parse(nameOrText, name: Template.inlineName)
    }

    /// Every template by name: user ones (origin is the file's path) over shipped ones.
    public static func list(paths: Paths) -> [(name: String, origin: String, summary: String)] {
        var entries = shipped.map { (name: $0.name, origin: "shipped", summary: $0.summary) }
        for name in userTemplateNames(paths: paths) {
            let path = userPath(name, paths: paths)
            let entry = (name: name, origin: path, summary: shipped.contains { $0.name == name }
                ? "your own, replacing the shipped one" : "your own")
            if let i = entries.firstIndex(where: { $0.name == name }) {
                entries[i] = entry
            } else {
                entries.append(entry)
            }
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// The text of the template `name` would resolve to, or `nil`; an error when its file is too large.
    public static func source(named name: String, paths: Paths) throws(TemplateError) -> String? {
        try lookup(name, paths: paths)?.source
    }

    // MARK: -

    static func isName(_ text: String) -> Bool {
        // On UTF-8 bytes: an ASCII letter, digit, `_` or `-` is one byte, and a byte of any other
        // scalar is not one of those (by `Character`, ~3 k instructions a name on every render).
        !text.isEmpty && text.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
        }
    }

    /// The source and the name errors should carry (the file path for user templates).
    private static func lookup(_ name: String, paths: Paths) throws(TemplateError) -> (source: String, origin: String, isShipped: Bool)? {
        // `readTemplateFile(userPath(name))`, with the path made as a `String` only when the
        // file is there (or too large): a render of a shipped template then frees no long string
        // (the first such free costs a render ~31 k instructions: docs/performance.md).
        // Asked first whether the file is there (most people have no template of their own):
        // one system call, where opening it and then asking why not was two, each a walk of the
        // path (~2.5 µs here).
        let directory = paths.userTemplatesDir, file = name + ".tmpl"
        if let size = FileSystem.size(directory: directory, file: file) {
            if size > maxFileBytes { throw tooLarge(userPath(name, paths: paths), size: size) }
            if let data = FileSystem.readBytes(directory: directory, file: file, limit: maxFileBytes) {
                return (templateText(data), userPath(name, paths: paths), false)
            }
            if let size = FileSystem.size(directory: directory, file: file), size > maxFileBytes {
                throw tooLarge(userPath(name, paths: paths), size: size)  // (it grew in between)
            }
        }
        if let source = shippedSource(name) { return (source, name, true) }
        return nil
    }

    private static func userPath(_ name: String, paths: Paths) -> String {
        Paths.join(paths.userTemplatesDir, name + ".tmpl")
    }

    private static func userTemplateNames(paths: Paths) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: paths.userTemplatesDir)) ?? []
        return files.filter { $0.hasSuffix(".tmpl") }.map { String($0.dropLast(5)) }.filter(isName).sorted()
    }

    /// A template file's text without its final newline, or `nil` when it cannot be read; an error
    /// when it is larger than a template may be (read no further than that: a huge file in the
    /// templates directory must not cost a prompt its memory).
    package static func readTemplateFile(_ path: String) throws(TemplateError) -> String? {
        guard let data = FileSystem.readBytes(path, limit: maxFileBytes) else {
            if let size = FileSystem.size(of: path), size > maxFileBytes { throw tooLarge(path, size: size) }
            return nil
        }
        return templateText(data)
    }

    /// The most a template file may hold: a template and a final "\r\n".
    static let maxFileBytes = Template.maxSourceBytes + 2

    static func tooLarge(_ path: String, size: Int) -> TemplateError {
        TemplateError(name: path, line: 1, column: 1,
                      message: "template too large: \(size) bytes, at most \(Template.maxSourceBytes) (64 KiB)",
                      sourceLine: "")
    }

    /// A template file's text without its final newline, `\n` or `\r\n` (the text's last
    /// `Character` when it is one of them; cut from the bytes, before decoding, so no
    /// `Character` is walked).
    static func templateText(_ data: [UInt8]) -> String {
        var end = data.count
        if end > 0 && data[end - 1] == UInt8(ascii: "\n") {
            end -= end > 1 && data[end - 2] == UInt8(ascii: "\r") ? 2 : 1
        }
        return String(decoding: data[..<end], as: UTF8.self)
    }
}
