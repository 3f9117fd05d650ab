#!/usr/bin/env bash
# Soak test of a mounted library, run by hand (not by 'swift test'), bounded in time:
#
#   Tests/Soak/soak.sh                 10 minutes
#   DURATION=120 Tests/Soak/soak.sh    2 minutes
#
# In rounds of ROUND seconds (default 60), against one generated library mounted with
# --allow-other (as root; without root the bound-uid parts are skipped):
#   - 8 writers run the photofs CLI: each selects its app's whole set, clears it, or sends
#     a refused request with a token of its own (whose reason it must get back);
#   - 8 readers read .picker in 4 KiB steps and check every reading is one whole state;
#   - 8 raw writers write .picker directly, at random offsets (pwrite, O_APPEND), texts of
#     one to four pages that are either good throughout or go bad on their last line: each
#     must be applied whole or not at all (a partial commit is counted);
#   - 4 apps write requests to their .request and wait in read(2) while a picker answers
#     them over the daemon channel and a prober stats the request files: a read, stat or
#     answer that takes more than 5 s (or never ends) is a hung process;
#   - a confined app in bubblewrap (only apps/confined bound) and a bound uid (setpriv)
#     try to reach names, ids, .picker, library/ and other apps, right after the owner
#     listed everything; every success is a leak;
#   - the library changes (photos copied in and deleted) and the grants change (writers);
#   - each round ends with kill -9 of the daemon (writers still running), a remount, and a
#     check that every acknowledged grant is there (an app's selection is its last
#     acknowledged state or the one in flight at the kill) and a fixed app kept its grants.
# Prints the counts and exits 1 unless leaks, lost grants, torn reads, partial commits,
# hung processes and misattributed reasons are all 0. Needs python3, bwrap, fusermount3; the photofs binary is
# $PHOTOFS_BIN, else .build/release/photofs, else .build/debug/photofs.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-600}
ROUND=${ROUND:-60}
BIN=${PHOTOFS_BIN:-}
if [ -z "$BIN" ]; then
    if [ -x .build/release/photofs ]; then BIN=$PWD/.build/release/photofs; else BIN=$PWD/.build/debug/photofs; fi
fi
[ -x "$BIN" ] || { echo "soak: no photofs binary at $BIN (swift build first)" >&2; exit 3; }
for tool in python3 bwrap fusermount3; do
    command -v "$tool" >/dev/null || { echo "soak: $tool is missing" >&2; exit 3; }
done
WORK=$(mktemp -d /tmp/photofs-soak.XXXXXX)
chmod 711 "$WORK"
USER_NAME=""
cleanup() {
    fusermount3 -u -z "$WORK/mnt" 2>/dev/null || true
    [ -n "$USER_NAME" ] && userdel "$USER_NAME" 2>/dev/null || true
    rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT
if [ "$(id -u)" = 0 ]; then
    USER_NAME=pfsoak$RANDOM
    useradd --system --no-create-home --user-group --shell /usr/sbin/nologin "$USER_NAME"
fi
"$BIN" generate --count 300 --seed 7 "$WORK/library" >/dev/null
mkdir -p "$WORK/mnt" "$WORK/data"
chmod 700 "$WORK/data"
"$BIN" index --quiet --catalog "$WORK/data/catalog.sqlite" "$WORK/library"
python3 - "$BIN" "$WORK" "$DURATION" "$ROUND" "$USER_NAME" <<'PY'
import base64, hashlib, json, os, pwd, random, re, shutil, signal, socket, subprocess, sys, threading, time

BIN, WORK, DURATION, ROUND, USER = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
LIB, MNT, CAT = WORK + "/library", WORK + "/mnt", WORK + "/data/catalog.sqlite"
PICKER = MNT + "/.picker"
counts = {k: 0 for k in ["rounds", "calls", "refused", "misattributed", "failedValid", "reads", "torn",
                         "attempts", "leaks", "lostGrants", "libraryChanges", "kills", "rawWrites", "rawRefused",
                         "partialCommits", "requests", "answered", "probes", "hung", "slowestProbeMs"]}
examples = []
lock = threading.Lock()

def note(key, n=1, example=None):
    with lock:
        counts[key] += n
        if example and len(examples) < 20:
            examples.append(example)

def photofs(*args, check=True):
    done = subprocess.run([BIN] + list(args) + ["--catalog", CAT], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise SystemExit("soak: photofs %s failed: %s" % (" ".join(args), done.stderr))
    return done

assets = json.loads(photofs("ls", "--json").stdout)
by_name = {}
for a in assets:
    by_name.setdefault(a["path"].split("/")[-1], []).append(a)
unique = [a for a in assets if len(by_name[a["path"].split("/")[-1]]) == 1]
apps = {"w%d" % i: [a["id"] for a in assets[i * 20:i * 20 + 30]] for i in range(8)}
raw_apps = {"r%d" % i: [a["id"] for a in assets[160 + i * 5:160 + i * 5 + 40]] for i in range(8)}
ask_apps = ["q%d" % i for i in range(4)]
keeper = [a["id"] for a in unique[200:210]]
confined = unique[210:213]
bound = unique[213:216]
uid = pwd.getpwnam(USER).pw_uid if USER else None
gid = pwd.getpwnam(USER).pw_gid if USER else None
killing = threading.Event()
setup = "".join("app add %s\n" % n for n in list(apps) + list(raw_apps) + ask_apps) + "app add keeper\napp add confined\n"
setup += "select keeper %s\nselect confined %s\n" % (" ".join(keeper), " ".join(a["id"] for a in confined))
if uid is not None:
    setup += "app add bound --uid %d\nselect bound %s\n" % (uid, " ".join(a["id"] for a in bound))

def mount():
    args = [BIN, "mount", "--quiet", "--catalog", CAT] + (["--allow-other"] if uid is not None else []) + [LIB, MNT]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit("soak: mount failed: " + done.stderr)

def daemon_pid():
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = open("/proc/%s/cmdline" % pid, "rb").read().split(b"\0")
            except OSError:
                continue
            if cmd and cmd[0].endswith(b"photofs") and b"mount" in cmd and MNT.encode() in cmd:
                return int(pid)
    return None

def selection(app):
    fd = os.open(PICKER, os.O_RDONLY)
    text = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        text += chunk
    os.close(fd)
    return [l.split()[2] for l in text.decode("utf-8", "replace").split("\n") if l.startswith("select %s " % app)]

header = re.compile(r"^# (\S+): (\d+) selected, (\d+) visible$")
def consistent(text):
    if not text.endswith("\n"):
        return "no final newline"
    lines = text.split("\n")[:-1]
    if not lines or not lines[0].startswith("# photofs picker:"):
        return "bad first line"
    m = re.match(r"^# (\d+) apps?$", lines[1]) if len(lines) > 1 else None
    if not m:
        return "bad count line"
    declared, current, seen, adds = int(m.group(1)), None, {}, 0
    for line in lines[2:]:
        h = header.match(line)
        if h:
            current = h.group(1)
            seen[current] = [int(h.group(2)), 0]
        elif line.startswith("app add "):
            adds += 1
        elif line.startswith("select ") or line.startswith("# select "):
            words = line.lstrip("# ").split()
            if current is None or words[1] != current:
                return "stray line %r" % line
            seen[current][1] += 1
        elif line != "":
            return "unknown line %r" % line
    if adds != declared or len(seen) != declared:
        return "%d apps declared, %d app lines" % (declared, adds)
    for name, (said, listed) in seen.items():
        if said != listed or (name in apps and listed not in (0, len(apps[name]))) or (
                name in raw_apps and listed not in (0, len(raw_apps[name]))):
            return "%s: header says %d, %d lines" % (name, said, listed)
    return None

acked = {n: "empty" for n in apps}
pending = {n: None for n in apps}

def writer(name, stop):
    k = 0
    while not stop.is_set():
        k += 1
        if k % 3 == 0:
            token = "bogus_%s_%d_%d" % (name, counts["rounds"], k)
            done = photofs("select", name, token, check=False)
            if killing.is_set():
                return
            note("calls"); note("refused")
            if done.returncode != 4 or ("'%s'" % token) not in done.stderr:
                note("misattributed", example="%s got %d: %s" % (token, done.returncode, done.stderr.strip()))
            continue
        state = "full" if k % 3 == 1 else "empty"
        pending[name] = state
        done = photofs(*(["select", name] + apps[name] if state == "full" else ["clear", name]), check=False)
        note("calls")
        if done.returncode == 0:
            acked[name] = state
            pending[name] = None
        elif killing.is_set():
            return  # the daemon was killed under this call: its outcome is unknown (pending stays)
        else:
            note("failedValid", example="%s %s failed %d: %s" % (name, state, done.returncode, done.stderr.strip()))

def reader(stop):
    while not stop.is_set():
        try:
            fd = os.open(PICKER, os.O_RDONLY)
            chunks = []
            while True:
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                chunks.append(chunk)
            os.close(fd)
        except OSError:
            continue  # the mount is being killed
        text = b"".join(chunks).decode("utf-8", "replace")
        note("reads")
        problem = consistent(text)
        if problem:
            note("torn", example="torn read (%d bytes): %s" % (len(text), problem))

def raw_writer(name, stop):
    # Writes .picker itself: a text of 1-4 pages at a random offset that selects the app's
    # whole set (or clears it), padded with comments; every other one goes bad on its last
    # line. The app's selection must then be all or nothing, as this writer alone changes it.
    state = "empty"
    k = 0
    while not stop.is_set():
        k += 1
        want = "full" if state == "empty" else "empty"
        lines = ["clear %s" % name] if want == "empty" else ["select %s %s" % (name, i) for i in raw_apps[name]]
        text = "\n".join(lines) + "\n"
        pages = random.randint(1, 4)
        while len(text) < pages * 4096 - 200:
            text += "# padding to cross pages %d\n" % k
        bad = k % 2 == 0
        if bad:
            text += "frobnicate %s\n" % name
        offset = random.randint(0, 9000)
        fd = None
        try:
            fd = os.open(PICKER, os.O_WRONLY | (os.O_APPEND if k % 3 == 0 else 0))
            if k % 3 == 0:
                written = os.write(fd, text.encode())
            else:
                written = os.pwrite(fd, text.encode(), offset)
            ok = written == len(text.encode())
        except OSError:
            ok = False
        finally:
            # Only a descriptor this call opened: a stale number may be another thread's now.
            if fd is not None:
                os.close(fd)
        if killing.is_set():
            return
        try:
            got = len(selection(name))
        except OSError:
            return  # the daemon is being killed
        if killing.is_set():
            return
        note("rawWrites")
        now = "full" if got == len(raw_apps[name]) else ("empty" if got == 0 else "partial %d" % got)
        if bad:
            note("rawRefused")
            if ok or now != state:
                note("partialCommits", example="%s: a bad text (%d bytes) was %s, selection now %s (was %s)" % (
                    name, len(text), "accepted" if ok else "refused", now, state))
        elif ok and now == want:
            state = want
        else:
            note("partialCommits", example="%s: a good text (%d bytes, %s) left %s" % (name, len(text), ok, now))
            state = now if now in ("full", "empty") else state

def channel(call):
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = runtime + "/photofs" if runtime and runtime.startswith("/") else (
        "/run/photofs" if os.getuid() == 0 else "/tmp/photofs-%d" % os.getuid())
    path = base + "/picker-" + hashlib.sha256(os.path.realpath(MNT).encode()).hexdigest()[:16] + ".sock"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    s.sendall(json.dumps(call).encode())
    s.shutdown(socket.SHUT_WR)
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return json.loads(data)

def timed(what, f, limit=5.0):
    # A process that waits on something outside the daemon (a person) waits many seconds:
    # over `limit` is a hang; the slowest probe is reported besides (a loaded machine is slow).
    started = time.time()
    result = f()
    took = time.time() - started
    with lock:
        counts["slowestProbeMs"] = max(counts["slowestProbeMs"], int(took * 1000))
    if took > limit:
        note("hung", example="%s took %.1f s" % (what, took))
    return result

def asker(name, stop):
    # An app asks for photos and waits in read(2); the answer must come within its request's life.
    request = MNT + "/apps/%s/.request" % name
    while not stop.is_set():
        try:
            with open(request, "w") as f:
                f.write("limit=2 timeout=30\n")
            note("requests")
            started = time.time()
            with open(request) as f:
                answer = f.read()
            if time.time() - started > 31 and not killing.is_set():
                note("hung", example="%s waited %.1f s for its answer" % (name, time.time() - started))
            if answer.startswith("selected"):
                note("answered")
        except OSError:
            if killing.is_set():
                return
            time.sleep(0.2)

def answerer(stop):
    # The person's picker: answers each pending request over the daemon channel.
    ids = [a["id"] for a in unique[100:140]]
    while not stop.is_set():
        try:
            pending = timed("listing requests", lambda: channel({"requests": {}})).get("requests") or []
            for r in pending:
                pick = random.sample(ids, 2)
                reply = timed("answering a request", lambda: channel(
                    {"pick": {"app": r["app"], "request": r["id"], "assets": pick, "replace": True}}))
                if reply.get("errno", 0) not in (0, 2):
                    note("failedValid", example="pick for %s: %s" % (r["app"], reply))
        except (OSError, ValueError):
            if killing.is_set():
                return
        time.sleep(random.uniform(0.05, 0.5))

def prober(stop):
    while not stop.is_set():
        for name in ask_apps:
            try:
                timed("stat of %s/.request" % name, lambda: os.stat(MNT + "/apps/%s/.request" % name))
                timed("listing of apps/%s" % name, lambda: os.listdir(MNT + "/apps/%s" % name))
                note("probes")
            except OSError:
                pass
        time.sleep(0.05)

def owner_looks(stop):
    # The owner keeps every name and attribute in the kernel's caches for the attackers.
    while not stop.is_set():
        for d in ["apps", "library/all"] + ["apps/" + n for n in list(apps) + ["keeper", "confined", "bound"]]:
            try:
                for name in os.listdir(MNT + "/" + d):
                    os.stat(MNT + "/" + d + "/" + name)
            except OSError:
                pass
        time.sleep(0.2)

def churn(stop):
    originals = [LIB + "/" + a["path"] for a in assets[250:260]]
    os.makedirs(LIB + "/churn", exist_ok=True)
    made = []
    i = 0
    while not stop.is_set():
        i += 1
        path = LIB + "/churn/copy_%d_%d.jpg" % (counts["rounds"], i)
        shutil.copyfile(random.choice(originals), path)
        made.append(path)
        if len(made) > 5:
            os.unlink(made.pop(0))
        note("libraryChanges", 2 if i > 5 else 1)
        time.sleep(0.3)

ATTACK = r'''
import json, os, sys, time
plan = json.load(open(sys.argv[1]))
root, deadline = plan["root"], time.time() + plan["seconds"]
attempts, successes = 0, []
def attempt(what, f):
    global attempts
    attempts += 1
    try:
        f()
        successes.append(what)
    except OSError:
        pass
while time.time() < deadline:
    for name in plan["names"]:
        attempt("stat " + name, lambda: os.stat(root + "/" + name))
        attempt("open " + name, lambda: os.close(os.open(root + "/" + name, os.O_RDONLY)))
    for path in plan["paths"]:
        attempt("stat " + path, lambda: os.stat(path))
        attempt("read " + path, lambda: open(path, "rb").read(16))
    attempts += 1
    try:
        listing = sorted(os.listdir(root))
        if not set(listing) <= set(plan["granted"]):
            successes.append("listing %r" % listing)
    except OSError:
        pass
print(json.dumps({"attempts": attempts, "successes": successes[:10], "count": len(successes)}))
'''

def attacker(kind, seconds):
    granted = [a["path"].split("/")[-1] for a in (confined if kind == "confined" else bound)]
    others = [a for a in unique if a not in confined and a not in bound][:60]
    names = [a["path"].split("/")[-1] for a in others] + [a["id"] for a in others] + ["../.picker", "../../.picker", ".picker"]
    if kind == "confined":
        root, paths = "/app", ["/app/../library", "/app/../.picker"]
    else:
        root = MNT + "/apps/bound"
        paths = [MNT + "/.picker", MNT + "/library/all", MNT + "/apps/keeper", MNT + "/apps/w0", MNT + "/apps/confined"]
        paths += [MNT + "/library/all/" + a["path"].split("/")[-1] for a in others[:20]]
        paths += [MNT + "/apps/keeper/" + n for n in [a["path"].split("/")[-1] for a in unique[200:210]]]
    plan = {"root": root, "names": names, "paths": paths, "granted": granted, "seconds": seconds}
    d = WORK + "/attack-" + kind
    os.makedirs(d, exist_ok=True)
    os.chmod(d, 0o755)
    json.dump(plan, open(d + "/plan.json", "w"))
    open(d + "/attack.py", "w").write(ATTACK)
    for f in ["plan.json", "attack.py"]:
        os.chmod(d + "/" + f, 0o644)
    if kind == "confined":
        cmd = ["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
               "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--proc", "/proc", "--dev", "/dev",
               "--tmpfs", "/tmp", "--ro-bind", d, "/attack", "--ro-bind", MNT + "/apps/confined", "/app",
               "python3", "/attack/attack.py", "/attack/plan.json"]
    else:
        cmd = ["setpriv", "--reuid", str(uid), "--regid", str(gid), "--clear-groups", "--",
               "python3", d + "/attack.py", d + "/plan.json"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    try:
        report = json.loads(done.stdout.strip().split("\n")[-1])
    except (ValueError, IndexError):
        report = {"attempts": 0, "count": 0, "successes": []}
        if not done.stderr.count("Transport endpoint"):
            note("leaks", 0, example="%s attacker did not report: %s" % (kind, done.stderr.strip()[:200]))
    note("attempts", report["attempts"])
    if report["count"]:
        note("leaks", report["count"], example="%s: %s" % (kind, report["successes"][:3]))

def check_grants(when):
    for name in apps:
        got = len(selection(name))
        allowed = {acked[name]} | ({pending[name]} if pending[name] else set())
        state = "full" if got == len(apps[name]) else ("empty" if got == 0 else "partial %d" % got)
        if state not in allowed:
            note("lostGrants", example="%s: %s has %s, acknowledged %s" % (when, name, state, sorted(allowed)))
    if sorted(selection("keeper")) != sorted(keeper):
        note("lostGrants", example="%s: keeper lost grants" % when)

mount()
with open(PICKER, "w") as f:
    f.write(setup)
end = time.time() + DURATION
while time.time() < end:
    counts["rounds"] += 1
    seconds = max(5, min(ROUND, int(end - time.time())))
    stop = threading.Event()
    threads = [threading.Thread(target=writer, args=(n, stop)) for n in apps]
    threads += [threading.Thread(target=reader, args=(stop,)) for _ in range(8)]
    threads += [threading.Thread(target=raw_writer, args=(n, stop)) for n in raw_apps]
    threads += [threading.Thread(target=asker, args=(n, stop)) for n in ask_apps]
    threads += [threading.Thread(target=answerer, args=(stop,)), threading.Thread(target=prober, args=(stop,))]
    threads += [threading.Thread(target=owner_looks, args=(stop,)), threading.Thread(target=churn, args=(stop,))]
    attackers = [threading.Thread(target=attacker, args=("confined", seconds - 2))]
    if uid is not None:
        attackers.append(threading.Thread(target=attacker, args=("bound", seconds - 2)))
    for t in threads + attackers:
        t.start()
    for t in attackers:
        t.join()
    time.sleep(1)
    # kill -9 with the writers still running, then stop everything and remount.
    killing.set()
    pid = daemon_pid()
    if pid:
        os.kill(pid, signal.SIGKILL)
        note("kills")
    stop.set()
    for t in threads:
        t.join(timeout=30)
        if t.is_alive():
            note("hung", example="a soak thread did not end within 30 s of the kill")
    subprocess.run(["fusermount3", "-u", "-z", MNT], capture_output=True)
    time.sleep(0.2)
    mount()
    killing.clear()
    check_grants("after kill -9 of round %d" % counts["rounds"])
    for name in apps:
        pending[name] = None
        # Settle on the state the catalog has, which is now acknowledged.
        acked[name] = "full" if len(selection(name)) == len(apps[name]) else "empty"
subprocess.run([BIN, "unmount", MNT], capture_output=True)
counts["examples"] = examples
print(json.dumps(counts, indent=1))
bad = counts["leaks"] + counts["lostGrants"] + counts["torn"] + counts["misattributed"] + counts["partialCommits"] + counts["hung"]
sys.exit(1 if bad else 0)
PY
