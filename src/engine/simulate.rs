//! `simulate`: the main wager and the side bets, dealt round by round on the run engine
//! ([`crate::engine::run`]).
//!
//! Each round deals one shuffled deck: the dealer's seven cards first, then seven for each of
//! 1..=6 players. The dealer sets first (its setting is shown to player strategies only when the
//! game's dealer is exposed), then each player sets and is settled by the main-wager rules
//! ([`crate::game::wager::settle`]); every side bet of the game is settled on the player's hand
//! (an Envy bonus: each hand's line is paid to every other player of the round).
//! A hand found in its strategy's shape cache is settled from the cached setting with no split
//! search; each round's hands are located in those caches when it is dealt, a few rounds before
//! it is played ([`crate::engine::run::LOOKAHEAD`]). A player's hand is counted by its class
//! ([`HandClasses`]: its best category and the line of every bet on a player's seven cards),
//! found once per plain shape ([`PlainMemo`]); the categories and those bets' lines are read off
//! the class counts, and the other bets (three cards, the setting, the jokers, the dealer's hand)
//! are settled hand by hand.
//!
//! Invariants: a [`SimTally`] holds only integers (counts, and payouts in
//! [`BET_UNITS`](crate::game::wager::BET_UNITS)); its outcome counts, categories and every side
//! bet's line counts each add up to its hands, and its net equals what its outcome counts pay
//! ([`SimTally::check`]).
//!
//! A running tally for convergence plots: each wager's net is also summed by block of deals,
//! block `b` holding the deals whose index `i` has `b` significant bits (block 0: deal 0; block
//! `b >= 1`: deals `[2^(b-1), 2^b)`), so the first `min(2^b, deals)` deals' net is the sum of
//! blocks `0..=b`. Blocks depend on the deal index alone, never on chunks or threads, and add up
//! like every other field, so shards, merges and resumed runs give the same blocks; the blocks of
//! a wager add up to its net.
//!
//! A chunk counts the hands of the block it is in apart (`OpenBlock`: by outcome, by class, and
//! by line of the bets settled hand by hand) and folds them into its tally when the block or the
//! chunk ends ([`Job::end_chunk`]). With one player a round's net is
//! its one hand's, so each wager's sums (net, squares, block) are then read off those counts
//! rather than added round by round; with several players they are summed each round. A tally
//! a chunk returns has no open block. The hot loop allocates nothing:
//! hands live on the stack and each hand's 21 splits are evaluated at most once (on a cache miss).
//! With one player (most runs) a round is dealt and played by code compiled for exactly one
//! player (`Simulation::deal_seats`, `Simulation::play_seats`): no seat loops to keep, and
//! with the helpers they call kept inline, 846 instructions a deal fell to 815.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::cards::deal::{ChunkRng, Shoe};
use crate::cards::{Card, Cards, Deck, sorted_hand};
use crate::engine::run::spec::RunSpec;
use crate::engine::run::{Job, Plan, Tally, counted_sums, decimal, decimals, run_all};
use crate::eval::Evaluator;
use crate::eval::split::KnownSetting;
use crate::files::ConfigError;
use crate::game::GameRules;
use crate::game::events::{BetHand, HandClasses, SevenCardFacts, SideBetPlan};
use crate::game::paytable::{Event, MAX_LINES};
use crate::game::wager::{
    DealerHand, DealerSetting, OUTCOMES, Outcome, OutcomeCounts, settle, settle_setting,
};
use crate::strategy::resolve::{WayIdentity, share_caches};
use crate::strategy::shape::{PlainMemo, ShapeSlot, ShapeTable, known_at, locate};
use crate::strategy::{Strategy, set_dealer_known};

/// The most players one dealer faces per shuffle.
pub const MAX_PLAYERS: u8 = 6;
/// The most side bets one game may offer (checked when the game is loaded).
pub const MAX_SIDE_BETS: usize = crate::game::MAX_SIDE_BETS;

/// Why a simulation cannot be configured.
#[derive(Debug, Error)]
pub enum SimError {
    #[error("players per deal must be 1 to {MAX_PLAYERS}, got {0}")]
    Players(u8),
    #[error(
        "strategy '{0}' needs to see the dealer's hand, but this game's dealer does not set first and exposed ([main_wager] dealer_exposed = true)"
    )]
    NotExposed(String),
    #[error("the dealer's strategy '{0}' cannot depend on the dealer's own setting")]
    DealerNeedsDealer(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// The command name in run specs.
pub const COMMAND: &str = "simulate";

/// The spec of a simulation of `game`: `player` against `dealer`, `players` players a round.
pub fn spec(
    game: &GameRules,
    player: &str,
    dealer: &str,
    players: u8,
) -> Result<RunSpec, ConfigError> {
    Ok(RunSpec::new(COMMAND, game)
        .with_strategy("player way", player)?
        .with_strategy("dealer way", dealer)?
        .with_option("players", players))
}

/// Checks that a dealer's and a player's strategy can play each other in `game`.
pub fn check_sides(
    game: &GameRules,
    dealer: &dyn Strategy,
    player: &dyn Strategy,
) -> Result<(), SimError> {
    if dealer.needs_dealer() {
        return Err(SimError::DealerNeedsDealer(dealer.name().to_string()));
    }
    if player.needs_dealer() && !game.main_wager.dealer_exposed {
        return Err(SimError::NotExposed(player.name().to_string()));
    }
    Ok(())
}

/// One side bet's integer results: hands per paying line (the slot after the last line counts
/// hands no line pays), and sums over rounds of the round's net in the bet's pay units, in all
/// and by block of deals (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideBetTally {
    pub lines: [u64; MAX_LINES + 1],
    #[serde(with = "decimal")]
    pub net: i128,
    #[serde(with = "decimal")]
    pub net_squared: u128,
    #[serde(with = "decimals")]
    pub block_net: Vec<i128>,
}

impl SideBetTally {
    /// The tally of a slot the game places no bet in, over `blocks` blocks: all zero.
    fn unplaced(blocks: usize) -> SideBetTally {
        SideBetTally {
            block_net: vec![0; blocks],
            ..SideBetTally::default()
        }
    }

    fn merge(&mut self, other: &SideBetTally) {
        for (a, b) in self.lines.iter_mut().zip(other.lines) {
            *a += b;
        }
        self.net += other.net;
        // With pays at most MAX_PAYS to 1 a round's square is below 4 x 10^21, so this sum
        // overflows only past 10^16 rounds: checked, never wrapped.
        self.net_squared = (self.net_squared.checked_add(other.net_squared))
            .expect("side-bet sum of squares overflows 128 bits (more than 10^16 rounds)");
        add_blocks(&mut self.block_net, &other.block_net);
    }
}

/// The block of deal `deal`: its number of significant bits (see the module docs).
#[inline]
pub fn block_of(deal: u64) -> usize {
    (u64::BITS - deal.leading_zeros()) as usize
}

/// Deals in blocks `0..=block` of a run of `deals` deals.
pub fn deals_through_block(block: usize, deals: u64) -> u64 {
    1u64.checked_shl(block as u32)
        .unwrap_or(u64::MAX)
        .min(deals)
}

/// Adds block sums `other` into `sums`, lengthening it as needed.
fn add_blocks(sums: &mut Vec<i128>, other: &[i128]) {
    if sums.len() < other.len() {
        sums.resize(other.len(), 0);
    }
    for (a, b) in sums.iter_mut().zip(other) {
        *a += b;
    }
}

/// A checked sum of counts, for messages: the number, or "more than" the largest u64 where it
/// overflowed.
fn shown_sum(sum: Option<u64>) -> String {
    sum.map_or_else(|| format!("more than {}", u64::MAX), |s| s.to_string())
}

/// Checks that block sums add up to their net.
fn check_blocks(what: &str, blocks: &[i128], net: i128) -> Result<(), String> {
    let sum: i128 = blocks.iter().sum();
    if sum != net {
        return Err(format!(
            "{what}: its blocks of deals sum to {sum}, its net is {net}"
        ));
    }
    Ok(())
}

/// Integer results of some rounds. Outcome counts are per player hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimTally {
    /// Rounds dealt.
    pub rounds: u64,
    /// Player hands settled (rounds x players).
    pub hands: u64,
    /// Player hands by outcome.
    pub outcomes: OutcomeCounts,
    /// Sum over rounds of the round's net to the players, in bet units.
    #[serde(with = "decimal")]
    pub net_units: i128,
    /// Sum over rounds of the squared round net (for the per-round variance).
    #[serde(with = "decimal")]
    pub net_units_squared: u128,
    /// The players' net by block of deals (see the module docs).
    #[serde(with = "decimals")]
    pub block_net: Vec<i128>,
    /// Player hands by best 5-card category of the seven cards (`Category as usize`).
    pub categories: [u64; 11],
    /// Side bets, in the order the game lists them (unused slots stay zero).
    pub side_bets: [SideBetTally; MAX_SIDE_BETS],
    /// Hands of the open block not yet in the fields above: empty in every tally a chunk
    /// returns (so never written to a file).
    #[serde(skip)]
    open: OpenBlock,
}

/// The hands a chunk has played in one block of deals and not yet folded into its tally
/// ([`Simulation::close_block`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct OpenBlock {
    /// The open block (0 when none is open).
    block: usize,
    /// The first deal index past the open block, 0 when none is open: a chunk's deals come in
    /// order, so a round opens the next block exactly when its index reaches this.
    ends_at: u64,
    outcomes: OutcomeCounts,
    /// Hands by class ([`HandClasses`]).
    classes: Vec<u64>,
    /// Each side bet's hands by line (the bets settled by class: only while a block closes).
    lines: [[u64; MAX_LINES + 1]; MAX_SIDE_BETS],
}

impl Tally for SimTally {
    fn merge(&mut self, other: &SimTally) {
        debug_assert!(
            other.open == OpenBlock::default(),
            "a tally merged with an open block"
        );
        self.rounds += other.rounds;
        self.hands += other.hands;
        self.outcomes.add(&other.outcomes);
        self.net_units += other.net_units;
        self.net_units_squared += other.net_units_squared;
        add_blocks(&mut self.block_net, &other.block_net);
        for (a, b) in self.categories.iter_mut().zip(other.categories) {
            *a += b;
        }
        for (a, b) in self.side_bets.iter_mut().zip(&other.side_bets) {
            a.merge(b);
        }
    }

    fn rounds(&self) -> u64 {
        self.rounds
    }

    /// Outcome counts, categories and each used side bet's lines add up to the hands; each
    /// wager's blocks add up to its net.
    fn check(&self) -> Result<(), String> {
        check_blocks("the main wager", &self.block_net, self.net_units)?;
        for (i, bet) in self.side_bets.iter().enumerate() {
            check_blocks(&format!("side bet {}", i + 1), &bet.block_net, bet.net)?;
        }
        let sum = |counts: &[u64]| counts.iter().try_fold(0u64, |a, &b| a.checked_add(b));
        let hands = Some(self.hands);
        if self.outcomes.total() != hands || sum(&self.categories) != hands {
            return Err(format!(
                "tally does not add up: {} hands, outcomes sum to {}, categories to {}",
                self.hands,
                shown_sum(self.outcomes.total()),
                shown_sum(sum(&self.categories))
            ));
        }
        for (i, bet) in self.side_bets.iter().enumerate() {
            let lines = sum(&bet.lines);
            if lines != hands && lines != Some(0) {
                return Err(format!(
                    "side bet {} does not add up: {} hands, its lines sum to {}",
                    i + 1,
                    self.hands,
                    shown_sum(lines)
                ));
            }
        }
        Ok(())
    }
}

/// The most hands one round deals: the dealer's and [`MAX_PLAYERS`] players'.
const MAX_SEATS: usize = MAX_PLAYERS as usize + 1;
/// The most cards one round deals, seven a seat.
const MAX_ROUND_CARDS: usize = 7 * MAX_SEATS;

/// One round's hands in deal order (the dealer's seven cards, then each player's; hands past the
/// last seat are cards this round did not deal), and where each hand's setting sits in its
/// strategy's cache.
pub struct DealtRound {
    hands: [[Card; 7]; MAX_SEATS],
    dealer_slot: Option<ShapeSlot>,
    player_slots: [Option<ShapeSlot>; MAX_PLAYERS as usize],
}

impl DealtRound {
    /// The seven cards of seat `seat` (0 = the dealer), in deal order.
    #[inline]
    fn hand(&self, seat: usize) -> &[Card; 7] {
        &self.hands[seat]
    }
}

/// One player hand as played: its outcome, its class ([`HandClasses`]) and its setting's
/// (front, back) values.
struct PlayedHand {
    outcome: Outcome,
    class: usize,
    setting: (crate::eval::Value, crate::eval::Value),
}

/// A validated simulation, ready to deal: the game, both strategies, the players per round, and
/// what rounds are settled with (the evaluator and each side bet's plan, built once).
pub struct Simulation {
    pub game: GameRules,
    pub player: Box<dyn Strategy>,
    pub dealer: Box<dyn Strategy>,
    /// Players per round, 1..=6.
    pub players: u8,
    ev: Evaluator,
    side_bets: Vec<SideBetPlan>,
    /// The side bets settled by the player hand's class, and the others (by index).
    bets_by_class: Vec<usize>,
    bets_by_hand: Vec<usize>,
    /// The classes a player's hand is counted in, and each plain shape's class once known.
    classes: HandClasses,
    class_memo: PlainMemo,
    /// Whether any side bet is judged on the dealer's seven cards.
    needs_dealer_facts: bool,
    /// Whether any side bet reads the deal's joker event.
    needs_jokers: bool,
    /// The player's and the dealer's shape caches ([`Strategy::shape_table`]), held apart so
    /// that the hot loop reads them with no virtual call.
    player_cache: Option<Arc<ShapeTable>>,
    dealer_cache: Option<Arc<ShapeTable>>,
    /// The main wager's net for each outcome ([`crate::game::wager::MainWager::net_by_outcome`]).
    net_by_outcome: [i64; OUTCOMES],
    /// Whether each wager's sums are read off its counts when a block closes (one player: a
    /// round's net is its one hand's) rather than added round by round.
    sums_from_counts: bool,
}

impl Simulation {
    /// Checks the parts fit together and builds what rounds are settled with.
    pub fn new(
        game: GameRules,
        player: Box<dyn Strategy>,
        dealer: Box<dyn Strategy>,
        players: u8,
    ) -> Result<Simulation, SimError> {
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(SimError::Players(players));
        }
        check_sides(&game, &*dealer, &*player)?;
        let side_bets: Vec<SideBetPlan> = (game.side_bets.iter())
            .map(|t| SideBetPlan::new(t, game.ranking.joker).for_players(players))
            .collect();
        let (bets_by_class, bets_by_hand) =
            (0..side_bets.len()).partition(|&i| side_bets[i].settled_by_class());
        Ok(Simulation {
            ev: Evaluator::new(game.ranking),
            bets_by_class,
            bets_by_hand,
            classes: HandClasses::new(&side_bets),
            class_memo: PlainMemo::default(),
            needs_dealer_facts: side_bets.iter().any(SideBetPlan::needs_dealer_facts),
            needs_jokers: side_bets.iter().any(SideBetPlan::needs_jokers),
            player_cache: player.shape_table().cloned(),
            dealer_cache: dealer.shape_table().cloned(),
            net_by_outcome: game.main_wager.net_by_outcome(),
            sums_from_counts: players == 1,
            side_bets,
            game,
            player,
            dealer,
            players,
        })
    }

    /// The simulation a spec describes, rebuilt from its texts alone. When the dealer plays the
    /// player's way, both share one cache ([`share_caches`]).
    pub fn from_spec(spec: &RunSpec) -> Result<Simulation, SimError> {
        Ok(Simulation::from_spec_with_ways(spec)?.0)
    }

    /// [`Simulation::from_spec`], with the (player, dealer) ways' identities (what ties a result,
    /// such as a cached exact main wager, to them), each way resolved once.
    pub fn from_spec_with_ways(
        spec: &RunSpec,
    ) -> Result<(Simulation, (WayIdentity, WayIdentity)), SimError> {
        let game = spec.game_with_paytables()?;
        let mut player = spec.strategy("player way", &game)?;
        let mut dealer = spec.strategy("dealer way", &game)?;
        let ways = (player.identity(), dealer.identity());
        share_caches(vec![&mut player, &mut dealer]);
        let players = spec.parsed("players")?;
        let simulation = Simulation::new(game, player.strategy, dealer.strategy, players)?;
        Ok((simulation, ways))
    }

    /// Sets and settles one player hand (in deal order, at `slot` of the shape caches) and
    /// finds its class. A strategy that knows the setting from its cache skips the split
    /// search; a plain shape's class is found once ([`PlainMemo`]).
    #[inline(always)]
    fn play_hand(
        &self,
        dealt: &[Card; 7],
        slot: Option<ShapeSlot>,
        shown: Option<DealerSetting>,
        dealer: DealerHand,
    ) -> PlayedHand {
        let class_of = |facts: SevenCardFacts| self.classes.of(&facts);
        if let Some(known) = known_at(&self.player_cache, slot) {
            let facts = || known_facts(dealt, &known, slot);
            return PlayedHand {
                outcome: settle_setting(known.front, known.back, &dealer),
                class: self.class_memo.get_or_insert(slot, || class_of(facts())),
                setting: (known.front, known.back),
            };
        }
        let hand = sorted_hand(dealt);
        let splits = self.ev.split_values(&hand);
        let k = self.player.choose(&hand, &splits, shown);
        let facts = || SevenCardFacts::of(&hand, &splits);
        PlayedHand {
            outcome: settle(&splits, k, &dealer),
            class: self.class_memo.get_or_insert(slot, || class_of(facts())),
            setting: (splits.front[k], splits.back[k]),
        }
    }

    /// The dealer's seven-card facts, when a side bet is judged on the dealer's hand: from the
    /// dealer's way's cache when it knows the hand, else from the split values.
    #[inline(always)]
    fn dealer_facts(&self, cards: &[Card; 7], slot: Option<ShapeSlot>) -> Option<SevenCardFacts> {
        if !self.needs_dealer_facts {
            return None;
        }
        Some(self.dealer_facts_of(cards, slot))
    }

    /// [`Simulation::dealer_facts`] of a game that needs them, out of line.
    #[inline(never)]
    fn dealer_facts_of(&self, cards: &[Card; 7], slot: Option<ShapeSlot>) -> SevenCardFacts {
        if let Some(known) = known_at(&self.dealer_cache, slot) {
            return known_facts(cards, &known, slot);
        }
        let hand = sorted_hand(cards);
        SevenCardFacts::of(&hand, &self.ev.split_values(&hand))
    }

    /// Adds the round nets of one player hand's `class` on the bets settled by class to `net`.
    #[inline(always)]
    fn add_class_nets(&self, class: usize, net: &mut [i64; MAX_SIDE_BETS]) {
        let lines = self.classes.all()[class].lines;
        for &i in &self.bets_by_class {
            net[i] += self.side_bets[i].line_net[usize::from(lines[i])];
        }
    }

    /// Settles the side bets not settled by class of one player hand (`hand` in deal order)
    /// into the open block, adding each bet's net to `net` when the round's sums are added
    /// round by round.
    #[inline(always)]
    fn settle_side_bets(
        &self,
        hand: &[Card; 7],
        played: &PlayedHand,
        dealer: (Option<u8>, Option<&SevenCardFacts>),
        tally: &mut SimTally,
        net: &mut [i64; MAX_SIDE_BETS],
    ) {
        if self.bets_by_hand.is_empty() {
            return;
        }
        let bet_hand = BetHand {
            dealt: hand,
            setting: played.setting,
            dealer_facts: dealer.1,
            jokers: dealer.0.map(|dealer| Event::Jokers {
                player: Cards::from_cards(hand).jokers() as u8,
                dealer,
            }),
        };
        for &i in &self.bets_by_hand {
            let plan = &self.side_bets[i];
            let line = plan.line(&bet_hand);
            tally.open.lines[i][line] += 1;
            if !self.sums_from_counts {
                net[i] += plan.line_net[line];
            }
        }
    }
}

impl Simulation {
    /// Opens the block of `deal` in `tally` when `deal` is past the open one (deals come in
    /// order), closing the one before; returns the open block.
    #[inline(always)]
    fn open_block(&self, tally: &mut SimTally, deal: u64) -> usize {
        if deal >= tally.open.ends_at {
            self.open_next_block(tally, deal);
        }
        tally.open.block
    }

    /// Closes the open block and opens the one of `deal` (out of line: once a block).
    #[inline(never)]
    fn open_next_block(&self, tally: &mut SimTally, deal: u64) {
        let block = block_of(deal);
        self.close_block(tally);
        self.reserve_block(tally, block);
        tally.open.block = block;
        // Blocks `0..=block` of an endless run hold the deals below the next block's first.
        tally.open.ends_at = deals_through_block(block, u64::MAX);
    }

    /// Folds the open block's hands into `tally`, with each wager's sums read off the counts
    /// when [`Simulation::sums_from_counts`]; leaves no block open, its counts zero (and sized
    /// for the classes).
    #[inline(never)]
    fn close_block(&self, tally: &mut SimTally) {
        let mut open = std::mem::take(&mut tally.open);
        open.classes.resize(self.classes.all().len(), 0);
        if open.ends_at != 0 {
            let block = open.block;
            self.fold_classes(tally, &mut open);
            self.fold_block(tally, &open, block);
        }
        open.classes.fill(0);
        tally.open = OpenBlock {
            classes: open.classes,
            ..OpenBlock::default()
        };
    }

    /// Moves the open block's hands by class into the categories of `tally` and the open
    /// lines of the bets settled by class.
    fn fold_classes(&self, tally: &mut SimTally, open: &mut OpenBlock) {
        for (class, &hands) in self.classes.all().iter().zip(&open.classes) {
            tally.categories[class.category as usize] += hands;
            for &i in &self.bets_by_class {
                open.lines[i][usize::from(class.lines[i])] += hands;
            }
        }
    }

    /// Folds the open block's outcomes and lines into `tally`, with each wager's sums read off
    /// the counts when [`Simulation::sums_from_counts`].
    fn fold_block(&self, tally: &mut SimTally, open: &OpenBlock, block: usize) {
        tally.outcomes.add(&open.outcomes);
        if self.sums_from_counts {
            let (_, net, squares) =
                counted_sums(open.outcomes.0.into_iter().zip(self.net_by_outcome));
            tally.net_units += net;
            tally.net_units_squared += squares;
            tally.block_net[block] += net;
        }
        for (i, plan) in self.side_bets.iter().enumerate() {
            let bet = &mut tally.side_bets[i];
            for (total, hands) in bet.lines.iter_mut().zip(open.lines[i]) {
                *total += hands;
            }
            if self.sums_from_counts {
                // One player: each hand is a round, so a line's hands are rounds of its net.
                let lines = open.lines[i].into_iter().zip(plan.line_net.iter().copied());
                let (_, net, squares) = counted_sums(lines);
                bet.net += net;
                bet.net_squared += squares;
                bet.block_net[block] += net;
            }
        }
    }

    /// Makes room in `tally` for the block sums up to `block` (main wager and every side bet).
    #[inline]
    fn reserve_block(&self, tally: &mut SimTally, block: usize) {
        if tally.block_net.len() <= block {
            tally.block_net.resize(block + 1, 0);
            for bet in &mut tally.side_bets[..self.side_bets.len()] {
                bet.block_net.resize(block + 1, 0);
            }
        }
    }
}

/// The seven-card facts of `hand` (in deal order) from the setting its cache knows at `slot`.
#[inline(always)]
fn known_facts(hand: &[Card; 7], known: &KnownSetting, slot: Option<ShapeSlot>) -> SevenCardFacts {
    let flush_suit = slot.is_some_and(ShapeSlot::has_flush_suit);
    SevenCardFacts::of_known(hand, known, flush_suit)
}

impl Simulation {
    /// [`Job::deal`] for `players` players. Every call passes either the constant 1 (the usual
    /// run, so that the seat loops unroll) or the simulation's player count.
    #[inline(always)]
    fn deal_seats(
        &self,
        players: usize,
        shoe: &mut Shoe,
        rng: &mut ChunkRng,
        round: &mut DealtRound,
    ) {
        let seats = players + 1;
        shoe.deal_into(rng, round.hands.as_flattened_mut(), 7 * seats);
        round.dealer_slot = locate(&self.dealer_cache, round.hand(0));
        for seat in 1..seats {
            let slot = locate(&self.player_cache, round.hand(seat));
            self.class_memo.prefetch(slot);
            round.player_slots[seat - 1] = slot;
        }
    }

    /// [`Job::play`] for `players` players (see [`Simulation::deal_seats`]).
    #[inline(always)]
    fn play_seats(&self, players: usize, round: &mut DealtRound, deal: u64, tally: &mut SimTally) {
        let wager = &self.game.main_wager;
        let dealer_cards = round.hand(0);
        let known = known_at(&self.dealer_cache, round.dealer_slot);
        let dealer = set_dealer_known(&self.ev, &*self.dealer, wager, dealer_cards, known);
        let shown = wager.dealer_exposed.then_some(dealer.setting);
        let mut net = 0i64;
        let mut side_net = [0i64; MAX_SIDE_BETS];
        let dealer_jokers =
            (self.needs_jokers).then(|| Cards::from_cards(dealer_cards).jokers() as u8);
        let dealer_facts = self.dealer_facts(dealer_cards, round.dealer_slot);
        let block = self.open_block(tally, deal);
        let seats = round.hands[1..=players]
            .iter()
            .zip(&round.player_slots[..players]);
        for (hand, &slot) in seats {
            let played = self.play_hand(hand, slot, shown, dealer);
            tally.open.outcomes.record(played.outcome);
            tally.open.classes[played.class] += 1;
            net += self.net_by_outcome[played.outcome.index()];
            if !self.sums_from_counts {
                self.add_class_nets(played.class, &mut side_net);
            }
            let dealer_side = (dealer_jokers, dealer_facts.as_ref());
            self.settle_side_bets(hand, &played, dealer_side, tally, &mut side_net);
        }
        tally.rounds += 1;
        tally.hands += players as u64;
        if !self.sums_from_counts {
            self.add_round_sums(tally, block, net, &side_net);
        }
    }
}

impl Job for Simulation {
    type Tally = SimTally;
    type Round = DealtRound;

    fn check_read_tally(&self, tally: &SimTally) -> Result<(), String> {
        self.check_tally(tally)
    }

    fn deck(&self) -> Deck {
        self.game.deck
    }

    fn empty_round(&self) -> DealtRound {
        DealtRound {
            hands: [[Card::JOKER1; 7]; MAX_SEATS],
            dealer_slot: None,
            player_slots: [None; MAX_PLAYERS as usize],
        }
    }

    fn empty_tally(&self) -> SimTally {
        SimTally::default()
    }

    /// Deals the dealer's and each player's seven cards and locates each hand in its
    /// strategy's cache (`Simulation::deal_seats`).
    #[inline(always)]
    fn deal(&self, shoe: &mut Shoe, rng: &mut ChunkRng, round: &mut DealtRound) {
        match self.players {
            1 => self.deal_seats(1, shoe, rng, round),
            players => self.deal_seats(usize::from(players), shoe, rng, round),
        }
    }

    /// 5 M hands a second a thread (the benchmarks measure about 10 M with one player).
    fn estimated_seconds(&self, plan: &Plan) -> f64 {
        plan.deals as f64 * f64::from(self.players + 1) / 2.0 / 5e6
    }

    /// Sets and settles one dealt round into `tally` (`Simulation::play_seats`).
    #[inline(always)]
    fn play(&self, round: &mut DealtRound, deal: u64, tally: &mut SimTally) {
        match self.players {
            1 => self.play_seats(1, round, deal, tally),
            players => self.play_seats(usize::from(players), round, deal, tally),
        }
    }

    /// Folds the open block into the tally, which then holds no open block.
    fn end_chunk(&self, tally: &mut SimTally) {
        self.close_block(tally);
        tally.open = OpenBlock::default();
    }
}

impl Simulation {
    /// Adds one round's nets (the main wager's `net`, each side bet's `side_net`) to the sums of
    /// `tally` and of its `block`.
    #[inline]
    fn add_round_sums(&self, tally: &mut SimTally, block: usize, net: i64, side_net: &[i64]) {
        let used = self.side_bets.len();
        for (bet, &round_net) in tally.side_bets[..used].iter_mut().zip(side_net) {
            bet.net += i128::from(round_net);
            bet.net_squared += u128::from(round_net.unsigned_abs()).pow(2);
            bet.block_net[block] += i128::from(round_net);
        }
        tally.block_net[block] += i128::from(net);
        tally.net_units += i128::from(net);
        tally.net_units_squared += u128::from(net.unsigned_abs()).pow(2);
    }
}

impl Simulation {
    /// Checks a tally read back from a file against this simulation: hands are rounds x
    /// players, the main wager's net is what the outcome counts pay and each side bet's what its
    /// line counts pay, and each sum of squared round nets fits those counts.
    pub fn check_tally(&self, tally: &SimTally) -> Result<(), String> {
        tally.check()?;
        if tally.rounds.checked_mul(u64::from(self.players)) != Some(tally.hands) {
            let seats = match self.players {
                1 => "1 player".to_string(),
                n => format!("{n} players"),
            };
            return Err(format!(
                "tally has {} hands for {} rounds, but the run seats {seats} a round",
                tally.hands, tally.rounds
            ));
        }
        let net = tally.outcomes.net_units(&self.game.main_wager);
        if net != tally.net_units {
            return Err(format!(
                "tally net {} does not match its outcome counts ({net})",
                tally.net_units
            ));
        }
        let hands_squared = tally.outcomes.net_units_squared(&self.game.main_wager);
        let main = (tally.net_units, tally.net_units_squared);
        self.check_net_squared("the main wager", tally.rounds, main, hands_squared)?;
        for (i, bet) in tally.side_bets.iter().enumerate() {
            match self.side_bets.get(i) {
                Some(plan) => self.check_side_bet(i, plan, bet, tally)?,
                None if *bet != SideBetTally::unplaced(bet.block_net.len()) => {
                    return Err(format!(
                        "side bet {} is not in this run, but its tally is not empty",
                        i + 1
                    ));
                }
                None => {}
            }
        }
        Ok(())
    }

    /// One placed side bet's tally against itself: its paytable's lines count every hand (and
    /// the slots past them none), and its net and squared nets are what those counts pay.
    fn check_side_bet(
        &self,
        i: usize,
        plan: &SideBetPlan,
        bet: &SideBetTally,
        tally: &SimTally,
    ) -> Result<(), String> {
        let name = format!("side bet {} ({})", i + 1, plan.table.name);
        let lines = bet.lines.iter().copied().zip(plan.line_net.iter().copied());
        let (counted, net, hands_squared) = counted_sums(lines);
        let past_its_lines = bet.lines[plan.line_net.len()..].iter().any(|&n| n > 0);
        if counted != tally.hands || past_its_lines {
            return Err(format!(
                "{name}: its {} lines and the no-line slot count {counted} hands, but the tally \
                 has {}{}",
                plan.line_net.len() - 1,
                tally.hands,
                if past_its_lines {
                    " (and counts past its lines)"
                } else {
                    ""
                }
            ));
        }
        if net != bet.net {
            return Err(format!(
                "{name}: tally net {} does not match its line counts ({net})",
                bet.net
            ));
        }
        let sums = (bet.net, bet.net_squared);
        self.check_net_squared(&name, tally.rounds, sums, hands_squared)
    }

    /// A wager's sum of squared round nets against its counts, whose hands' squared nets sum to
    /// `hands_squared`: equal to it with one player a round; with P players, at most P times it
    /// (a round's squared net is at most P times its hands' squares) and at least the net
    /// squared over the rounds (Cauchy-Schwarz). Counts moved between outcomes or lines with the
    /// net adjusted are caught here unless the squares are adjusted too.
    fn check_net_squared(
        &self,
        wager: &str,
        rounds: u64,
        (net, squared): (i128, u128),
        hands_squared: u128,
    ) -> Result<(), String> {
        let fits = match self.players {
            1 => squared == hands_squared,
            p => {
                let most = hands_squared.checked_mul(u128::from(p));
                let least = (net.unsigned_abs())
                    .checked_mul(net.unsigned_abs())
                    .map(|n| n.div_ceil(u128::from(rounds.max(1))));
                most.is_none_or(|m| squared <= m) && least.is_none_or(|l| squared >= l)
            }
        };
        if !fits {
            return Err(format!(
                "{wager}: tally's sum of squared nets {squared} does not fit its counts (whose \
                 hands' squared nets sum to {hands_squared}, with {} players a round)",
                self.players
            ));
        }
        Ok(())
    }
}

/// Runs every chunk of `plan` on the current rayon pool (see [`run_all`]).
pub fn run(sim: &Simulation, plan: &Plan) -> SimTally {
    run_all(sim, plan, &|_| {})
}

/// The deal-only baseline: the same chunks, shuffles and round buffers as [`Simulation`]'s
/// [`Job::deal`] (the shoe dealt into every seat's seven cards), with no locating, setting or
/// settling. Returns a checksum of each round's first card of every seat (so nothing is
/// optimised away); `progress` hears each chunk's rounds.
pub fn deal_only(deck: Deck, plan: &Plan, players: u8, progress: &(dyn Fn(u64) + Sync)) -> u64 {
    use rayon::prelude::*;
    let seats = usize::from(players) + 1;
    (0..plan.chunks())
        .into_par_iter()
        .map(|chunk| {
            let rounds = plan.chunk_len(chunk);
            let mut rng = crate::cards::deal::chunk_rng(plan.seed, chunk);
            let mut shoe = Shoe::new(deck);
            let mut sum = 0u64;
            let mut cards = [Card::JOKER1; MAX_ROUND_CARDS];
            for _ in 0..rounds {
                shoe.deal_into(&mut rng, &mut cards, 7 * seats);
                for seat in 0..seats {
                    sum = sum.wrapping_add(u64::from(cards[7 * seat].index()));
                }
            }
            progress(rounds);
            sum
        })
        .reduce(|| 0, u64::wrapping_add)
}

/// The floor every rate is measured against: the same chunks, RNG streams and bounded draws
/// dealing the same number of cards by a partial Fisher-Yates shuffle of a plain byte array,
/// and nothing else (no shoe, no hands). Returns a checksum of each round's first card (one
/// byte read: reading eight bytes the swaps had just stored one at a time stalled the loop).
pub fn floor(deck: Deck, plan: &Plan, players: u8, progress: &(dyn Fn(u64) + Sync)) -> u64 {
    use rayon::prelude::*;
    let (size, dealt) = (deck.size(), 7 * (usize::from(players) + 1));
    (0..plan.chunks())
        .into_par_iter()
        .map(|chunk| {
            let rounds = plan.chunk_len(chunk);
            let mut rng = crate::cards::deal::chunk_rng(plan.seed, chunk);
            let mut cards: [u8; 54] = std::array::from_fn(|i| i as u8);
            let mut sum = 0u64;
            for _ in 0..rounds {
                for p in 0..dealt {
                    let q = p + crate::cards::deal::below(&mut rng, (size - p) as u64) as usize;
                    cards.swap(p, q);
                }
                sum = sum.wrapping_add(u64::from(cards[0]));
            }
            progress(rounds);
            sum
        })
        .reduce(|| 0, u64::wrapping_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::run::run_chunks;
    use crate::strategy::resolve::resolve;
    use std::sync::atomic::{AtomicBool, Ordering};

    fn sim(players: u8) -> Simulation {
        let game = GameRules::load("standard").unwrap();
        let player = resolve("max-back", &game).unwrap().strategy;
        let dealer = resolve("max-front", &game).unwrap().strategy;
        Simulation::new(game, player, dealer, players).unwrap()
    }

    #[test]
    fn counts_add_up_and_match_the_net() {
        let s = sim(3);
        let t = run(&s, &Plan::new(5_000, 700, 1).unwrap());
        assert_eq!(t.rounds, 5_000);
        assert_eq!(t.hands, 15_000);
        s.check_tally(&t).unwrap();
        let copies = t.outcomes.get(Outcome::CopyLoss);
        assert!(copies > 0 && copies < t.outcomes.get(Outcome::Loss) + copies);
        assert_eq!(t.outcomes.get(Outcome::Foul), 0);
        let mut bad = t.clone();
        bad.net_units += 1;
        assert!(s.check_tally(&bad).is_err(), "a net that does not match");
        bad = t.clone();
        bad.outcomes.0[0] += 1;
        assert!(s.check_tally(&bad).is_err(), "outcomes that do not add up");
        bad = t.clone();
        bad.block_net[3] += 1;
        bad.block_net[4] -= 1;
        assert!(s.check_tally(&bad).is_ok(), "blocks that still add up");
        bad.side_bets[1].block_net[2] += 1;
        assert!(
            s.check_tally(&bad).is_err(),
            "side-bet blocks that do not add up"
        );
    }

    /// A placed side bet's lines must count every hand: a tally with the hands no line pays
    /// moved past the paytable's lines (the net and blocks moved to match), or with the bet
    /// zeroed whole, once passed, and merge wrote its changed EV with exit status 0; an unplaced
    /// slot must be empty.
    #[test]
    fn a_side_bets_lines_count_every_hand() {
        let s = sim(3);
        let t = run(&s, &Plan::new(5_000, 700, 1).unwrap());
        let last = s.side_bets[0].line_net.len() - 1;
        let mut moved = t.clone();
        let bet = &mut moved.side_bets[0];
        let hands = std::mem::take(&mut bet.lines[last]);
        bet.lines[last + 1] = hands;
        let change = -i128::from(hands) * i128::from(s.side_bets[0].line_net[last]);
        bet.net += change;
        *bet.block_net.last_mut().unwrap() += change;
        let error = s.check_tally(&moved).unwrap_err();
        assert!(error.contains("counts past its lines"), "{error}");
        let mut zeroed = t.clone();
        zeroed.side_bets[0] = SideBetTally::unplaced(t.block_net.len());
        let error = s.check_tally(&zeroed).unwrap_err();
        assert!(
            error.contains("lines and the no-line slot count 0 hands, but the tally has 15000"),
            "{error}"
        );
        let mut unplaced = t.clone();
        let slot = s.side_bets.len();
        assert!(slot < MAX_SIDE_BETS, "the standard game leaves a slot free");
        unplaced.side_bets[slot] = t.side_bets[0].clone();
        let error = s.check_tally(&unplaced).unwrap_err();
        assert!(error.contains("is not in this run"), "{error}");
    }

    #[test]
    fn blocks_hold_the_running_net_by_deal_index() {
        assert_eq!(
            (block_of(0), block_of(1), block_of(2), block_of(3)),
            (0, 1, 2, 2)
        );
        assert_eq!(
            (block_of(4), block_of(1 << 20), block_of(u64::MAX)),
            (3, 21, 64)
        );
        assert_eq!(deals_through_block(2, 100), 4);
        assert_eq!(deals_through_block(64, 100), 100);
        for s in [sim(1), sim(2)] {
            let t = run(&s, &Plan::new(1_000, 300, 5).unwrap());
            assert_eq!(t.block_net.len(), 11, "deal 999 is in block 10");
            for b in 0..t.block_net.len() {
                let n = deals_through_block(b, 1_000);
                let head = run(&s, &Plan::new(n, 300, 5).unwrap());
                let sum: i128 = t.block_net[..=b].iter().sum();
                assert_eq!(sum, head.net_units, "the first {n} deals");
                let side: i128 = t.side_bets[0].block_net[..=b].iter().sum();
                assert_eq!(side, head.side_bets[0].net, "side bet, first {n} deals");
            }
        }
    }

    /// One player: each wager's sums read off each block's counts are the sums added round by
    /// round, with chunks that cut blocks (700 deals) and a block that cuts a chunk (65,536).
    #[test]
    fn one_players_sums_from_counts_are_the_round_by_round_sums() {
        let from_counts = sim(1);
        assert!(from_counts.sums_from_counts);
        let mut by_round = sim(1);
        by_round.sums_from_counts = false;
        for plan in [Plan::new(5_000, 700, 3), Plan::new(70_000, 65_536, 3)] {
            let plan = plan.unwrap();
            let counted = run(&from_counts, &plan);
            assert_eq!(counted, run(&by_round, &plan));
            assert!(counted.net_units != 0 && counted.block_net.len() > 12);
            assert!(counted.side_bets[..2].iter().all(|b| b.net_squared > 0));
            from_counts.check_tally(&counted).unwrap();
        }
    }

    #[test]
    fn chunking_changes_nothing_but_the_streams() {
        let s = sim(1);
        let a = run(&s, &Plan::new(3_000, 1_000, 1).unwrap());
        let b = run(&s, &Plan::new(3_000, 1_000, 1).unwrap());
        assert_eq!(a, b);
        let c = run(&s, &Plan::new(3_000, 999, 1).unwrap());
        assert_eq!(c.rounds, 3_000);
    }

    #[test]
    fn chunk_subsets_add_up_to_the_whole_run() {
        let s = sim(2);
        let plan = Plan::new(2_500, 300, 1).unwrap();
        let whole = run(&s, &plan);
        let stop = AtomicBool::new(false);
        let seen = std::sync::Mutex::new(Vec::new());
        let record = |chunk: u64, t: &SimTally| seen.lock().unwrap().push((chunk, t.rounds));
        let evens: Vec<u64> = (0..plan.chunks()).filter(|c| c % 2 == 0).collect();
        let odds: Vec<u64> = (0..plan.chunks()).filter(|c| c % 2 == 1).collect();
        let mut a = run_chunks(&s, &plan, &evens, &stop, &record).unwrap();
        let b = run_chunks(&s, &plan, &odds, &stop, &record).unwrap();
        a.merge(&b);
        assert_eq!(a, whole);
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
            run_chunks(&s, &plan, &[9], &stop, &|_, _| {}).unwrap_err(),
            crate::engine::run::RunError::NoSuchChunk(9, 9)
        );
        stop.store(true, Ordering::Relaxed);
        let none = run_chunks(&s, &plan, &evens, &stop, &|_, _| panic!("stopped")).unwrap();
        assert_eq!(none, SimTally::default());
    }

    #[test]
    fn bad_configurations_are_refused() {
        let game = GameRules::load("standard").unwrap();
        let way = |name: &str| resolve(name, &game).unwrap().strategy;
        let players = Simulation::new(game.clone(), way("max-back"), way("max-front"), 7);
        assert!(matches!(players.err(), Some(SimError::Players(7))));
        let exposed = Simulation::new(game.clone(), way("exposed"), way("max-front"), 1);
        assert!(matches!(exposed.err(), Some(SimError::NotExposed(_))));
        let dealer = Simulation::new(game.clone(), way("max-back"), way("exposed"), 1);
        assert!(matches!(dealer.err(), Some(SimError::DealerNeedsDealer(_))));
    }
}
