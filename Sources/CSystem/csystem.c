#define _GNU_SOURCE  /* posix_spawn_file_actions_addclosefrom_np */
#include "csystem.h"
#include <spawn.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/fsuid.h>
#endif

int elbowroom_set_not_dumpable(void) {
#ifdef __linux__
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#else
    return -1;
#endif
}

int elbowroom_setfsuid(unsigned int uid) {
#ifdef __linux__
    return setfsuid(uid);
#else
    (void)uid;
    return -1;
#endif
}

int elbowroom_setfsgid(unsigned int gid) {
#ifdef __linux__
    return setfsgid(gid);
#else
    (void)gid;
    return -1;
#endif
}

int elbowroom_set_child_subreaper(void) {
#ifdef __linux__
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    return -1;
#endif
}

int elbowroom_spawn_close_from(void *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return -1;
#endif
}
