#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ElbowroomAdapters
import ElbowroomCLI

// elbowroom-generate [--check] ROOT: writes every file derived from a source elsewhere in the
// repository (scripts/generate runs it). With --check it writes nothing and exits 1 naming each
// derived file that differs from what it would write.
//
// Development only: it is never installed, and reads the other modules' internals (a debug build).

/// A derived file: its path from the repository root, and what it should hold.
struct Derived {
    let path: String
    let text: () throws -> String
}

let arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.contains("--check")
guard let root = arguments.first(where: { !$0.hasPrefix("--") }) else {
    printError("usage: elbowroom-generate [--check] ROOT\n")
    exit(2)
}

var derived: [Derived] = [
    Derived(path: ShippedTemplatesFile.path) { try ShippedTemplatesFile.text(root: root) },
]
// What `elbowroom completions SHELL` prints (CompletionScripts.swift), as installed.
for (shell, file) in [("bash", "elbowroom.bash"), ("zsh", "_elbowroom"), ("fish", "elbowroom.fish")] {
    derived.append(Derived(path: "completions/" + file) { CompletionScripts.script(for: shell) })
}
// What `elbowroom init NAME` prints (IntegrationSnippets.swift), as installed.
for snippet in IntegrationSnippets.snippets {
    derived.append(Derived(path: "integrations/" + snippet.file) { snippet.text + "\n" })
}
// The tables of variables, filters and config keys, from the doc comments (DocTables).
for path in DocTables.candidates(root: root) {
    guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8),
          text.contains("scripts/generate: ") else { continue }
    derived.append(Derived(path: path) { try DocTables.fill(text, path: path, root: root) })
}

var stale: [String] = []
var failed = false
// The render-path marker: the first line of every source file a render runs, and of no other.
do {
    if let marked = try RenderPathMarkers.files(root: root) {
        let generated = derived
        derived = generated.map { file in
            guard file.path.hasPrefix("Sources/"), file.path.hasSuffix(".swift") else { return file }
            return Derived(path: file.path) { RenderPathMarkers.apply(try file.text(), marked: marked.contains(file.path)) }
        }
        for path in RenderPathMarkers.sources(root: root)
        where !generated.contains(where: { $0.path == path }) && !RenderPathMarkers.waiting.contains(path) {
            derived.append(Derived(path: path) {
                RenderPathMarkers.apply(try String(contentsOfFile: root + "/" + path, encoding: .utf8),
                                        marked: marked.contains(path))
            })
        }
    } else {
        printError("generate: no \(RenderPathMarkers.list): render-path markers not checked\n")
    }
} catch {
    printError("generate: \(error)\n")
    failed = true
}
// The adapter table in docs/adapters.md is written by hand (how each consumer is escaped): it
// must have a row for every built-in adapter.
if let adapters = try? String(contentsOfFile: root + "/docs/adapters.md", encoding: .utf8) {
    for name in AdapterRegistry.builtIn.map(\.name) where !adapters.contains("| `\(name)` |") {
        printError("generate: docs/adapters.md: no row for the adapter \(name) in its table\n")
        failed = true
    }
}
// A file in a generated directory that nothing generates is left over from a removed source.
for dir in ["completions", "integrations"] {
    // (Directories are written by hand: integrations/prometheus and integrations/grafana.)
    for file in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + dir)) ?? []
    where !derived.contains(where: { $0.path == dir + "/" + file })
        && !((try? FileManager.default.attributesOfItem(atPath: root + "/" + dir + "/" + file)[.type] as? FileAttributeType) == .typeDirectory) {
        printError("generate: \(dir)/\(file) is generated from nothing: remove it\n")
        failed = true
    }
}
for file in derived {
    let expected: String
    do {
        expected = try file.text()
    } catch {
        printError("generate: \(file.path): \(error)\n")
        failed = true
        continue
    }
    let path = root + "/" + file.path
    let actual = try? String(contentsOfFile: path, encoding: .utf8)
    guard actual != expected else { continue }
    stale.append(file.path)
    if !check {
        try expected.write(toFile: path, atomically: true, encoding: .utf8)
        print("wrote \(file.path)")
    }
}
if check && !stale.isEmpty {
    printError((stale.map { "generate: stale: \($0)" } + [
        "generate: run scripts/generate and commit the result",
    ]).joined(separator: "\n") + "\n")
    exit(1)
}
exit(failed ? 1 : 0)

/// One message on stderr.
func printError(_ message: String) {
    var bytes = Array(message.utf8)
    _ = write(2, &bytes, bytes.count)
}
