import ElbowroomCore

/// `elbowroom init NAME --write`: puts a systemd snippet's unit files where `systemctl --user`
/// reads them (`$XDG_CONFIG_HOME/systemd/user`, default `~/.config/systemd/user`), each whole
/// (written beside, then renamed), and says the one line that loads and starts them. A file
/// already there is replaced, and said so.
enum UnitWriter {
    /// The directory systemd reads a user's own units from.
    static func directory(_ environment: ElbowroomEnvironment) -> String {
        let home = environment.home
        let config = environment.absolutePath("XDG_CONFIG_HOME", home: home) ?? (home.hasSuffix("/") ? home : home + "/") + ".config"
        return (config.hasSuffix("/") ? String(config.dropLast()) : config) + "/systemd/user"
    }

    static func write(_ text: String, snippet name: String, context: CLIContext) -> Int32 {
        guard let enable = IntegrationSnippets.systemdUnits.first(where: { $0.name == name })?.enable else {
            let units = IntegrationSnippets.systemdUnits.map(\.name).joined(separator: ", ")
            context.stderr.write("elbowroom: --write puts systemd units in place (init \(units)); '\(name)' is pasted by hand: elbowroom init \(name)\n")
            return 2
        }
        let directory = directory(context.environment)
        do {
            try FileSystem.makeDirectory(directory, mode: 0o755)
        } catch {
            context.stderr.write("elbowroom: \(error)\n")
            return 1
        }
        for unit in IntegrationSnippets.units(in: text) {
            let path = directory + "/" + unit.file
            let existed = FileSystem.exists(path)
            do {
                try FileSystem.writeAtomically(Data(unit.text.utf8), to: path, mode: 0o644)
            } catch {
                context.stderr.write("elbowroom: \(error)\n")
                return 1
            }
            context.stdout.write("\(existed ? "replaced" : "wrote") \(path)\n")
        }
        context.stdout.write("now run: systemctl --user daemon-reload && systemctl --user enable --now \(enable)\n")
        return 0
    }
}
