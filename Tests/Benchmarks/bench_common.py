"""Helpers shared by the Python benchmarks (read_bench.py, redaction_bench.py): running a
command, reading files whole, and starting photofs in the foreground until it is ready."""
import os, subprocess


def sh(*args, **kw):
    return subprocess.run(args, check=True, **kw)


def cat_all(paths):
    """Reads every file to the end in 1 MiB reads; returns the bytes read."""
    total = 0
    buf = bytearray(1 << 20)
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        try:
            while True:
                n = os.readv(fd, [buf])
                if n <= 0:
                    break
                total += n
        finally:
            os.close(fd)
    return total


def start_photofs(photofs, catalog, library, mountpoint):
    """`photofs mount -f` with a readiness pipe; returns the process once the mount is ready."""
    r, w = os.pipe()
    proc = subprocess.Popen([photofs, "mount", "-f", "--ready-fd", str(w), "--catalog", catalog, library, mountpoint],
                            pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    ready = os.read(r, 100)
    os.close(r)
    if not ready:
        raise SystemExit("photofs did not become ready")
    return proc
