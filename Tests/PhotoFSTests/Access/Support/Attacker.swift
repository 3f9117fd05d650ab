/// The program a confined app runs in the attack test: inside bubblewrap it sees the mount
/// only as `/app` (a bind mount of `apps/<app>`), and tries everything it can think of to
/// reach anything else. It reads its plan (names, ids, paths and inode numbers the owner
/// collected) from `/attack/plan.json` and prints one JSON object: attempts, successes
/// (with the first few described), and what the kernel answered to file handles.
///
/// Python, because the sandbox needs a small program that runs without the test's own
/// binary or a Swift runtime inside it; the test only reads its verdict.
enum Attacker {
    static let script = #"""
    import ctypes, errno, json, os, sys, threading, time

    plan = json.load(open("/attack/plan.json"))
    granted = plan["granted"]            # names in /app the app may open
    forbidden_names = plan["names"]      # every other file name, id, suffixed name
    library_paths = plan["paths"]        # library-relative paths of every asset
    owner_paths = plan["ownerPaths"]     # mount-relative paths the owner looked up
    inodes = plan["inodes"]              # inode numbers of nodes the app must not reach
    hammer_names = plan["hammer"]
    hammer_seconds = plan["hammerSeconds"]

    attempts = 0
    successes = []
    categories = {}
    lock = threading.Lock()

    def record(category, what, ok):
        global attempts
        with lock:
            attempts += 1
            categories[category] = categories.get(category, 0) + 1
            if ok:
                successes.append(category + ": " + what)

    def try_stat(category, path, dir_fd=None):
        try:
            os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
            ok = True
        except OSError:
            ok = False
        record(category, "stat " + path, ok)

    def try_open(category, path, flags=os.O_RDONLY, dir_fd=None):
        try:
            fd = os.open(path, flags, dir_fd=dir_fd)
            try:
                if flags & os.O_ACCMODE == os.O_RDONLY and not os.path.isdir("/proc/self/fd/%d" % fd):
                    os.read(fd, 16)
            except OSError:
                pass
            os.close(fd)
            ok = True
        except OSError:
            ok = False
        record(category, "open %s flags %d" % (path, flags), ok)

    def try_list(category, path):
        try:
            os.listdir(path)
            ok = True
        except OSError:
            ok = False
        record(category, "listdir " + path, ok)

    # Positive control: the granted files are there and readable, the listing is exactly them.
    control = {"listing": sorted(os.listdir("/app")), "readable": 0}
    for name in granted:
        with open("/app/" + name, "rb") as f:
            if len(f.read()) > 0:
                control["readable"] += 1
    attempts += 1
    categories["listing"] = 1
    if sorted(control["listing"]) != sorted(granted):
        successes.append("listing: /app lists %r" % control["listing"])

    # 1. Names of real files, ids and suffixed names, directly and through subfolders.
    for name in forbidden_names:
        try_stat("names", "/app/" + name)
        try_open("names", "/app/" + name)
    for path in library_paths:
        try_stat("library paths", "/app/" + path)
        try_open("library paths", "/app/" + path)

    # 2. Dot-dot paths toward library/, .picker and other views, from /app and from a granted file.
    ups = ["/app/..", "/app/../..", "/app/./..", "/app/" + granted[0] + "/..", "/app/" + granted[0] + "/../.."]
    for up in ups:
        for rel in owner_paths:
            try_stat("dot-dot", up + "/" + rel)
        try_open("dot-dot", up + "/.picker")
        try_open("dot-dot", up + "/.picker", os.O_WRONLY)
        try_list("dot-dot", up + "/library")
        try_list("dot-dot", up + "/apps")

    # 3. .picker through relative paths from inside the view.
    os.chdir("/app")
    for rel in [".picker", "./.picker", "../.picker", "../../.picker", "../../../.picker", ".././../.picker",
                granted[0] + "/../.picker", "../app/../.picker", "../apps/../.picker"]:
        try_stat("picker", rel)
        try_open("picker", rel)
        try_open("picker", rel, os.O_WRONLY)
        try_open("picker", rel, os.O_RDWR | os.O_TRUNC)

    # 4. /proc/self/fd and /proc/self/cwd tricks from descriptors the app legitimately holds.
    file_fd = os.open("/app/" + granted[0], os.O_RDONLY)
    dir_fd = os.open("/app", os.O_RDONLY | os.O_DIRECTORY)
    targets = [".picker", "library", "library/all", "apps"] + owner_paths[:200]
    for base in ["/proc/self/fd/%d/.." % file_fd, "/proc/self/fd/%d/../.." % file_fd,
                 "/proc/self/fd/%d/.." % dir_fd, "/proc/self/fd/%d/../.." % dir_fd, "/proc/self/cwd/..",
                 "/proc/%d/root/app/.." % os.getpid(), "/proc/self/fd/%d" % dir_fd]:
        for rel in targets:
            try_stat("proc fd", base + "/" + rel)
        try_open("proc fd", base + "/.picker")
        try_open("proc fd", base + "/.picker", os.O_WRONLY)
    for rel in ["../.picker", "../library", "../library/all", "../apps", "../../.picker"] + ["../" + p for p in owner_paths[:100]]:
        try_stat("openat", rel, dir_fd=dir_fd)
        try_open("openat", rel, dir_fd=dir_fd)
    for name in forbidden_names[:200]:
        try_open("openat", name, dir_fd=dir_fd)

    # 5. File handles: a real one for a granted file, then forged ones for every inode the
    #    owner saw (FUSE encodes the node id in two 32-bit halves plus a generation).
    libc = ctypes.CDLL(None, use_errno=True)
    class FileHandle(ctypes.Structure):
        _fields_ = [("handle_bytes", ctypes.c_uint), ("handle_type", ctypes.c_int), ("f_handle", ctypes.c_ubyte * 128)]
    handle = FileHandle()
    handle.handle_bytes = 128
    mount_id = ctypes.c_int()
    made = libc.name_to_handle_at(-100, ("/app/" + granted[0]).encode(), ctypes.byref(handle), ctypes.byref(mount_id), 0)
    handles = {"name_to_handle_at": 0 if made == 0 else ctypes.get_errno(), "type": handle.handle_type, "bytes": handle.handle_bytes,
               "own_handle_open": None, "forged": {}}
    if made == 0:
        fd = libc.open_by_handle_at(dir_fd, ctypes.byref(handle), os.O_RDONLY)
        handles["own_handle_open"] = 0 if fd >= 0 else ctypes.get_errno()
        if fd >= 0:
            os.close(fd)
        for inode in inodes:
            forged = FileHandle()
            forged.handle_bytes = handle.handle_bytes
            forged.handle_type = handle.handle_type
            raw = ((inode >> 32) & 0xFFFFFFFF).to_bytes(4, "little") + (inode & 0xFFFFFFFF).to_bytes(4, "little") + bytes(handle.handle_bytes - 8)
            for i, b in enumerate(raw[:handle.handle_bytes]):
                forged.f_handle[i] = b
            for flags in [os.O_RDONLY, os.O_RDONLY | os.O_PATH]:
                fd = libc.open_by_handle_at(dir_fd, ctypes.byref(forged), flags)
                code = 0 if fd >= 0 else ctypes.get_errno()
                handles["forged"][errno.errorcode.get(code, str(code))] = handles["forged"].get(errno.errorcode.get(code, str(code)), 0) + 1
                if fd >= 0:
                    os.close(fd)
                record("handles", "open_by_handle_at inode %d" % inode, fd >= 0)
    else:
        for inode in inodes:
            record("handles", "name_to_handle_at refused", False)
    os.close(file_fd)

    # 6. Hammer non-granted names from several threads while the owner selects and deselects.
    print("hammering", file=sys.stderr, flush=True)
    sys.stdout.write("")
    stop = time.time() + hammer_seconds
    def hammer(offset):
        i = offset
        while time.time() < stop:
            name = hammer_names[i % len(hammer_names)]
            try_stat("race", "/app/" + name)
            try_open("race", "/app/" + name)
            if i % 50 == 0:
                listing = sorted(os.listdir("/app"))
                record("race", "listdir /app", any(n in hammer_names for n in listing))
            i += 1
    threads = [threading.Thread(target=hammer, args=(k * 7,)) for k in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    os.close(dir_fd)

    print(json.dumps({"attempts": attempts, "successCount": len(successes), "successes": successes[:20],
                      "categories": categories, "handles": handles, "control": control}))
    """#
}
