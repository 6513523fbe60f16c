// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
//
// libdispatch's start-up, run by the one part of the program that uses libdispatch, not by every
// process before main.
//
// The static libdispatch.a carries a constructor, `_libdispatch_init`, that glibc runs before
// main in every process that links it: it asks the C library for the number of configured CPUs
// twice (each answer opens, reads and closes /sys/devices/system/cpu/possible), for the CPUs the
// process may run on, and sets up the main queue and the thread-pool sizes. About 20 µs of every
// start here (2.5 % of a render, more than anything else a render does before main), for a render
// that never uses libdispatch: ElbowroomCLI and FoundationEssentials do not import it. Only the
// network side does (ElbowroomFetch: Foundation, and its DispatchSemaphores), and it starts from
// main.swift's fetcher branch, which calls `elbowroom_start_dispatch` first.
//
// The release link wraps the constructor's symbol (`--wrap=_libdispatch_init`, Package.swift,
// with lld): the .init_array entry then calls `__wrap__libdispatch_init` below, which only notes
// that it was called, and `__real__libdispatch_init` is libdispatch's own. .ci/run checks that
// no .init_array entry of the release program points at libdispatch's. Where libdispatch is a
// shared library or the link does not wrap that entry (debug builds, the tests, macOS, a linker
// that wraps only references from other objects), libdispatch's constructor runs as usual, the
// wrapper is never called, and `elbowroom_start_dispatch` does nothing: libdispatch is never
// started twice.
//
// Whatever in this program comes to use libdispatch (Foundation, DispatchSemaphore, Swift
// concurrency) must call `elbowroom_start_dispatch` before it, from the main thread: a queue
// used before it would have no threads to run on.
#include "csystem.h"
#include <pthread.h>
#include <stddef.h>

extern void __real__libdispatch_init(void) __attribute__((weak));

/// Set by the wrapper, which runs in the constructor's place: libdispatch is not started yet.
static int deferred;

void __wrap__libdispatch_init(void) {
    deferred = 1;
}

static pthread_once_t dispatchStarted = PTHREAD_ONCE_INIT;

static void startDispatch(void) {
    if (deferred && __real__libdispatch_init != NULL) {
        __real__libdispatch_init();
    }
}

void elbowroom_start_dispatch(void) {
    pthread_once(&dispatchStarted, startDispatch);
}
