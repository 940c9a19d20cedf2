//! `paigow self-test`: the published anchors ([`super::anchors`]) reproduced on this machine,
//! each figure one [`Check`] that passes only when the figure computed equals the one expected.
//!
//! The checks, in [`SECTIONS`] order (24 s in all on two cores under a load of about 3):
//! - the evaluator: every 7-card hand of the 53-card deck dealt and valued (154,143,080 hands,
//!   the brute force, not the structure count), by category, against Alspach's table;
//! - Emperor's Challenge and Pai Gow Mania (both bets): every published line count and the
//!   published return, at its precision, from the structure count of every hand;
//! - the main wager of the standard game, Foxwoods against Foxwoods, over every ordered pair of
//!   disjoint hands (`exact main`'s inclusion-exclusion, the longest check: 10 to 16 s), against
//!   this tool's committed count ([`FOXWOODS_EXACT`]: JB's own published count differs, by 1 to
//!   3 parts per million, and is not a check);
//! - `exact main` against the brute force ([`super::brute_main`]) on reduced decks (four ranks,
//!   with one joker and with two), every pair settled both ways.
//!
//! Nothing is read from or written to any cache: every figure is computed afresh. Each check
//! function takes the figures expected, so a test can give it wrong ones and see it fail. A
//! section that cannot run (a shipped file that does not load) is one failed check naming why.

use std::fmt::Display;

use crate::cards::Deck;
use crate::engine::anchors::{
    CATEGORIES_53, CATEGORIES_53_SOURCE, CategoryRow, FOXWOODS_EXACT, PUBLISHED_BETS, PublishedBet,
};
use crate::engine::brute_main;
use crate::engine::exact::{
    CategoryCounts, LineCounts, Method, category_counts, paytable_counts, row_name,
};
use crate::engine::exact_main::{self, PairCounts, Progress};
use crate::eval::{Evaluator, JokerRule, Ranking};
use crate::game::GameRules;
use crate::game::paytable::{Event, Paytable};
use crate::game::wager::{BET_UNITS, Outcome};
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::resolve::{Resolved, resolve};

/// One figure: what it is, the figure expected and the figure got, and whether they are equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub name: String,
    pub expected: String,
    pub got: String,
    pub passed: bool,
}

impl Check {
    /// The check that `got` equals `expected`.
    pub fn equal<T: PartialEq + Display>(name: impl Into<String>, expected: T, got: T) -> Check {
        Check {
            name: name.into(),
            passed: expected == got,
            expected: expected.to_string(),
            got: got.to_string(),
        }
    }

    /// A check that could not be made: `why`.
    fn not_run(name: &str, why: impl Display) -> Check {
        Check {
            name: name.to_string(),
            expected: "a figure".to_string(),
            got: format!("none: {why}"),
            passed: false,
        }
    }
}

/// A group of checks run together: what it checks, against what, and how long it takes.
pub struct Section {
    pub title: &'static str,
    /// Where the figures expected come from.
    pub expected: &'static str,
    /// About how long it takes on two idle cores.
    pub takes: &'static str,
    pub run: fn() -> Vec<Check>,
}

/// Every section of `paigow self-test`, in order.
pub const SECTIONS: [Section; 4] = [
    Section {
        title: "the evaluator: every 7-card hand of 53 cards dealt and valued, by category",
        expected: CATEGORIES_53_SOURCE,
        takes: "about 7 s",
        run: || categories_53(&CATEGORIES_53),
    },
    Section {
        title: "Emperor's Challenge and Pai Gow Mania: every line, over every hand of 53 cards",
        expected: "Wizard of Odds' published return tables (Emperor's Challenge; Pai Gow Mania's \
                   seven-card and three-card bets)",
        takes: "under a second",
        run: || PUBLISHED_BETS.iter().flat_map(published_bet).collect(),
    },
    Section {
        title: "the main wager of the standard game, Foxwoods against Foxwoods, over every pair \
                of disjoint hands (exact main)",
        expected: "this tool's count of its reading of JB's Foxwoods way, as committed in \
                   reports/exact/standard-foxwoods-vs-foxwoods-main (JB's own published count \
                   differs by 1 to 3 parts per million of the pairs, unexplained: player EV \
                   -2.721216% against -2.721126%)",
        takes: "10 to 16 s",
        run: || foxwoods_main(&FOXWOODS_EXACT),
    },
    Section {
        title: "exact main on reduced decks (aces to fours in four suits, with the game's jokers)",
        expected: "the brute force: every ordered pair of disjoint hands dealt and settled",
        takes: "about 2 s",
        run: reduced_decks,
    },
];

/// A count as the checks print it: digits in groups of three.
fn grouped(n: u64) -> String {
    crate::combin::grouped(&n.to_string())
}

/// Every 7-card hand of the 53-card deck dealt, counted by category, against `expected`.
fn categories_53(expected: &[CategoryRow]) -> Vec<Check> {
    let ev = Evaluator::new(Ranking::default());
    let deck = Deck::with_jokers(1).expect("a deck of one joker");
    category_checks(expected, &category_counts(&ev, deck, Method::Brute))
}

/// Each row of `expected` (a published category table) against the counts `got`; then the
/// hands in all.
pub fn category_checks(expected: &[CategoryRow], got: &CategoryCounts) -> Vec<Check> {
    let mut checks: Vec<Check> = (expected.iter())
        .map(|(categories, n)| {
            let names: Vec<&str> = (categories.iter())
                .map(|&c| row_name(c, JokerRule::Bug))
                .collect();
            let name = format!("7-card hands of 53 cards: {}", names.join(" and "));
            let counted = categories.iter().map(|&c| got.get(c)).sum();
            Check::equal(name, grouped(*n), grouped(counted))
        })
        .collect();
    let total = expected.iter().map(|(_, n)| n).sum();
    checks.push(Check::equal(
        "7-card hands of 53 cards: every hand",
        grouped(total),
        grouped(got.total()),
    ));
    checks
}

/// The shipped paytable of `bet`, counted over every hand of the 53-card deck, against its
/// published lines and return.
fn published_bet(bet: &PublishedBet) -> Vec<Check> {
    let table = match Paytable::load(bet.paytable) {
        Ok(table) => table,
        Err(e) => return vec![Check::not_run(bet.paytable, e)],
    };
    let ev = Evaluator::new(Ranking::default());
    let deck = Deck::with_jokers(1).expect("a deck of one joker");
    let tables = std::slice::from_ref(&table);
    let counts = paytable_counts(&ev, deck, tables, Method::Structure, None).remove(0);
    bet_checks(bet, &table, &counts)
}

/// Each line of `expected` (a published table of `table`) against the line counts `got`, the
/// hands no line pays, and the player's return at the precision published.
pub fn bet_checks(expected: &PublishedBet, table: &Paytable, got: &LineCounts) -> Vec<Check> {
    let name = |what: &str| format!("{}: {what}", table.name);
    let mut checks = Vec::new();
    for &(event, n) in expected.lines {
        let line = Event::parse(event).and_then(|e| table.lines.iter().position(|l| l.event == e));
        checks.push(match line {
            Some(i) => Check::equal(name(event), grouped(n), grouped(got.counts[i])),
            None => Check::not_run(&name(event), "no such line in the paytable"),
        });
    }
    let no_line = got.counts.last().copied().unwrap_or_default();
    checks.push(Check::equal(
        name("no line pays"),
        grouped(expected.no_line),
        grouped(no_line),
    ));
    let decimals = expected
        .player_return
        .split_once('.')
        .map_or(0, |(_, d)| d.len());
    let computed = format!("{:.*}", decimals, 100.0 * player_return(table, got));
    checks.push(Check::equal(
        name("player return, %"),
        expected.player_return.to_string(),
        computed,
    ));
    checks
}

/// The player's return per unit bet of `table` from its line counts, in exact integers until
/// the one division.
fn player_return(table: &Paytable, counts: &LineCounts) -> f64 {
    let pays = (table.lines.iter().map(|l| l.pays.units())).chain([table.no_line_units()]);
    let net: i128 = (counts.counts.iter().zip(pays))
        .map(|(&n, units)| i128::from(n) * i128::from(units))
        .sum();
    net as f64 / (i128::from(counts.total()) * i128::from(BET_UNITS)) as f64
}

/// The standard game's main wager, Foxwoods against Foxwoods, counted over every pair of
/// disjoint hands, against `expected`.
fn foxwoods_main(expected: &PairCounts) -> Vec<Check> {
    let what = "main wager, standard game, Foxwoods vs Foxwoods";
    let counted = resolved("standard", "foxwoods", "foxwoods")
        .and_then(|(game, p, d)| exact_counts(&game, SuitDeck::of(game.deck), &p, &d));
    match counted {
        Ok(got) => pair_checks(what, expected, &got),
        Err(e) => vec![Check::not_run(what, e)],
    }
}

/// The game and both strategies, loaded.
fn resolved(
    game: &str,
    player: &str,
    dealer: &str,
) -> Result<(GameRules, Resolved, Resolved), String> {
    let game = GameRules::load(game).map_err(|e| e.to_string())?;
    let p = resolve(player, &game).map_err(|e| e.to_string())?;
    let d = resolve(dealer, &game).map_err(|e| e.to_string())?;
    Ok((game, p, d))
}

/// The pair counts of `player` against `dealer` on `deck`, by `exact main`'s
/// inclusion-exclusion.
fn exact_counts(
    game: &GameRules,
    deck: SuitDeck,
    player: &Resolved,
    dealer: &Resolved,
) -> Result<PairCounts, String> {
    let (p, d) = (&*player.strategy, &*dealer.strategy);
    let run = exact_main::count(game, deck, p, d, &Progress::silent());
    Ok(run.map_err(|e| e.to_string())?.exact.counts)
}

/// The reduced decks `exact main` is held to the brute force on: (game, player, dealer,
/// jokers), each of aces to fours in four suits: wheels, joker straights, flushes and copies all
/// happen.
const REDUCED: [(&str, &str, &str, u8); 2] = [
    ("standard", "foxwoods", "foxwoods", 1),
    ("double-joker", "double-joker-dealer", "foxwoods", 2),
];

/// Aces, deuces, treys and fours.
const A234: u16 = 0b1_0000_0000_0111;

/// `exact main` against the brute force on each of [`REDUCED`].
fn reduced_decks() -> Vec<Check> {
    let mut checks = Vec::new();
    for (game, player, dealer, jokers) in REDUCED {
        let jokers_text = if jokers == 1 {
            "one joker"
        } else {
            "two jokers"
        };
        let what = format!("{game}, {player} vs {dealer}, A234 and {jokers_text}");
        let deck = SuitDeck::new(A234, jokers).expect("a deck of two hands");
        let both = resolved(game, player, dealer).and_then(|(g, p, d)| {
            let brute = brute_main::count(&g, deck, &*p.strategy, &*d.strategy);
            Ok((brute, exact_counts(&g, deck, &p, &d)?))
        });
        match both {
            Ok((brute, exact)) => checks.extend(pair_checks(&what, &brute, &exact)),
            Err(e) => checks.push(Check::not_run(&what, e)),
        }
    }
    checks
}

/// The pair counts `got` against `expected`, outcome by outcome (those either has), then the
/// pairs in all.
pub fn pair_checks(what: &str, expected: &PairCounts, got: &PairCounts) -> Vec<Check> {
    let mut checks: Vec<Check> = (Outcome::ALL.iter())
        .filter(|&&o| expected.get(o) != 0 || got.get(o) != 0)
        .map(|&o| {
            let name = format!("{what}: {}", outcome_name(o));
            Check::equal(name, grouped(expected.get(o)), grouped(got.get(o)))
        })
        .collect();
    checks.push(Check::equal(
        format!("{what}: every pair"),
        grouped(expected.pairs()),
        grouped(got.pairs()),
    ));
    checks
}

/// An outcome's name in a check.
fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "wins",
        Outcome::Overqualified => "overqualified wins",
        Outcome::Push => "pushes",
        Outcome::NotQualified => "dealer not qualified",
        Outcome::Loss => "losses without a copy",
        Outcome::CopyLoss => "losses with a copy",
        Outcome::Foul => "fouls",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::anchors::{CATEGORIES_53, EMPERORS_CHALLENGE};

    /// Every check of `checks` passes but those whose name contains `wrong`, which fail.
    fn assert_only_failing(checks: &[Check], wrong: &str) {
        assert!(checks.iter().any(|c| c.name.contains(wrong)), "{wrong}");
        for check in checks {
            assert_eq!(check.passed, !check.name.contains(wrong), "{check:?}");
        }
    }

    /// The category checks pass on the structure count of every hand (milliseconds) and fail
    /// on a row given one hand too many, naming both figures.
    #[test]
    fn a_wrong_category_count_fails() {
        let ev = Evaluator::new(Ranking::default());
        let deck = Deck::with_jokers(1).unwrap();
        let got = category_counts(&ev, deck, Method::Structure);
        assert!(
            category_checks(&CATEGORIES_53, &got)
                .iter()
                .all(|c| c.passed)
        );
        let mut wrong = CATEGORIES_53;
        wrong[5].1 += 1;
        let checks = category_checks(&wrong, &got);
        let failed: Vec<&Check> = checks.iter().filter(|c| !c.passed).collect();
        assert_eq!(failed.len(), 2, "{failed:?}");
        assert!(failed[0].name.ends_with(": straight"), "{failed:?}");
        assert_eq!(
            (&*failed[0].expected, &*failed[0].got),
            ("11,236,029", "11,236,028")
        );
        assert!(failed[1].name.contains("every hand"), "{failed:?}");
    }

    /// The side-bet checks pass on Emperor's Challenge as counted, and fail on a wrong line
    /// count and on a wrong return.
    #[test]
    fn a_wrong_line_count_or_return_fails() {
        let table = Paytable::load(EMPERORS_CHALLENGE.paytable).unwrap();
        let ev = Evaluator::new(Ranking::default());
        let deck = Deck::with_jokers(1).unwrap();
        let tables = std::slice::from_ref(&table);
        let got = paytable_counts(&ev, deck, tables, Method::Structure, None).remove(0);
        let checks = bet_checks(&EMPERORS_CHALLENGE, &table, &got);
        assert!(checks.iter().all(|c| c.passed), "{checks:?}");
        let mut lines = EMPERORS_CHALLENGE.lines.to_vec();
        lines[3].1 = 26_124;
        let lines: &'static [(&str, u64)] = Box::leak(lines.into_boxed_slice());
        let wrong_line = PublishedBet {
            lines,
            ..EMPERORS_CHALLENGE
        };
        assert_only_failing(&bet_checks(&wrong_line, &table, &got), "royal_flush");
        let wrong_return = PublishedBet {
            player_return: "-4.1713",
            ..EMPERORS_CHALLENGE
        };
        assert_only_failing(&bet_checks(&wrong_return, &table, &got), "return");
    }

    /// Pair counts fail outcome by outcome, and in all.
    #[test]
    fn a_wrong_pair_count_fails() {
        let got = FOXWOODS_EXACT;
        assert!(
            pair_checks("f", &FOXWOODS_EXACT, &got)
                .iter()
                .all(|c| c.passed)
        );
        let mut wrong = FOXWOODS_EXACT;
        wrong.classes[Outcome::Push.index()] -= 1;
        wrong.classes[Outcome::Win.index()] += 1;
        let checks = pair_checks("f", &wrong, &got);
        let failed: Vec<&str> = (checks.iter().filter(|c| !c.passed))
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(failed, ["f: wins", "f: pushes"]);
        wrong.classes[Outcome::Foul.index()] += 1;
        let checks = pair_checks("f", &wrong, &got);
        assert!(checks.iter().any(|c| c.name == "f: fouls" && !c.passed));
        assert!(
            checks
                .iter()
                .any(|c| c.name == "f: every pair" && !c.passed)
        );
    }

    /// The one brute force and `exact main` agree on the smallest reduced deck, and the check
    /// lines name each outcome that happens.
    #[test]
    fn exact_main_agrees_with_the_brute_force_on_a_reduced_deck() {
        let (game, p, d) = resolved("standard", "max-back", "foxwoods").unwrap();
        let deck = SuitDeck::new(A234, 1).unwrap();
        let brute = brute_main::count(&game, deck, &*p.strategy, &*d.strategy);
        let exact = exact_counts(&game, deck, &p, &d).unwrap();
        let checks = pair_checks("r", &brute, &exact);
        assert!(
            checks.len() >= 4 && checks.iter().all(|c| c.passed),
            "{checks:?}"
        );
    }
}
