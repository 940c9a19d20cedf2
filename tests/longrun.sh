#!/usr/bin/env bash
# The self-consistency property's long run (tests/suite/self_consistency.rs; docs/verification.md,
# "Self-consistency") on a machine that has no Rust toolchain: the release test binary and the
# `paigow` binary are built here, copied to one folder, and run there on every core.
#
#   tests/longrun.sh stage
#       Builds the release `paigow` and test suite here and copies both to target/longrun/
#       (about 11 MB: carry that folder to the other machine).
#   tests/longrun.sh run [GAMES [FIRST_SEED [SECONDS]]]
#       Runs GAMES generated games (default 100000) from seed FIRST_SEED (default 1000000),
#       drawing no new game after SECONDS (default: no limit), from target/longrun/ (or
#       $LONGRUN_DIR), on $LONGRUN_THREADS games at once (default: twice the cores, so that a
#       game waiting on its files' fsync leaves its core to another). Prints the machine, the
#       binaries and the test's summary line: games checked, failed, seconds, games a second.
#       Exit status: the test's. The games' folders go under $LONGRUN_TMP (default /dev/shm
#       where it is a writable folder, else $TMPDIR): a memory file system makes each file's
#       fsync free (on the 2-core machine, 4.27 games/s against 3.32 on its disk). A failed
#       game's folder is kept (its path is printed); with $LONGRUN_KEEP set, the kept folders
#       are copied there. With $LONGRUN_CSV set, the summary
#       is added to that CSV file as a row (a header first if the file is new), for the docs'
#       figures to quote (docs/README.md, "Figures that cannot drift").
#
# Each `paigow` runs its rayon pool on one thread (RAYON_NUM_THREADS=1; the runs' results do not
# depend on it): the games are the parallel work, and idle pool threads in every process would
# only spin. The test's caches go to a fresh temporary folder.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${LONGRUN_DIR:-$root/target/longrun}
test_name=self_consistency::every_run_of_a_generated_game_makes_a_report_with_its_figures

stage() {
    cd "$root"
    cargo build --release --bin paigow
    local built suite
    built=$(cargo test --release --test suite --no-run 2>&1 | tee /dev/stderr)
    suite=$(printf '%s\n' "$built" | sed -n 's/.*Executable tests\/suite\/main.rs (\(.*\))$/\1/p' | tail -1)
    [ -n "$suite" ] || { echo "longrun: no test binary in cargo's output" >&2; exit 1; }
    mkdir -p "$dir"
    cp target/release/paigow "$dir/paigow"
    cp "$suite" "$dir/suite"
    ls -la "$dir"
}

run() {
    local games=${1:-100000} seed=${2:-1000000} seconds=${3:-}
    local cores threads tmp cache log status
    for binary in paigow suite; do
        [ -x "$dir/$binary" ] || { echo "longrun: no $dir/$binary (run: $0 stage)" >&2; exit 2; }
    done
    cores=$(nproc)
    threads=${LONGRUN_THREADS:-$((2 * cores))}
    tmp=${LONGRUN_TMP:-$(memory_tmp)}
    cache=$(TMPDIR=$tmp mktemp -d)
    log=$(mktemp)
    echo "longrun: $(date -u '+%F %T UTC'), $(machine), $cores cores, $threads games at once"
    echo "longrun: $("$dir/paigow" --version | head -1); suite $(sha256sum "$dir/suite" | cut -c1-12)"
    echo "longrun: $games games from seed $seed${seconds:+, none drawn after $seconds s}; folders in $tmp"
    status=0
    env TMPDIR="$tmp" CARGO_BIN_EXE_paigow="$dir/paigow" PAIGOW_TEST_CACHE_DIR="$cache" RAYON_NUM_THREADS=1 \
        PAIGOW_PROPERTY_GAMES="$games" PAIGOW_PROPERTY_SEED="$seed" \
        PAIGOW_PROPERTY_THREADS="$threads" ${seconds:+PAIGOW_PROPERTY_SECONDS="$seconds"} \
        "$dir/suite" "$test_name" --exact --nocapture --test-threads 1 >"$log" 2>&1 || status=$?
    local summary
    summary=$(grep -oE 'self-consistency: seeds .*' "$log" || true)
    [ -n "$summary" ] && echo "$summary" || tail -40 "$log"
    [ -n "$summary" ] && [ -n "${LONGRUN_CSV:-}" ] && csv_row "$summary" "$cores" >>"$LONGRUN_CSV"
    if [ "$status" -ne 0 ]; then
        grep -E '^seed [0-9]+:|games failed' "$log" | head -40 || true
        local kept
        kept=$(sed -n 's/.*(their folders are in \(.*\)):$/\1/p' "$log" | head -1)
        if [ -n "$kept" ] && [ -n "${LONGRUN_KEEP:-}" ]; then
            mkdir -p "$LONGRUN_KEEP" && cp -r "$kept/." "$LONGRUN_KEEP/" && echo "longrun: kept in $LONGRUN_KEEP"
        fi
    fi
    rm -rf "$cache" "$log"
    return "$status"
}

# /dev/shm where it is a writable folder (a memory file system on Linux), else $TMPDIR or /tmp.
memory_tmp() {
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then echo /dev/shm; else echo "${TMPDIR:-/tmp}"; fi
}

# The processor's model name (no commas), else the architecture.
machine() {
    local model
    model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1 | tr -d ',')
    echo "${model:-$(uname -m)}"
}

# The summary line as a CSV row (after a header when $LONGRUN_CSV is new or empty).
csv_row() {
    local numbers
    [ -s "$LONGRUN_CSV" ] || echo "date,machine,cores,threads,first_seed,games_checked,failed,refused,seconds,games_per_second,paigow"
    # "seeds from S: N games checked, F failed, R drawn games refused ..., in X s on T threads (G games/s)"
    numbers=$(printf '%s\n' "$1" | sed -E 's/.*seeds from ([0-9]+): ([0-9]+) games checked, ([0-9]+) failed, ([0-9]+) drawn .* in ([0-9.]+) s on ([0-9]+) threads \(([0-9.]+) games\/s\).*/\6,\1,\2,\3,\4,\5,\7/')
    echo "$(date -u +%F),$(machine),$2,$numbers,$("$dir/paigow" --version | head -1 | sed -E 's/.*commit ([0-9a-f]{7}).*/\1/')"
}

case "${1:-}" in
    stage) stage ;;
    run) shift; run "$@" ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
esac
