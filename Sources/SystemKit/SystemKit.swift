// SystemKit: the one door to the C library (Glibc) and the kernel for the rest of
// photofs. Other modules see typed values and `Errno`, never `errno`, a C struct or a
// raw flag; nothing of Glibc is re-exported.
//
// Supports what the code calls: descriptors (open, openat, dup, pread, read, write,
// fstat, fadvise, mmap), sockets of a socket pair (send, recv, poll, shutdown), child
// processes (posix_spawn, kill, waitpid), paths (mkdir, rename, unlink, utimensat,
// realpath, access, readdir, readlink, chmod, mkdtemp, statvfs), a directory stream read
// in place (fdopendir, readdir, fstatat), inotify, small /proc files, local sockets bound
// to a path (socket, bind, listen, accept, connect, SO_PEERCRED), pipes, dup2, flock,
// several descriptors at once (poll), the terminal (isatty, TIOCGWINSZ, termios), signal
// dispositions, the end signals (sigmask, pthread_kill), syslog, getpwuid, becoming
// another user and exec, gmtime and strftime, the monotonic and wall clocks, mktime,
// memcpy, memcmp, strlen, the page size, cos, per-thread slots (pthread keys), thread
// priority; one opener of library files (`SourceOpener`, through `CSystem`'s openat2
// helper); malloc_trim.
// Every call that can be interrupted by a signal goes through `Syscall.retrying`.
//
// The one C struct that crosses is `stat`, and only inward: `FileStatus.init(_:)` takes
// what `stat`, `fstat` or `fstatat` filled, for callers (the FUSE adapter) that hold one.
// FuseKit keeps the C types of FUSE replies (`stat`, `statvfs`, `timespec`), which come
// through its own door, `CFuse`.
