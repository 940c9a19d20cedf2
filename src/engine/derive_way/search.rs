//! The greedy search of `derive-way`, on the bench's shapes without compiling a way per
//! candidate.
//!
//! Prepared once: each shape's features, the shapes of each class, the split each alternative
//! chooses for each shape (or none), and each legal split's net. A setting's choice for a shape
//! is then its first alternative that chooses one (what `apply::choose_alts` does, there being
//! no `only_if_better_than`), and a rule (class, bound, setting) inserted at position `p` takes
//! exactly the shapes of its class and bound that the way's rule `p` or a later one set now:
//! every setting ends with an unconstrained alternative, so a rule never lets a hand fall
//! through. So a candidate's gain at every position comes from one pass over its class, gains
//! summed by (bound value, current rule), then prefix sums over the bound's range and suffix sums
//! over positions.
//!
//! Each step adds the (rule, position) that raises the way's net most, drops any rule that no
//! shape reaches any more, then re-sets rules (same hands, another setting) while that raises
//! the net. Ties go to the first candidate in the vocabulary's order, so the search is
//! deterministic.

use rayon::prelude::*;

use super::vocabulary::{Bound, RuleSpec, Vocabulary};
use crate::engine::workbench::Bench;
use crate::eval::split::SPLIT_COUNT;
use crate::strategy::way::apply::{HandView, best_of, when_holds};
use crate::strategy::way::compile::Alt;
use crate::strategy::way::features::{FeatureSet, NONE};

/// No split: the alternative fits none of the shape's legal splits.
const NO_SPLIT: u8 = u8::MAX;

/// What the search reads of each shape.
pub struct Prepared {
    pub features: Vec<FeatureSet>,
    /// Per class, its shapes (ascending).
    pub members: Vec<Vec<u32>>,
    /// Per alternative, per shape: the split it chooses, or `NO_SPLIT`.
    pub choice: Vec<Vec<u8>>,
    /// Per shape, per split: the net of that setting (0 for an illegal split).
    pub split_net: Vec<[i64; SPLIT_COUNT]>,
    /// Per class, the settings that set its shapes differently: of settings that choose the
    /// same split for every shape of the class, the first (a rule of the class with any of them
    /// is priced alike, and ties go to the first).
    pub distinct: Vec<Vec<usize>>,
}

impl Prepared {
    /// Everything the search needs of `bench`'s shapes under `vocab`.
    pub fn new(bench: &Bench, vocab: &Vocabulary) -> Prepared {
        let (whens, alts) = vocab.compiled();
        let shapes = bench.hands.len();
        let per_shape: Vec<(FeatureSet, Vec<u8>, [i64; SPLIT_COUNT])> = (0..shapes)
            .into_par_iter()
            .map(|s| {
                let view = HandView::new(&bench.hands[s], &bench.splits[s]);
                let legal = view.legal_mask();
                let choices = alts.iter().map(|a| choose(a, &view, legal)).collect();
                let mut nets = [0i64; SPLIT_COUNT];
                for (k, net) in nets.iter_mut().enumerate() {
                    if legal >> k & 1 == 1 {
                        *net = i64::try_from(bench.place(s, k, 0).net).expect("a shape's net");
                    }
                }
                (view.features, choices, nets)
            })
            .collect();
        let members = (whens.par_iter())
            .map(|w| {
                (0..shapes as u32)
                    .filter(|&s| when_holds(w, &per_shape[s as usize].0))
                    .collect()
            })
            .collect();
        let mut choice = vec![Vec::with_capacity(shapes); alts.len()];
        let mut features = Vec::with_capacity(shapes);
        let mut split_net = Vec::with_capacity(shapes);
        for (f, choices, nets) in per_shape {
            for (a, c) in choices.into_iter().enumerate() {
                choice[a].push(c);
            }
            features.push(f);
            split_net.push(nets);
        }
        let mut prepared = Prepared {
            features,
            members,
            choice,
            split_net,
            distinct: Vec::new(),
        };
        prepared.distinct = (prepared.members.par_iter())
            .map(|m| prepared.distinct_sets(&vocab.sets, m))
            .collect();
        prepared
    }

    /// The split the alternatives `alts` choose for shape `s`.
    #[inline]
    fn chosen(&self, alts: &[usize], s: usize) -> u8 {
        let found = alts
            .iter()
            .map(|&a| self.choice[a][s])
            .find(|&k| k != NO_SPLIT);
        found.expect("a setting's last alternative fits every shape")
    }

    /// Of `sets`, the first of each group that chooses alike for every shape of `shapes`.
    fn distinct_sets(&self, sets: &[Vec<usize>], shapes: &[u32]) -> Vec<usize> {
        use std::collections::HashMap;
        use std::hash::{DefaultHasher, Hasher};
        let choices = |set: usize| {
            shapes
                .iter()
                .map(move |&s| self.chosen(&sets[set], s as usize))
        };
        let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut out = Vec::new();
        for set in 0..sets.len() {
            let mut hasher = DefaultHasher::new();
            choices(set).for_each(|k| hasher.write_u8(k));
            let same = seen.entry(hasher.finish()).or_default();
            if !same.iter().any(|&other| choices(other).eq(choices(set))) {
                same.push(set);
                out.push(set);
            }
        }
        out
    }

    /// The net of shape `s` under the alternatives `alts` (the last unconstrained).
    #[inline]
    pub fn net(&self, alts: &[usize], s: usize) -> i64 {
        self.split_net[s][self.chosen(alts, s) as usize]
    }

    /// Whether rule `rule` matches shape `s` (its class and bound).
    fn matches(&self, class_member: &[bool], rule: &RuleSpec, s: usize) -> bool {
        (rule.class.is_none() || class_member[s])
            && rule.bound.is_none_or(|b| b.holds(&self.features[s]))
    }
}

/// The split `alt` chooses among `legal`, as `apply::choose_alts` would.
fn choose(alt: &Alt, view: &HandView, legal: u32) -> u8 {
    match crate::strategy::way::apply::alt_mask(alt, view, legal) {
        0 => NO_SPLIT,
        mask => best_of(mask, &alt.objectives, view) as u8,
    }
}

/// One step of the search: the rule it added, where, and the way after it.
#[derive(Clone, Debug)]
pub struct Step {
    /// The rule added (for the first step, the catch-all).
    pub added: RuleSpec,
    /// Where it went (0-based) in the way after the step.
    pub position: usize,
    /// Rules of the way after the step.
    pub rules: usize,
    /// What the step raised the net by (the first step: none).
    pub saved: Option<i128>,
    /// Rules re-set to another setting in the step.
    pub resets: usize,
    /// The way's net after the step.
    pub net: i128,
}

/// The search's result: the way's rules, the way as each step left it, and its net.
#[derive(Clone, Debug)]
pub struct Derived {
    pub rules: Vec<RuleSpec>,
    pub steps: Vec<Step>,
    pub net: i128,
    /// Per shape, the rule (index into `rules`) that sets it.
    pub rule_of: Vec<u16>,
}

/// A candidate insertion: gain, then its place in the vocabulary's order (lower first on ties).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    gain: i128,
    class: usize,
    set: usize,
    bound: Option<Bound>,
    position: usize,
}

/// The better of two candidates: the higher gain, else the earlier.
fn better(a: Option<Candidate>, b: Option<Candidate>) -> Option<Candidate> {
    match (a, b) {
        (Some(x), Some(y)) if y.gain > x.gain => Some(y),
        (Some(x), Some(y)) if y.gain == x.gain && order(&y) < order(&x) => Some(y),
        (Some(x), _) => Some(x),
        (None, y) => y,
    }
}

fn order(c: &Candidate) -> (usize, usize, Option<(u8, u8, u8)>, usize) {
    let bound = c.bound.map(|b| (b.feature as u8, b.lo, b.hi));
    (c.class, c.set, bound, c.position)
}

/// The way under search.
struct State<'a> {
    prepared: &'a Prepared,
    vocab: &'a Vocabulary,
    /// Per class, whether each shape is in it.
    member: Vec<Vec<bool>>,
    rules: Vec<RuleSpec>,
    rule_of: Vec<u16>,
    net_of: Vec<i64>,
}

impl State<'_> {
    fn net(&self) -> i128 {
        self.net_of.iter().map(|&n| i128::from(n)).sum()
    }

    fn class_member(&self, rule: &RuleSpec) -> &[bool] {
        rule.class.map_or(&[], |c| &self.member[c])
    }

    /// The best insertion of a rule of class `class` with setting `set`, at any position and
    /// under any bound of the class.
    fn best_insertion(&self, class: usize, set: usize) -> Option<Candidate> {
        let rules = self.rules.len();
        let alts = &self.vocab.sets[set];
        let features = &self.vocab.classes[class].bounds;
        // by_value[f][v * rules + r]: gain of the shapes with value v of bound f set by rule r;
        // value 13 holds the shapes without the feature. unbounded[r]: every shape by rule.
        let mut by_value = vec![vec![0i128; 14 * rules]; features.len()];
        let mut unbounded = vec![0i128; rules];
        for &s in &self.prepared.members[class] {
            let s = s as usize;
            let gain = i128::from(self.prepared.net(alts, s) - self.net_of[s]);
            if gain == 0 {
                continue;
            }
            let r = self.rule_of[s] as usize;
            unbounded[r] += gain;
            for (f, table) in features.iter().zip(&mut by_value) {
                let v = match self.prepared.features[s].get(*f, true) {
                    NONE => 13,
                    v => v as usize,
                };
                table[v * rules + r] += gain;
            }
        }
        let candidate = |gain, bound, position| Candidate {
            gain,
            class,
            set,
            bound,
            position,
        };
        let mut best = best_position(&unbounded).map(|(g, p)| candidate(g, None, p));
        for (f, table) in features.iter().zip(&by_value) {
            for lo in 0..13u8 {
                let mut column = vec![0i128; rules];
                for hi in lo..13u8 {
                    let row = &table[hi as usize * rules..][..rules];
                    column.iter_mut().zip(row).for_each(|(c, v)| *c += v);
                    if (lo, hi) == (0, 12) {
                        continue;
                    }
                    let bound = Bound {
                        feature: *f,
                        lo,
                        hi,
                    };
                    let found = best_position(&column).map(|(g, p)| candidate(g, Some(bound), p));
                    best = better(best, found);
                }
            }
        }
        best.filter(|c| c.gain > 0)
    }

    /// Inserts `rule` at `position`, sets the shapes it takes, and drops rules no shape reaches.
    fn insert(&mut self, rule: RuleSpec, position: usize) {
        let member = self.class_member(&rule).to_vec();
        for s in 0..self.rule_of.len() {
            let r = self.rule_of[s] as usize;
            if r >= position && self.prepared.matches(&member, &rule, s) {
                self.rule_of[s] = position as u16;
                self.net_of[s] = self.prepared.net(&rule.alts, s);
            } else if r >= position {
                self.rule_of[s] += 1;
            }
        }
        self.rules.insert(position, rule);
        self.drop_unreached();
    }

    /// Removes every rule but the last that sets no shape.
    fn drop_unreached(&mut self) {
        let mut used = vec![false; self.rules.len()];
        for &r in &self.rule_of {
            used[r as usize] = true;
        }
        *used.last_mut().expect("a catch-all") = true;
        let mut new_index = vec![0u16; self.rules.len()];
        let mut next = 0u16;
        for (r, &u) in used.iter().enumerate() {
            new_index[r] = next;
            next += u as u16;
        }
        for r in &mut self.rule_of {
            *r = new_index[*r as usize];
        }
        let mut keep = used.into_iter();
        self.rules.retain(|_| keep.next().unwrap_or(true));
    }

    /// The best change of one rule's setting (same hands): rule, setting, gain.
    fn best_reset(&self) -> Option<(usize, usize, i128)> {
        let rules = self.rules.len();
        (0..self.vocab.sets.len())
            .into_par_iter()
            .map(|set| {
                let alts = &self.vocab.sets[set];
                let mut gains = vec![0i128; rules];
                for s in 0..self.rule_of.len() {
                    let gain = self.prepared.net(alts, s) - self.net_of[s];
                    gains[self.rule_of[s] as usize] += i128::from(gain);
                }
                let (r, g) = (gains.into_iter().enumerate()).fold((0, 0), |best, (r, g)| {
                    if g > best.1 { (r, g) } else { best }
                });
                (r, set, g)
            })
            .filter(|&(_, _, g)| g > 0)
            .max_by_key(|&(_, set, g)| (g, std::cmp::Reverse(set)))
    }

    /// Re-sets rules while that raises the net; how many re-sets.
    fn reset_rules(&mut self) -> usize {
        let mut resets = 0;
        while let Some((rule, set, _)) = self.best_reset() {
            self.rules[rule].alts = self.vocab.sets[set].clone();
            for s in 0..self.rule_of.len() {
                if self.rule_of[s] as usize == rule {
                    self.net_of[s] = self.prepared.net(&self.rules[rule].alts, s);
                }
            }
            resets += 1;
        }
        resets
    }
}

/// The best position to insert a rule whose gains by current rule are `by_rule`: the largest
/// sum over rules at or after a position (before the last rule's own place, at most).
fn best_position(by_rule: &[i128]) -> Option<(i128, usize)> {
    let mut suffix = 0i128;
    let mut best: Option<(i128, usize)> = None;
    for p in (0..by_rule.len()).rev() {
        suffix += by_rule[p];
        if best.is_none_or(|(g, _)| suffix >= g) {
            best = Some((suffix, p));
        }
    }
    best
}

/// The greedy search: the best catch-all, then up to `max_rules - 1` insertions; `note` hears
/// each step.
pub fn search(
    prepared: &Prepared,
    vocab: &Vocabulary,
    max_rules: usize,
    note: &(dyn Fn(&Step) + Sync),
) -> Derived {
    let shapes = prepared.split_net.len();
    let catch_all = (0..vocab.sets.len())
        .map(|set| {
            let alts = &vocab.sets[set];
            let net: i128 = (0..shapes).map(|s| i128::from(prepared.net(alts, s))).sum();
            (net, std::cmp::Reverse(set))
        })
        .max()
        .map(|(_, std::cmp::Reverse(set))| set)
        .expect("a setting");
    let first = RuleSpec {
        class: None,
        bound: None,
        alts: vocab.sets[catch_all].clone(),
    };
    let member = (prepared.members.iter())
        .map(|m| {
            let mut is = vec![false; shapes];
            m.iter().for_each(|&s| is[s as usize] = true);
            is
        })
        .collect();
    let mut state = State {
        prepared,
        vocab,
        member,
        net_of: (0..shapes).map(|s| prepared.net(&first.alts, s)).collect(),
        rule_of: vec![0; shapes],
        rules: vec![first.clone()],
    };
    let step = Step {
        added: first,
        position: 0,
        rules: 1,
        saved: None,
        resets: 0,
        net: state.net(),
    };
    note(&step);
    let mut steps = vec![step];
    while state.rules.len() < max_rules {
        let pairs: Vec<(usize, usize)> = (prepared.distinct.iter().enumerate())
            .flat_map(|(c, sets)| sets.iter().map(move |&s| (c, s)))
            .collect();
        let found = (pairs.par_iter())
            .map(|&(c, s)| state.best_insertion(c, s))
            .reduce(|| None, better);
        let Some(found) = found else { break };
        let before = state.net();
        let rule = RuleSpec {
            class: Some(found.class),
            bound: found.bound,
            alts: vocab.sets[found.set].clone(),
        };
        // Only rules after the new one can lose every shape, so it keeps its position.
        state.insert(rule.clone(), found.position);
        let resets = state.reset_rules();
        let net = state.net();
        let step = Step {
            added: rule,
            position: found.position,
            rules: state.rules.len(),
            saved: Some(net - before),
            resets,
            net,
        };
        note(&step);
        steps.push(step);
    }
    Derived {
        net: state.net(),
        rules: state.rules,
        steps,
        rule_of: state.rule_of,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_position_is_the_largest_suffix_sum() {
        assert_eq!(best_position(&[5, -3, 4]), Some((6, 0)));
        assert_eq!(best_position(&[-5, 3, 4]), Some((7, 1)));
        assert_eq!(best_position(&[0, 0, -1]), Some((-1, 0)));
    }
}
