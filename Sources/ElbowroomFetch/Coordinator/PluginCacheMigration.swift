#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ElbowroomCore

/// A plugin account's cache, history and digest were once named after the plugin alone, so two
/// accounts of one plugin shared them. They are now named after the plugin and the account
/// (`Paths.pluginAccount`). An upgrade keeps an existing reading where it can tell whose it was:
/// when the config has exactly one account of that plugin, its old files become that account's
/// (renamed, once, by its fetcher). With several, nobody can tell, and each starts afresh.
enum PluginCacheMigration {
    static func run(paths: Paths, config: Config, log: (String) -> Void) {
        guard let legacy = paths.legacyPluginAccountKey, legacy != paths.accountKey,
              config.accounts.filter({ $0.provider == paths.provider }).count == 1 else { return }
        let old = Paths.join(paths.cacheDir, "usage-" + legacy)
        let new = Paths.join(paths.cacheDir, "usage-" + paths.accountKey)
        guard FileSystem.exists(old + ".json"), !FileSystem.exists(new + ".json") else { return }
        for suffix in [".json", ".history", ".digest"] where FileSystem.exists(old + suffix) {
            if rename(old + suffix, new + suffix) == 0 {
                log("kept this plugin account's \(suffix) from before accounts had their own (\(old + suffix))")
            }
        }
    }
}
