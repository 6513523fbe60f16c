// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An argv or envp for `execve` / `posix_spawn`.
public enum CStringArray {
    /// `strings` as a NULL-terminated array of C strings, valid during `body` (copies, freed
    /// after it; the array itself is on the stack).
    public static func with<R>(
        _ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws -> R
    ) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: strings.count + 1) { array in
            for (i, string) in strings.enumerated() { array[i] = strdup(string) }
            array[strings.count] = nil
            defer { for i in 0..<strings.count { free(array[i]) } }
            return try body(array.baseAddress!)
        }
    }
}
