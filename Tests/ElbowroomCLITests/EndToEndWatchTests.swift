import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `elbowroom watch` as bars run it: a long-lived process on pipes, stopped by signals.
@Suite struct EndToEndWatchTests {
    /// A running `elbowroom watch` with its stdout read line by line.
    final class Watch: @unchecked Sendable {
        let process = Process()
        let out = Pipe()
        let input = Pipe()
        private let lock = NSLock()
        private var buffer = ""

        init(_ e: EndToEnd, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: e.elbowroom)
            process.arguments = ["watch"] + arguments
            process.environment = e.sandbox.environment
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            process.standardInput = input
            out.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.buffer += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        var text: String { lock.withLock { buffer } }
        var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

        func waitForLines(_ count: Int, seconds: TimeInterval = 5) -> Bool {
            Eventually.within(seconds) { lines.count > count }
        }

        func send(_ text: String) { try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

        /// Waits for the exit; `nil` if it is still running after `seconds`.
        func exitStatus(within seconds: TimeInterval) -> Int32? {
            Eventually.within(seconds) { !process.isRunning } ? process.terminationStatus : nil
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    @Test func i3barGetsTheHeaderThenFlushedFramesAndStopsOnSIGTERM() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let watch = try Watch(e, ["-a", "i3bar", "--interval", "0.2", "-t", "{5h.left}% {5h.resets_in|duration}"])
        #expect(watch.waitForLines(3))
        let lines = watch.lines
        #expect(lines[0] == #"{"version":1,"click_events":true,"stop_signal":12,"cont_signal":18}"#)
        #expect(lines[1] == "[")
        #expect(lines[2].hasPrefix(#"[{"name":"elbowroom","full_text":"63% "#) && lines[2].hasSuffix("],"))
        kill(watch.process.processIdentifier, SIGTERM)
        #expect(watch.exitStatus(within: 3) == 0)
    }

    /// watch reads the usage history when its template shows the rate, and re-reads it when the
    /// cache changes, so a bar's rate follows new readings.
    @Test func theRateFollowsNewReadings() throws {
        let e = try EndToEnd(usage: .hang)
        try e.sandbox.writeConfig("source = \"statusline\"\n")
        let start = Int(Date().timeIntervalSince1970) - 1500
        func ingest(minute: Int, used: Int) throws {
            e.sandbox.extra["ELBOWROOM_NOW"] = String(start + minute * 60)
            let stdin = #"{"rate_limits":{"five_hour":{"used_percentage":\#(used),"resets_at":\#(start + 3 * 3600)}}}"#
            #expect(try e.run(["-a", "claude", "-t", "{5h.left}"], stdin: stdin).status == 0)
        }
        try ingest(minute: 0, used: 30)
        e.sandbox.extra["ELBOWROOM_NOW"] = nil
        let watch = try Watch(e, ["-a", "plain", "--interval", "0.1", "-t", "{5h.left}% {5h.rate|fixed(1)}%/h"])
        // One sample is no rate.
        #expect(Eventually.within(5) { watch.lines.contains("70% %/h") }, "\(watch.lines)")
        // Two more readings: three samples only if watch re-reads the history (the view adds
        // just the cache's own observation to what it read).
        try ingest(minute: 10, used: 40)
        try ingest(minute: 20, used: 50)
        #expect(Eventually.within(5) { watch.lines.contains { $0.hasPrefix("50% ") && $0 != "50% %/h" } },
                "\(watch.lines)")
        kill(watch.process.processIdentifier, SIGTERM)
        #expect(watch.exitStatus(within: 3) == 0)
    }

    @Test func sigusr1AndALeftClickRefreshNow() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)  // fresh: nothing is due
        let watch = try Watch(e, ["-a", "i3bar", "--interval", "0.2"])
        #expect(watch.waitForLines(3))
        usleep(300_000)
        #expect(e.usageRequests == 0)
        kill(watch.process.processIdentifier, SIGUSR1)
        #expect(Eventually.within(5) { e.usageRequests == 1 })
        // The new numbers (63 % used → 37 % left) arrive without a restart.
        #expect(Eventually.within(5) { watch.text.contains("5h 37%") })
        // A click within 5 s of the last forced fetch waits for the rest of those 5 s.
        watch.send("[\n" + #"{"name":"elbowroom","instance":"","button":1,"x":1,"y":1}"# + "\n")
        #expect(Eventually.within(8) { e.usageRequests == 2 })
        kill(watch.process.processIdentifier, SIGTERM)
        #expect(watch.exitStatus(within: 3) == 0)
    }

    @Test func aClosedStdoutEndsWatch() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 37, age: 5)
        let watch = try Watch(e, ["-a", "waybar", "--interval", "0.1", "-t", "{5h.resets_in|duration(long)}"])
        #expect(watch.waitForLines(1))
        watch.out.fileHandleForReading.readabilityHandler = nil
        try watch.out.fileHandleForReading.close()
        #expect(watch.exitStatus(within: 5) == 0)
    }
}
