// The door to what the C library and the kernel offer that Swift cannot call as it is:
// variadic calls (syscall(2)) and calls glibc has no wrapper for. Only SystemKit imports
// this module. It supports Linux 5.6 or later for openat2 and falls back (ENOSYS) before.
#ifndef PHOTOFS_CSYSTEM_SHIM_H
#define PHOTOFS_CSYSTEM_SHIM_H
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <unistd.h>

// Hands memory that free() kept back to the system (Swift cannot see malloc_trim).
static inline void photofs_release_freed_memory(void) { malloc_trim(0); }

// Opens `path` relative to `dirfd` with `flags`, resolving it only below `dirfd` and
// through no symbolic link at any component (openat2 with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS). glibc 2.36 has no openat2 wrapper and Swift cannot call the
// variadic syscall(2). Returns -1 with errno ENOSYS on kernels before 5.6.
static inline int photofs_open_beneath(int dirfd, const char *path, int flags) {
    struct open_how how = {0};
    how.flags = (unsigned long long)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}
#endif
