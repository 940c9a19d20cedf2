#!/usr/bin/env bash
# Regenerates every committed report under reports/ from the shipped games and house ways.
# Usage: reports/regenerate.sh [DEALS]   (default 1e7 deals per simulation; seed 1).
# Exact reports do not depend on DEALS. CSV files do not depend on the machine or the thread
# count, so any machine reproduces them byte for byte; manifests also record run facts (wall
# time, threads, deals per second, git commit).
set -eu
cd "$(dirname "$0")/.."
DEALS="${1:-1e7}"
cargo build --release --quiet
BIN="${CARGO_TARGET_DIR:-target}/release/paigow"

for game in standard double-joker jokers-wild california ez-pai-gow; do
    "$BIN" exact categories --game "$game" --out "reports/exact/$game-categories"
done
for game in standard double-joker ez-pai-gow fortune; do
    "$BIN" exact bonus --game "$game" --quiet --out "reports/exact/$game-bonus"
done
# The template paytable, a setting bet, with every hand set by Foxwoods (docs/guide/exact-bonus.md).
"$BIN" exact bonus --bet games/examples/my-jackpot.toml --player-way foxwoods --quiet \
    --out reports/exact/standard-foxwoods-my-jackpot-bonus
# Fortune's pay table 1 (three pair pushes), and Big Hand Bonus designed to a 5% house edge by
# pricing 780 combinations of three lines' pays from one count (README, docs/guide/exact-bonus.md).
"$BIN" exact bonus --game fortune --bet fortune-1 --quiet --out reports/exact/fortune-fortune-1-bonus
"$BIN" exact bonus --game double-joker --bet big-hand-bonus --target-edge 5% \
    --vary 'flush=4..8,full_house=5..10,four_of_a_kind=25..50' --quiet \
    --out reports/exact/double-joker-big-hand-bonus-vary
# The main wager, every pair of disjoint hands (about 17 s of wall time on 2 idle cores; cached).
"$BIN" exact main --game standard --player-way foxwoods --dealer-way foxwoods --quiet \
    --out reports/exact/standard-foxwoods-vs-foxwoods-main
# The optimal strategy's main wager, exact, for the range of returns in the lab packages: the price
# table's optimum against Foxwoods (the table built once, minutes; then cached) and Double Joker's
# exposed player, who sees the dealer's setting.
"$BIN" exact main --game standard --player-way optimal:foxwoods --dealer-way foxwoods --quiet \
    --out reports/exact/standard-optimal-foxwoods-vs-foxwoods-main
"$BIN" exact main --game double-joker --player-way exposed --dealer-way double-joker-dealer --quiet \
    --out reports/exact/double-joker-exposed-vs-double-joker-dealer-main
# Every setting of every hand shape against Foxwoods, for each game whose dealer sets without
# showing its hand (about 2.5 minutes of wall time each on 2 cores, 210 s of CPU; shapes.csv,
# 45 MB, left out of the repository). Fortune's main wager is the standard game's; Double
# Joker's and Face Up's player sees the dealer's setting, so `exposed` is already optimal there.
# Each table is cached (about 128 MB for the standard game), so later commands read it. The
# standard game's report times a fresh build (--rebuild) and checks the table's choice on 1,000
# drawn hands of every class.
for game in standard california jokers-wild ez-pai-gow commission-free; do
    check=()
    [ "$game" = standard ] && check=(--rebuild --sample-check 1000 --seed 1)
    "$BIN" exact prices --game "$game" --dealer-way foxwoods --no-shapes --quiet "${check[@]}" \
        --out "reports/exact/$game-foxwoods-prices"
done
# What each rule of every shipped casino way costs against the optimum, from the standard price
# table above (cached: seconds each), with each rule's costliest hand classes (README, docs).
for way in foxwoods ballys-ac canterbury-park double-joker-dealer mgm-grand harrahs-reno \
    frixo-summary gold-star-school; do
    "$BIN" cost-way "$way" --game standard --dealer-way foxwoods --quiet \
        --out "reports/exact/standard-$way-cost-way"
done
# Where Bally's AC sets a hand otherwise than Foxwoods, every hand priced from the cached price
# table against Foxwoods (docs/guide/diff-ways.md).
"$BIN" diff-ways foxwoods ballys-ac --dealer-way foxwoods \
    --out reports/exact/standard-foxwoods-vs-ballys-ac-diff-ways
# Where two more casinos' ways differ from Foxwoods, counted over every hand (docs/guide/diff-ways.md).
for way in canterbury-park mgm-grand; do
    "$BIN" diff-ways foxwoods "$way" --out "reports/exact/standard-foxwoods-vs-$way-diff-ways"
done

# Foxwoods' two-pair thresholds swept against a Foxwoods dealer, each variant exact from the
# standard price table above (about 20 s once the table is cached; README, docs/guide/sweep-way.md).
"$BIN" sweep-way foxwoods --game standard --dealer-way foxwoods --quiet \
    --vary 'rule[10].when.high_pair.min=2..A' --vary 'rule[11].when.high_pair.min=2..T' \
    --out reports/exact/standard-foxwoods-two-pair-sweep

# A short house way derived from the optimum against a Foxwoods dealer, with its frontier (about
# 3 minutes on 2 cores once the table is cached; docs/guide/derive-way.md).
"$BIN" derive-way --dealer-way foxwoods --max-rules 18 --quiet \
    --out strategies/derived-foxwoods-18.toml \
    --frontier reports/exact/standard-foxwoods-derived-way/frontier.csv

run() { # GAME PLAYER DEALER
    "$BIN" simulate --game "$1" --player-way "$2" --dealer-way "$3" --deals "$DEALS" --seed 1 \
        --quiet --out "reports/simulate/$1-$2-vs-$3"
}
run standard foxwoods foxwoods
run double-joker exposed double-joker-dealer
run double-joker foxwoods double-joker-dealer
run jokers-wild foxwoods foxwoods
run california foxwoods foxwoods
run ez-pai-gow foxwoods foxwoods
# Fortune's Envy bonus is paid on other players' hands: six players a round.
"$BIN" simulate --game fortune --player-way foxwoods --dealer-way foxwoods --players 6 \
    --deals "$DEALS" --seed 1 --quiet --out reports/simulate/fortune-foxwoods-vs-foxwoods-6-players

# The headline run at a billion deals (about a minute on 2 cores), whatever DEALS is.
"$BIN" simulate --game standard --player-way foxwoods --dealer-way foxwoods --deals 1e9 --seed 1 \
    --quiet --out reports/simulate/standard-foxwoods-vs-foxwoods-1e9

# What house ways cost: each shipped way against the optimal player strategy, dealer Foxwoods
# (optimal:foxwoods's price table is built once, minutes, and cached; see docs/methods/optimal.md).
"$BIN" compare --game standard --dealer-way foxwoods \
    --ways foxwoods canterbury-park ballys-ac optimal:foxwoods \
    --deals "$DEALS" --seed 1 --examples 20 --quiet \
    --out reports/compare/standard-house-ways-vs-optimal

# Each shipped game's lab package: its runs under reports/package/GAME/runs/ (exact categories,
# exact side bets, the exact main wager, a simulation), and report.md, report.html and plots/ from those runs and the
# game's other committed runs above.
package() { # GAME DEALER [RUN_DIR...]
    game="$1"; dealer="$2"; shift 2
    "$BIN" report --game "$game" --all --dealer-way "$dealer" --deals "$DEALS" --seed 1 --quiet \
        --out "reports/package/$game" "$@"
}
package standard foxwoods reports/simulate/standard-foxwoods-vs-foxwoods-1e9 \
    reports/compare/standard-house-ways-vs-optimal reports/exact/standard-optimal-foxwoods-vs-foxwoods-main
package double-joker double-joker-dealer reports/simulate/double-joker-exposed-vs-double-joker-dealer \
    reports/exact/double-joker-exposed-vs-double-joker-dealer-main \
    --mix main=1,big-hand-bonus=0.2,joker-bonus=0.2 --table-max 1000,big-hand-bonus=100,joker-bonus=100
package jokers-wild foxwoods
package california foxwoods
package ez-pai-gow foxwoods
