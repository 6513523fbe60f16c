// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A C string (`getenv`, `realpath`, argv) as a `String`, invalid UTF-8 repaired as
/// `String(cString:)` does. Its own decoding: `String(cString:)` lives in the part of the
/// standard library that is one 1.6 MB section, which a render's code is not laid out beside (each
/// distinct 64 kB of it a render runs is a page fault of its own: docs/performance.md).
public enum CString {
    public static func string(_ pointer: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
        return String(decoding: bytes, as: UTF8.self)
    }
}
