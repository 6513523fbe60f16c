// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The name the fetcher is started by. elbowroom is one program: installed as `elbowroom` with
/// `elbowroom-fetch` beside it as a link to it, and it is the fetcher when started by that name.
public enum FetcherName {
    public static let name = "elbowroom-fetch"

    /// Whether `argv0`'s last path component is `elbowroom-fetch`. C string calls only: the
    /// renderer asks this before anything else, on every prompt.
    public static func matches(_ argv0: UnsafePointer<CChar>?) -> Bool {
        guard let argv0 else { return false }
        let base = strrchr(argv0, Int32(UInt8(ascii: "/"))).map { UnsafePointer($0) + 1 } ?? argv0
        return isName(base)
    }

    /// Whether `text` is exactly `elbowroom-fetch` (the first argument of `elbowroom
    /// elbowroom-fetch ...`, as `busybox ls` is `ls`).
    public static func isName(_ text: UnsafePointer<CChar>?) -> Bool {
        guard let text else { return false }
        return strcmp(text, name) == 0
    }
}
