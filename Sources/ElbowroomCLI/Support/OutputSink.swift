// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
import ElbowroomAdapters
import ElbowroomCore

/// Where a command writes. Writes go straight to the descriptor (no stdio buffer), so every
/// streamed line reaches a bar at once.
public protocol OutputSink: Sendable {
    /// Writes the text; `false` when the reader has gone (closed pipe).
    @discardableResult func write(_ text: String) -> Bool
    /// Writes UTF-8 bytes as they are (by default: as text).
    @discardableResult func write(bytes: [UInt8]) -> Bool
}

extension OutputSink {
    @discardableResult
    public func write(bytes: [UInt8]) -> Bool { write(String(decoding: bytes, as: UTF8.self)) }

    /// Writes what an adapter produced: its bytes as they are, or its text.
    @discardableResult
    public func write(_ output: AdapterOutput) -> Bool {
        if let bytes = output.bytes { return write(bytes: bytes) }
        return write(output.text)
    }
}

public struct FileDescriptorSink: OutputSink {
    public let fd: Int32
    public init(fd: Int32) { self.fd = fd }

    /// Writes the text's own UTF-8 (not a copy of it: a copy of a tooltip's output cost a render
    /// a few thousand instructions and a heap page).
    @discardableResult
    public func write(_ text: String) -> Bool {
        var text = text  // (`withUTF8` copies only a string that is not contiguous UTF-8 already)
        return text.withUTF8 { write($0) }
    }

    @discardableResult
    public func write(bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    private func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #else
            let n = Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
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
