#if os(Linux)
import Foundation
import Testing
import ElbowroomCore
@testable import ElbowroomFetch
import ElbowroomTestSupport

/// The fetcher's HTTP goes through `elbowroom-http`, a C program over the system libcurl, one
/// child per request. What crosses to it, and every way it can fail, without a trap and without
/// the token anywhere but its stdin.
@Suite struct HelperTransportTests {
    static let token = "sk-ant-oat01-helper-transport-token-0123456789"

    static var helper: String? { BuiltExecutable.path(HTTPHelper.name) }

    /// A stand-in for the helper: a shell script, in a directory of its own.
    static func script(_ body: String) throws -> (path: String, directory: String) {
        let directory = NSTemporaryDirectory() + "elbowroom-helper-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/elbowroom-http"
        try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return (path, directory)
    }

    static func request(_ url: String = "http://127.0.0.1:9/api/oauth/usage", timeout: TimeInterval = 5) -> HTTPRequest {
        HTTPRequest(url: URL(string: url)!, headers: [("Authorization", "Bearer \(token)")], timeout: timeout)
    }

    /// The token travels on stdin only: the helper's argv is empty, and its environment holds
    /// only what libcurl reads (proxies, the CA store), nothing else of this process's (HOME,
    /// PATH, and whatever token variable a fetcher's caller had).
    @Test func theTokenReachesTheHelperOnStdinOnly() throws {
        let (path, directory) = try Self.script("""
            printf '%s\\n' "$#" > "$(dirname "$0")/argc"
            env > "$(dirname "$0")/env"
            cat > "$(dirname "$0")/stdin"
            printf 'elbowroom-http 1\\nok 0 200 1 1\\n0\\n2\\n{}'
            """)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let response = try HelperTransport(helper: path).send(Self.request())
        #expect(response.status == 200 && response.body == Data("{}".utf8))
        #expect(try String(contentsOfFile: directory + "/argc", encoding: .utf8) == "0\n")
        let environment = try String(contentsOfFile: directory + "/env", encoding: .utf8)
        #expect(!environment.contains(Self.token))
        let names = environment.split(separator: "\n").compactMap { $0.split(separator: "=").first.map(String.init) }
        // (sh itself adds PWD, and SHLVL in some shells.)
        #expect(names.allSatisfy { HelperTransport.passedVariables.contains($0) || ["PWD", "SHLVL", "_"].contains($0) }, "\(names)")
        let stdin = try String(contentsOfFile: directory + "/stdin", encoding: .utf8)
        #expect(stdin.hasPrefix("elbowroom-http 1\nGET\nhttp://127.0.0.1:9/api/oauth/usage\n5000\n"))
        #expect(stdin.contains("Authorization: Bearer \(Self.token)\n"))
        #expect(stdin.contains("Accept-Encoding: identity\nExpect:\n-1\n"))
    }

    /// A helper that crashes, says nothing, says something else, or cannot load libcurl is a
    /// network failure that says which; never a trap, never a reading.
    @Test(arguments: [
        ("kill -SEGV $$", "elbowroom-http stopped by signal 11"),
        ("exit 0", "elbowroom-http failed (exit 0)"),
        ("echo 'elbowroom-http 2'; exit 0", "elbowroom-http failed (exit 0)"),
        ("printf 'elbowroom-http 1\\nok 0 200 1 1\\n5\\nab'", "elbowroom-http failed (exit 0)"),
        ("printf 'elbowroom-http 1\\nok 0 200 1 1\\n0\\n9\\n{}'", "elbowroom-http failed (exit 0)"),
        ("echo 'elbowroom-http: a malformed request' >&2; exit 2",
         "elbowroom-http refused the request (exit 2): it does not belong to this elbowroom; reinstall elbowroom"),
        ("exit 127", "elbowroom-http cannot start (exit 127); is libcurl installed? (Debian: libcurl4)"),
        ("printf 'elbowroom-http 1\\nsetup 48 0 0 0\\n0\\n0\\n'",
         "libcurl refused an option elbowroom needs (curl 48); a newer libcurl may help"),
    ])
    func aHelperThatFailsIsANetworkFailure(body: String, message: String) throws {
        let (path, directory) = try Self.script("cat >/dev/null\n" + body + "\n")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: TransportError.network(message)) { try HelperTransport(helper: path).send(Self.request()) }
    }

    /// A helper that never answers is killed when the request's time is up (and 2 s of grace).
    @Test func aHelperThatHangsIsKilledAtTheDeadline() throws {
        let (path, directory) = try Self.script("cat >/dev/null\nexec sleep 60\n")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let start = Date()
        #expect(throws: TransportError.timeout(0.5)) { try HelperTransport(helper: path).send(Self.request(timeout: 0.5)) }
        #expect(Date().timeIntervalSince(start) < 10)
    }

    /// No helper installed: one sentence that says where it belongs.
    @Test func aMissingHelperSaysWhereItBelongs() {
        #expect(throws: TransportError.network("elbowroom-http is missing: it belongs in PREFIX/libexec/elbowroom/ beside PREFIX/bin/elbowroom (reinstall elbowroom)")) {
            try HelperTransport(helper: nil).send(Self.request())
        }
    }

    /// Found where install.sh, the .deb and Nix put it, beside a program in PREFIX/bin; in a
    /// build directory, beside the program.
    @Test func theHelperIsFoundInLibexecOrBesideTheProgram() throws {
        let root = NSTemporaryDirectory() + "elbowroom-prefix-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        #expect(HTTPHelper.locate(besides: root + "/bin/elbowroom") == nil)
        for place in ["bin", "lib/elbowroom", "libexec/elbowroom"] {
            try FileManager.default.createDirectory(atPath: root + "/" + place, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: root + "/\(place)/elbowroom-http", contents: Data("#!/bin/sh\n".utf8),
                                               attributes: [.posixPermissions: 0o755])
            #expect(HTTPHelper.locate(besides: root + "/bin/elbowroom") == root + "/\(place)/elbowroom-http")
        }
    }

    /// The real helper: it names libcurl, and refuses what is not a request of its protocol.
    @Test func theBuiltHelperAnswersItsVersionAndRefusesNonsense() throws {
        let helper = try #require(Self.helper, "build elbowroom-http first")
        let version = try BuiltExecutable.run(helper, arguments: ["--version"], environment: [:])
        #expect(version.status == 0 && version.stdout.hasPrefix("elbowroom-http 1 libcurl/"), "\(version)")
        let output = try PosixSpawner().run(path: helper, arguments: [], environment: [:],
                                            stdin: Data("GET / HTTP/1.1\r\n\r\n".utf8), timeout: 10)
        #expect(output.status == 2 && output.stdout.isEmpty)
        let extra = try BuiltExecutable.run(helper, arguments: ["https://example.com"], environment: [:])
        #expect(extra.status == 2 && extra.stderr.contains("reads one request on stdin"))
    }

    /// The real helper against a loopback server: a request with a body, every header as sent,
    /// and the answer's headers and body back as they were.
    @Test func theBuiltHelperCarriesARequestAndItsAnswer() throws {
        let server = try LoopbackHTTPServer { _ in .json(201, #"{"ok":true}"#, headers: [("X-One", " spaced "), ("x-one", "second")]) }
        defer { server.stop() }
        let helper = try #require(Self.helper, "build elbowroom-http first")
        let body = Data(#"{"grant_type":"refresh_token"}"#.utf8)
        let response = try HelperTransport(helper: helper).send(
            HTTPRequest(method: "POST", url: URL(string: server.baseURL + "/v1/oauth/token")!,
                        headers: [("Content-Type", "application/json"), ("X-Split", "a\r\nInjected: yes")], body: body, timeout: 5))
        #expect(response.status == 201)
        #expect(response.body == Data(#"{"ok":true}"#.utf8))
        #expect(response.header("x-one") == "spaced")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST" && request.body == body)
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("X-Split") == "aInjected: yes" && request.header("Injected") == nil)
        #expect(request.header("Expect") == nil)
    }

    /// SIGTERM to every process (systemd stopping `serve`) while a token request is in flight
    /// does not cut it off: the answer, and the rotated refresh token in it, still arrives.
    @Test func aTerminationSignalWaitsForTheAnswer() throws {
        let server = try LoopbackHTTPServer { _ in
            usleep(600_000)
            return .json(200, #"{"access_token":"a","refresh_token":"r"}"#)
        }
        defer { server.stop() }
        let helper = try #require(Self.helper, "build elbowroom-http first")
        let own = getpid()
        let signaller = Thread {
            // Once the helper is waiting on the server: SIGTERM to every elbowroom-http of ours.
            usleep(300_000)
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(entry), Self.command(pid) == "elbowroom-http", Self.parentOf(pid) == own else { continue }
                kill(pid, SIGTERM)
            }
        }
        signaller.start()
        let response = try HelperTransport(helper: helper).send(
            HTTPRequest(method: "POST", url: URL(string: server.baseURL + "/v1/oauth/token")!, body: Data("{}".utf8), timeout: 5))
        #expect(response.status == 200 && response.body == Data(#"{"access_token":"a","refresh_token":"r"}"#.utf8))
    }

    /// The helper ends with the fetcher that started it: killed mid-fetch, the fetcher leaves no
    /// helper behind waiting out its timeout.
    @Test func theHelperDiesWithItsParent() throws {
        let helper = try #require(Self.helper, "build elbowroom-http first")
        let directory = NSTemporaryDirectory() + "elbowroom-orphan-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The helper reads a FIFO nobody writes to (held open here), so it waits in its read.
        let fifo = directory + "/in"
        #expect(mkfifo(fifo, 0o600) == 0)
        let held = open(fifo, O_RDWR)
        defer { close(held) }
        let parent = try BuiltExecutable.start("/bin/sh", arguments: ["-c", "\"$0\" < \"$1\" > /dev/null 2>&1 & echo $! > \"$2\"; wait", helper, fifo, directory + "/pid"],
                                               environment: [:])
        var pid: pid_t = 0
        #expect(Eventually.within(5) {
            pid = (try? String(contentsOfFile: directory + "/pid", encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
            return pid > 0 && Self.isRunning(pid) && Self.command(pid) == "elbowroom-http"
        })
        // Past its first lines (where it asks to die with its parent), waiting in its read:
        // asleep, and still asleep a moment later. (A kill between its exec and that line would
        // leave it waiting on this FIFO; a real fetcher's pipe closes with it instead.)
        #expect(Eventually.within(5) {
            guard Self.state(pid) == "S" else { return false }
            usleep(100_000)
            return Self.state(pid) == "S"
        })
        guard let shell = Self.parentOf(pid) else {
            if pid > 0 { kill(pid, SIGKILL) }
            Issue.record("no helper started")
            return
        }
        kill(shell, SIGKILL)
        let died = Eventually.within(5) { !Self.isRunning(pid) }
        // (Before waiting for the shell's output, which a live helper could hold open.)
        if !died { kill(pid, SIGKILL) }
        _ = parent()
        #expect(died, "the helper outlived its parent")
    }

    /// The one-letter state in `/proc/PID/stat` (`S` asleep, `R` running, `Z` a zombie).
    static func state(_ pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)]
    }

    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    /// Its name once it has executed (`/proc/PID/comm`: readable even for a process that is not
    /// dumpable).
    static func command(_ pid: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func parentOf(_ pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
    }
}
#endif
