import CSeccomp
import SystemKit

// What a decoder process may no longer do once it serves requests, enforced by the kernel
// (seccomp, with no_new_privs so that nothing it starts could regain a privilege): start
// programs or processes, open network sockets, trace or signal other processes, or change
// any file (open for writing, create, remove, rename, chmod, truncate, set times or
// attributes). A hostile file that takes over a decoder library can still read what the
// user can read, and answer on its socket; it cannot write, exfiltrate over a new socket or
// run anything. Threads (clone with CLONE_THREAD) stay allowed: libheif and libjxl decode
// on several. A refused call fails with EPERM rather than killing the process, so a
// library that merely probes fails politely.

/// Confines the decoder process it runs in.
public enum DecoderSandbox {
    /// System calls refused outright.
    static let refused = [
        "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev", "kill", "tkill",
        "socket", "connect", "bind", "listen", "accept", "accept4",
        "creat", "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "link", "linkat", "symlink",
        "symlinkat", "chmod", "fchmod", "fchmodat", "chown", "fchown", "fchownat", "lchown", "truncate", "ftruncate", "mknod",
        "mknodat", "utime", "utimes", "utimensat", "futimesat", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr",
        "fremovexattr", "name_to_handle_at", "open_by_handle_at",
        "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "personality", "io_uring_setup", "bpf", "userfaultfd",
        "perf_event_open", "keyctl", "add_key", "request_key", "init_module", "finit_module", "delete_module", "kexec_load",
        "reboot", "swapon", "swapoff", "sethostname", "setdomainname", "acct",
    ]

    /// Installs the filter on this process (and the threads it starts later); throws when
    /// the kernel or libseccomp refuses, and the caller then must not decode.
    public static func confine() throws(ImagingError) {
        guard let filter = seccomp_init(SCMP_ACT_ALLOW) else { throw .workerUnavailable("seccomp: cannot start a filter") }
        defer { seccomp_release(filter) }
        let refuse = photofs_seccomp_fail_with(UInt16(Errno.notPermitted.rawValue))
        for name in refused {
            let number = seccomp_syscall_resolve_name(name)
            // A call this architecture does not have needs no rule.
            guard number >= 0 else { continue }
            guard seccomp_rule_add_array(filter, refuse, number, 0, nil) == 0 else { throw .workerUnavailable("seccomp: rule for \(name)") }
        }
        // Opening for writing, creating or truncating: refused whatever the path.
        let writes: [(mask: UInt64, value: UInt64)] = [
            (photofs_open_access_mask(), photofs_open_write_only()), (photofs_open_access_mask(), photofs_open_read_write()),
            (photofs_open_create(), photofs_open_create()), (photofs_open_truncate(), photofs_open_truncate()),
        ]
        for (name, argument) in [("open", UInt32(1)), ("openat", UInt32(2))] {
            let number = seccomp_syscall_resolve_name(name)
            guard number >= 0 else { continue }
            for write in writes {
                var comparison = scmp_arg_cmp(arg: argument, op: SCMP_CMP_MASKED_EQ, datum_a: write.mask, datum_b: write.value)
                guard seccomp_rule_add_array(filter, refuse, number, 1, &comparison) == 0 else {
                    throw .workerUnavailable("seccomp: rule for \(name)")
                }
            }
        }
        // openat2 takes its flags in a structure a filter cannot read; clone3 too. glibc
        // falls back to openat and clone when told the calls do not exist.
        for name in ["openat2", "clone3"] {
            let number = seccomp_syscall_resolve_name(name)
            guard number >= 0 else { continue }
            guard seccomp_rule_add_array(filter, photofs_seccomp_fail_with(UInt16(Errno.noFunction.rawValue)), number, 0, nil) == 0 else {
                throw .workerUnavailable("seccomp: rule for \(name)")
            }
        }
        // A clone without CLONE_THREAD is a new process.
        let clone = seccomp_syscall_resolve_name("clone")
        if clone >= 0 {
            var comparison = scmp_arg_cmp(arg: 0, op: SCMP_CMP_MASKED_EQ, datum_a: photofs_clone_thread_flag(), datum_b: 0)
            guard seccomp_rule_add_array(filter, refuse, clone, 1, &comparison) == 0 else {
                throw .workerUnavailable("seccomp: rule for clone")
            }
        }
        let status = seccomp_load(filter)
        guard status == 0 else { throw .workerUnavailable("seccomp: the kernel refused the filter (\(-status))") }
    }
}
