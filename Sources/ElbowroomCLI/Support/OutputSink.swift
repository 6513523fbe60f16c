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
        var buffer = [UInt8](repeating: 0, count: 16384)
        while data.count <= limit {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return data.isEmpty ? nil : data }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return data
    }
}
