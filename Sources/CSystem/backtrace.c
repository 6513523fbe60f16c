// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
//
// The Swift runtime's crash backtracer, told before it starts that this program has none.
//
// Before main, the runtime's Backtrace.cpp constructor looks for its helper program,
// swift-backtrace, beside the executable: it reads /proc/self/exe and stats eight places
// (libexec/swift/linux, bin, …), then asks whether stdout is a terminal, twice: eleven system
// calls, ~12 µs of every start here, 1.5 % of a render. A static elbowroom never finds it (the
// tarball, the .deb and .build/release carry no swift-backtrace), so a crash prints the runtime's
// one-line message either way, and every start paid for the search.
//
// This constructor runs first (priority 101, as arguments.c's; the runtime's have none) and,
// unless the user set SWIFT_BACKTRACE themselves, sets it to say so: off, no terminal questions,
// and a helper path that ends the search. `elbowroom_restore_environment`, the first thing
// main.swift does, takes the variable away again, so that nothing started from this program
// (the fetcher, a plugin, the user's status line) inherits it, and the environment elbowroom
// reads is the one it was given. Where the runtime is a shared library (debug builds, the
// tests) its constructor has run before this one: this one sees a dynamic program (`_DYNAMIC`)
// and does nothing, so a test runner's environment, and what it starts, is left as it was.
//
// To see a crash's backtrace, set SWIFT_BACKTRACE (e.g. `enable=yes,swift-backtrace=PATH`, with
// the toolchain's swift-backtrace): it is left as it is.
#include "csystem.h"
#include <stdlib.h>

static const char settingName[] = "SWIFT_BACKTRACE";
static int settingIsOurs;

// The dynamic section: there only in a dynamically linked program (lld defines it then).
extern const char _DYNAMIC[] __attribute__((weak));

__attribute__((constructor(101), used))
static void elbowroom_backtracer_off(void) {
    if (_DYNAMIC == NULL && getenv(settingName) == NULL
        && setenv(settingName, "enable=no,interactive=no,color=no,swift-backtrace=/nonexistent", 0) == 0) {
        settingIsOurs = 1;
    }
}

void elbowroom_restore_environment(void) {
    if (settingIsOurs) {
        unsetenv(settingName);
        settingIsOurs = 0;
    }
}
