//! `check-way`: static checks and a coverage run over a seeded sample of hands.
//!
//! Errors (the file must be fixed) are contradictory conditions, found statically. Warnings come
//! from the structure (a rule after a catch-all; `only_if_better_than` with nothing after it) and
//! from the sample: a rule that never fires, a rule every one of whose hands an earlier rule took
//! (shadowed), an alternative no sampled hand satisfies, and hands that fall through a rule.
//! Coverage counts how many sampled hands each rule set; the counts add up to the sample size.

use super::HouseWay;
use super::apply::{HandView, alt_mask, choose, when_holds};
use super::compile::{Alt, Rule, When};
use super::features::Feature;
use crate::cards::Deck;
use crate::eval::Evaluator;

/// Per-rule tallies over the sample.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleCoverage {
    /// Hands whose `when` held.
    pub matched: u64,
    /// Hands the rule was reached with (no earlier rule set them) and whose `when` held.
    pub reached: u64,
    /// Hands the rule set.
    pub set: u64,
    /// For each alternative: reached hands on which some candidate split satisfied it.
    pub alt_satisfiable: Vec<u64>,
}

/// The result of checking one house way.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    pub coverage: Vec<RuleCoverage>,
    pub hands: u64,
}

/// Checks `way` statically and over `hands` random hands of `deck` drawn from `seed`.
pub fn check(way: &HouseWay, ev: &Evaluator, deck: Deck, hands: u64, seed: u64) -> Report {
    let mut report = Report {
        hands,
        ..Report::default()
    };
    for (i, rule) in way.compiled.rules.iter().enumerate() {
        static_checks(rule, i, way, &mut report);
    }
    report.coverage = coverage(way, ev, deck, hands, seed);
    sample_warnings(way, &mut report);
    report
}

fn tag(way: &HouseWay, rule: &Rule, i: usize) -> String {
    format!(
        "{}:{}: rule {} '{}'",
        way.origin,
        rule.line,
        i + 1,
        rule.name
    )
}

/// Count features implied by rank features: (rank feature, count feature, needed count).
const IMPLIES: [(Feature, Feature, u8); 5] = [
    (Feature::HighPair, Feature::Pairs, 1),
    (Feature::LowPair, Feature::Pairs, 2),
    (Feature::ThirdPair, Feature::Pairs, 3),
    (Feature::TripsRank, Feature::Trips, 1),
    (Feature::QuadsRank, Feature::Quads, 1),
];

/// Pairs of conditions of one `when` that no hand can meet together.
fn contradictions(w: &When) -> Vec<String> {
    let mut out = Vec::new();
    for (rank, count, needed) in IMPLIES {
        for r in w.conds.iter().filter(|c| c.feature == rank) {
            let clash = w
                .conds
                .iter()
                .find(|c| c.feature == count && c.with_joker == r.with_joker && c.max < needed);
            if let Some(c) = clash {
                out.push(format!("`{}` contradicts `{}`", r.label, c.label));
            }
        }
    }
    let five = w
        .conds
        .iter()
        .find(|c| c.feature == Feature::FiveAces && c.min == 1);
    let ace_single = w
        .conds
        .iter()
        .find(|c| c.feature == Feature::AceSingle && c.min == 1);
    if let (Some(a), Some(b)) = (five, ace_single)
        && a.with_joker == b.with_joker
    {
        out.push(format!("`{}` contradicts `{}`", a.label, b.label));
    }
    out
}

fn static_checks(rule: &Rule, i: usize, way: &HouseWay, report: &mut Report) {
    let at = tag(way, rule, i);
    for c in contradictions(&rule.when) {
        report.errors.push(format!(
            "{at}: contradictory conditions: {c}: it can never fire"
        ));
    }
    let earlier_catch_all = way.compiled.rules[..i].iter().position(|r| {
        r.when.conds.is_empty() && r.when.any.is_empty() && r.alts.iter().any(Alt::is_unconstrained)
    });
    if let Some(j) = earlier_catch_all {
        report.warnings.push(format!(
            "{at}: shadowed: rule {} before it sets every hand",
            j + 1
        ));
    }
    if rule.alts.last().is_some_and(|a| a.only_if_better) {
        report.warnings.push(format!(
            "{at}: its last alternative has only_if_better_than = \"next\" but no next alternative"
        ));
    }
}

fn coverage(
    way: &HouseWay,
    ev: &Evaluator,
    deck: Deck,
    hands: u64,
    seed: u64,
) -> Vec<RuleCoverage> {
    let rules = &way.compiled.rules;
    let mut cov: Vec<RuleCoverage> = rules
        .iter()
        .map(|r| RuleCoverage {
            alt_satisfiable: vec![0; r.alts.len()],
            ..RuleCoverage::default()
        })
        .collect();
    for hand in crate::cards::deal::sample_hands(deck, seed).take(hands as usize) {
        let splits = ev.split_values(&hand);
        let view = HandView::new(&hand, &splits);
        let legal = view.legal_mask();
        let (_, chosen) = choose(&way.compiled, &view, legal);
        for (r, rule) in rules.iter().enumerate() {
            if !when_holds(&rule.when, &view.features) {
                continue;
            }
            cov[r].matched += 1;
            if r > chosen {
                continue;
            }
            cov[r].reached += 1;
            for (a, alt) in rule.alts.iter().enumerate() {
                cov[r].alt_satisfiable[a] += (alt_mask(alt, &view, legal) != 0) as u64;
            }
        }
        cov[chosen].set += 1;
    }
    cov
}

fn sample_warnings(way: &HouseWay, report: &mut Report) {
    let n = report.hands;
    for (i, (rule, c)) in way.compiled.rules.iter().zip(&report.coverage).enumerate() {
        let at = tag(way, rule, i);
        if c.matched == 0 {
            report
                .warnings
                .push(format!("{at}: never fires in {n} sampled hands"));
            continue;
        }
        if c.reached == 0 {
            report.warnings.push(format!(
                "{at}: shadowed: earlier rules set all {} sampled hands it matches",
                c.matched
            ));
            continue;
        }
        for (a, &sat) in c.alt_satisfiable.iter().enumerate() {
            if sat == 0 {
                report.warnings.push(format!(
                    "{at}: alternative {}: no sampled hand reaching the rule satisfies it",
                    a + 1
                ));
            }
        }
        let fell = c.reached - c.set;
        if fell > 0 {
            report.warnings.push(format!(
                "{at}: falls through on {fell} of {} sampled hands it was reached with",
                c.reached
            ));
        }
    }
}
