// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomCore

/// Where a command writes. Writes go straight to the descriptor (no stdio buffer), so every
/// streamed line reaches a bar at once.
public protocol OutputSink: Sendable {
    /// Writes the text; `false` when the reader has gone (closed pipe).
    @discardableResult func write(_ text: String) -> Bool
}

public struct FileDescriptorSink: OutputSink {
    public let fd: Int32
    public init(fd: Int32) { self.fd = fd }

    @discardableResult
    public func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in
                #if canImport(Glibc)
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #else
                Darwin.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
            }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// Reads a descriptor to its end, at most `limit` bytes.
    public static func readAll(fd: Int32, limit: Int) -> Data? {
        var data = Data()
        // Read into memory nothing has written: a zeroed array of 16 kB cost Claude Code's
        // status line, a few hundred bytes of JSON, 16 k instructions and four page faults.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16384) { buffer -> Data? in
            while data.count <= limit {
                let n = read(fd, buffer.baseAddress, buffer.count)
                if n < 0 { if errno == EINTR { continue }; return data.isEmpty ? nil : data }
                if n == 0 { break }
                data.append(buffer.baseAddress!, count: n)
            }
            return data
        }
    }
}
