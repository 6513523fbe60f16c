#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation  // Apple platforms, where FoundationEssentials is not a module of its own
#endif

/// The first line of every source file a render runs (Sources/elbowroom/render-path.files,
/// which scripts/gen-symbol-order writes from what callgrind sees the renders run), and of no
/// other: code in such a file costs every prompt, under the rules of docs/performance.md.
enum RenderPathMarkers {
    static let marker = "// Render path: every prompt runs code in this file; the rules are in docs/performance.md."
    static let list = "Sources/elbowroom/render-path.files"

    /// Render-path files whose marker waits for changes in flight to land (they were being
    /// rewritten elsewhere when the markers came): neither added nor checked until removed here.
    static let waiting: Set<String> = []

    struct Problem: Error, CustomStringConvertible { let description: String }

    /// The files the list names, or `nil` when there is no list.
    static func files(root: String) throws -> [String]? {
        guard let text = try? String(contentsOfFile: root + "/" + list, encoding: .utf8) else { return nil }
        let files = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        for file in files where !FileManager.default.fileExists(atPath: root + "/" + file) {
            throw Problem(description: "\(list) names \(file), which does not exist: run scripts/gen-symbol-order")
        }
        return files
    }

    /// Every Swift file under Sources/.
    static func sources(root: String) -> [String] {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: root + "/Sources")) ?? []
        return paths.filter { $0.hasSuffix(".swift") }.map { "Sources/" + $0 }.sorted()
    }

    /// `text` with the marker as its first line when `marked`, and without it otherwise.
    static func apply(_ text: String, marked: Bool) -> String {
        let has = text.hasPrefix(marker + "\n")
        if marked && !has { return marker + "\n" + text }
        if !marked && has { return String(text.dropFirst(marker.count + 1)) }
        return text
    }
}
