#!/bin/sh
# Regenerates the headline simulation reports of the shipped games under reports/simulate/.
# Usage: reports/regenerate.sh [DEALS]   (default 1e7 deals each; seed 1; reports do not depend
# on the thread count, so any machine reproduces them byte for byte, manifest timings aside).
set -eu
cd "$(dirname "$0")/.."
DEALS="${1:-1e7}"
cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-target}/release/paigow"
run() { # GAME PLAYER DEALER
    "$BIN" simulate --game "$1" --player-way "$2" --dealer-way "$3" --deals "$DEALS" --seed 1 \
        --out "reports/simulate/$1-$2-vs-$3"
}
run standard foxwoods foxwoods
run double-joker exposed double-joker-dealer
run double-joker foxwoods double-joker-dealer
run jokers-wild foxwoods foxwoods
run california foxwoods foxwoods
