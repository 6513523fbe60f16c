import Foundation
import ElbowroomCore
import ElbowroomTestSupport
import Testing

/// `doctor` on a credentials file whose `expiresAt` is absurd (hand-edited, corrupt): a line
/// saying so, not a trap in the duration arithmetic.
@Suite struct EndToEndDoctorExpiryTests {
    @Test(arguments: [("1e300", true), ("-1e300", false), ("9223372036854775807", true), ("1.7976931348623157e308", true)])
    func anAbsurdExpiresAtIsReportedNotATrap(expiresAt: String, outOfRange: Bool) throws {
        let e = try EndToEnd()
        let good = Sandbox.credentialsJSON(accessToken: e.anthropic.validAccessToken, refreshToken: e.anthropic.validRefreshToken,
                                           expiresAt: Date())
        let text = good.replacingOccurrences(of: #""expiresAt":\d+"#, with: #""expiresAt":\#(expiresAt)"#, options: .regularExpression)
        #expect(text != good)
        try e.sandbox.writeCredentials(text)
        let run = try e.runBounded(["doctor"])
        #expect(!run.crashed && !run.timedOut, "\(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").first { $0.contains("credentials: ") })
        #expect(line.hasPrefix("ok   credentials: \(e.sandbox.credentialsFile) (mode 600), plan max"))
        #expect(line.contains("token expiry (expiresAt) out of range") == outOfRange, "\(line)")
        #expect(!line.contains("expires in") && !line.contains("expired"))
    }
}
