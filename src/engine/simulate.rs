//! The Monte Carlo engine: deal, set, settle, tally.
//!
//! A run of `deals` rounds is cut into chunks of `chunk_size` rounds (the last one shorter);
//! chunk `i` deals from its own RNG stream (see [`crate::cards::deal`]), so what a chunk tallies depends
//! only on (seed, chunk index, configuration). Each round deals one shuffled deck: the dealer's
//! seven cards first, then seven for each of 1..=6 players; the dealer sets first (its setting is
//! shown to player strategies only when the game's dealer is exposed), then each player sets and
//! is settled by the main-wager rules of [`crate::game::wager`].
//!
//! Invariants: a [`Tally`] holds only integers (counts, and payouts in [`BET_UNITS`]) and
//! [`Tally::merge`] is addition, so it is associative and commutative and a run gives the same
//! tally whatever the number of threads or the order chunks finish in. The hot loop allocates
//! nothing: hands live on the stack, each hand's 21 splits are evaluated once (on a cache miss;
//! a hit needs none). Each round is dealt, and its hands located in their strategies' caches
//! (the memory requested), one round before it is settled; settling draws no random numbers, so
//! the deals are exactly those of dealing and settling in turn.
//!
//! [`run`] deals every chunk; [`run_chunks`] deals any subset (a shard, or what a checkpoint has
//! not done yet) and reports each finished chunk. Because a chunk's tally depends only on (seed,
//! chunk index, configuration), the tallies of disjoint subsets covering every chunk add up to
//! exactly the tally of [`run`].

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use thiserror::Error;

use crate::cards::deal::{Shoe, chunk_rng};
use crate::cards::{Card, Cards, Deck, sorted_hand};
use crate::eval::Evaluator;
use crate::game::GameRules;
use crate::game::events::{LineTable, SevenCardFacts};
use crate::game::paytable::{BetKind, Event, Paytable};
use crate::game::wager::{
    BET_UNITS, DealerHand, DealerSetting, MainWager, Outcome, settle, settle_setting,
};
use crate::strategy::shape::ShapeSlot;
use crate::strategy::{Strategy, set_dealer_located};

/// The most players one dealer faces per shuffle.
pub const MAX_PLAYERS: u8 = 6;
/// The most side bets one game may offer (checked when the game is loaded).
pub const MAX_SIDE_BETS: usize = crate::game::MAX_SIDE_BETS;
/// The most lines one paytable may have (checked when the paytable is loaded).
pub const MAX_LINES: usize = crate::game::paytable::MAX_LINES;

/// Why a simulation cannot be configured.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SimError {
    #[error("the number of deals must be at least 1")]
    NoDeals,
    #[error("the chunk size must be at least 1")]
    NoChunkSize,
    #[error("players per deal must be 1 to {MAX_PLAYERS}, got {0}")]
    Players(u8),
    #[error(
        "strategy '{0}' needs to see the dealer's hand, but this game's dealer does not set first and exposed ([main_wager] dealer_exposed = true)"
    )]
    NotExposed(String),
    #[error("the dealer's strategy '{0}' cannot depend on the dealer's own setting")]
    DealerNeedsDealer(String),
    #[error("cannot start {0} threads: {1}")]
    Threads(usize, String),
    #[error("chunk {0} is not in this run, which has chunks 0 to {max}", max = .1 - 1)]
    NoSuchChunk(u64, u64),
}

/// A validated simulation: the game, both strategies, and how many rounds to deal how.
pub struct SimConfig {
    pub game: GameRules,
    pub player: Box<dyn Strategy>,
    pub dealer: Box<dyn Strategy>,
    /// Rounds (shuffles) to deal.
    pub deals: u64,
    pub seed: u64,
    /// Rounds per chunk (one RNG stream each).
    pub chunk_size: u64,
    /// Players per round, 1..=6.
    pub players: u8,
}

impl SimConfig {
    /// Checks the parts fit together.
    pub fn validate(&self) -> Result<(), SimError> {
        if self.deals == 0 {
            return Err(SimError::NoDeals);
        }
        if self.chunk_size == 0 {
            return Err(SimError::NoChunkSize);
        }
        if !(1..=MAX_PLAYERS).contains(&self.players) {
            return Err(SimError::Players(self.players));
        }
        if self.dealer.needs_dealer() {
            return Err(SimError::DealerNeedsDealer(self.dealer.name().to_string()));
        }
        if self.player.needs_dealer() && !self.game.main_wager.dealer_exposed {
            return Err(SimError::NotExposed(self.player.name().to_string()));
        }
        Ok(())
    }

    /// Number of chunks.
    pub fn chunks(&self) -> u64 {
        self.deals.div_ceil(self.chunk_size)
    }

    /// Rounds in chunk `chunk` (`chunk < chunks()`).
    pub fn chunk_len(&self, chunk: u64) -> u64 {
        self.chunk_size.min(self.deals - chunk * self.chunk_size)
    }
}

/// Integer results of some rounds. Outcome counts are per player hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Rounds dealt.
    pub rounds: u64,
    /// Player hands settled (rounds x players).
    pub hands: u64,
    /// Both player hands beat the dealer's.
    pub win: u64,
    /// The dealer could make four of a kind or better: paid the overqualifier multiple.
    pub overqualified: u64,
    /// One hand won, one lost or copied.
    pub push: u64,
    /// The dealer did not qualify: push.
    pub not_qualified: u64,
    /// Both hands lost or copied, or a foul.
    pub loss: u64,
    /// Losses where at least one hand was a copy.
    pub copy_losses: u64,
    /// Losses by a fouled setting.
    pub fouls: u64,
    /// Sum over rounds of the round's net to the players, in bet units.
    pub net_units: i128,
    /// Sum over rounds of the squared round net (for the per-round variance).
    pub net_units_squared: u128,
    /// Player hands by best 5-card category of the seven cards (`Category as usize`).
    pub categories: [u64; 11],
    /// Side bets, in the order the game lists them (unused slots stay zero).
    pub side_bets: [SideBetTally; MAX_SIDE_BETS],
}

/// One side bet's integer results: hands per paying line (the slot after the last line counts
/// hands no line pays), and sums over rounds of the round's net in the bet's pay units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideBetTally {
    pub lines: [u64; MAX_LINES + 1],
    pub net: i128,
    pub net_squared: u128,
}

impl SideBetTally {
    fn merge(&mut self, other: &SideBetTally) {
        for (a, b) in self.lines.iter_mut().zip(other.lines) {
            *a += b;
        }
        self.net += other.net;
        self.net_squared += other.net_squared;
    }
}

/// How one side bet is settled in the hot loop: its paytable and each line's net in pay units
/// (`unit` units = one bet, so "X to Y" lines stay integers).
pub struct SideBetPlan {
    pub table: Paytable,
    /// Pay units per unit bet: the least common multiple of the lines' stakes.
    pub unit: i64,
    /// Net per line in pay units; the slot after the last line is a loss (`-unit`).
    pub line_net: Vec<i64>,
    /// The paying line by seven-card facts (seven-card bets).
    lines: Option<LineTable>,
}

impl SideBetPlan {
    /// The plan for one paytable (at most [`MAX_LINES`] lines, checked by the paytable loader).
    pub fn new(table: &Paytable) -> SideBetPlan {
        let gcd = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let unit = table.lines.iter().fold(1u64, |l, line| {
            l / gcd(l, line.pays.stake) * line.pays.stake
        });
        let mut line_net: Vec<i64> = table
            .lines
            .iter()
            .map(|line| (line.pays.to_win * (unit / line.pays.stake)) as i64)
            .collect();
        line_net.push(-(unit as i64));
        SideBetPlan {
            table: table.clone(),
            unit: unit as i64,
            line_net,
            lines: (table.kind == BetKind::SevenCards).then(|| LineTable::new(table)),
        }
    }

    /// The index of the line paying this hand (the slot after the last line if none).
    #[inline]
    fn line(&self, facts: Option<&SevenCardFacts>, jokers: Event) -> usize {
        let paid = match (&self.lines, facts) {
            (Some(lines), Some(facts)) => lines.line(facts),
            (None, _) => self.table.joker_line(jokers),
            (Some(_), None) => unreachable!("facts are computed for seven-card bets"),
        };
        paid.unwrap_or(self.table.lines.len())
    }
}

impl Tally {
    /// The sum of two tallies.
    pub fn merge(mut self, other: Tally) -> Tally {
        self.rounds += other.rounds;
        self.hands += other.hands;
        self.win += other.win;
        self.overqualified += other.overqualified;
        self.push += other.push;
        self.not_qualified += other.not_qualified;
        self.loss += other.loss;
        self.copy_losses += other.copy_losses;
        self.fouls += other.fouls;
        self.net_units += other.net_units;
        self.net_units_squared += other.net_units_squared;
        for (a, b) in self.categories.iter_mut().zip(other.categories) {
            *a += b;
        }
        for (a, b) in self.side_bets.iter_mut().zip(&other.side_bets) {
            a.merge(b);
        }
        self
    }

    /// The players' net in bet units implied by the outcome counts (equals `net_units`).
    pub fn net_from_counts(&self, wager: &MainWager) -> i128 {
        let units = |n: u64, pays: i64| i128::from(n) * i128::from(pays);
        units(self.win, wager.win_units()) + units(self.overqualified, wager.overqualifier_units())
            - units(self.loss, BET_UNITS)
            - units(self.hands, wager.fee_units())
    }

    /// Counts one player hand's outcome.
    pub fn record(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.win += 1,
            Outcome::Overqualified => self.overqualified += 1,
            Outcome::Push => self.push += 1,
            Outcome::NotQualified => self.not_qualified += 1,
            Outcome::Loss { copy, foul } => {
                self.loss += 1;
                self.copy_losses += u64::from(copy);
                self.fouls += u64::from(foul);
            }
        }
    }
}

/// The most cards one round deals: the dealer and [`MAX_PLAYERS`] players, seven each.
const MAX_ROUND_CARDS: usize = 7 * (MAX_PLAYERS as usize + 1);

/// One round's cards in deal order (the dealer's seven, then each player's; positions past the
/// last seat are cards this round did not deal), and where each
/// hand's setting sits in its strategy's cache. A round is dealt and located one round before it
/// is settled, so the cache lines it needs arrive while the round before it is settled.
struct DealtRound {
    cards: [Card; MAX_ROUND_CARDS],
    dealer_slot: Option<ShapeSlot>,
    player_slots: [Option<ShapeSlot>; MAX_PLAYERS as usize],
}

impl DealtRound {
    /// A buffer to deal into.
    const EMPTY: DealtRound = DealtRound {
        cards: [Card::JOKER1; MAX_ROUND_CARDS],
        dealer_slot: None,
        player_slots: [None; MAX_PLAYERS as usize],
    };

    /// The seven cards of seat `seat` (0 = the dealer), in deal order.
    #[inline]
    fn hand(&self, seat: usize) -> &[Card; 7] {
        self.cards[7 * seat..7 * seat + 7]
            .try_into()
            .expect("seven cards a seat")
    }
}

/// A validated simulation, ready to deal: the configuration with its evaluator and side-bet
/// plans built once (a seven-card bet's line table takes milliseconds to build), shared by every
/// chunk and by every run of chunks.
pub struct Engine<'a> {
    cfg: &'a SimConfig,
    ev: Evaluator,
    side_bets: Vec<SideBetPlan>,
    /// Whether any side bet needs the player's seven-card facts.
    needs_facts: bool,
}

impl<'a> Engine<'a> {
    /// Validates `cfg` and builds what its rounds are settled with.
    pub fn new(cfg: &'a SimConfig) -> Result<Engine<'a>, SimError> {
        cfg.validate()?;
        let side_bets: Vec<SideBetPlan> = cfg.game.side_bets.iter().map(SideBetPlan::new).collect();
        Ok(Engine {
            cfg,
            ev: Evaluator::new(cfg.game.ranking),
            needs_facts: side_bets
                .iter()
                .any(|p| p.table.kind == BetKind::SevenCards),
            side_bets,
        })
    }

    /// Runs every chunk on the current rayon pool; `progress` is told each chunk's rounds.
    pub fn run(&self, progress: &(dyn Fn(u64) + Sync)) -> Tally {
        (0..self.cfg.chunks())
            .into_par_iter()
            .map(|chunk| {
                let tally = self.run_chunk(chunk);
                progress(tally.rounds);
                tally
            })
            .reduce(Tally::default, Tally::merge)
    }

    /// Runs the chunks `chunks` (each below `cfg.chunks()`, no repeats expected) on the current
    /// rayon pool and returns the sum of the chunks it ran. `done(chunk, &tally)` is called as
    /// each chunk finishes, from the worker that ran it. Once `stop` is set no further chunk is
    /// started (chunks already running finish and are reported), so the result then covers
    /// exactly the chunks passed to `done`.
    pub fn run_chunks(
        &self,
        chunks: &[u64],
        stop: &AtomicBool,
        done: &(dyn Fn(u64, &Tally) + Sync),
    ) -> Result<Tally, SimError> {
        let all = self.cfg.chunks();
        if let Some(&bad) = chunks.iter().find(|&&c| c >= all) {
            return Err(SimError::NoSuchChunk(bad, all));
        }
        Ok(chunks
            .par_iter()
            .map(|&chunk| {
                if stop.load(Ordering::Relaxed) {
                    return Tally::default();
                }
                let tally = self.run_chunk(chunk);
                done(chunk, &tally);
                tally
            })
            .reduce(Tally::default, Tally::merge))
    }

    /// Deals one round from the shoe into `round` and locates each hand in its strategy's cache.
    #[inline]
    fn deal_round<R: rand_xoshiro::rand_core::Rng>(
        &self,
        shoe: &mut Shoe,
        rng: &mut R,
        round: &mut DealtRound,
    ) {
        let seats = usize::from(self.cfg.players) + 1;
        round.cards = shoe.deal_array(rng, 7 * seats);
        round.dealer_slot = self.cfg.dealer.locate(round.hand(0));
        for seat in 1..seats {
            round.player_slots[seat - 1] = self.cfg.player.locate(round.hand(seat));
        }
    }

    /// Sets and settles one dealt round into `tally`.
    #[inline]
    fn play_round(&self, round: &DealtRound, tally: &mut Tally) {
        let (cfg, wager) = (self.cfg, &self.cfg.game.main_wager);
        let players = usize::from(cfg.players);
        let dealer_cards = round.hand(0);
        let dealer = set_dealer_located(
            &self.ev,
            &*cfg.dealer,
            wager,
            dealer_cards,
            round.dealer_slot,
        );
        let shown = wager.dealer_exposed.then_some(dealer.setting);
        let mut net = -i64::from(cfg.players) * wager.fee_units();
        let mut side_net = [0i64; MAX_SIDE_BETS];
        let dealer_jokers = Cards::from_cards(dealer_cards).jokers() as u8;
        for seat in 1..=players {
            let hand = round.hand(seat);
            let slot = round.player_slots[seat - 1];
            let (outcome, facts) = self.play_hand(hand, slot, shown, &dealer, tally);
            tally.record(outcome);
            net += outcome.units(wager);
            self.settle_side_bets(hand, facts, dealer_jokers, tally, &mut side_net);
        }
        for (bet, round_net) in tally.side_bets.iter_mut().zip(side_net) {
            bet.net += i128::from(round_net);
            bet.net_squared += u128::from(round_net.unsigned_abs()).pow(2);
        }
        tally.rounds += 1;
        tally.hands += players as u64;
        tally.net_units += i128::from(net);
        tally.net_units_squared += u128::from(net.unsigned_abs()).pow(2);
    }

    /// Sets and settles one player hand (in deal order, cached at `slot`), counting its best
    /// five; the seven-card facts when a side bet needs them. A strategy that knows the setting
    /// from its cache skips the split search.
    #[inline]
    fn play_hand(
        &self,
        dealt: &[Card; 7],
        slot: Option<ShapeSlot>,
        shown: Option<DealerSetting>,
        dealer: &DealerHand,
        tally: &mut Tally,
    ) -> (Outcome, Option<SevenCardFacts>) {
        let player = &*self.cfg.player;
        if let Some(known) = slot.and_then(|slot| player.known_at(slot)) {
            tally.categories[known.best as usize] += 1;
            let facts = self
                .needs_facts
                .then(|| SevenCardFacts::of_known(dealt, &known));
            return (settle_setting(known.front, known.back, dealer), facts);
        }
        let hand = sorted_hand(dealt);
        let splits = self.ev.split_values(&hand);
        tally.categories[splits.best_five().category() as usize] += 1;
        let outcome = settle(&splits, player.choose(&hand, &splits, shown), dealer);
        let facts = self.needs_facts.then(|| SevenCardFacts::of(&hand, &splits));
        (outcome, facts)
    }

    /// Settles every side bet of one player hand into `tally`, adding each bet's net to `net`.
    #[inline]
    fn settle_side_bets(
        &self,
        hand: &[Card; 7],
        facts: Option<SevenCardFacts>,
        dealer_jokers: u8,
        tally: &mut Tally,
        net: &mut [i64; MAX_SIDE_BETS],
    ) {
        if self.side_bets.is_empty() {
            return;
        }
        let jokers = Event::Jokers {
            player: Cards::from_cards(hand).jokers() as u8,
            dealer: dealer_jokers,
        };
        for (i, plan) in self.side_bets.iter().enumerate() {
            let line = plan.line(facts.as_ref(), jokers);
            tally.side_bets[i].lines[line] += 1;
            net[i] += plan.line_net[line];
        }
    }

    /// Deals and tallies chunk `chunk`. Round `r + 1` is dealt (into the other of two buffers)
    /// before round `r` is settled; settling draws nothing, so the deals are those of dealing
    /// and settling in turn.
    fn run_chunk(&self, chunk: u64) -> Tally {
        let mut rng = chunk_rng(self.cfg.seed, chunk);
        let mut shoe = Shoe::new(self.cfg.game.deck);
        let mut tally = Tally::default();
        let rounds = self.cfg.chunk_len(chunk);
        let mut buffers = [DealtRound::EMPTY; 2];
        self.deal_round(&mut shoe, &mut rng, &mut buffers[0]);
        for r in 0..rounds {
            let [even, odd] = &mut buffers;
            let (now, ahead) = if r % 2 == 0 { (even, odd) } else { (odd, even) };
            if r + 1 < rounds {
                self.deal_round(&mut shoe, &mut rng, ahead);
            }
            self.play_round(now, &mut tally);
        }
        tally
    }
}

/// A rayon pool of `threads` threads (0: one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, SimError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SimError::Threads(threads, e.to_string()))
}

/// Runs the simulation on the current rayon pool; `progress` is told each chunk's rounds.
pub fn run(cfg: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<Tally, SimError> {
    Ok(Engine::new(cfg)?.run(progress))
}

/// [`Engine::run_chunks`] of a new engine for `cfg`.
pub fn run_chunks(
    cfg: &SimConfig,
    chunks: &[u64],
    stop: &AtomicBool,
    done: &(dyn Fn(u64, &Tally) + Sync),
) -> Result<Tally, SimError> {
    Engine::new(cfg)?.run_chunks(chunks, stop, done)
}

/// The deal-only baseline: the same chunks, shuffles and sorted hands, with no evaluation,
/// setting or settling. Returns a checksum of the cards dealt (so nothing is optimised away).
pub fn deal_only(
    deck: Deck,
    seed: u64,
    deals: u64,
    chunk_size: u64,
    players: u8,
    progress: &(dyn Fn(u64) + Sync),
) -> u64 {
    let chunks = deals.div_ceil(chunk_size.max(1));
    let n = 7 * (usize::from(players) + 1);
    (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let rounds = chunk_size.min(deals - chunk * chunk_size);
            let mut rng = chunk_rng(seed, chunk);
            let mut shoe = Shoe::new(deck);
            let mut sum = 0u64;
            for _ in 0..rounds {
                let cards = shoe.deal(&mut rng, n);
                for hand in cards.chunks_exact(7) {
                    sum = sum.wrapping_add(Cards::from_cards(&sorted_hand(hand)).0);
                }
            }
            progress(rounds);
            sum
        })
        .reduce(|| 0, u64::wrapping_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::resolve::resolve;

    fn config(deals: u64, chunk_size: u64, players: u8) -> SimConfig {
        let game = GameRules::load("standard").unwrap();
        SimConfig {
            player: resolve("max-back", &game).unwrap().strategy,
            dealer: resolve("max-front", &game).unwrap().strategy,
            game,
            deals,
            seed: 1,
            chunk_size,
            players,
        }
    }

    #[test]
    fn counts_add_up_and_match_the_net() {
        let cfg = config(5_000, 700, 3);
        let t = run(&cfg, &|_| {}).unwrap();
        assert_eq!(t.rounds, 5_000);
        assert_eq!(t.hands, 15_000);
        assert_eq!(
            t.win + t.overqualified + t.push + t.not_qualified + t.loss,
            t.hands
        );
        assert_eq!(t.categories.iter().sum::<u64>(), t.hands);
        assert_eq!(t.net_units, t.net_from_counts(&cfg.game.main_wager));
        assert!(t.copy_losses > 0 && t.copy_losses < t.loss);
        assert_eq!(t.fouls, 0);
    }

    #[test]
    fn chunking_changes_nothing_but_the_streams() {
        let a = run(&config(3_000, 1_000, 1), &|_| {}).unwrap();
        let b = run(&config(3_000, 1_000, 1), &|_| {}).unwrap();
        assert_eq!(a, b);
        let c = run(&config(3_000, 999, 1), &|_| {}).unwrap();
        assert_eq!(c.rounds, 3_000);
    }

    #[test]
    fn chunk_subsets_add_up_to_the_whole_run() {
        let cfg = config(2_500, 300, 2);
        let whole = run(&cfg, &|_| {}).unwrap();
        let stop = AtomicBool::new(false);
        let seen = std::sync::Mutex::new(Vec::new());
        let record = |chunk: u64, t: &Tally| seen.lock().unwrap().push((chunk, t.rounds));
        let evens: Vec<u64> = (0..cfg.chunks()).filter(|c| c % 2 == 0).collect();
        let odds: Vec<u64> = (0..cfg.chunks()).filter(|c| c % 2 == 1).collect();
        let a = run_chunks(&cfg, &evens, &stop, &record).unwrap();
        let b = run_chunks(&cfg, &odds, &stop, &record).unwrap();
        assert_eq!(a.merge(b), whole);
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        let expected: Vec<(u64, u64)> = (0..9)
            .map(|c| (c, if c == 8 { 100 } else { 300 }))
            .collect();
        assert_eq!(
            seen, expected,
            "every chunk reported once; the last one is short"
        );
        assert_eq!(
            run_chunks(&cfg, &[9], &stop, &|_, _| {}).unwrap_err(),
            SimError::NoSuchChunk(9, 9)
        );
        stop.store(true, Ordering::Relaxed);
        let none = run_chunks(&cfg, &evens, &stop, &|_, _| panic!("stopped")).unwrap();
        assert_eq!(none, Tally::default());
    }

    #[test]
    fn bad_configurations_are_refused() {
        assert_eq!(
            run(&config(0, 10, 1), &|_| {}).unwrap_err(),
            SimError::NoDeals
        );
        assert_eq!(
            run(&config(10, 0, 1), &|_| {}).unwrap_err(),
            SimError::NoChunkSize
        );
        assert_eq!(
            run(&config(10, 10, 7), &|_| {}).unwrap_err(),
            SimError::Players(7)
        );
    }
}
