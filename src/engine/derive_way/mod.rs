//! `derive-way`: a short house way derived from the optimum against one dealer's way, with the
//! exact cost of every length up to the longest asked for (the frontier).
//!
//! What it searches ([`search`](mod@search)): ways whose rules each take a hand class of the
//! [`vocabulary`] (pairs, three and four of a kinds counted, with or without a straight or
//! flush), optionally bounded on one rank feature of the class (high pair, low pair, three or
//! four of a kind's rank, highest single card: any range of ranks), and set it by one of the
//! vocabulary's settings (a category kept behind, with or without a high card or the highest pair
//! in front; a named pair in front; the highest front or back; up to two of these tried in order,
//! then the highest front or back). It starts from the best catch-all and at each step inserts
//! the (rule, position) that lowers the way's exact cost most, then re-sets rules while that
//! lowers it; it stops at `max_rules` rules or when no rule lowers the cost.
//!
//! What it cannot express: two bounds in one rule, `any` groups, conditions on the jokers, on a
//! straight apart from a flush or on six- and seven-card straights and flushes; alternatives with
//! `only_if_better_than`, a joker's place, a front's second card or a literal pair rank; any
//! setting outside the vocabulary. The greedy never takes a rule back (it re-sets, it does not
//! remove or reorder), so the frontier bounds from above the cost of the best way of each length
//! in this vocabulary; it is not that minimum.
//!
//! Invariants: every cost is exact (integer nets over every pair of the bench's deck); the way
//! written is recompiled from its TOML with [`HouseWay::from_toml`] and priced with
//! [`Bench::price_way`], and that price is the search's own, shape by shape ([`write_way`]
//! asserts it); the written way is lint-clean under `check-way --strict` on the game's deck.

pub mod search;
pub mod vocabulary;

use crate::cards::Deck;
use crate::engine::workbench::Bench;
use crate::eval::Evaluator;
use crate::strategy::way::HouseWay;
use crate::strategy::way::compile::Finding;
use crate::strategy::way::lint;

pub use search::{Derived, Prepared, Step, search};
pub use vocabulary::{RuleSpec, Vocabulary};

/// The file's own keys: what the way is called, where it comes from, how it was made.
#[derive(Clone, Debug)]
pub struct Header {
    pub name: String,
    pub source: String,
    pub notes: String,
    /// The game the way was derived for, as `game = "..."`.
    pub game: String,
}

/// The way as written: its text, the loaded way and its lint report.
pub struct Written {
    pub text: String,
    pub way: HouseWay,
    pub lint: lint::Report,
}

/// Why the last rule may keep findings: the language asks it to cover every hand.
const LAST_RULE_BECAUSE: &str = "the last rule must cover every hand; the rules before it take \
                                 every hand this alternative or rule would";

/// The way's text: the header, then each rule with its name, `when` and `set`; the last rule
/// accepts `allow_last` findings.
pub fn way_text(
    vocab: &Vocabulary,
    rules: &[RuleSpec],
    header: &Header,
    allow_last: &[Finding],
) -> String {
    let quoted = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let mut text = format!(
        "name = {}\nsource = {}\ngame = {}\nnotes = \"\"\"\n{}\n\"\"\"\n",
        quoted(&header.name),
        quoted(&header.source),
        quoted(&header.game),
        header
            .notes
            .trim_end()
            .replace('\\', "\\\\")
            .replace("\"\"\"", "'''")
    );
    for (i, rule) in rules.iter().enumerate() {
        text += &format!("\n[[rule]]\nname = {}\n", quoted(&vocab.rule_name(rule)));
        let when = vocab.when_toml(rule);
        if !when.is_empty() {
            text += &format!("when = {{ {when} }}\n");
        }
        text += &format!("set = {}\n", vocab.set_toml(&rule.alts));
        if i + 1 == rules.len() && !allow_last.is_empty() {
            let keys: Vec<String> = allow_last.iter().map(|f| quoted(f.key())).collect();
            text += &format!(
                "allow = [{}]\nbecause = {}\n",
                keys.join(", "),
                quoted(LAST_RULE_BECAUSE)
            );
        }
    }
    text
}

/// Writes `derived` as a house way linted on `deck` (the game's): alternatives that set no hand
/// of the deck are dropped (they set none of the bench's either, so the price is unchanged), and
/// what the last rule must keep is allowed with the reason. The way is then recompiled and
/// priced on `bench`, shape by shape, and must be the search's way exactly (asserted). An error
/// names what the lint still finds.
pub fn write_way(
    bench: &Bench,
    vocab: &Vocabulary,
    derived: &Derived,
    header: &Header,
    ev: &Evaluator,
    deck: Deck,
    origin: &str,
) -> Result<Written, String> {
    let mut rules = derived.rules.clone();
    let mut allow_last: Vec<Finding> = Vec::new();
    loop {
        let text = way_text(vocab, &rules, header, &allow_last);
        let way = HouseWay::from_toml(&text, origin).map_err(|e| e.to_string())?;
        let report = lint::check(&way, ev, deck);
        let last = rules.len() - 1;
        let is_final_alt = |rule: usize, alt: Option<usize>| {
            rule == last && alt.is_none_or(|a| a + 1 == rules[last].alts.len())
        };
        let mut drop: Vec<(usize, usize)> = (report.warnings())
            .filter(|i| !is_final_alt(i.rule, i.alternative))
            .filter_map(|i| Some((i.rule, i.alternative?)))
            .collect();
        if !drop.is_empty() {
            drop.sort_unstable_by(|a, b| b.cmp(a));
            for (rule, alt) in drop {
                rules[rule].alts.remove(alt);
            }
            continue;
        }
        let mut keep: Vec<Finding> = (report.warnings())
            .filter(|i| is_final_alt(i.rule, i.alternative))
            .map(|i| i.finding)
            .collect();
        keep.retain(|f| !allow_last.contains(f));
        if !keep.is_empty() {
            allow_last.extend(keep);
            allow_last.sort();
            continue;
        }
        if !report.is_clean() {
            let findings: Vec<String> = (report.warnings())
                .map(|i| format!("rule {}: {}", i.rule + 1, i.message))
                .collect();
            return Err(format!(
                "the derived way is not lint-clean: {}",
                findings.join("; ")
            ));
        }
        check_on_bench(bench, &way, derived);
        return Ok(Written {
            text,
            way,
            lint: report,
        });
    }
}

/// Asserts that `way` sets every shape of `bench` by the rule the search says, at its net.
fn check_on_bench(bench: &Bench, way: &HouseWay, derived: &Derived) {
    let placed = bench.price_way(way);
    assert_eq!(
        Bench::net(&placed),
        derived.net,
        "the derived way, written and read back, is priced as the search priced it"
    );
    let same_rules = (placed.iter().zip(&derived.rule_of)).all(|(p, &r)| p.rule == r as usize);
    assert!(same_rules, "every shape is set by the rule the search says");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameRules;
    use crate::strategy::deck_shapes::SuitDeck;
    use crate::strategy::resolve::dealer_way;

    /// On a reduced deck: the frontier's net never falls, the written way loads, is lint-clean
    /// on the full deck and prices as the search did (asserted inside `write_way`).
    #[test]
    fn a_derived_way_is_written_as_searched() {
        let game = GameRules::load("standard").unwrap();
        let dealer = dealer_way("foxwoods", &game).unwrap().way;
        let deck = SuitDeck::new(0b1_0000_0000_0111, 1).unwrap();
        let bench = Bench::load(&dealer, &game, deck, None, &|_| {});
        let vocab = Vocabulary::standard();
        let prepared = Prepared::new(&bench, &vocab);
        let derived = search(&prepared, &vocab, 6, &|_| {});
        assert!(derived.steps.windows(2).all(|w| w[1].net > w[0].net));
        assert!(derived.net <= bench.optimal_net());
        let header = Header {
            name: "test".into(),
            source: "test".into(),
            notes: "test".into(),
            game: "standard".into(),
        };
        let ev = Evaluator::new(game.ranking);
        let written = write_way(&bench, &vocab, &derived, &header, &ev, game.deck, "t.toml");
        let written = written.unwrap();
        assert!(written.lint.is_clean());
        assert_eq!(written.way.compiled.rules.len(), derived.rules.len());
    }
}
