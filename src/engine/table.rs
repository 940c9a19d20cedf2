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

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::cards::deal::{ChunkRng, Shoe, below};
use crate::cards::{Card, Deck, sorted_hand};
use crate::engine::run::spec::RunSpec;
use crate::engine::run::{Job, Plan, Tally, decimal};
use crate::engine::simulate::{SimError, check_sides};
use crate::eval::Evaluator;
use crate::eval::split::SplitValues;
use crate::files::ConfigError;
use crate::game::GameRules;
use crate::game::wager::{
    BetResult, Commission, DealerHand, MainWager, Outcome, OutcomeCounts, settle, settle_setting,
};
use crate::strategy::resolve::Resolved;
use crate::strategy::shape::ShapeSlot;
use crate::strategy::{Strategy, set_dealer_located};

/// Seats at the table, the player-dealer's included.
pub const SEATS: usize = 7;
/// Cards in a pile.
pub const PILE: usize = 7;
/// The largest bet or bank in chips (keeps every sum and square of a run far from overflow).
pub const MAX_CHIPS: u64 = 1_000_000_000_000;

/// Why a table cannot be configured.
#[derive(Debug, Error)]
pub enum TableError {
    #[error("a seating needs {SEATS} comma-separated seats, got {0}")]
    SeatCount(usize),
    #[error(
        "seat {seat}: '{text}' is not a bet (N, N+M for backline bets, '-' for empty, 'D' for the player-dealer)"
    )]
    BadSeat { seat: usize, text: String },
    #[error("seat {0}: a bet must be 1 to {MAX_CHIPS} chips")]
    BetSize(usize),
    #[error("a seating needs exactly one 'D' (the player-dealer), got {0}")]
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
    #[error(transparent)]
    Sides(#[from] SimError),
    #[error("the house way '{0}' cannot depend on the player-dealer's hand")]
    HouseNeedsDealer(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
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
    debug_assert_ne!(
        outcome,
        Outcome::Overqualified,
        "the table refuses overqualifier games"
    );
    let moved = match outcome.result() {
        BetResult::Paid => covered as i64,
        BetResult::Lost => -(covered as i64),
        BetResult::Pushed => 0,
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

/// The command name in run specs.
pub const COMMAND: &str = "table";

/// What a table run seats: the seating, the bank and the collection as written, and the
/// players', the player-dealer's and the house way.
pub struct TableSetup<'a> {
    pub seats: &'a str,
    pub bank: &'a str,
    pub collection: &'a str,
    pub ways: [&'a str; 3],
}

/// The roles of the three ways in a spec.
const ROLES: [&str; 3] = ["player way", "dealer way", "house way"];

/// The spec of a table run on `game`.
pub fn spec(game: &GameRules, setup: &TableSetup) -> Result<RunSpec, ConfigError> {
    let mut spec = RunSpec::new(COMMAND, game)
        .with_option("seats", setup.seats)
        .with_option("bank", setup.bank)
        .with_option("collection", setup.collection);
    for (role, way) in ROLES.into_iter().zip(setup.ways) {
        spec = spec.with_strategy(role, way)?;
    }
    Ok(spec)
}

/// A validated table: the game, the seating, the bank, the collection and the three ways.
pub struct Table {
    pub game: GameRules,
    pub layout: Layout,
    /// The player-dealer's bank per round (None: unlimited).
    pub bank: Option<u64>,
    pub collection: Collection,
    /// How every seated player (and backline bettor) sets.
    pub player: Resolved,
    /// How the player-dealer's hand is set.
    pub dealer: Resolved,
    /// The house way, for the backline bets of a seat whose setter fouled.
    pub house: Resolved,
    ev: Evaluator,
}

impl Table {
    /// Checks the parts fit together: a deck that leaves the rules' stub, an even-money main
    /// wager, ways that can play each other.
    pub fn new(
        game: GameRules,
        layout: Layout,
        bank: Option<u64>,
        collection: Collection,
        [player, dealer, house]: [Resolved; 3],
    ) -> Result<Table, TableError> {
        let size = game.deck.size();
        if !(53..=54).contains(&size) {
            return Err(TableError::Deck(size));
        }
        check_wager(&game.main_wager)?;
        check_sides(&game, &*dealer.strategy, &*player.strategy)?;
        if house.strategy.needs_dealer() {
            return Err(TableError::HouseNeedsDealer(house.label.clone()));
        }
        Ok(Table {
            ev: Evaluator::new(game.ranking),
            game,
            layout,
            bank,
            collection,
            player,
            dealer,
            house,
        })
    }

    /// The table a spec describes, rebuilt from its texts alone.
    pub fn from_spec(spec: &RunSpec) -> Result<Table, TableError> {
        let game = spec.game()?;
        let [player, dealer, house] = ROLES.map(|role| spec.strategy(role, &game));
        Table::new(
            game,
            Layout::parse(spec.option("seats")?)?,
            parse_bank(spec.option("bank")?)?,
            Collection::parse(spec.option("collection")?)?,
            [player?, dealer?, house?],
        )
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
            "a commission (a card room takes a collection instead)".into(),
        ));
    }
    if w.overqualifier.is_some() {
        return Err(TableError::Wager("an overqualifier".into()));
    }
    Ok(())
}

/// One seat's integer results over some rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatTally {
    /// Sum of the round net before collection, its square, and net x action.
    #[serde(with = "decimal")]
    pub net: i128,
    #[serde(with = "decimal")]
    pub net_squared: u128,
    #[serde(with = "decimal")]
    pub net_action: i128,
    /// Sum of the chips that had action, and of their square.
    #[serde(with = "decimal")]
    pub action: u128,
    #[serde(with = "decimal")]
    pub action_squared: u128,
    /// Rounds with bets on the seat that got no action, or only part of it.
    pub no_action: u64,
    pub partial: u64,
    /// The setter's outcomes (players' seats only).
    pub outcomes: OutcomeCounts,
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
        self.outcomes.add(&o.outcomes);
        self.action_pile += o.action_pile;
    }

    fn record(&mut self, net: i64, action: u64) {
        self.net += i128::from(net);
        self.net_squared += u128::from(net.unsigned_abs()).pow(2);
        self.net_action += i128::from(net) * i128::from(action);
        self.action += u128::from(action);
        self.action_squared += u128::from(action).pow(2);
    }
}

/// A run's integer results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableTally {
    pub rounds: u64,
    /// Rounds in which some bet got less than full action.
    pub bank_ran_out: u64,
    pub seats: [SeatTally; SEATS],
}

impl Tally for TableTally {
    fn merge(&mut self, other: &TableTally) {
        self.rounds += other.rounds;
        self.bank_ran_out += other.bank_ran_out;
        for (a, b) in self.seats.iter_mut().zip(&other.seats) {
            a.merge(b);
        }
    }

    fn rounds(&self) -> u64 {
        self.rounds
    }

    /// The action pile went to one seat a round; no seat had more no-action or partial rounds
    /// than there were rounds; every seat's nets sum to zero is not checkable per seat, but the
    /// nets of all seats (before collection) must add up to zero.
    fn check(&self) -> Result<(), String> {
        let piles = (self.seats.iter()).try_fold(0u64, |a, s| a.checked_add(s.action_pile));
        if piles != Some(self.rounds) {
            return Err(format!(
                "the action pile went out {piles:?} times in {} rounds",
                self.rounds
            ));
        }
        let net = (self.seats.iter()).try_fold(0i128, |a, s| a.checked_add(s.net));
        if net != Some(0) {
            return Err(format!("the seats' nets add up to {net:?}, not 0"));
        }
        let over = |s: &SeatTally| s.no_action > self.rounds || s.partial > self.rounds;
        if self.bank_ran_out > self.rounds || self.seats.iter().any(over) {
            return Err("more rounds counted in a seat than the run has".to_string());
        }
        Ok(())
    }
}

impl TableTally {
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

/// One dealt round: the seven piles in deal order (pile 0 is the action pile), the seat the
/// dice gave the action pile, and where each pile's hand sits in its way's cache.
pub struct DealtTable {
    cards: [Card; SEATS * PILE],
    action: usize,
    slots: [Option<ShapeSlot>; SEATS],
}

impl DealtTable {
    /// The pile that seat `seat` holds, in deal order.
    #[inline]
    fn pile(&self, seat: usize) -> &[Card; PILE] {
        let p = PILE * ((seat + SEATS - self.action) % SEATS);
        self.cards[p..p + PILE]
            .try_into()
            .expect("seven cards a pile")
    }
}

impl Table {
    /// The way that sets seat `seat`'s hand.
    fn way_of(&self, seat: usize) -> &dyn Strategy {
        match seat == self.layout.dealer {
            true => &*self.dealer.strategy,
            false => &*self.player.strategy,
        }
    }

    /// Whether seat `seat` holds a hand this round: the player-dealer, or a seat with bets.
    fn is_dealt_in(&self, seat: usize) -> bool {
        seat == self.layout.dealer || !self.layout.bets[seat].is_empty()
    }

    /// The setter's and the backline's outcome of one seat's hand (in deal order, cached at
    /// `slot`).
    #[inline]
    fn seat_outcome(
        &self,
        dealt: &[Card; PILE],
        slot: Option<ShapeSlot>,
        dealer: &DealerHand,
    ) -> SeatOutcome {
        let player = &*self.player.strategy;
        if !player.needs_dealer()
            && let Some(known) = slot.and_then(|slot| player.known_at(slot))
        {
            let setter = settle_setting(known.front, known.back, dealer);
            return SeatOutcome {
                setter,
                others: setter,
            };
        }
        let shown = self
            .game
            .main_wager
            .dealer_exposed
            .then_some(dealer.setting);
        let hand = sorted_hand(dealt);
        let splits: SplitValues = self.ev.split_values(&hand);
        let k = player.choose(&hand, &splits, shown);
        let setter = settle(&splits, k, dealer);
        let others = if splits.is_legal(k) {
            setter
        } else {
            let house = &*self.house.strategy;
            settle(&splits, house.choose(&hand, &splits, None), dealer)
        };
        SeatOutcome { setter, others }
    }
}

impl Job for Table {
    type Tally = TableTally;
    type Round = DealtTable;

    fn deck(&self) -> Deck {
        self.game.deck
    }

    fn empty_round(&self) -> DealtTable {
        DealtTable {
            cards: [Card::JOKER1; SEATS * PILE],
            action: 0,
            slots: [None; SEATS],
        }
    }

    fn empty_tally(&self) -> TableTally {
        TableTally::default()
    }

    /// Deals seven piles, throws the dice for the action pile, and locates each seated hand in
    /// its way's cache.
    #[inline]
    fn deal(&self, shoe: &mut Shoe, rng: &mut ChunkRng, round: &mut DealtTable) {
        round.cards = shoe.deal_array(rng, SEATS * PILE);
        round.action = action_seat(self.layout.dealer, roll_dice(rng));
        for seat in 0..SEATS {
            round.slots[seat] = match self.is_dealt_in(seat) {
                true => self.way_of(seat).locate(round.pile(seat)),
                false => None,
            };
        }
    }

    /// 1.5 M rounds of seven hands a second a thread.
    fn estimated_seconds(&self, plan: &Plan) -> f64 {
        plan.deals as f64 / 1.5e6
    }

    /// Sets the hands, settles the bets and tallies the round.
    #[inline]
    fn play(&self, round: &DealtTable, _deal: u64, tally: &mut TableTally) {
        let wager = &self.game.main_wager;
        let at = self.layout.dealer;
        let dealer_way = &*self.dealer.strategy;
        let dealer =
            set_dealer_located(&self.ev, dealer_way, wager, round.pile(at), round.slots[at]);
        let outcomes: [Option<SeatOutcome>; SEATS] = std::array::from_fn(|s| {
            (s != at && self.is_dealt_in(s))
                .then(|| self.seat_outcome(round.pile(s), round.slots[s], &dealer))
        });
        let result = settle_bets(&self.layout, self.bank, round.action, &outcomes);
        for (seat, o) in tally.seats.iter_mut().zip(&outcomes) {
            if let Some(o) = o {
                seat.outcomes.record(o.setter);
            }
        }
        tally.record(&result, round.action);
    }
}

/// Of the 216 equally likely throws of three dice, how many give the action pile to each seat
/// (offset clockwise from the player-dealer).
pub fn action_pile_throws() -> [u32; SEATS] {
    let mut counts = [0u32; SEATS];
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            for c in 1..=6u8 {
                counts[action_seat(0, a + b + c)] += 1;
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(text: &str) -> Layout {
        Layout::parse(text).unwrap()
    }

    const LOSS: Outcome = Outcome::Loss;

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
