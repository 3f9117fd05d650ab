// The only door to libseccomp: the system-call filter a decoder process puts on itself.
// Only PhotoImaging imports it.
#ifndef PHOTOFS_CSECCOMP_SHIM_H
#define PHOTOFS_CSECCOMP_SHIM_H
#include <fcntl.h>
#include <seccomp.h>

// SCMP_ACT_ERRNO is a macro Swift cannot import.
static inline uint32_t photofs_seccomp_fail_with(uint16_t code) { return SCMP_ACT_ERRNO(code); }

// clone(2)'s CLONE_THREAD flag (linux/sched.h), which glibc shows only under _GNU_SOURCE.
static inline uint64_t photofs_clone_thread_flag(void) { return 0x00010000ULL; }
// open(2) flag bits the filter compares: the access mode and its write values, O_CREAT, O_TRUNC.
static inline uint64_t photofs_open_access_mask(void) { return O_ACCMODE; }
static inline uint64_t photofs_open_write_only(void) { return O_WRONLY; }
static inline uint64_t photofs_open_read_write(void) { return O_RDWR; }
static inline uint64_t photofs_open_create(void) { return O_CREAT; }
static inline uint64_t photofs_open_truncate(void) { return O_TRUNC; }
#endif
