import Foundation
import Testing
import ElbowroomCore
import ElbowroomTestSupport
import ElbowroomAdapters

/// integrations/prometheus (alerting rules) and integrations/grafana (dashboard) against the real
/// tools: Debian's `prometheus` package (promtool and prometheus). Without them these say so and
/// skip (`.ci/run` installs the package).
@Suite(.serialized) struct PrometheusIntegrationTests {
    static let promtool = "/usr/bin/promtool"
    static let prometheus = "/usr/bin/prometheus"
    static var havePromtool: Bool { FileManager.default.isExecutableFile(atPath: promtool) }
    static var havePrometheus: Bool { FileManager.default.isExecutableFile(atPath: prometheus) }
    static let rules = ShippedFiles.path("integrations/prometheus/elbowroom.rules.yml")
    static let dashboard = ShippedFiles.path("integrations/grafana/elbowroom-dashboard.json")

    static func run(_ path: String, _ arguments: [String], in directory: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: havePromtool, "promtool is not installed (apt-get install prometheus): skipping"))
    func theRulesPassPromtoolCheckAndTheirTestsFireEachAlert() throws {
        let dir = ShippedFiles.path("integrations/prometheus")
        let check = try Self.run(Self.promtool, ["check", "rules", "elbowroom.rules.yml"], in: dir)
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("SUCCESS: 5 rules found"), "\(check.output)")
        let test = try Self.run(Self.promtool, ["test", "rules", "elbowroom.rules.test.yml"], in: dir)
        #expect(test.status == 0, "\(test.output)")
        // Each alert is expected to fire somewhere in the tests.
        let tests = try String(contentsOfFile: dir + "/elbowroom.rules.test.yml", encoding: .utf8)
        for name in try Self.alertNames() {
            #expect(tests.contains("alertname: \(name)\n        exp_alerts:\n          - exp_labels"), "no test fires \(name)")
        }
    }

    static func alertNames() throws -> [String] {
        try String(contentsOfFile: rules, encoding: .utf8).split(separator: "\n").compactMap { line in
            let t = line.trimmingCharacters(in: .whitespaces)
            return t.hasPrefix("- alert: ") ? String(t.dropFirst("- alert: ".count)) : nil
        }
    }

    /// The metric names the rules and the dashboard use are ones `-a prometheus` prints.
    @Test func theRulesAndTheDashboardUseOnlyMetricsElbowroomPrints() throws {
        let printed = ["elbowroom_up", "elbowroom_status", "elbowroom_data_age_seconds", "elbowroom_window_used_percent",
                       "elbowroom_window_left_percent", "elbowroom_window_resets_at_seconds", "elbowroom_window_level",
                       "elbowroom_window_rate_percent_per_hour"]
        let adapter = try String(contentsOfFile: ShippedFiles.path("Sources/ElbowroomAdapters/Adapters/PrometheusAdapter.swift"), encoding: .utf8)
        for name in printed { #expect(adapter.contains("\"\(name)\""), "\(name) is not the adapter's") }
        let texts = [try String(contentsOfFile: Self.rules, encoding: .utf8), try String(contentsOfFile: Self.dashboard, encoding: .utf8)]
        for text in texts {
            let used = Set(text.matches(of: /elbowroom_[a-z_]+/).map { String($0.output) })
            #expect(!used.isEmpty)
            for name in used { #expect(printed.contains(name), "\(name) is not a metric elbowroom prints") }
        }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.dashboard))) as? [String: Any]
        #expect((object?["panels"] as? [Any])?.isEmpty == false)
    }

    static func dashboardQueries() throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dashboard))) as? [String: Any])
        let panels = try #require(object["panels"] as? [[String: Any]])
        return panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
    }

    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: addr.sin_port)
    }

    /// PromQL through Prometheus's HTTP API: the `data.result` of an instant query.
    static func query(_ port: UInt16, _ promql: String) throws -> (status: String, result: [[String: Any]]) {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = promql.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        let answer = try RawHTTP.get(port: port, "/api/v1/query?query=" + encoded)
        let body = answer.body.contains("\r\n") ? Self.unchunk(answer.body) : answer.body
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
        let data = object["data"] as? [String: Any] ?? [:]
        return (object["status"] as? String ?? "", data["result"] as? [[String: Any]] ?? [])
    }

    /// A chunked body, joined.
    static func unchunk(_ body: String) -> String {
        var out = ""
        var rest = Substring(body)
        while let line = rest.range(of: "\r\n") {
            guard let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 else { break }
            let start = line.upperBound
            let end = rest.utf8.index(start, offsetBy: size)
            out += rest[start..<end]
            rest = rest[end...].dropFirst(2)
        }
        return out
    }

    @Test(.enabled(if: havePrometheus, "prometheus is not installed (apt-get install prometheus): skipping"))
    func aRealPrometheusScrapesServeAndPromQLReturnsTheLeftPercentageTheCacheHolds() throws {
        let e = try EndToEnd()
        try e.seedCache(fiveHour: 63, age: 5)
        let serve = try ServeProcess(elbowroom: e.elbowroom, environment: e.sandbox.environment, arguments: ["--offline"])
        let dir = e.sandbox.root + "/prometheus"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        rule_files:
          - \(Self.rules)
        scrape_configs:
          - job_name: elbowroom
            static_configs:
              - targets: ["127.0.0.1:\(serve.port)"]
        """.write(toFile: dir + "/prometheus.yml", atomically: true, encoding: .utf8)
        let port = try Self.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.prometheus)
        process.arguments = ["--config.file=\(dir)/prometheus.yml", "--storage.tsdb.path=\(dir)/data",
                             "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn"]
        let log = FileHandle(forWritingAtPath: "/dev/null")
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var left: String?
        let deadline = Date().addingTimeInterval(30)
        while left == nil && Date() < deadline {
            usleep(250_000)
            guard let answer = try? Self.query(port, #"elbowroom_window_left_percent{job="elbowroom",window="five_hour"}"#),
                  let first = answer.result.first, let value = first["value"] as? [Any] else { continue }
            left = value.last as? String
        }
        #expect(left == "37", "PromQL returned \(left ?? "nothing") for the five_hour window's left percentage")
        // The dashboard's queries run as they are written (instance "All").
        for expr in try Self.dashboardQueries() {
            let answer = try Self.query(port, expr.replacingOccurrences(of: "$instance", with: ".*"))
            #expect(answer.status == "success", "\(expr)")
        }
        #expect(try Self.query(port, "min by (instance) (elbowroom_window_left_percent)").result.count == 1)
        // The rules loaded and evaluate without error.
        let rules = try RawHTTP.get(port: port, "/api/v1/rules")
        #expect(rules.body.contains("ClaudeUsageWindowLow") && !rules.body.contains(#""health":"err""#), "\(rules.body.prefix(500))")
        #expect(e.usageRequests == 0)
        #expect(serve.stop()?.status == 0)
    }
}
