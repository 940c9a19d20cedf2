//! `check-way`'s lint: exact, over every 7-card hand of a game's deck.
//!
//! What no hand of any deck can meet is refused at load time ([`super::validate`]); the lint
//! decides what depends on the game's deck and on the hands' split values. For every rule it
//! counts, exactly, the hands whose conditions it meets (`matched`), the hands it is reached with
//! (no earlier rule set them), the hands it sets, and the hands that fall through it (reached, but
//! no candidate split satisfies any alternative); for every alternative, the reached hands some
//! candidate split satisfies and the hands it sets. From those come the findings, each with its
//! exact count of hands and an example hand:
//! - `never_fires`: no hand of the deck meets the rule's conditions;
//! - `shadowed`: hands meet them, but earlier rules set every one;
//! - `falls_through`: some hands reach the rule and no alternative fits them;
//! - `alternative_unsatisfiable`: no hand reaching the rule satisfies an alternative;
//! - `alternative_shadowed`: an alternative fits some hands but never sets one (the alternatives
//!   before it, or its `only_if_better_than` comparison, take them all).
//!
//! A rule's file may accept findings with `allow = [...]` and a `because`: they are then reported
//! as notes, not warnings; an allowance the lint does not need is itself a warning, so
//! allowances cannot outlive what they explain.
//!
//! Method: hands are enumerated by shape ([`super::shapes`]): every hand of a shape meets the same
//! conditions and is set by the same rule and alternative, so each shape is applied once and
//! counted with its number of hands. The counts add up to `C(deck size, 7)` (154,143,080 hands
//! for 53 cards); examples are each finding's first shape in enumeration order, so the report is
//! deterministic.

use rayon::prelude::*;

use super::HouseWay;
use super::apply::{HandView, alt_mask, choose_alts, when_holds};
use super::compile::{Finding, Rule};
use super::shapes::{HandShape, every_shape, hand_count};
use crate::cards::{Card, Cards, Deck};
use crate::eval::Evaluator;

/// Exact per-rule counts of hands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleCoverage {
    /// Hands whose conditions hold.
    pub matched: u64,
    /// Hands the rule is reached with: conditions hold and no earlier rule set them.
    pub reached: u64,
    /// Hands the rule sets.
    pub set: u64,
    /// Hands that reach the rule and fall through it.
    pub fell: u64,
    /// Per alternative: reached hands some candidate split satisfies.
    pub alt_satisfiable: Vec<u64>,
    /// Per alternative: hands it sets.
    pub alt_set: Vec<u64>,
}

/// One finding of the lint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// The rule (0-based).
    pub rule: usize,
    pub finding: Finding,
    /// The alternative (0-based), for the alternative findings.
    pub alternative: Option<usize>,
    /// The hands the finding concerns.
    pub hands: u64,
    /// A hand it concerns, if any hand does.
    pub example: Option<[Card; 7]>,
    /// The finding in words, with its counts and example (without the rule's name).
    pub message: String,
    /// The rule's reason, when its file accepts this finding.
    pub allowed_because: Option<String>,
}

/// The result of linting one house way on one deck.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Hands of the deck: `C(deck size, 7)`.
    pub hands: u64,
    /// Shapes enumerated.
    pub shapes: usize,
    pub coverage: Vec<RuleCoverage>,
    /// Every finding, rule by rule.
    pub issues: Vec<Issue>,
    /// Allowances no finding needs: `(rule, finding)`.
    pub unused_allowances: Vec<(usize, Finding)>,
}

impl Report {
    /// Findings the file does not accept: warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter().filter(|i| i.allowed_because.is_none())
    }

    /// Findings the file accepts, with its reasons: notes.
    pub fn notes(&self) -> impl Iterator<Item = &Issue> {
        self.issues.iter().filter(|i| i.allowed_because.is_some())
    }

    /// Whether there is nothing to warn about: no unaccepted finding, no unused allowance.
    pub fn is_clean(&self) -> bool {
        self.warnings().next().is_none() && self.unused_allowances.is_empty()
    }
}

/// Lints `way` over every 7-card hand of `deck`, valued by `ev`.
pub fn check(way: &HouseWay, ev: &Evaluator, deck: Deck) -> Report {
    let shapes = every_shape(deck);
    let tally = tally_shapes(way, ev, &shapes);
    debug_assert_eq!(
        tally.rules.iter().map(|r| r.coverage.set).sum::<u64>(),
        hand_count(deck),
        "every hand is set by exactly one rule"
    );
    let issues = (way.compiled.rules.iter().enumerate())
        .flat_map(|(r, rule)| rule_issues(r, rule, &tally.rules[r], deck))
        .collect::<Vec<_>>();
    let unused_allowances = unused_allowances(way, &issues);
    Report {
        hands: hand_count(deck),
        shapes: shapes.len(),
        coverage: tally.rules.into_iter().map(|r| r.coverage).collect(),
        issues,
        unused_allowances,
    }
}

/// An example: the shape's index in enumeration order (lowest wins) and its hand.
type Example = Option<(usize, [Card; 7])>;

fn earliest(a: Example, b: Example) -> Example {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Counts and examples for one rule.
#[derive(Clone, Debug, Default)]
struct RuleTally {
    coverage: RuleCoverage,
    /// A hand that meets the conditions.
    matched: Example,
    /// A hand that meets the conditions but an earlier rule set, with that rule.
    shadowed: Option<(usize, [Card; 7], usize)>,
    /// A hand that falls through, with the rule that then set it.
    fell: Option<(usize, [Card; 7], usize)>,
    /// Per alternative: a hand it fits but does not set.
    alt_unused: Vec<Example>,
}

#[derive(Clone, Debug)]
struct Tally {
    rules: Vec<RuleTally>,
}

impl Tally {
    fn new(way: &HouseWay) -> Tally {
        let rules = way.compiled.rules.iter().map(|r| {
            let alts = r.alts.len();
            RuleTally {
                coverage: RuleCoverage {
                    alt_satisfiable: vec![0; alts],
                    alt_set: vec![0; alts],
                    ..RuleCoverage::default()
                },
                alt_unused: vec![None; alts],
                ..RuleTally::default()
            }
        });
        Tally {
            rules: rules.collect(),
        }
    }

    fn merge(mut self, other: Tally) -> Tally {
        for (a, b) in self.rules.iter_mut().zip(other.rules) {
            a.merge(b);
        }
        self
    }
}

fn earliest_with<T: Copy>(
    a: Option<(usize, [Card; 7], T)>,
    b: Option<(usize, [Card; 7], T)>,
) -> Option<(usize, [Card; 7], T)> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

impl RuleTally {
    fn merge(&mut self, other: RuleTally) {
        let (c, o) = (&mut self.coverage, other.coverage);
        c.matched += o.matched;
        c.reached += o.reached;
        c.set += o.set;
        c.fell += o.fell;
        for (a, b) in c.alt_satisfiable.iter_mut().zip(o.alt_satisfiable) {
            *a += b;
        }
        for (a, b) in c.alt_set.iter_mut().zip(o.alt_set) {
            *a += b;
        }
        self.matched = earliest(self.matched, other.matched);
        self.shadowed = earliest_with(self.shadowed, other.shadowed);
        self.fell = earliest_with(self.fell, other.fell);
        for (a, b) in self.alt_unused.iter_mut().zip(other.alt_unused) {
            *a = earliest(*a, b);
        }
    }
}

/// Applies the way to every shape (in parallel) and adds up the counts.
fn tally_shapes(way: &HouseWay, ev: &Evaluator, shapes: &[HandShape]) -> Tally {
    shapes
        .par_iter()
        .enumerate()
        .fold(
            || Tally::new(way),
            |mut t, (index, shape)| {
                tally_one(way, ev, index, shape, &mut t);
                t
            },
        )
        .reduce(|| Tally::new(way), Tally::merge)
}

/// What the way does with one shape's hands.
fn tally_one(way: &HouseWay, ev: &Evaluator, index: usize, shape: &HandShape, t: &mut Tally) {
    let (hand, w) = (shape.hand, shape.hands);
    let splits = ev.split_values(&hand);
    let view = HandView::new(&hand, &splits);
    let legal = view.legal_mask();
    let mut chosen: Option<usize> = None;
    let mut fell_from = Vec::new();
    for (r, rule) in way.compiled.rules.iter().enumerate() {
        if !when_holds(&rule.when, &view.features) {
            continue;
        }
        let rt = &mut t.rules[r];
        rt.coverage.matched += w;
        rt.matched = rt.matched.or(Some((index, hand)));
        if chosen.is_some() {
            continue;
        }
        rt.coverage.reached += w;
        let fits: Vec<bool> = (rule.alts.iter())
            .map(|alt| alt_mask(alt, &view, legal) != 0)
            .collect();
        for (a, &fit) in fits.iter().enumerate() {
            rt.coverage.alt_satisfiable[a] += w * fit as u64;
        }
        match choose_alts(&rule.alts, 0, &view, legal) {
            Some((_, a)) => {
                rt.coverage.set += w;
                rt.coverage.alt_set[a] += w;
                for (other, &fit) in fits.iter().enumerate() {
                    if fit && other != a {
                        let slot = &mut rt.alt_unused[other];
                        *slot = slot.or(Some((index, hand)));
                    }
                }
                chosen = Some(r);
            }
            None => {
                rt.coverage.fell += w;
                fell_from.push(r);
            }
        }
    }
    let setter = chosen.expect("the last rule sets every hand");
    for r in fell_from {
        let slot = &mut t.rules[r].fell;
        *slot = slot.or(Some((index, hand, setter)));
    }
    for (r, rule) in way.compiled.rules.iter().enumerate().skip(setter + 1) {
        if t.rules[r].shadowed.is_none() && when_holds(&rule.when, &view.features) {
            t.rules[r].shadowed = Some((index, hand, setter));
        }
    }
}

/// A hand as the reports write it.
pub fn show(hand: &[Card; 7]) -> String {
    Cards::from_cards(hand).to_string()
}

/// The findings about rule `r` from its counts.
fn rule_issues(r: usize, rule: &Rule, t: &RuleTally, deck: Deck) -> Vec<Issue> {
    let c = &t.coverage;
    let issue = |finding, alternative, hands, example: Option<[Card; 7]>, message| Issue {
        rule: r,
        finding,
        alternative,
        hands,
        example,
        message,
        allowed_because: rule.allow.contains(&finding).then(|| rule.because.clone()),
    };
    if c.matched == 0 {
        let message = format!(
            "never fires: no hand of the {}-card deck meets its conditions",
            deck.size()
        );
        return vec![issue(Finding::NeverFires, None, 0, None, message)];
    }
    if c.reached == 0 {
        let (_, hand, setter) = t.shadowed.expect("a matched, unreached hand");
        let message = format!(
            "shadowed: earlier rules set all {} hands that meet its conditions (e.g. {}, set by \
             rule {})",
            c.matched,
            show(&hand),
            setter + 1
        );
        return vec![issue(
            Finding::Shadowed,
            None,
            c.matched,
            Some(hand),
            message,
        )];
    }
    let mut out = Vec::new();
    if let Some((_, hand, setter)) = t.fell {
        let message = format!(
            "falls through on {} of the {} hands it is reached with: no candidate split \
             satisfies any alternative (e.g. {}, then set by rule {})",
            c.fell,
            c.reached,
            show(&hand),
            setter + 1
        );
        out.push(issue(
            Finding::FallsThrough,
            None,
            c.fell,
            Some(hand),
            message,
        ));
    }
    for (a, (&fits, &sets)) in c.alt_satisfiable.iter().zip(&c.alt_set).enumerate() {
        if fits == 0 {
            let message = format!(
                "alternative {}: no hand reaching the rule satisfies it ({} hands reach the \
                 rule)",
                a + 1,
                c.reached
            );
            out.push(issue(
                Finding::AlternativeUnsatisfiable,
                Some(a),
                c.reached,
                None,
                message,
            ));
        } else if sets == 0 {
            let hand = t.alt_unused[a].map(|(_, h)| h);
            let message = format!(
                "alternative {}: never sets a hand: on all {fits} hands it fits, an earlier \
                 alternative or its `only_if_better_than` comparison sets it{}",
                a + 1,
                hand.map_or(String::new(), |h| format!(" (e.g. {})", show(&h)))
            );
            out.push(issue(
                Finding::AlternativeShadowed,
                Some(a),
                fits,
                hand,
                message,
            ));
        }
    }
    out
}

/// Allowances in the file that no finding of this deck needs.
fn unused_allowances(way: &HouseWay, issues: &[Issue]) -> Vec<(usize, Finding)> {
    let mut out = Vec::new();
    for (r, rule) in way.compiled.rules.iter().enumerate() {
        for &finding in &rule.allow {
            if !issues.iter().any(|i| i.rule == r && i.finding == finding) {
                out.push((r, finding));
            }
        }
    }
    out
}
