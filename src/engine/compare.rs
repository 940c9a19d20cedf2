//! House-way variants on common random numbers: every variant plays the same deals.
//!
//! A run deals `deals` rounds of one dealer and one player, cut into chunks exactly as
//! [`crate::engine::simulate`] cuts them: chunk `i` draws from [`chunk_rng`]`(seed, i)` and each round deals
//! fourteen cards off a [`Shoe`] in one call, the dealer's seven first, then the player's. So a
//! variant's tally here is the tally `paigow simulate` makes for the same ways, seed, deals and
//! chunk size, and its EV and intervals are the same floats.
//!
//! Three modes ([`Vary`]): the player's way varies against a fixed dealer's way; the dealer's way
//! varies against a fixed player's way; or each variant plays itself on both sides. Within a deal
//! the cards are the same for every variant; only the settings differ.
//!
//! Invariants:
//! - Tallies hold integers only: per variant the count of each [`OUTCOMES`] class, per pair of
//!   variants the joint table (class under A x class under B), hands set differently and deals
//!   whose net differs. [`CompareTally::merge`] is addition (and, for examples, keeps the first
//!   `K` by deal index), so a run gives the same tally at any thread count.
//! - Every figure (EVs, the variance of a difference, the correlation) is derived once from those
//!   integers: the net of a class is an integer in [`BET_UNITS`], so sums and sums of squares
//!   are exact. A variant compared with itself has a difference of exactly 0 with SD exactly 0.
//! - "Set differently" compares settings by value (front value, back value): two splits with
//!   equal values are the same setting to every rule and every settlement.

use std::collections::BTreeMap;

use rayon::prelude::*;
use thiserror::Error;

use crate::cards::deal::{Shoe, below, chunk_rng};
use crate::cards::{Card, Cards};
use crate::eval::split::SplitValues;
use crate::eval::{Evaluator, Value};
use crate::game::GameRules;
use crate::game::wager::{BET_UNITS, DealerHand, DealerSetting, MainWager, Outcome, settle};
use crate::report::stats::{self, Interval, WagerStats};
use crate::strategy::way::HouseWay;
use crate::strategy::{Strategy, set_dealer};

/// The most variants one comparison takes.
pub const MAX_VARIANTS: usize = 12;
/// Outcome classes of a hand: win, overqualified, push, dealer not qualified, loss.
pub const OUTCOMES: usize = 5;
/// The rule index recorded for a variant that is not a house way (e.g. `exposed`).
pub const NO_RULE: u16 = u16::MAX;
/// Salt of the RNG streams that estimate the examples' settings (distinct from the run's).
const EXAMPLE_SALT: u64 = 0x6578_616D_706C_6573;

/// Which side the variants set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Vary {
    /// The player's way varies; the dealer's is fixed.
    Player,
    /// The dealer's way varies; the player's is fixed.
    Dealer,
    /// Each variant sets both hands.
    Both,
}

impl Vary {
    /// Hands each variant sets per deal (1, or 2 when it sets both).
    pub fn sides(self) -> u64 {
        if self == Vary::Both { 2 } else { 1 }
    }
}

/// Why a comparison cannot be configured.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CompareError {
    #[error("compare needs 2 to {MAX_VARIANTS} ways, got {0}")]
    Variants(usize),
    #[error("the number of deals must be at least 1")]
    NoDeals,
    #[error("the chunk size must be at least 1")]
    NoChunkSize,
    #[error(
        "strategy '{0}' needs to see the dealer's hand, but this game's dealer does not set first and exposed ([main_wager] dealer_exposed = true)"
    )]
    NotExposed(String),
    #[error("the dealer's strategy '{0}' cannot depend on the dealer's own setting")]
    DealerNeedsDealer(String),
    #[error("--vary {0:?} needs a fixed way on the other side")]
    NoFixedWay(Vary),
    #[error("--examples is only meaningful with --vary player (the player's hand set differently)")]
    ExamplesNeedPlayer,
    #[error("the dealer hands per example must be at least 2")]
    ExampleHands,
    #[error("cannot start {0} threads: {1}")]
    Threads(usize, String),
}

/// One way under comparison.
pub struct Variant {
    /// The name it was given by (a shipped name, a file, `exposed:WAY`).
    pub label: String,
    pub strategy: Box<dyn Strategy>,
    /// The house way behind it, for rule names (None for built-ins with no rules).
    pub way: Option<HouseWay>,
}

/// A validated comparison.
pub struct CompareConfig {
    pub game: GameRules,
    pub vary: Vary,
    /// The fixed side: the dealer's way (vary player) or the player's way (vary dealer).
    pub fixed: Option<Box<dyn Strategy>>,
    pub variants: Vec<Variant>,
    pub deals: u64,
    pub seed: u64,
    pub chunk_size: u64,
    /// Hands set differently to keep as examples (vary player only).
    pub examples: usize,
    /// Dealer hands simulated to estimate each example setting's EV.
    pub example_dealer_hands: u64,
}

impl CompareConfig {
    /// Checks the parts fit together.
    pub fn validate(&self) -> Result<(), CompareError> {
        let n = self.variants.len();
        if !(2..=MAX_VARIANTS).contains(&n) {
            return Err(CompareError::Variants(n));
        }
        if self.deals == 0 {
            return Err(CompareError::NoDeals);
        }
        if self.chunk_size == 0 {
            return Err(CompareError::NoChunkSize);
        }
        if self.examples > 0 && self.vary != Vary::Player {
            return Err(CompareError::ExamplesNeedPlayer);
        }
        if self.examples > 0 && self.example_dealer_hands < 2 {
            return Err(CompareError::ExampleHands);
        }
        self.validate_sides()
    }

    fn validate_sides(&self) -> Result<(), CompareError> {
        let exposed = self.game.main_wager.dealer_exposed;
        let fixed = match (self.vary, &self.fixed) {
            (Vary::Both, _) => None,
            (vary, None) => return Err(CompareError::NoFixedWay(vary)),
            (_, Some(f)) => Some(&**f),
        };
        let variants = self.variants.iter().map(|v| &*v.strategy);
        let (dealers, players): (Vec<&dyn Strategy>, Vec<&dyn Strategy>) = match self.vary {
            Vary::Player => (fixed.into_iter().collect(), variants.collect()),
            Vary::Dealer => (variants.collect(), fixed.into_iter().collect()),
            Vary::Both => (variants.clone().collect(), variants.collect()),
        };
        if let Some(d) = dealers.iter().find(|d| d.needs_dealer()) {
            return Err(CompareError::DealerNeedsDealer(d.name().to_string()));
        }
        match players.iter().find(|p| p.needs_dealer() && !exposed) {
            Some(p) => Err(CompareError::NotExposed(p.name().to_string())),
            None => Ok(()),
        }
    }

    /// Number of chunks.
    pub fn chunks(&self) -> u64 {
        self.deals.div_ceil(self.chunk_size)
    }

    fn chunk_len(&self, chunk: u64) -> u64 {
        self.chunk_size.min(self.deals - chunk * self.chunk_size)
    }

    /// The number of variant pairs.
    pub fn pairs(&self) -> usize {
        pair_count(self.variants.len())
    }
}

/// Pairs of `n` variants: (0,1), (0,2), .., (1,2), ..
pub fn pair_count(n: usize) -> usize {
    n * n.saturating_sub(1) / 2
}

/// The pairs of `n` variants in report order.
pub fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
}

/// The class of an outcome (an index below [`OUTCOMES`]).
#[inline]
pub fn class(outcome: Outcome) -> usize {
    match outcome {
        Outcome::Win => 0,
        Outcome::Overqualified => 1,
        Outcome::Push => 2,
        Outcome::NotQualified => 3,
        Outcome::Loss { .. } => 4,
    }
}

/// The player's net of each class in bet units, the collection included.
pub fn class_nets(wager: &MainWager) -> [i64; OUTCOMES] {
    let fee = wager.fee_units();
    [
        wager.win_units(),
        wager.overqualifier_units(),
        0,
        0,
        -BET_UNITS,
    ]
    .map(|u| u - fee)
}

/// The deals of one group of rules (the rule of each variant that set the player's hand).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RuleGroup {
    pub hands: u64,
    /// Each variant's net over these deals, in bet units (the collection included).
    pub net: Vec<i64>,
}

impl RuleGroup {
    fn add(&mut self, other: &RuleGroup) {
        self.hands += other.hands;
        self.net.resize(other.net.len().max(self.net.len()), 0);
        for (a, b) in self.net.iter_mut().zip(&other.net) {
            *a += b;
        }
    }
}

/// A hand that the variants set differently, as dealt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The deal's index in the run (chunk x chunk size + round).
    pub deal: u64,
    pub dealer: [Card; 7],
    pub player: [Card; 7],
    /// The split each variant chose for the player.
    pub splits: Vec<u8>,
    /// The rule of each variant that set it ([`NO_RULE`] for a built-in).
    pub rules: Vec<u16>,
}

/// Integer results of some deals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareTally {
    pub deals: u64,
    /// Per variant: hands by outcome class.
    pub outcomes: Vec<[u64; OUTCOMES]>,
    /// Per pair: deals by (class under A, class under B).
    pub joint: Vec<[[u64; OUTCOMES]; OUTCOMES]>,
    /// Per pair: hands set differently (both hands count with [`Vary::Both`]).
    pub set_differently: Vec<u64>,
    /// Deals where some two variants set a hand differently.
    pub any_set_differently: u64,
    /// Deals set differently, by the rules of each variant (vary player, with examples only).
    pub rule_groups: BTreeMap<Vec<u16>, RuleGroup>,
    /// The first hands set differently, by deal index (at most the configured number).
    pub examples: Vec<Example>,
}

impl CompareTally {
    /// An empty tally for `variants` variants.
    pub fn new(variants: usize) -> CompareTally {
        CompareTally {
            deals: 0,
            outcomes: vec![[0; OUTCOMES]; variants],
            joint: vec![[[0; OUTCOMES]; OUTCOMES]; pair_count(variants)],
            set_differently: vec![0; pair_count(variants)],
            any_set_differently: 0,
            rule_groups: BTreeMap::new(),
            examples: Vec::new(),
        }
    }

    /// The sum of two tallies; of the examples, the first `keep` by deal index.
    pub fn merge(mut self, other: CompareTally, keep: usize) -> CompareTally {
        self.deals += other.deals;
        for (a, b) in self.outcomes.iter_mut().zip(&other.outcomes) {
            add(a, b);
        }
        for (a, b) in self.joint.iter_mut().zip(&other.joint) {
            for (row, other_row) in a.iter_mut().zip(b) {
                add(row, other_row);
            }
        }
        add(&mut self.set_differently, &other.set_differently);
        self.any_set_differently += other.any_set_differently;
        for (key, group) in other.rule_groups {
            self.rule_groups.entry(key).or_default().add(&group);
        }
        self.examples.extend(other.examples);
        self.examples.sort_by_key(|e| e.deal);
        self.examples.truncate(keep);
        self
    }
}

fn add(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Seven dealt cards sorted by card index (the order strategies expect).
#[inline]
fn sorted(cards: &[Card]) -> [Card; 7] {
    let mut hand: [Card; 7] = cards[..7].try_into().expect("seven cards");
    hand.sort_unstable();
    hand
}

/// What every variant did on one deal.
struct DealResult {
    class: [usize; MAX_VARIANTS],
    player: [(Value, Value); MAX_VARIANTS],
    dealer: [(Value, Value); MAX_VARIANTS],
    split: [u8; MAX_VARIANTS],
}

/// Everything a chunk needs, borrowed.
struct Table<'a> {
    cfg: &'a CompareConfig,
    ev: &'a Evaluator,
}

impl Table<'_> {
    fn wager(&self) -> &MainWager {
        &self.cfg.game.main_wager
    }

    /// The dealer's and player's strategies of variant `i`.
    fn sides(&self, i: usize) -> (&dyn Strategy, &dyn Strategy) {
        let v = &*self.cfg.variants[i].strategy;
        match (self.cfg.vary, &self.cfg.fixed) {
            (Vary::Player, Some(f)) => (&**f, v),
            (Vary::Dealer, Some(f)) => (v, &**f),
            _ => (v, v),
        }
    }

    /// Plays one deal under every variant.
    #[inline]
    fn play(
        &self,
        dealer_hand: &[Card; 7],
        player: &[Card; 7],
        splits: &SplitValues,
    ) -> DealResult {
        let wager = self.wager();
        let mut r = DealResult {
            class: [0; MAX_VARIANTS],
            player: [(Value(0), Value(0)); MAX_VARIANTS],
            dealer: [(Value(0), Value(0)); MAX_VARIANTS],
            split: [0; MAX_VARIANTS],
        };
        let mut fixed_dealer: Option<DealerHand> = None;
        for i in 0..self.cfg.variants.len() {
            let (dealer_way, player_way) = self.sides(i);
            let dealer = match (self.cfg.vary, fixed_dealer) {
                (Vary::Player, Some(d)) => d,
                _ => set_dealer(self.ev, dealer_way, wager, dealer_hand),
            };
            fixed_dealer = Some(dealer);
            let shown = wager.dealer_exposed.then_some(dealer.setting);
            let k = player_way.choose(player, splits, shown);
            r.class[i] = class(settle(splits, k, &dealer));
            r.player[i] = (splits.front[k], splits.back[k]);
            r.dealer[i] = setting_values(dealer.setting);
            r.split[i] = k as u8;
        }
        r
    }

    /// Deals and tallies one round.
    #[inline]
    fn play_round<R: rand_xoshiro::rand_core::Rng>(
        &self,
        deal: u64,
        shoe: &mut Shoe,
        rng: &mut R,
        tally: &mut CompareTally,
    ) {
        let cards = shoe.deal(rng, 14);
        let (dealer, player) = (sorted(&cards[..7]), sorted(&cards[7..14]));
        let splits = self.ev.split_values(&player);
        let r = self.play(&dealer, &player, &splits);
        let n = self.cfg.variants.len();
        tally.deals += 1;
        let mut any = false;
        for (i, c) in r.class[..n].iter().enumerate() {
            tally.outcomes[i][*c] += 1;
        }
        for (p, (a, b)) in pairs(n).enumerate() {
            tally.joint[p][r.class[a]][r.class[b]] += 1;
            let differ =
                u64::from(r.player[a] != r.player[b]) + u64::from(r.dealer[a] != r.dealer[b]);
            tally.set_differently[p] += differ;
            any |= differ > 0;
        }
        tally.any_set_differently += u64::from(any);
        if any && self.cfg.examples > 0 {
            self.record_example(deal, &dealer, &player, &splits, &r, tally);
        }
    }

    /// Counts the rules that set a hand set differently, and keeps it if there is room.
    fn record_example(
        &self,
        deal: u64,
        dealer: &[Card; 7],
        player: &[Card; 7],
        splits: &SplitValues,
        r: &DealResult,
        tally: &mut CompareTally,
    ) {
        let rules: Vec<u16> = self
            .cfg
            .variants
            .iter()
            .map(|v| match &v.way {
                Some(way) if !v.strategy.needs_dealer() => way.set(player, splits).rule as u16,
                _ => NO_RULE,
            })
            .collect();
        let nets = class_nets(self.wager());
        let group = RuleGroup {
            hands: 1,
            net: r.class[..rules.len()].iter().map(|&c| nets[c]).collect(),
        };
        tally
            .rule_groups
            .entry(rules.clone())
            .or_default()
            .add(&group);
        if tally.examples.len() < self.cfg.examples {
            tally.examples.push(Example {
                deal,
                dealer: *dealer,
                player: *player,
                splits: r.split[..self.cfg.variants.len()].to_vec(),
                rules,
            });
        }
    }

    /// Deals and tallies chunk `chunk`.
    fn run_chunk(&self, chunk: u64) -> CompareTally {
        let mut rng = chunk_rng(self.cfg.seed, chunk);
        let mut shoe = Shoe::new(self.cfg.game.deck);
        let mut tally = CompareTally::new(self.cfg.variants.len());
        let first = chunk * self.cfg.chunk_size;
        for round in 0..self.cfg.chunk_len(chunk) {
            self.play_round(first + round, &mut shoe, &mut rng, &mut tally);
        }
        tally
    }
}

fn setting_values(s: DealerSetting) -> (Value, Value) {
    (s.front, s.back)
}

/// Runs the comparison on the current rayon pool; `progress` is told each chunk's deals.
pub fn run(
    cfg: &CompareConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<CompareTally, CompareError> {
    cfg.validate()?;
    let ev = Evaluator::new(cfg.game.ranking);
    let table = Table { cfg, ev: &ev };
    let n = cfg.variants.len();
    Ok((0..cfg.chunks())
        .into_par_iter()
        .map(|chunk| {
            let tally = table.run_chunk(chunk);
            progress(tally.deals);
            tally
        })
        .reduce(|| CompareTally::new(n), |a, b| a.merge(b, cfg.examples)))
}

/// A rayon pool of `threads` threads (0: one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, CompareError> {
    crate::engine::simulate::thread_pool(threads)
        .map_err(|e| CompareError::Threads(threads, e.to_string()))
}

/// Exact integer sums of one variable over `n` deals (in bet units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sums {
    n: u64,
    sum: i128,
    squares: u128,
}

impl Sums {
    fn of(counts: impl Iterator<Item = (u64, i64)>) -> Sums {
        let mut s = Sums {
            n: 0,
            sum: 0,
            squares: 0,
        };
        for (count, net) in counts {
            s.n += count;
            s.sum += i128::from(count) * i128::from(net);
            s.squares += u128::from(count) * u128::from(net.unsigned_abs()).pow(2);
        }
        s
    }

    /// The population SD in bet units (0 exactly when every value is equal).
    fn sd(self) -> f64 {
        stats::sd_from_sums(self.n, self.sum, self.squares) / BET_UNITS as f64
    }

    /// `n sum x^2 - (sum x)^2` (n^2 times the variance, in units squared), exact when it fits.
    fn scaled_variance(self) -> f64 {
        let exact = u128::from(self.n)
            .checked_mul(self.squares)
            .zip(self.sum.unsigned_abs().checked_pow(2))
            .and_then(|(a, b)| a.checked_sub(b));
        exact.map_or_else(
            || (self.n as f64).powi(2) * (self.sd() * BET_UNITS as f64).powi(2),
            |v| v as f64,
        )
    }
}

/// The main-wager figures of variant `i`: the same arithmetic as `stats::main_wager`, so the same
/// floats as `paigow simulate` with one player.
pub fn variant_stats(tally: &CompareTally, i: usize, wager: &MainWager) -> WagerStats {
    let c = &tally.outcomes[i];
    let nets = class_nets(wager);
    let sums = Sums::of(c.iter().copied().zip(nets));
    let hands = sums.n as f64;
    let player_ev = sums.sum as f64 / (hands * BET_UNITS as f64);
    let sd = sums.sd();
    WagerStats {
        trials: sums.n,
        player_ev,
        win: (c[0] + c[1]) as f64 / hands,
        push: (c[2] + c[3]) as f64 / hands,
        loss: c[4] as f64 / hands,
        sd,
        ci95: stats::mean_interval(player_ev, sd, sums.n, 0.95),
        ci99: stats::mean_interval(player_ev, sd, sums.n, 0.99),
    }
}

/// The paired comparison of variants `a` and `b` (difference = EV(a) - EV(b)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairStats {
    pub a: usize,
    pub b: usize,
    pub difference: f64,
    /// SD of the per-deal difference of nets, per unit bet.
    pub sd: f64,
    /// Standard error of the difference, paired.
    pub se: f64,
    /// What the standard error would be from two independent runs of the same size.
    pub independent_se: f64,
    pub ci95: Interval,
    pub ci99: Interval,
    /// Share of hands set differently (of deals, or of 2 x deals when both sides vary).
    pub set_differently: f64,
    /// Share of deals whose net differs.
    pub result_differs: f64,
    /// Correlation of the two nets (None when one of them never varies).
    pub correlation: Option<f64>,
}

impl PairStats {
    /// Whether the 95% interval of the difference excludes zero.
    pub fn is_significant(&self) -> bool {
        self.ci95.low > 0.0 || self.ci95.high < 0.0
    }
}

/// The paired figures of pair number `p`, variants `a` < `b`.
pub fn pair_stats(
    tally: &CompareTally,
    vary: Vary,
    p: usize,
    (a, b): (usize, usize),
    wager: &MainWager,
) -> PairStats {
    let nets = class_nets(wager);
    let joint = &tally.joint[p];
    let cells = || (0..OUTCOMES).flat_map(move |x| (0..OUTCOMES).map(move |y| (x, y)));
    let diff = Sums::of(cells().map(|(x, y)| (joint[x][y], nets[x] - nets[y])));
    let sum_a = Sums::of(cells().map(|(x, y)| (joint[x][y], nets[x])));
    let sum_b = Sums::of(cells().map(|(x, y)| (joint[x][y], nets[y])));
    let differs: u64 = cells()
        .filter(|&(x, y)| nets[x] != nets[y])
        .map(|(x, y)| joint[x][y])
        .sum();
    let n = diff.n;
    let difference = diff.sum as f64 / (n as f64 * BET_UNITS as f64);
    let sd = diff.sd();
    let root_n = (n as f64).sqrt();
    PairStats {
        a,
        b,
        difference,
        sd,
        se: sd / root_n,
        independent_se: (sum_a.sd().powi(2) + sum_b.sd().powi(2)).sqrt() / root_n,
        ci95: stats::mean_interval(difference, sd, n, 0.95),
        ci99: stats::mean_interval(difference, sd, n, 0.99),
        set_differently: tally.set_differently[p] as f64 / (n * vary.sides()) as f64,
        result_differs: differs as f64 / n as f64,
        correlation: correlation(joint, &nets, sum_a, sum_b),
    }
}

/// Pearson correlation of the two nets from the joint table, exact integers until the division.
fn correlation(
    joint: &[[u64; OUTCOMES]; OUTCOMES],
    nets: &[i64; OUTCOMES],
    a: Sums,
    b: Sums,
) -> Option<f64> {
    let mut cross = 0i128;
    for (x, row) in joint.iter().enumerate() {
        for (y, &count) in row.iter().enumerate() {
            cross += i128::from(count) * i128::from(nets[x]) * i128::from(nets[y]);
        }
    }
    let covariance = i128::from(a.n)
        .checked_mul(cross)
        .zip(a.sum.checked_mul(b.sum))
        .map_or_else(
            || a.n as f64 * cross as f64 - a.sum as f64 * b.sum as f64,
            |(x, y)| (x - y) as f64,
        );
    let (va, vb) = (a.scaled_variance(), b.scaled_variance());
    (va > 0.0 && vb > 0.0).then(|| (covariance / (va.sqrt() * vb.sqrt())).clamp(-1.0, 1.0))
}

/// Variant indices from the best EV to the worst (exact integer nets; ties keep input order).
pub fn ranking(tally: &CompareTally, wager: &MainWager) -> Vec<usize> {
    let nets = class_nets(wager);
    let total = |i: usize| -> i128 {
        tally.outcomes[i]
            .iter()
            .zip(nets)
            .map(|(&c, u)| i128::from(c) * i128::from(u))
            .sum()
    };
    let mut order: Vec<usize> = (0..tally.outcomes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(total(i)));
    order
}

/// One distinct setting of an example hand and its estimated EV against the dealer's way.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingEstimate {
    pub split: usize,
    /// The variants that chose it.
    pub variants: Vec<usize>,
    pub player_ev: f64,
    pub ci95: Interval,
}

/// Each distinct setting of `example`, with its EV against dealer hands drawn from the cards the
/// player does not hold (`hands` of them, the same ones for every setting), set by the fixed
/// dealer's way. Example `index` draws from its own stream, so estimates are reproducible.
pub fn estimate_example(
    cfg: &CompareConfig,
    index: u64,
    example: &Example,
) -> Vec<SettingEstimate> {
    let mut settings: Vec<SettingEstimate> = Vec::new();
    for (i, &k) in example.splits.iter().enumerate() {
        match settings.iter_mut().find(|s| s.split == usize::from(k)) {
            Some(s) => s.variants.push(i),
            None => settings.push(SettingEstimate {
                split: usize::from(k),
                variants: vec![i],
                player_ev: 0.0,
                ci95: Interval {
                    low: 0.0,
                    high: 0.0,
                },
            }),
        }
    }
    let sums = example_sums(cfg, index, example, &settings);
    for (s, sums) in settings.iter_mut().zip(sums) {
        s.player_ev = sums.sum as f64 / (sums.n as f64 * BET_UNITS as f64);
        s.ci95 = stats::mean_interval(s.player_ev, sums.sd(), sums.n, 0.95);
    }
    settings
}

/// Sums of each setting's net over the example's simulated dealer hands.
fn example_sums(
    cfg: &CompareConfig,
    index: u64,
    example: &Example,
    settings: &[SettingEstimate],
) -> Vec<Sums> {
    let ev = Evaluator::new(cfg.game.ranking);
    let wager = &cfg.game.main_wager;
    let nets = class_nets(wager);
    let dealer_way = cfg
        .fixed
        .as_deref()
        .expect("vary player has a fixed dealer way");
    let held = Cards::from_cards(&example.player);
    let mut rest: Vec<Card> = cfg
        .game
        .deck
        .cards()
        .into_iter()
        .filter(|c| !held.contains(*c))
        .collect();
    let splits = ev.split_values(&example.player);
    let mut rng = chunk_rng(cfg.seed ^ EXAMPLE_SALT, index);
    let mut counts = vec![[0u64; OUTCOMES]; settings.len()];
    for _ in 0..cfg.example_dealer_hands {
        for p in 0..7 {
            let q = p + below(&mut rng, (rest.len() - p) as u64) as usize;
            rest.swap(p, q);
        }
        let dealer = set_dealer(&ev, dealer_way, wager, &sorted(&rest[..7]));
        for (s, c) in settings.iter().zip(counts.iter_mut()) {
            c[class(settle(&splits, s.split, &dealer))] += 1;
        }
    }
    counts
        .iter()
        .map(|c| Sums::of(c.iter().copied().zip(nets)))
        .collect()
}

/// The name of the rule recorded for variant `i` (`-` for none).
pub fn rule_label(cfg: &CompareConfig, i: usize, rule: u16) -> String {
    match (&cfg.variants[i].way, rule) {
        (Some(way), r) if r != NO_RULE => format!("{}: {}", r + 1, way.rule_name(usize::from(r))),
        _ if cfg.variants[i].strategy.needs_dealer() => {
            "best result against the exposed dealer".to_string()
        }
        _ if cfg.variants[i]
            .label
            .starts_with(crate::strategy::optimal::PREFIX) =>
        {
            "highest EV against the dealer's way".to_string()
        }
        _ => "-".to_string(),
    }
}

/// `compare.csv`: one row per variant, then one per pair. Variant rows fill the EV columns and
/// leave the pair columns `-`; pair rows the reverse. Floats by [`crate::report::fixed`].
pub fn write_csv<W: std::io::Write>(
    w: W,
    cfg: &CompareConfig,
    tally: &CompareTally,
) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(CSV_HEADER)?;
    let wager = &cfg.game.main_wager;
    for (i, v) in cfg.variants.iter().enumerate() {
        out.write_record(variant_row(
            &v.label,
            tally.deals,
            &variant_stats(tally, i, wager),
        ))?;
    }
    for (p, pair) in pairs(cfg.variants.len()).enumerate() {
        let s = pair_stats(tally, cfg.vary, p, pair, wager);
        out.write_record(pair_row(cfg, tally.deals, &s))?;
    }
    out.flush()
}

/// The columns of `compare.csv`.
pub const CSV_HEADER: [&str; 25] = [
    "kind",
    "a",
    "b",
    "deals",
    "player_ev",
    "house_edge",
    "win",
    "push",
    "loss",
    "sd",
    "ci95_low",
    "ci95_high",
    "ci99_low",
    "ci99_high",
    "ev_difference",
    "se_difference",
    "diff_ci95_low",
    "diff_ci95_high",
    "diff_ci99_low",
    "diff_ci99_high",
    "independent_se",
    "paired_to_independent",
    "set_differently",
    "result_differs",
    "correlation",
];

fn variant_row(label: &str, deals: u64, s: &WagerStats) -> Vec<String> {
    use crate::report::fixed;
    let mut row = vec![
        "variant".to_string(),
        label.to_string(),
        "-".to_string(),
        deals.to_string(),
    ];
    row.extend(
        [
            s.player_ev,
            -s.player_ev,
            s.win,
            s.push,
            s.loss,
            s.sd,
            s.ci95.low,
            s.ci95.high,
            s.ci99.low,
            s.ci99.high,
        ]
        .map(fixed),
    );
    row.extend(std::iter::repeat_n("-".to_string(), 11));
    row
}

fn pair_row(cfg: &CompareConfig, deals: u64, s: &PairStats) -> Vec<String> {
    use crate::report::fixed;
    let label = |i: usize| cfg.variants[i].label.clone();
    let mut row = vec![
        "pair".to_string(),
        label(s.a),
        label(s.b),
        deals.to_string(),
    ];
    row.extend(std::iter::repeat_n("-".to_string(), 10));
    row.extend(
        [
            s.difference,
            s.se,
            s.ci95.low,
            s.ci95.high,
            s.ci99.low,
            s.ci99.high,
            s.independent_se,
        ]
        .map(fixed),
    );
    row.push(match s.independent_se > 0.0 {
        true => fixed(s.se / s.independent_se),
        false => "-".to_string(),
    });
    row.extend([fixed(s.set_differently), fixed(s.result_differs)]);
    row.push(s.correlation.map_or_else(|| "-".to_string(), fixed));
    row
}

/// `rule_groups.csv`: hands set differently, grouped by the rule of each variant that set them,
/// with their share of all deals and each variant's net on them as a share of its EV (per bet
/// over all deals). With two variants, `ev_gap` is the second's less the first's and the groups
/// where the gap is largest come first; otherwise the most frequent come first (ties by rules).
pub fn write_rule_groups<W: std::io::Write>(
    w: W,
    cfg: &CompareConfig,
    tally: &CompareTally,
) -> std::io::Result<()> {
    use crate::report::fixed;
    let mut out = csv::Writer::from_writer(w);
    let labels = cfg.variants.iter().map(|v| &v.label);
    let mut header: Vec<String> = labels.clone().map(|l| format!("rule of {l}")).collect();
    header.extend(["hands".to_string(), "share_of_deals".to_string()]);
    header.extend(labels.map(|l| format!("ev_share of {l}")));
    let two = cfg.variants.len() == 2;
    if two {
        header.push("ev_gap".to_string());
    }
    out.write_record(&header)?;
    let per_deal = |units: i64| units as f64 / (tally.deals as f64 * BET_UNITS as f64);
    let gap = |g: &RuleGroup| g.net[1] - g.net[0];
    let mut groups: Vec<(&Vec<u16>, &RuleGroup)> = tally.rule_groups.iter().collect();
    groups.sort_by_key(|&(rules, g)| {
        let order = if two { gap(g).unsigned_abs() } else { g.hands };
        (
            std::cmp::Reverse(order),
            std::cmp::Reverse(g.hands),
            rules.clone(),
        )
    });
    for (rules, g) in groups {
        let mut row: Vec<String> = rules
            .iter()
            .enumerate()
            .map(|(i, &r)| rule_label(cfg, i, r))
            .collect();
        row.extend([
            g.hands.to_string(),
            fixed(g.hands as f64 / tally.deals as f64),
        ]);
        row.extend(g.net.iter().map(|&n| fixed(per_deal(n))));
        if two {
            row.push(fixed(per_deal(gap(g))));
        }
        out.write_record(&row)?;
    }
    out.flush()
}

/// `examples.csv`: each example hand, one row per distinct setting, with the variants that chose
/// it, their rules, and the setting's EV against the dealer's way with a 95% interval.
pub fn write_examples<W: std::io::Write>(
    w: W,
    cfg: &CompareConfig,
    tally: &CompareTally,
) -> std::io::Result<()> {
    use crate::report::fixed;
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "example",
        "deal",
        "hand",
        "dealer_hand",
        "front",
        "back",
        "variants",
        "rules",
        "player_ev",
        "ci95_low",
        "ci95_high",
        "dealer_hands",
    ])?;
    for (index, e) in tally.examples.iter().enumerate() {
        for s in estimate_example(cfg, index as u64, e) {
            let (front, back) = crate::eval::split::split_cards(&e.player, s.split);
            let names: Vec<&str> = s
                .variants
                .iter()
                .map(|&i| cfg.variants[i].label.as_str())
                .collect();
            let rules: Vec<String> = s
                .variants
                .iter()
                .map(|&i| {
                    format!(
                        "{}: {}",
                        cfg.variants[i].label,
                        rule_label(cfg, i, e.rules[i])
                    )
                })
                .collect();
            out.write_record([
                (index + 1).to_string(),
                e.deal.to_string(),
                Cards::from_cards(&e.player).to_string(),
                Cards::from_cards(&e.dealer).to_string(),
                front.to_string(),
                back.to_string(),
                names.join(" "),
                rules.join("; "),
                fixed(s.player_ev),
                fixed(s.ci95.low),
                fixed(s.ci95.high),
                cfg.example_dealer_hands.to_string(),
            ])?;
        }
    }
    out.flush()
}
