#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ElbowroomCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every seam to the outside the fetch side uses, so tests run it against a loopback server, a
/// sandbox HOME, a fake `/proc` and a fixed clock.
public struct FetchContext: Sendable {
    public var environment: ElbowroomEnvironment
    public var transport: any HTTPTransport
    public var credentialSourceKind: CredentialSourceKind
    /// `nil`: the platform's detector (`/proc` on Linux, `ps` on macOS).
    public var detector: (any ClaudeProcessDetector)?
    /// Path of `security` for the Keychain source.
    public var securityExecutable: String
    public var clock: @Sendable () -> Date
    public var log: DebugLog

    public init(environment: ElbowroomEnvironment, transport: any HTTPTransport = PlatformTransport.make(),
                credentialSourceKind: CredentialSourceKind = .platformDefault,
                detector: (any ClaudeProcessDetector)? = nil, securityExecutable: String = "/usr/bin/security",
                clock: @escaping @Sendable () -> Date = { Date() }, log: DebugLog = DebugLog(enabled: false)) {
        self.environment = environment
        self.transport = transport
        self.credentialSourceKind = credentialSourceKind
        self.detector = detector
        self.securityExecutable = securityExecutable
        self.clock = clock
        self.log = log
    }

    public var paths: Paths { Paths(environment: environment) }
    /// The `[accounts.NAME]` this fetch is for, when the renderer named one.
    public var accountName: String? { AccountIdentity.accountName(in: environment) }

    public func credentialSource(paths: Paths) -> any CredentialSource {
        switch credentialSourceKind {
        case .file:
            return FileCredentialSource(path: paths.credentialsFile, storage: ClaudeCodeStorage(environment: environment), log: log)
        case .keychain:
            let account = ClaudeCodeStorage.keychainAccount(user: environment["USER"], loginName: Self.loginName())
            let childEnv = ["HOME": environment.home, "USER": environment["USER"] ?? account, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
            let service = ClaudeCodeStorage(environment: environment).keychainService(normalize: Self.nfc)
            let file = FileCredentialSource(path: paths.credentialsFile, storage: ClaudeCodeStorage(environment: environment), log: log)
            return KeychainCredentialSource(service: service, account: account, executable: securityExecutable,
                                            environment: childEnv, fallback: file)
        }
    }

    public var processDetector: any ClaudeProcessDetector {
        if let detector { return detector }
        #if os(Linux)
        return ProcClaudeProcessDetector()
        #else
        return PSClaudeProcessDetector()
        #endif
    }

    /// NFC, for the Keychain's name: Foundation's on macOS. Elsewhere there is no Keychain (and
    /// no Foundation here): the text as it is.
    static func nfc(_ text: String) -> String {
        #if canImport(Darwin)
        return text.precomposedStringWithCanonicalMapping
        #else
        return text
        #endif
    }

    static func loginName() -> String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
