// Development only, never installed: a static program linked with CSystem, as the release
// `elbowroom` is, that prints the arguments the standard library's `CommandLine` gives it next
// to the ones the C library started it with (Sources/CSystem/arguments.c). ArgumentsProbeTests
// starts it with odd argv and compares both with what it passed.
import CSystem

/// Lowercase hex of the bytes, `-` for none (so an empty argument is a word of its own).
func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    let digits = Array("0123456789abcdef")
    var text = ""
    for b in bytes {
        text.append(digits[Int(b >> 4)])
        text.append(digits[Int(b & 15)])
    }
    return text.isEmpty ? "-" : text
}

func bytes(_ pointer: UnsafeMutablePointer<CChar>?) -> [UInt8] {
    guard let pointer else { return [] }
    var out: [UInt8] = []
    var i = 0
    while pointer[i] != 0 {
        out.append(UInt8(bitPattern: pointer[i]))
        i += 1
    }
    return out
}

var count: Int32 = 0
let start = elbowroom_start_arguments(&count)
print("argc \(CommandLine.argc) \(CommandLine.arguments.count) \(count)")
for i in 0..<Int(CommandLine.argc) {
    let fromC = i < Int(count) ? hex(bytes(start?[i])) : "none"
    print(i, hex(bytes(CommandLine.unsafeArgv[i])), hex(Array(CommandLine.arguments[i].utf8)), fromC)
}
print("end", CommandLine.unsafeArgv[Int(CommandLine.argc)] == nil ? "null" : "not-null")
