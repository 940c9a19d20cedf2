#!/usr/bin/env bash
# How whole runs scale with threads: simulate, compare, the deal-only floor and exact main, each
# at 1, 2, 4, ... up to the machine's cores, three runs a point (the median is what to quote).
# Reads each run's own figures from its manifest.json (wall_seconds, deals_per_second), or from
# the line the deal-only baseline prints, so nothing here times anything itself.
#
#   benches/scaling.sh [BINARY ...]     # default: target/release/paigow
#   SCALING_JOBS="simulate deal-only" SCALING_RUNS=1 benches/scaling.sh ...   # fewer runs
#
# Writes CSV on stdout: binary,job,threads,run,wall_seconds,deals_per_second. Each binary given
# is run on the same jobs in turn (to compare builds on one machine, in one sitting). Scratch
# files go to a temporary directory, removed at the end; the exact main cache is off
# (PAIGOW_CACHE_DIR empty), so every exact main run counts afresh.
set -euo pipefail

binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(target/release/paigow)
cores=$(nproc)
wanted=" ${SCALING_JOBS:-simulate deal-only compare exact-main} "
runs=${SCALING_RUNS:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export PAIGOW_CACHE_DIR=

field() { # FILE KEY: a number from a flat manifest.json
    sed -n "s/.*\"$2\": *\([0-9.eE+-]*\).*/\1/p" "$1" | head -n 1
}

threads_list() {
    local t=1
    while [ "$t" -lt "$cores" ]; do
        echo "$t"
        t=$((t * 2))
    done
    echo "$cores"
}

echo "binary,job,threads,run,wall_seconds,deals_per_second"
for bin in "${binaries[@]}"; do
    for threads in $(threads_list); do
        for run in $(seq "$runs"); do
            deals=$((50000000 * threads))
            jobs=(
                "simulate|simulate --game standard --player-way foxwoods --dealer-way foxwoods --deals $deals"
                "deal-only|simulate --game standard --player-way foxwoods --dealer-way foxwoods --deals $deals --deal-only"
                "compare|compare --game standard --ways foxwoods ballys-ac --dealer-way foxwoods --deals $deals"
                "exact-main|exact main --game standard --player-way foxwoods --dealer-way foxwoods"
            )
            for job in "${jobs[@]}"; do
                name=${job%%|*}
                [[ $wanted == *" $name "* ]] || continue
                out="$scratch/$name-$threads-$run"
                if [ "$name" = deal-only ]; then # writes nothing; prints "N deals in W s, R deals/s"
                    # shellcheck disable=SC2086
                    line=$("$bin" ${job#*|} --threads "$threads" --quiet)
                    wall=$(echo "$line" | sed -n 's/.* in \([0-9.]*\) s,.*/\1/p')
                    rate=$(echo "$line" | sed -n 's/.* s, \([0-9]*\) deals\/s.*/\1/p')
                else
                    # shellcheck disable=SC2086
                    "$bin" ${job#*|} --threads "$threads" --quiet --out "$out" >/dev/null
                    wall=$(field "$out/manifest.json" wall_seconds)
                    rate=$(field "$out/manifest.json" deals_per_second)
                fi
                echo "$bin,$name,$threads,$run,$wall,${rate:-}"
                rm -rf "$out"
            done
        done
    done
done
