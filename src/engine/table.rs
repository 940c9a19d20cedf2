//! The California table: seven seats, one of them the player-dealer who banks every other bet
//! with a limited bank, dice choosing the seat that gets the action pile, and the card room's
//! collection (seeds 000, 001, 002, 003).
//!
//! One round:
//! 1. Seven piles of seven are dealt from the game's deck, leaving the rules' stub (four cards of
//!    53, five of 54); pile 0 is the action pile (the player-dealer's pick is of cards it cannot
//!    see, so which pile it names changes no probability).
//! 2. Three dice are summed; counting the player-dealer's seat as 1, 8 and 15 and going
//!    clockwise, the sum names the seat that gets the action pile ([`action_seat`]); the other
//!    piles follow in seat order.
//! 3. Every seat with a bet sets its hand by the players' way; the player-dealer's hand is then
//!    exposed and set by its way ([`crate::engine::simulate::DealerHand`]).
//! 4. Bets are settled clockwise from the action seat ([`settle_bets`]), each only to the extent
//!    the bank is still in action: a won or lost bet of `b` against `r` left in action moves
//!    `min(b, r)` and takes that much out of action (seed 000 rule 13: bank 200, a 60 loser then a
//!    60 winner leaves 80); a push moves nothing. Once nothing is left in action the remaining
//!    bets are returned untouched.
//! 5. A seat's bets: the largest (the first listed on a tie) is the setter's; a fouled setting
//!    loses for the setter, and the seat's other (backline) bets are settled with the hand set
//!    the house way. The setter's bet is settled first, then the backline bets in listed order.
//!
//! Collection is a flat fee per bet from a schedule by bet size, paid in advance by every bettor
//! (the player-dealer on its bank); it is never part of a bet and never in action.
//!
//! Invariants: amounts are whole chips; a round's nets sum to zero over the seats (the bank is
//! the player-dealer's seat); a [`TableTally`] holds only integers and merges by addition, so a
//! run's tally does not depend on threads or chunk order; chunk `i` draws from
//! [`crate::cards::deal::chunk_rng`]`(seed, i)`, cards first, then the dice.

use rayon::prelude::*;
use thiserror::Error;

use crate::cards::deal::{Shoe, below, chunk_rng};
use crate::cards::{Card, Cards};
use crate::eval::Evaluator;
use crate::eval::split::SplitValues;
use crate::game::GameRules;
use crate::game::wager::{Commission, DealerHand, MainWager, Outcome, settle};
use crate::strategy::{Strategy, set_dealer};

/// Seats at the table, the player-dealer's included.
pub const SEATS: usize = 7;
/// Cards in a pile.
pub const PILE: usize = 7;
/// The largest bet or bank in chips (keeps every sum and square of a run far from overflow).
pub const MAX_CHIPS: u64 = 1_000_000_000_000;

/// Why a table cannot be configured.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TableError {
    #[error("--seats needs {SEATS} comma-separated seats, got {0}")]
    SeatCount(usize),
    #[error(
        "seat {seat}: '{text}' is not a bet (N, N+M for backline bets, '-' for empty, 'D' for the player-dealer)"
    )]
    BadSeat { seat: usize, text: String },
    #[error("seat {0}: a bet must be 1 to {MAX_CHIPS} chips")]
    BetSize(usize),
    #[error("--seats needs exactly one 'D' (the player-dealer), got {0}")]
    Dealers(usize),
    #[error("no seat has a bet: the player-dealer would have no one to play")]
    NoBets,
    #[error("the bank must be 1 to {MAX_CHIPS} chips or 'unlimited', got '{0}'")]
    Bank(String),
    #[error(
        "collection schedule '{0}': expected 'none' or MIN=FEE pairs with increasing MIN, e.g. '1=1,60=2,200=3'"
    )]
    Collection(String),
    #[error(
        "the table deals seven piles of seven with a stub of 4 (53 cards) or 5 (54 cards); this deck has {0} cards"
    )]
    Deck(usize),
    #[error(
        "the table settles bets at even money with a collection; this game's main wager has {0}"
    )]
    Wager(String),
    #[error("the number of rounds must be at least 1")]
    NoRounds,
    #[error("the chunk size must be at least 1")]
    NoChunkSize,
}

/// Who sits where: seat `dealer` banks; every other seat holds its bets (empty: nobody plays).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The player-dealer's seat, `0..SEATS` (seat 1 is index 0, clockwise).
    pub dealer: usize,
    /// Each seat's bets in chips, the seated player's first, then backline bets.
    pub bets: [Vec<u64>; SEATS],
}

impl Layout {
    /// Parses seven comma-separated seats: `D` the player-dealer, `-` (or empty, or `0`) no bet,
    /// `N` a bet of N chips, `N+M+..` a bet with backline bets.
    pub fn parse(text: &str) -> Result<Layout, TableError> {
        let words: Vec<&str> = text.split(',').map(str::trim).collect();
        if words.len() != SEATS {
            return Err(TableError::SeatCount(words.len()));
        }
        let dealers: Vec<usize> = (0..SEATS)
            .filter(|&i| words[i].eq_ignore_ascii_case("d"))
            .collect();
        if dealers.len() != 1 {
            return Err(TableError::Dealers(dealers.len()));
        }
        let mut bets: [Vec<u64>; SEATS] = Default::default();
        for (i, word) in words.iter().enumerate() {
            if i != dealers[0] {
                bets[i] = parse_seat(i + 1, word)?;
            }
        }
        let layout = Layout {
            dealer: dealers[0],
            bets,
        };
        if layout.total_bets() == 0 {
            return Err(TableError::NoBets);
        }
        Ok(layout)
    }

    /// The sum of every bet at the table.
    pub fn total_bets(&self) -> u64 {
        self.bets.iter().flatten().sum()
    }

    /// The index, within its seat, of the bet whose owner sets the hand: the largest, the first
    /// listed on a tie.
    pub fn setter(&self, seat: usize) -> usize {
        let bets = &self.bets[seat];
        (0..bets.len()).fold(0, |best, i| if bets[i] > bets[best] { i } else { best })
    }
}

fn parse_seat(seat: usize, word: &str) -> Result<Vec<u64>, TableError> {
    if word.is_empty() || word == "-" || word == "0" {
        return Ok(Vec::new());
    }
    let bad = || TableError::BadSeat {
        seat,
        text: word.to_string(),
    };
    let mut bets = Vec::new();
    for part in word.split('+') {
        let bet: u64 = part.trim().parse().map_err(|_| bad())?;
        if bet == 0 || bet > MAX_CHIPS {
            return Err(TableError::BetSize(seat));
        }
        bets.push(bet);
    }
    Ok(bets)
}

/// Parses `--bank`: a number of chips, or `unlimited` (None).
pub fn parse_bank(text: &str) -> Result<Option<u64>, TableError> {
    if text.eq_ignore_ascii_case("unlimited") {
        return Ok(None);
    }
    match text.trim().parse::<u64>() {
        Ok(b) if (1..=MAX_CHIPS).contains(&b) => Ok(Some(b)),
        _ => Err(TableError::Bank(text.to_string())),
    }
}

/// The card room's fee per bet: a bet of at least `min` (and below the next step) pays `fee`;
/// a bet below the first step pays nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// `(min, fee)` steps, `min` strictly increasing.
    pub steps: Vec<(u64, u64)>,
}

impl Collection {
    /// Parses `none` or `MIN=FEE,MIN=FEE,...` with increasing MIN.
    pub fn parse(text: &str) -> Result<Collection, TableError> {
        if text.trim().eq_ignore_ascii_case("none") {
            return Ok(Collection::default());
        }
        let bad = || TableError::Collection(text.to_string());
        let mut steps: Vec<(u64, u64)> = Vec::new();
        for pair in text.split(',') {
            let (min, fee) = pair.split_once('=').ok_or_else(bad)?;
            let min: u64 = min.trim().parse().map_err(|_| bad())?;
            let fee: u64 = fee.trim().parse().map_err(|_| bad())?;
            if steps.last().is_some_and(|&(m, _)| m >= min) {
                return Err(bad());
            }
            steps.push((min, fee));
        }
        Ok(Collection { steps })
    }

    /// The fee on a bet of `bet` chips.
    pub fn fee(&self, bet: u64) -> u64 {
        self.steps
            .iter()
            .rev()
            .find(|&&(min, _)| bet >= min)
            .map_or(0, |&(_, fee)| fee)
    }
}

/// The seat (index) that gets the action pile for a dice sum of 3..=18: counting clockwise from
/// the player-dealer's seat as 1 (and 8, and 15).
pub fn action_seat(dealer: usize, dice_sum: u8) -> usize {
    (dealer + (usize::from(dice_sum) - 1) % SEATS) % SEATS
}

/// The sum of three fair dice.
pub fn roll_dice<R: rand_xoshiro::rand_core::Rng>(rng: &mut R) -> u8 {
    (0..3).map(|_| below(rng, 6) as u8 + 1).sum()
}

/// How a seat's hand did: for its setter, and for the seat's other bets (the same unless the
/// setter fouled, when they get the hand set the house way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatOutcome {
    pub setter: Outcome,
    pub others: Outcome,
}

/// What one round did to each seat, the bank's seat included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundResult {
    /// Net chips won (negative: lost) by each seat's bets, before collection; the player-dealer's
    /// seat holds the bank's net.
    pub net: [i64; SEATS],
    /// Chips of each seat's bets that had action; the player-dealer's seat holds the total.
    pub action: [u64; SEATS],
    /// Seats with bets none of which got action.
    pub no_action: [bool; SEATS],
    /// Seats some of whose bets got less than full action (but not none).
    pub partial: [bool; SEATS],
    /// Chips of the bank left in action after the round (None: unlimited).
    pub bank_left: Option<u64>,
    /// Whether some bet got less than its full action.
    pub bank_ran_out: bool,
}

/// Settles one bet of `bet` chips against what is left in action; returns (player net, action).
fn settle_bet(bet: u64, outcome: Outcome, left: &mut Option<u64>) -> (i64, u64) {
    let covered = left.map_or(bet, |l| l.min(bet));
    let moved = match outcome {
        Outcome::Win => covered as i64,
        Outcome::Loss { .. } => -(covered as i64),
        Outcome::Push | Outcome::NotQualified => 0,
        Outcome::Overqualified => unreachable!("the table refuses overqualifier games"),
    };
    if let Some(l) = left {
        *l -= moved.unsigned_abs();
    }
    (moved, covered)
}

/// Settles every bet clockwise from `action`, the bank starting with `bank` in action (None:
/// unlimited). `outcomes[s]` is read only for seats with bets.
pub fn settle_bets(
    layout: &Layout,
    bank: Option<u64>,
    action: usize,
    outcomes: &[Option<SeatOutcome>; SEATS],
) -> RoundResult {
    let mut r = RoundResult {
        bank_left: bank,
        ..RoundResult::default()
    };
    for step in 0..SEATS {
        let seat = (action + step) % SEATS;
        let (Some(outcome), false) = (outcomes[seat], seat == layout.dealer) else {
            continue;
        };
        settle_seat(layout, seat, outcome, &mut r);
    }
    r.net[layout.dealer] = -r.net.iter().sum::<i64>();
    r.action[layout.dealer] = r.action.iter().sum();
    r
}

/// Settles one seat's bets, setter first, into `r`.
fn settle_seat(layout: &Layout, seat: usize, outcome: SeatOutcome, r: &mut RoundResult) {
    let bets = &layout.bets[seat];
    if bets.is_empty() {
        return;
    }
    let setter = layout.setter(seat);
    let order = std::iter::once(setter).chain((0..bets.len()).filter(|&i| i != setter));
    for i in order {
        let o = if i == setter {
            outcome.setter
        } else {
            outcome.others
        };
        let (net, covered) = settle_bet(bets[i], o, &mut r.bank_left);
        r.net[seat] += net;
        r.action[seat] += covered;
    }
    let total: u64 = bets.iter().sum();
    r.no_action[seat] = r.action[seat] == 0;
    r.partial[seat] = r.action[seat] > 0 && r.action[seat] < total;
    r.bank_ran_out |= r.action[seat] < total;
}

/// A validated table run.
pub struct TableConfig {
    pub game: GameRules,
    pub layout: Layout,
    /// The player-dealer's bank per round (None: unlimited).
    pub bank: Option<u64>,
    pub collection: Collection,
    /// How every seated player (and backline bettor) sets.
    pub player: Box<dyn Strategy>,
    /// How the player-dealer's hand is set.
    pub dealer: Box<dyn Strategy>,
    /// The house way, for the backline bets of a seat whose setter fouled.
    pub house: Box<dyn Strategy>,
    pub rounds: u64,
    pub seed: u64,
    pub chunk_size: u64,
}

impl TableConfig {
    /// Checks the parts fit together.
    pub fn validate(&self) -> Result<(), TableError> {
        if self.rounds == 0 {
            return Err(TableError::NoRounds);
        }
        if self.chunk_size == 0 {
            return Err(TableError::NoChunkSize);
        }
        let size = self.game.deck.size();
        if !(53..=54).contains(&size) {
            return Err(TableError::Deck(size));
        }
        check_wager(&self.game.main_wager)
    }

    /// Number of chunks.
    pub fn chunks(&self) -> u64 {
        self.rounds.div_ceil(self.chunk_size)
    }

    /// Collection per round from each seat (the player-dealer pays on a limited bank).
    pub fn collection_per_round(&self) -> [u64; SEATS] {
        std::array::from_fn(|s| match (s == self.layout.dealer, self.bank) {
            (true, Some(bank)) => self.collection.fee(bank),
            (true, None) => 0,
            (false, _) => self.layout.bets[s]
                .iter()
                .map(|&b| self.collection.fee(b))
                .sum(),
        })
    }
}

/// The table pays even money; a game's own commission or overqualifier does not fit it.
fn check_wager(w: &MainWager) -> Result<(), TableError> {
    if w.commission != Commission::None {
        return Err(TableError::Wager(
            "a commission (use --collection instead)".into(),
        ));
    }
    if w.overqualifier.is_some() {
        return Err(TableError::Wager("an overqualifier".into()));
    }
    Ok(())
}

/// One seat's integer results over some rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatTally {
    /// Sum of the round net before collection, its square, and net x action.
    pub net: i128,
    pub net_squared: u128,
    pub net_action: i128,
    /// Sum of the chips that had action, and of their square.
    pub action: u128,
    pub action_squared: u128,
    /// Rounds with bets on the seat that got no action, or only part of it.
    pub no_action: u64,
    pub partial: u64,
    /// The setter's outcomes (players' seats only).
    pub win: u64,
    pub push: u64,
    pub loss: u64,
    pub fouls: u64,
    /// Rounds in which this seat got the action pile.
    pub action_pile: u64,
}

impl SeatTally {
    fn merge(&mut self, o: &SeatTally) {
        self.net += o.net;
        self.net_squared += o.net_squared;
        self.net_action += o.net_action;
        self.action += o.action;
        self.action_squared += o.action_squared;
        self.no_action += o.no_action;
        self.partial += o.partial;
        self.win += o.win;
        self.push += o.push;
        self.loss += o.loss;
        self.fouls += o.fouls;
        self.action_pile += o.action_pile;
    }

    fn record(&mut self, net: i64, action: u64) {
        self.net += i128::from(net);
        self.net_squared += u128::from(net.unsigned_abs()).pow(2);
        self.net_action += i128::from(net) * i128::from(action);
        self.action += u128::from(action);
        self.action_squared += u128::from(action).pow(2);
    }

    fn record_outcome(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win | Outcome::Overqualified => self.win += 1,
            Outcome::Push | Outcome::NotQualified => self.push += 1,
            Outcome::Loss { foul, .. } => {
                self.loss += 1;
                self.fouls += u64::from(foul);
            }
        }
    }
}

/// A run's integer results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableTally {
    pub rounds: u64,
    /// Rounds in which some bet got less than full action.
    pub bank_ran_out: u64,
    pub seats: [SeatTally; SEATS],
}

impl TableTally {
    /// The sum of two tallies.
    pub fn merge(mut self, other: TableTally) -> TableTally {
        self.rounds += other.rounds;
        self.bank_ran_out += other.bank_ran_out;
        for (a, b) in self.seats.iter_mut().zip(&other.seats) {
            a.merge(b);
        }
        self
    }

    fn record(&mut self, r: &RoundResult, action_seat: usize) {
        self.rounds += 1;
        self.bank_ran_out += u64::from(r.bank_ran_out);
        self.seats[action_seat].action_pile += 1;
        for (s, seat) in self.seats.iter_mut().enumerate() {
            seat.record(r.net[s], r.action[s]);
            seat.no_action += u64::from(r.no_action[s]);
            seat.partial += u64::from(r.partial[s]);
        }
    }
}

/// Seven dealt cards sorted by card index (the order strategies expect).
fn sorted_hand(cards: &[Card]) -> [Card; PILE] {
    let mut it = Cards::from_cards(&cards[..PILE]).iter();
    std::array::from_fn(|_| it.next().expect("seven distinct cards"))
}

/// Everything a chunk needs, borrowed.
struct Round<'a> {
    cfg: &'a TableConfig,
    ev: &'a Evaluator,
}

impl Round<'_> {
    /// Plays one round into `tally`.
    fn play<R: rand_xoshiro::rand_core::Rng>(
        &self,
        shoe: &mut Shoe,
        rng: &mut R,
        tally: &mut TableTally,
    ) {
        let (cfg, wager) = (self.cfg, &self.cfg.game.main_wager);
        let cards = shoe.deal(rng, SEATS * PILE);
        let action = action_seat(cfg.layout.dealer, roll_dice(rng));
        let pile = |seat: usize| &cards[PILE * ((seat + SEATS - action) % SEATS)..];
        let dealer_hand = sorted_hand(pile(cfg.layout.dealer));
        let dealer = set_dealer(self.ev, &*cfg.dealer, wager, &dealer_hand);
        let shown = wager.dealer_exposed.then_some(dealer.setting);
        let outcomes: [Option<SeatOutcome>; SEATS] = std::array::from_fn(|s| {
            let seated = s != cfg.layout.dealer && !cfg.layout.bets[s].is_empty();
            seated.then(|| self.seat_outcome(&sorted_hand(pile(s)), &dealer, shown))
        });
        let result = settle_bets(&cfg.layout, cfg.bank, action, &outcomes);
        for (seat, o) in tally.seats.iter_mut().zip(&outcomes) {
            if let Some(o) = o {
                seat.record_outcome(o.setter);
            }
        }
        tally.record(&result, action);
    }

    /// The setter's and the backline's outcome of one seat's hand.
    fn seat_outcome(
        &self,
        hand: &[Card; PILE],
        dealer: &DealerHand,
        shown: Option<crate::game::wager::DealerSetting>,
    ) -> SeatOutcome {
        let splits: SplitValues = self.ev.split_values(hand);
        let k = self.cfg.player.choose(hand, &splits, shown);
        let setter = settle(&splits, k, dealer);
        let others = if splits.is_legal(k) {
            setter
        } else {
            settle(&splits, self.cfg.house.choose(hand, &splits, None), dealer)
        };
        SeatOutcome { setter, others }
    }

    fn run_chunk(&self, chunk: u64) -> TableTally {
        let cfg = self.cfg;
        let mut rng = chunk_rng(cfg.seed, chunk);
        let mut shoe = Shoe::new(cfg.game.deck);
        let mut tally = TableTally::default();
        let len = cfg.chunk_size.min(cfg.rounds - chunk * cfg.chunk_size);
        for _ in 0..len {
            self.play(&mut shoe, &mut rng, &mut tally);
        }
        tally
    }
}

/// Runs the table on the current rayon pool; `progress` is told each chunk's rounds.
pub fn run(cfg: &TableConfig, progress: &(dyn Fn(u64) + Sync)) -> Result<TableTally, TableError> {
    cfg.validate()?;
    let ev = Evaluator::new(cfg.game.ranking);
    let round = Round { cfg, ev: &ev };
    Ok((0..cfg.chunks())
        .into_par_iter()
        .map(|chunk| {
            let tally = round.run_chunk(chunk);
            progress(tally.rounds);
            tally
        })
        .reduce(TableTally::default, TableTally::merge))
}

/// The probability that each seat (offset clockwise from the player-dealer) gets the action
/// pile, from the 216 equally likely throws of three dice.
pub fn action_pile_odds() -> [f64; SEATS] {
    let mut counts = [0u32; SEATS];
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            for c in 1..=6u8 {
                counts[action_seat(0, a + b + c)] += 1;
            }
        }
    }
    counts.map(|n| f64::from(n) / 216.0)
}

/// Figures for one seat, computed once from its tally.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatStats {
    /// Mean net per round after collection, in chips, with a normal 95% interval.
    pub ev_per_round: f64,
    pub ev_per_round_ci95: (f64, f64),
    /// Net before collection per chip of action, with a 95% interval (ratio estimator).
    pub ev_per_action: f64,
    pub ev_per_action_ci95: (f64, f64),
    /// Net after collection per chip of action.
    pub ev_per_action_after_collection: f64,
    /// Mean chips in action per round.
    pub action_per_round: f64,
}

/// A seat's figures from `tally` over `rounds` rounds, paying `fee` collection per round.
pub fn seat_stats(t: &SeatTally, rounds: u64, fee: u64) -> SeatStats {
    use crate::report::stats::{mean_interval, sd_from_sums};
    let n = rounds as f64;
    let per_round = t.net as f64 / n - fee as f64;
    let sd = sd_from_sums(rounds, t.net, t.net_squared);
    let i = mean_interval(per_round, sd, rounds, 0.95);
    let action = t.action as f64;
    let ratio = if action > 0.0 {
        t.net as f64 / action
    } else {
        0.0
    };
    let half = ratio_half_width(t, rounds, ratio);
    SeatStats {
        ev_per_round: per_round,
        ev_per_round_ci95: (i.low, i.high),
        ev_per_action: ratio,
        ev_per_action_ci95: (ratio - half, ratio + half),
        ev_per_action_after_collection: if action > 0.0 {
            (t.net as f64 - fee as f64 * n) / action
        } else {
            0.0
        },
        action_per_round: action / n,
    }
}

/// Half-width of the 95% interval of `ratio` = sum net / sum action (delta method: the SD of
/// `net - ratio x action` over the mean action, over sqrt(rounds)).
fn ratio_half_width(t: &SeatTally, rounds: u64, ratio: f64) -> f64 {
    let n = rounds as f64;
    let mean_action = t.action as f64 / n;
    if mean_action == 0.0 {
        return 0.0;
    }
    let residual = (t.net_squared as f64 - 2.0 * ratio * t.net_action as f64
        + ratio * ratio * t.action_squared as f64)
        / n;
    crate::report::stats::z(0.95) * residual.max(0.0).sqrt() / (mean_action * n.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(text: &str) -> Layout {
        Layout::parse(text).unwrap()
    }

    const LOSS: Outcome = Outcome::Loss {
        copy: false,
        foul: false,
    };

    fn same(o: Outcome) -> Option<SeatOutcome> {
        Some(SeatOutcome {
            setter: o,
            others: o,
        })
    }

    #[test]
    fn seed_000_rule_13_example() {
        // Bank 200; the first player bets 60 and loses, the next bets 60 and wins: 80 left.
        let l = layout("D,60,60,-,-,-,-");
        let mut outcomes = [None; SEATS];
        outcomes[1] = same(LOSS);
        outcomes[2] = same(Outcome::Win);
        let r = settle_bets(&l, Some(200), 1, &outcomes);
        assert_eq!(r.bank_left, Some(80));
        assert_eq!(r.net[..3], [0, -60, 60]);
        assert_eq!(r.action[..3], [120, 60, 60]);
        assert!(!r.bank_ran_out);
    }

    #[test]
    fn collection_schedule_steps() {
        let c = Collection::parse("1=1, 60=2, 200=3").unwrap();
        assert_eq!([c.fee(1), c.fee(59), c.fee(60), c.fee(500)], [1, 1, 2, 3]);
        assert_eq!(Collection::parse("none").unwrap().fee(100), 0);
        assert!(Collection::parse("60=2,1=1").is_err());
        assert!(Collection::parse("60").is_err());
    }
}
