//! Applying a compiled house way to one hand: the hot path.
//!
//! Invariants: only candidate splits (the legal ones, or a subset of them given by the caller)
//! are ever chosen; the result is deterministic; nothing here allocates or touches a string
//! except [`explain`]. Ties after all objectives go to the split that keeps the joker in the back,
//! then to the lowest split index.

use super::compile::{Alt, CompiledWay, Cond, JokerPlace, Objective, PairSel, When};
use super::features::{FeatureSet, NONE};
use crate::cards::Card;
use crate::eval::split::{FRONT_POSITIONS, SPLIT_COUNT, SplitValues};

/// One hand as the rules see it.
pub struct HandView<'a> {
    pub splits: &'a SplitValues,
    pub features: FeatureSet,
    /// Bit k set when split k puts a joker in front.
    pub joker_front: u32,
    /// Bit k set when split k puts every joker of the hand in front.
    pub every_joker_front: u32,
    pub has_joker: bool,
}

impl<'a> HandView<'a> {
    /// Computes the features of `hand` (sorted by card index).
    #[inline]
    pub fn new(hand: &[Card; 7], splits: &'a SplitValues) -> HandView<'a> {
        let (mut joker_front, mut every_joker_front) = (0u32, 0u32);
        let has_joker = hand[6].is_joker();
        if has_joker {
            let jokers = hand.iter().filter(|c| c.is_joker()).count();
            for (k, &(i, j)) in FRONT_POSITIONS.iter().enumerate() {
                let in_front = [i, j]
                    .iter()
                    .filter(|&&p| hand[p as usize].is_joker())
                    .count();
                joker_front |= u32::from(in_front > 0) << k;
                every_joker_front |= u32::from(in_front == jokers) << k;
            }
        }
        HandView {
            splits,
            features: FeatureSet::of(hand, splits),
            joker_front,
            every_joker_front,
            has_joker,
        }
    }

    /// Bit mask of the legal splits.
    #[inline]
    pub fn legal_mask(&self) -> u32 {
        (0..SPLIT_COUNT).fold(0, |m, k| m | ((self.splits.is_legal(k) as u32) << k))
    }
}

/// Whether one condition holds for the hand's features.
#[inline]
pub fn cond_holds(c: &Cond, f: &FeatureSet) -> bool {
    let v = f.get(c.feature, c.with_joker);
    v != NONE && c.min <= v && v <= c.max
}

/// Whether a `when` holds for the hand.
pub fn when_holds(w: &When, f: &FeatureSet) -> bool {
    w.conds.iter().all(|c| cond_holds(c, f))
        && (w.any.is_empty() || w.any.iter().any(|a| when_holds(a, f)))
}

/// The splits among `candidates` that satisfy `alt`.
#[inline]
pub fn alt_mask(alt: &Alt, view: &HandView, candidates: u32) -> u32 {
    let pair_rank = match alt.pair {
        PairSel::None => NONE,
        PairSel::Group(f) => match view.features.get(f, true) {
            NONE => return 0,
            r => r,
        },
        PairSel::Rank(r) => r,
    };
    let mut out = 0;
    let mut bits = candidates;
    while bits != 0 {
        let k = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if split_fits(alt, view, k, pair_rank) {
            out |= 1 << k;
        }
    }
    out
}

#[inline]
fn split_fits(alt: &Alt, view: &HandView, k: usize, pair_rank: u8) -> bool {
    let (front, back) = (view.splits.front[k].0, view.splits.back[k].0);
    let in_range = |v: u32, (lo, hi): (u32, u32)| lo <= v && v <= hi;
    if !in_range(back, alt.back) || !in_range(front, alt.front) {
        return false;
    }
    let slots = view.splits.front[k].slots();
    let top = slots[0].wrapping_sub(1);
    let is_pair = slots[1] == 0;
    let second = if is_pair { top } else { slots[1] - 1 };
    let rank_ok = |r: u8, (lo, hi): (u8, u8)| lo <= r && r <= hi;
    if !rank_ok(top, alt.top) || !rank_ok(second, alt.second) {
        return false;
    }
    if pair_rank != NONE && !(is_pair && top == pair_rank) {
        return false;
    }
    // "front": every joker in front (two jokers both); "back": none in front.
    match alt.joker {
        JokerPlace::Anywhere => true,
        JokerPlace::Back => view.joker_front >> k & 1 == 0,
        JokerPlace::Front => !view.has_joker || view.every_joker_front >> k & 1 == 1,
    }
}

/// The sort key of split `k` under the objectives, then the stated final tie-break.
#[inline]
fn key(objectives: &[Objective], view: &HandView, k: usize) -> u64 {
    let mut key = 0u64;
    for o in objectives {
        key = match o {
            Objective::Front => key << 24 | view.splits.front[k].0 as u64,
            Objective::Back => key << 24 | view.splits.back[k].0 as u64,
            Objective::FrontRanks => {
                let s = view.splits.front[k].slots();
                let second = if s[1] == 0 { s[0] } else { s[1] };
                key << 8 | (s[0] << 4 | second) as u64
            }
        };
    }
    let joker_back = (view.joker_front >> k & 1 == 0) as u64;
    (key << 1 | joker_back) << 5 | (31 - k as u64)
}

/// The best split of a non-empty `mask` under `objectives`.
#[inline]
pub fn best_of(mask: u32, objectives: &[Objective], view: &HandView) -> usize {
    let mut bits = mask;
    let (mut best, mut best_key) = (usize::MAX, 0u64);
    while bits != 0 {
        let k = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let kk = key(objectives, view, k);
        if best == usize::MAX || kk > best_key {
            best = k;
            best_key = kk;
        }
    }
    best
}

/// The split the alternatives from `first` on choose, with the alternative's index.
pub fn choose_alts(
    alts: &[Alt],
    first: usize,
    view: &HandView,
    candidates: u32,
) -> Option<(usize, usize)> {
    for (i, alt) in alts.iter().enumerate().skip(first) {
        let mask = alt_mask(alt, view, candidates);
        if mask == 0 {
            continue;
        }
        let pick = best_of(mask, &alt.objectives, view);
        if alt.only_if_better
            && let Some((next, j)) = choose_alts(alts, i + 1, view, candidates)
            && view.splits.front[pick] <= view.splits.front[next]
        {
            return Some((next, j));
        }
        return Some((pick, i));
    }
    None
}

/// The chosen split and the index of the rule that chose it, among `candidates` (a non-empty
/// subset of the legal splits).
#[inline]
pub fn choose(way: &CompiledWay, view: &HandView, candidates: u32) -> (usize, usize) {
    for (r, rule) in way.rules.iter().enumerate() {
        if !when_holds(&rule.when, &view.features) {
            continue;
        }
        if let Some((k, _)) = choose_alts(&rule.alts, 0, view, candidates) {
            return (k, r);
        }
    }
    // Unreachable for a compiled way (its last rule is a catch-all) with candidates; kept total.
    (
        best_of(candidates, &[Objective::Back, Objective::Front], view),
        way.rules.len() - 1,
    )
}

/// Every rule tried on the hand and why it did or did not apply, ending with the one that set it.
pub fn explain(way: &CompiledWay, view: &HandView, candidates: u32) -> Vec<String> {
    let mut out = Vec::new();
    for (r, rule) in way.rules.iter().enumerate() {
        let head = format!("rule {} '{}'", r + 1, rule.name);
        if !when_holds(&rule.when, &view.features) {
            out.push(format!(
                "{head}: does not apply: {}",
                failed(&rule.when, &view.features)
            ));
            continue;
        }
        match choose_alts(&rule.alts, 0, view, candidates) {
            Some((k, i)) => {
                for skipped in 0..i {
                    out.push(format!("{head}: alternative {}: not taken", skipped + 1));
                }
                out.push(format!(
                    "{head}: applies; alternative {} sets split {k}",
                    i + 1
                ));
                return out;
            }
            None => out.push(format!(
                "{head}: applies, but no legal split satisfies any alternative: falls through"
            )),
        }
    }
    out
}

/// The conditions of `w` that fail, as written, with the hand's value.
fn failed(w: &When, f: &FeatureSet) -> String {
    let mut parts: Vec<String> = w
        .conds
        .iter()
        .filter(|c| !cond_holds(c, f))
        .map(|c| {
            let value = f.get(c.feature, c.with_joker);
            format!("{} (hand has {})", c.label, c.feature.kind().show(value))
        })
        .collect();
    if !w.any.is_empty() && !w.any.iter().any(|a| when_holds(a, f)) {
        parts.push("no `any` alternative holds".into());
    }
    parts.join("; ")
}
