// The few process calls Swift cannot make itself: prctl is variadic, which Swift does not
// import, and glibc's module does not carry setfsuid(2); the program's arguments from the C
// library (arguments.c); libdispatch started when it is needed, not before main (dispatch.c);
// the runtime's search for a crash backtracer this program does not carry skipped (backtrace.c).
// Part of the one static elbowroom program.
#ifndef ELBOWROOM_CSYSTEM_H
#define ELBOWROOM_CSYSTEM_H

/// Makes this process non-dumpable: no core file (which would hold both tokens) and no ptrace or
/// /proc/PID/mem reads by other processes of the same user. 0 on success; -1 where there is no
/// such call.
int elbowroom_set_not_dumpable(void);

/// Linux: the file-system user and group this thread acts as (`setfsuid(2)`), so that root
/// writing a user's credentials has exactly that user's rights. Returns the previous id; -1 where
/// there is no such call.
int elbowroom_setfsuid(unsigned int uid);
int elbowroom_setfsgid(unsigned int gid);

/// Linux: this process becomes a subreaper (`PR_SET_CHILD_SUBREAPER`): a descendant orphaned
/// below it (a plugin's daemon that double-forked and left with `setsid`) becomes its child, not
/// init's, so it can be found and ended. 0 on success; -1 where there is no such call.
int elbowroom_set_child_subreaper(void);

/// The argc and argv the C library started the program with, kept by a constructor before main
/// (arguments.c: the Swift runtime's `CommandLine` asks the same function). An empty argv
/// before that constructor has run.
char **elbowroom_start_arguments(int *count);

/// glibc 2.34 and later: a spawn with `actions` (a `posix_spawn_file_actions_t *`) closes every
/// descriptor from `lowest` up in the child (`posix_spawn_file_actions_addclosefrom_np`), so a
/// child holds no descriptor its parent opened without `O_CLOEXEC`. 0 on success; -1 where the
/// C library has no such action.
int elbowroom_spawn_close_from(void *actions, int lowest);

/// Takes away what the start-up set in the environment for the Swift runtime alone
/// (backtrace.c: SWIFT_BACKTRACE, unless the user set it): the first thing main does.
void elbowroom_restore_environment(void);

/// Starts libdispatch (its constructor, which the release link defers: dispatch.c says why),
/// once; call before anything uses libdispatch. Nothing where its constructor ran as usual.
void elbowroom_start_dispatch(void);

#endif
