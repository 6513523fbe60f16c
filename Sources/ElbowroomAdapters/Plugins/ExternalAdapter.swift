import ElbowroomCore

/// A plugin: the executable `elbowroom-adapter-NAME`, run once per render with one argument
/// (`render`, or `stream` for a `watch` frame) and the frame as JSON on stdin (`FrameJSON`).
/// Its stdout is printed as it is. It runs with the parent's environment minus every variable
/// that carries a credential, and is killed (with anything it started) when 2 s have passed
/// since it started, whether or not it closed its stdout; a non-zero exit or a timeout prints
/// this adapter's error output instead. A plugin another user could change
/// (`ExecutableTrust`) is never run: its output is this adapter's error, naming why.
public struct ExternalAdapter: OutputAdapter {
    public let name: String
    public let path: String
    let environment: ElbowroomEnvironment
    let spawner: any ProcessSpawner
    public var timeout: TimeInterval = 2
    /// Why it is not run (`ExecutableTrust.refusal`), or `nil`.
    public let refusal: String?

    public init(name: String, path: String, environment: ElbowroomEnvironment,
                spawner: any ProcessSpawner = PosixSpawner(), refusal: String? = nil) {
        self.name = name
        self.path = path
        self.environment = environment
        self.spawner = spawner
        self.refusal = refusal
    }

    public var summary: String { refusal == nil ? "plugin: \(path)" : "plugin: \(path) (refused: see elbowroom doctor)" }
    public var printsView: Bool { true }

    /// The plugin's output, or `nil` with the reason.
    func run(_ frame: RenderedFrame, mode: String) -> Result<String, PluginFailure> {
        if let refusal {
            return .failure(PluginFailure(message: "plugin \(name) refused: \(refusal)"))
        }
        let input = Data(FrameJSON.value(frame, adapter: name, mode: mode).encoded.utf8)
        do {
            let result = try spawner.run(path: path, arguments: [mode], environment: environment.forChild,
                                         stdin: input, timeout: timeout)
            guard result.status == 0 else {
                return .failure(PluginFailure(message: "plugin \(name) exited with status \(result.status)"))
            }
            return .success(String(decoding: result.stdout, as: UTF8.self))
        } catch let error as PosixSpawner.TimedOut {
            return .failure(PluginFailure(message: "plugin \(name) did not finish within \(error.limit)"))
        } catch {
            return .failure(PluginFailure(message: "plugin \(name) could not start: \(error)"))
        }
    }

    struct PluginFailure: Error { var message: String }

    public func render(_ frame: RenderedFrame) -> AdapterOutput {
        switch run(frame, mode: "render") {
        case .success(let text): return AdapterOutput(text)
        case .failure(let failure): return renderError(failure.message)
        }
    }

    public func streamFrame(_ frame: RenderedFrame) -> String {
        switch run(frame, mode: "stream") {
        case .success(let text): return text.isEmpty || text.utf8.last == 0x0A ? text : text + "\n"
        case .failure(let failure): return streamError(failure.message)
        }
    }

    public var errorReader: ErrorReader { .program }

    public func renderError(_ message: String) -> AdapterOutput {
        AdapterOutput("⚠ elbowroom: " + SafeText.clean(message, lines: .join) + "\n", exitCode: 2)
    }
}
