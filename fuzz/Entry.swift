// The libFuzzer entry point. `scripts/fuzz` links this file with the module sources and
// Tests/ElbowroomFuzzTests/FuzzChecks.swift (compiled as the module FuzzChecks) into one binary;
// the environment variable FUZZ_TARGET (template, config, usage, statusline, click) chooses which
// parser it feeds.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzChecks

let fuzzTarget: FuzzTarget = {
    guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
        fatalError("set FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let problem = fuzzTarget.check(bytes) {
        // A broken invariant is a finding like a crash: libFuzzer saves the input.
        fatalError("\(fuzzTarget.rawValue): \(problem)")
    }
    return 0
}
