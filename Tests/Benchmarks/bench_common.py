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


def start_photofs(photofs, catalog, library, mountpoint, extra=()):
    """`photofs mount -f` (with `extra` options) and a readiness pipe; returns the process
    once the mount is ready."""
    r, w = os.pipe()
    proc = subprocess.Popen([photofs, "mount", "-f", "--ready-fd", str(w), "--catalog", catalog] + list(extra)
                            + [library, mountpoint],
                            pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    ready = os.read(r, 100)
    os.close(r)
    if not ready:
        raise SystemExit("photofs did not become ready")
    return proc


def pages_per_folio(path, evict=False):
    """How the kernel caches `path`: the mean number of 4 KiB pages per page-cache folio
    over the file's first 64 MiB, read through a shared mapping, /proc/self/pagemap and
    /proc/kpageflags (root only; None otherwise). `evict` drops the file's cached pages
    first, so that they are cached afresh by this read (folios keep the size they were
    made with). A repeated read is a copy out of these
    folios, and copying out of 4 KiB folios costs far more per byte than out of large ones."""
    import ctypes, mmap, struct
    page = mmap.PAGESIZE
    fd = os.open(path, os.O_RDONLY)
    try:
        size = min(os.fstat(fd).st_size, 64 << 20) // page * page
        if size == 0:
            return None
        if evict:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        while os.read(fd, 1 << 20):  # cache it the way the benchmark's reads do
            pass
        # Private and writable only so ctypes can take its address; nothing is written.
        view = mmap.mmap(fd, size, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        try:
            for offset in range(0, size, page):
                view[offset]  # fault every page in
            # The mapping's address (Python exposes it only through ctypes).
            holder = (ctypes.c_ubyte * 1).from_buffer(view)
            start = ctypes.addressof(holder)
            del holder
            heads = members = 0
            with open("/proc/self/pagemap", "rb") as pagemap, open("/proc/kpageflags", "rb") as flags:
                for offset in range(0, size, page):
                    pagemap.seek((start + offset) // page * 8)
                    entry = struct.unpack("Q", pagemap.read(8))[0]
                    if not entry >> 63 & 1:
                        continue
                    frame = entry & ((1 << 55) - 1)
                    if frame == 0:
                        return None  # frame numbers are hidden from this user
                    flags.seek(frame * 8)
                    bits = struct.unpack("Q", flags.read(8))[0]
                    members += 1
                    if not bits >> 16 & 1:  # not a tail page: a folio starts here
                        heads += 1
            return members / heads if heads else None
        finally:
            view.close()
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
