#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a plugin may be run: the rule ssh, sudo and cron apply to what they run for a user.
/// A plugin (`elbowroom-source-NAME`, `elbowroom-adapter-NAME`) runs with the user's rights
/// from every fetch or render, so one that another user can change is someone else's program:
///
/// - the file (symlinks followed) must be owned by the user or by root and writable by neither
///   group nor others;
/// - so must every directory above it, up to `/`, both where it was found (the symlink's
///   directory, if it is one) and where it really is: whoever can write a directory can put
///   another file in its place. A directory writable by others is accepted only when it is
///   sticky (`/tmp`, mode 1777): there nobody but an entry's owner can rename or remove it.
///
/// elbowroom refuses its own cache files on the same grounds (`FileSystem.privateFileProblem`).
public enum ExecutableTrust {
    /// Why `path` must not be run (naming the file or directory at fault and its owner or mode),
    /// or `nil` when it may.
    public static func refusal(_ path: String, uid: uid_t = geteuid()) -> String? {
        guard let real = FileSystem.realPath(path) else { return "\(path) cannot be resolved" }
        if let why = problem(real, uid: uid, directory: false) { return why }
        // Where it was found, as spelled (a symlink there is someone's: its owner can replace
        // it), then where it really is.
        var checked: [String] = []
        for start in [path, real] {
            var dir = FileSystem.directory(of: start)
            while !checked.contains(dir) {
                checked.append(dir)
                if let why = linkOwnerProblem(dir, uid: uid) ?? problem(dir, uid: uid, directory: true) { return why }
                if dir == "/" || dir == "." { break }
                dir = FileSystem.directory(of: dir)
            }
        }
        return nil
    }

    /// A symlink on the way must be the user's or root's too (its directory is checked on its own).
    static func linkOwnerProblem(_ path: String, uid: uid_t) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        guard info.st_uid != uid && info.st_uid != 0 else { return nil }
        return "\(path) is a symlink owned by uid \(info.st_uid), neither you (uid \(uid)) nor root"
    }

    static func problem(_ path: String, uid: uid_t, directory: Bool) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path) cannot be read (\(String(cString: strerror(errno))))" }
        if info.st_uid != uid && info.st_uid != 0 {
            return "\(path) is owned by uid \(info.st_uid), neither you (uid \(uid)) nor root"
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            let sticky = directory && mode & mode_t(S_ISVTX) != 0
            if !sticky {
                let who = mode & 0o002 != 0 ? (mode & 0o020 != 0 ? "group and others" : "others") : "group"
                return "\(path) is writable by \(who) (mode \(String(mode, radix: 8)))"
            }
        }
        return nil
    }

    /// The refusal as a plugin's failure says it where its text may be shown to others (`serve`'s
    /// answers): no path, only what `doctor` tells in full.
    public static let withoutPath = "another user could change it (it, or a directory above it, is writable by group or others or owned by another user): `elbowroom doctor` names which"
}
