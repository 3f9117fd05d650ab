# The set-up the benchmark scripts share: sourced by them (never run) once they are in the
# package root. Each function takes the calling script's name for its messages.

# bench_defaults NAME=VALUE...: gives each variable VALUE unless the environment set it (to
# something not empty), so a run is sized and seeded by its caller or by the script.
bench_defaults() {
    local _bench_pair _bench_name
    for _bench_pair in "$@"; do
        _bench_name="${_bench_pair%%=*}"
        if [ -z "${!_bench_name:-}" ]; then printf -v "$_bench_name" '%s' "${_bench_pair#*=}"; fi
    done
}

# bench_photofs NAME [CONFIG]: sets PHOTOFS to the binary to measure: $PHOTOFS_BIN when set,
# else the CONFIG build (default release) of the photofs product, built first.
bench_photofs() {
    local config="${2:-release}"
    PHOTOFS="${PHOTOFS_BIN:-}"
    if [ -z "$PHOTOFS" ]; then
        echo "$1: building photofs ($config)" >&2
        swift build -c "$config" --product photofs >&2
        PHOTOFS="$PWD/.build/$config/photofs"
    fi
}

# bench_work DIR: makes DIR the run's work folder, WORK, private to this user (0700): the
# generated libraries, catalogs, mountpoints and caches of the run go there.
bench_work() {
    WORK="$1"
    mkdir -p "$WORK"
    chmod 700 "$WORK"
}

# bench_library NAME LIBRARY CATALOG COUNT SEED: generates COUNT photos with SEED into
# LIBRARY once (LIBRARY.complete marks a whole one, reused while the count and seed stay the
# same; an unfinished one is made again, its catalog dropped with it), then indexes it into
# CATALOG (incremental: a rerun costs a stat walk).
bench_library() {
    local name="$1" library="$2" catalog="$3" count="$4" seed="$5"
    if [ ! -f "$library.complete" ]; then
        rm -rf "$library" "$catalog" "$catalog-wal" "$catalog-shm"
        echo "$name: generating $count photos into $library" >&2
        "$PHOTOFS" generate "$library" --count "$count" --seed "$seed" > /dev/null 2>&1
        : > "$library.complete"
    fi
    echo "$name: indexing $library" >&2
    "$PHOTOFS" index --quiet --catalog "$catalog" "$library" >&2
}
