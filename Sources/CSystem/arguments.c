// Render path: every prompt runs code in this file; the rules are in docs/performance.md.
//
// The program's arguments, handed to the Swift runtime by the C library instead of found by it.
//
// On Linux the Swift runtime has no main(argc, argv) to take them from: its CommandLine.cpp has a
// static constructor that opens /proc/self/maps, parses every line with sscanf to find the stack,
// and walks back from `environ` to argv: about 53 k instructions, an eighth of a render, before
// main. glibc calls every constructor with (argc, argv, envp) (static and dynamic programs
// alike), so this one keeps them, and `_swift_stdlib_getUnsafeArgvArgc` below, the one function
// through which the standard library's `CommandLine` asks, answers with them.
//
// In the static release program that definition replaces the runtime's: the linker takes an
// archive member only for a symbol nothing defined yet, and CommandLine.cpp.o (in
// libswiftCore.a) defines nothing else anyone uses, so it, its constructor and its scan are not
// linked at all (.ci/run checks that its `argvGrabber` is absent). Where the runtime is a shared
// library (debug builds, the tests) the runtime calls its own copy, which is not exported, and
// this one is unused: the arguments are the same either way (ArgumentsProbeTests holds a static
// program's CommandLine.arguments equal to the argv it was started with).
#include "csystem.h"
#include <stddef.h>

static char **startArgv;
static int startArgc;
// Until the constructor has run (nothing in this program asks before main): no arguments, as
// the runtime answers when it cannot find them.
static char *noArguments[] = { NULL };

__attribute__((constructor(101), used))
static void elbowroom_keep_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (argv != NULL && argc >= 0) {
        startArgv = argv;
        startArgc = argc;
    }
}

char **elbowroom_start_arguments(int *count) {
    if (startArgv == NULL) {
        *count = 0;
        return noArguments;
    }
    *count = startArgc;
    return startArgv;
}

#if defined(__linux__) && __has_attribute(swiftcall)
// The standard library's view of argc and argv (its `CommandLine.unsafeArgv` and `arguments`);
// called with Swift's calling convention. The runtime's version also honours an override set by
// `_swift_stdlib_overrideUnsafeArgvArgc` (for the interpreter, which loads programs with dlopen):
// kept here too, so that replacing the runtime's file changes nothing else.
static char **overrideArgv;
static int overrideArgc;

__attribute__((swiftcall, used))
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    overrideArgv = argv;
    overrideArgc = argc;
}

__attribute__((swiftcall, used))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (overrideArgv != NULL) {
        *outArgLen = overrideArgc;
        return overrideArgv;
    }
    return elbowroom_start_arguments(outArgLen);
}
#endif
