//! The California table: seven seats, one of them the player-dealer who banks every other bet
//! with a limited bank, dice choosing the seat that gets the action pile, the player-dealer
//! position fixed or rotating, and the card room's collection (seeds 000, 001, 002, 003).
//!
//! One round:
//! 1. Seven piles of seven are dealt from the game's deck, leaving the rules' stub (four cards of
//!    53, five of 54); pile 0 is the action pile (the player-dealer's pick is of cards it cannot
//!    see, so which pile it names changes no probability).
//! 2. Three dice are summed; counting the player-dealer's seat as 1, 8 and 15 and going
//!    clockwise, the sum names the seat that gets the action pile ([`action_seat`]); the other
//!    piles follow in seat order. Which pile the player-dealer gets therefore depends on the dice
//!    alone, and a seat `k` places clockwise of the player-dealer gets the same pile whoever banks.
//! 3. Every seat with a bet sets its hand by the players' way; the player-dealer's hand is then
//!    exposed and set by its way.
//! 4. Bets are settled clockwise from the action seat ([`settle_bets`]), each only to the extent
//!    the bank is still in action: a won or lost bet of `b` against `r` left in action moves
//!    `min(b, r)` and takes that much out of action (seed 000 rule 13: bank 200, a 60 loser then a
//!    60 winner leaves 80); a push moves nothing. Once nothing is left in action the remaining
//!    bets are returned untouched.
//! 5. A seat's bets: the largest (the first listed on a tie) is the setter's; a fouled setting
//!    loses for the setter, and the seat's other (backline) bets are settled with the hand set
//!    the house way. The setter's bet is settled first, then the backline bets in listed order.
//!
//! Who banks round `d` of a run is `cycle[d mod length]` of the variant's rotation
//! ([`rotation`]; a fixed player-dealer is a cycle of one), a function of the round's index
//! alone. A seat's bets sit out the hands it banks.
//!
//! Variants ([`variant`]): one run plays every variant of the table on the same deals (the same
//! cards and dice), like `compare`: each pile's hand is set and settled against the
//! player-dealer's hand once per round, and each variant seats its bets and bank on those
//! outcomes. The tally keeps, per pair of variants, the exact sums of the per-round difference
//! of each seat's net and of its square ([`PairTally`]), so paired standard errors come from
//! integers; identical variants differ by exactly 0.
//!
//! Collection ([`collection`]) is never part of a bet and never in action; it depends only on
//! who banks and the seating, so tallies hold nets before collection, and reports subtract the
//! exact fees.
//!
//! Invariants: amounts are whole chips; a round's nets sum to zero over the seats (the bank is
//! the player-dealer's seat); a [`TableTally`] holds only integers, kept per player-dealer's
//! seat (a stratum: rounds banked by one seat are identically distributed) and merges by
//! addition, so a run's tally does not depend on threads, chunk order or shards; chunk `i` draws
//! from [`crate::cards::deal::chunk_rng`]`(seed, i)`, cards first, then the dice.

pub mod collection;
pub mod rotation;
pub mod seating;
pub mod variant;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use self::collection::{Collection, Fees, MICROS, Unknown};
pub use self::rotation::{Cycle, Rotation};
pub use self::seating::{
    Layout, MAX_CHIPS, PILE, SEATS, action_pile_throws, action_seat, bank_text, parse_bank,
    roll_dice,
};
pub use self::variant::{MAX_VARIANTS, OptionError, TableOptions, Variant, VaryKey};

use crate::cards::deal::{ChunkRng, Shoe};
use crate::cards::{Card, Deck, sorted_hand};
use crate::combin::gcd;
use crate::engine::run::spec::RunSpec;
use crate::engine::run::{Job, Plan, Tally, decimal};
use crate::engine::simulate::{SimError, check_sides};
use crate::eval::Evaluator;
use crate::eval::split::SplitValues;
use crate::files::ConfigError;
use crate::game::GameRules;
use crate::game::wager::{
    BET_UNITS, Commission, DealerHand, EVEN_MONEY, MainWager, Outcome, OutcomeCounts, settle,
    settle_setting,
};
use crate::strategy::resolve::{Resolved, share_caches};
use crate::strategy::set_dealer_known;
use crate::strategy::shape::{ShapeSlot, ShapeTable, known_at, locate};

/// Why a table cannot be configured.
#[derive(Debug, Error)]
pub enum TableError {
    #[error(transparent)]
    Option(#[from] OptionError),
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
    #[error("a table plays 1 to {MAX_VARIANTS} variants, got {0}")]
    Variants(usize),
    #[error(
        "{rounds} rounds is fewer than two whole cycles of who banks ({cycle} rounds a cycle, over every variant): a run needs at least {needed}"
    )]
    TooFewRounds {
        rounds: u64,
        cycle: u64,
        needed: u64,
    },
    #[error(transparent)]
    Config(#[from] ConfigError),
}

impl TableError {
    /// The run-spec key of the option at fault, when one is.
    pub fn option_key(&self) -> Option<&'static str> {
        match self {
            TableError::Option(e) => Some(e.blamed_key()),
            _ => None,
        }
    }
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
/// What the bet moves is the outcome's units at even money ([`EVEN_MONEY`]: the table refuses a
/// game's commission and overqualifier, so a bet is won, pushed or lost whole).
fn settle_bet(bet: u64, outcome: Outcome, left: &mut Option<u64>) -> (i64, u64) {
    let covered = left.map_or(bet, |l| l.min(bet));
    debug_assert_ne!(
        outcome,
        Outcome::Overqualified,
        "the table refuses overqualifier games"
    );
    let moved = covered as i64 * outcome.units(&EVEN_MONEY) / BET_UNITS;
    if let Some(l) = left {
        *l -= moved.unsigned_abs();
    }
    (moved, covered)
}

/// Settles every bet clockwise from `action`, the player-dealer on `dealer` starting with `bank`
/// in action (None: unlimited). `outcomes[s]` is read only for seats with bets other than the
/// player-dealer's.
pub fn settle_bets(
    layout: &Layout,
    dealer: usize,
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
        let (Some(outcome), false) = (outcomes[seat], seat == dealer) else {
            continue;
        };
        settle_seat(layout, seat, outcome, &mut r);
    }
    r.net[dealer] = -r.net.iter().sum::<i64>();
    r.action[dealer] = r.action.iter().sum();
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

/// The roles of the three ways in a spec.
const ROLES: [&str; 3] = ["player way", "dealer way", "house way"];

/// What a table run seats: its options as written, and the players', the player-dealer's and
/// the house way.
pub struct TableSetup<'a> {
    pub options: &'a TableOptions,
    pub ways: [&'a str; 3],
}

/// The spec of a table run on `game`.
pub fn spec(game: &GameRules, setup: &TableSetup) -> Result<RunSpec, ConfigError> {
    let o = setup.options;
    let mut spec = RunSpec::new(COMMAND, game)
        .with_option("collection", &o.collection)
        .with_option("bank_collection", &o.bank_collection)
        .with_option("time_collection", &o.time_collection)
        .with_option("rotation", &o.rotation)
        .with_option("bets_to_bank", &o.bets_to_bank)
        .with_option("hands_per_hour", &o.hands_per_hour);
    for (key, value) in [("seats", &o.seats), ("bank", &o.bank), ("vary", &o.vary)] {
        if let Some(value) = value {
            spec = spec.with_option(key, value);
        }
    }
    for (role, way) in ROLES.into_iter().zip(setup.ways) {
        spec = spec.with_strategy(role, way)?;
    }
    Ok(spec)
}

/// The options a spec holds.
fn options_of(spec: &RunSpec) -> Result<TableOptions, ConfigError> {
    let get = |key: &str| spec.options.get(key).cloned();
    Ok(TableOptions {
        seats: get("seats"),
        bank: get("bank"),
        collection: spec.option("collection")?.to_string(),
        bank_collection: spec.option("bank_collection")?.to_string(),
        time_collection: spec.option("time_collection")?.to_string(),
        rotation: spec.option("rotation")?.to_string(),
        bets_to_bank: spec.option("bets_to_bank")?.to_string(),
        hands_per_hour: spec.option("hands_per_hour")?.to_string(),
        vary: get("vary"),
    })
}

/// A validated table: the game, its variants, the three ways, and the hands per hour that
/// collection per hour is stated at.
pub struct Table {
    pub game: GameRules,
    pub variants: Vec<Variant>,
    /// The varied option (None: one variant).
    pub vary: Option<VaryKey>,
    pub hands_per_hour: u32,
    /// How every seated player (and backline bettor) sets.
    pub player: Resolved,
    /// How the player-dealer's hand is set.
    pub dealer: Resolved,
    /// The house way, for the backline bets of a seat whose setter fouled.
    pub house: Resolved,
    /// Offsets clockwise from the player-dealer (1..SEATS) at which some variant seats a bet
    /// when some seat banks: the piles to locate in the cache when dealt.
    offsets: [bool; SEATS],
    ev: Evaluator,
    /// The players' and the player-dealer's shape caches
    /// ([`Strategy::shape_table`](crate::strategy::Strategy::shape_table)), held apart so that the
    /// hot loop reads them with no virtual call (one cache when the two play alike); the players'
    /// only when their way does not see the dealer.
    player_cache: Option<Arc<ShapeTable>>,
    dealer_cache: Option<Arc<ShapeTable>>,
}

impl Table {
    /// A table with one fixed player-dealer (the seating's `D`) and `collection` on every bet and
    /// on the bank, no time collection.
    pub fn new(
        game: GameRules,
        layout: Layout,
        bank: Option<u64>,
        collection: Collection,
        ways: [Resolved; 3],
    ) -> Result<Table, TableError> {
        let dealer = layout.dealer.ok_or_else(|| OptionError {
            key: "seats",
            variant: None,
            varied: false,
            message: seating::SeatingError::Dealers(0).to_string(),
        })?;
        let variant = Variant {
            label: "base".to_string(),
            layout,
            bank,
            fees: Fees {
                bets: collection,
                bank: None,
                time: 0,
            },
            rotation: Rotation::Fixed,
            bets_to_bank: rotation::DEFAULT_MIN_BETS,
            cycle: Cycle::fixed(dealer),
        };
        Table::with_variants(
            game,
            vec![variant],
            None,
            variant::DEFAULT_HANDS_PER_HOUR,
            ways,
        )
    }

    /// Checks the parts fit together: a deck that leaves the rules' stub, an even-money main
    /// wager, ways that can play each other, 1 to [`MAX_VARIANTS`] variants.
    pub fn with_variants(
        game: GameRules,
        variants: Vec<Variant>,
        vary: Option<VaryKey>,
        hands_per_hour: u32,
        [mut player, mut dealer, mut house]: [Resolved; 3],
    ) -> Result<Table, TableError> {
        check_game(&game)?;
        if !(1..=MAX_VARIANTS).contains(&variants.len()) {
            return Err(TableError::Variants(variants.len()));
        }
        check_sides(&game, &*dealer.strategy, &*player.strategy)?;
        if house.strategy.needs_dealer() {
            return Err(TableError::HouseNeedsDealer(house.label.clone()));
        }
        let mut offsets = [false; SEATS];
        for v in &variants {
            for &d in &v.cycle.dealers {
                for (seat, bets) in v.layout.bets.iter().enumerate() {
                    if !bets.is_empty() && seat != usize::from(d) {
                        offsets[(seat + SEATS - usize::from(d)) % SEATS] = true;
                    }
                }
            }
        }
        share_caches(vec![&mut player, &mut dealer, &mut house]);
        let player_cache = (!player.strategy.needs_dealer())
            .then(|| player.strategy.shape_table().cloned())
            .flatten();
        Ok(Table {
            player_cache,
            dealer_cache: dealer.strategy.shape_table().cloned(),
            ev: Evaluator::new(game.ranking),
            game,
            variants,
            vary,
            hands_per_hour,
            player,
            dealer,
            house,
            offsets,
        })
    }

    /// The table a spec describes, rebuilt from its texts alone.
    pub fn from_spec(spec: &RunSpec) -> Result<Table, TableError> {
        let game = spec.game()?;
        let [player, dealer, house] = ROLES.map(|role| spec.strategy(role, &game));
        let options = options_of(spec)?;
        let variants = variant::variants(&options)?;
        let vary = match &options.vary {
            Some(text) => Some(variant::Vary::parse(text)?.key),
            None => None,
        };
        let hands_per_hour = variant::parse_hands_per_hour(&options.hands_per_hour)?;
        Table::with_variants(
            game,
            variants,
            vary,
            hands_per_hour,
            [player?, dealer?, house?],
        )
    }

    /// The rounds after which every variant's rotation is back at its start: the least common
    /// multiple of the cycles' lengths.
    pub fn joint_cycle(&self) -> u64 {
        (self.variants.iter()).fold(1, |l, v| lcm(l, v.cycle.len()))
    }

    /// Checks that a run of `rounds` rounds holds at least two whole joint cycles, so that every
    /// stratum of every result has rounds enough for a mean and a variance.
    pub fn check_rounds(&self, rounds: u64) -> Result<(), TableError> {
        let cycle = self.joint_cycle();
        let needed = cycle.saturating_mul(2);
        match rounds >= needed {
            true => Ok(()),
            false => Err(TableError::TooFewRounds {
                rounds,
                cycle,
                needed,
            }),
        }
    }

    /// Pairs of variants (a, b), a < b, in report order.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        pairs(self.variants.len()).collect()
    }
}

/// Pairs of `n` variants: (0,1), (0,2), .., (1,2), ..
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
}

/// Least common multiple (saturating).
pub fn lcm(a: u64, b: u64) -> u64 {
    (a / gcd(a, b)).saturating_mul(b)
}

/// For variants with cycles `a` and `b`: how many rounds of their joint cycle (the least common
/// multiple of the lengths) have each pair of player-dealer's seats, and the joint length.
pub fn joint_weights(a: &Cycle, b: &Cycle) -> (Vec<([u8; 2], u64)>, u64) {
    let length = lcm(a.len(), b.len());
    let mut counts = std::collections::BTreeMap::new();
    for d in 0..length {
        let key = [a.dealer_at(d) as u8, b.dealer_at(d) as u8];
        *counts.entry(key).or_insert(0u64) += 1;
    }
    (counts.into_iter().collect(), length)
}

/// What the table deals: a deck that leaves the rules' stub (53 or 54 cards) and an even-money
/// main wager.
pub fn check_game(game: &GameRules) -> Result<(), TableError> {
    let size = game.deck.size();
    if !(53..=54).contains(&size) {
        return Err(TableError::Deck(size));
    }
    check_wager(&game.main_wager)
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
    /// The setter's outcomes (seats that played, not the player-dealer's).
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

    #[inline]
    fn record(&mut self, net: i64, action: u64) {
        self.net += i128::from(net);
        self.net_squared += u128::from(net.unsigned_abs()).pow(2);
        self.net_action += i128::from(net) * i128::from(action);
        self.action += u128::from(action);
        self.action_squared += u128::from(action).pow(2);
    }
}

/// The rounds banked by one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stratum {
    pub rounds: u64,
    /// Rounds in which some bet got less than full action.
    pub bank_ran_out: u64,
    pub seats: [SeatTally; SEATS],
}

impl Stratum {
    fn merge(&mut self, o: &Stratum) {
        self.rounds += o.rounds;
        self.bank_ran_out += o.bank_ran_out;
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.merge(b);
        }
    }
}

/// One variant's integer results, by the player-dealer's seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantTally {
    /// `by_dealer[d]`: the rounds banked by seat `d`.
    pub by_dealer: [Stratum; SEATS],
}

impl VariantTally {
    #[inline]
    fn record(
        &mut self,
        dealer: usize,
        action: usize,
        r: &RoundResult,
        outcomes: &[Option<SeatOutcome>; SEATS],
    ) {
        let st = &mut self.by_dealer[dealer];
        st.rounds += 1;
        st.bank_ran_out += u64::from(r.bank_ran_out);
        st.seats[action].action_pile += 1;
        for (s, seat) in st.seats.iter_mut().enumerate() {
            if r.net[s] != 0 || r.action[s] != 0 {
                seat.record(r.net[s], r.action[s]);
            }
            seat.no_action += u64::from(r.no_action[s]);
            seat.partial += u64::from(r.partial[s]);
            if let Some(o) = outcomes[s] {
                seat.outcomes.record(o.setter);
            }
        }
    }

    /// Rounds over every stratum.
    pub fn rounds(&self) -> u64 {
        self.by_dealer.iter().map(|s| s.rounds).sum()
    }

    /// Seat `seat`'s net before collection over every stratum.
    pub fn net(&self, seat: usize) -> i128 {
        self.by_dealer.iter().map(|s| s.seats[seat].net).sum()
    }

    /// The player-dealer's net before collection (each stratum's banker) over every stratum.
    pub fn bank_net(&self) -> i128 {
        (self.by_dealer.iter().enumerate())
            .map(|(d, s)| s.seats[d].net)
            .sum()
    }

    /// Seat `seat`'s tally summed over every stratum.
    pub fn seat_total(&self, seat: usize) -> SeatTally {
        let mut total = SeatTally::default();
        for s in &self.by_dealer {
            total.merge(&s.seats[seat]);
        }
        total
    }
}

/// Exact sums of a per-round difference and its square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiffSums {
    #[serde(with = "decimal")]
    pub sum: i128,
    #[serde(with = "decimal")]
    pub squares: u128,
}

impl DiffSums {
    #[inline]
    fn add(&mut self, difference: i64) {
        self.sum += i128::from(difference);
        self.squares += u128::from(difference.unsigned_abs()).pow(2);
    }

    fn merge(&mut self, o: &DiffSums) {
        self.sum += o.sum;
        self.squares += o.squares;
    }
}

/// The rounds of a pair of variants in which seats `dealers[0]` and `dealers[1]` bank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairStratum {
    pub dealers: [u8; 2],
    pub rounds: u64,
    /// Each seat's net (before collection) in variant a minus in variant b.
    pub seats: [DiffSums; SEATS],
    /// The player-dealer's net in a minus the player-dealer's net in b.
    pub player_dealer: DiffSums,
}

impl PairStratum {
    fn merge(&mut self, o: &PairStratum) {
        self.rounds += o.rounds;
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.merge(b);
        }
        self.player_dealer.merge(&o.player_dealer);
    }
}

/// A pair of variants' joint sums, by the pair of player-dealer's seats (sorted, only those
/// that occurred).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairTally {
    pub strata: Vec<PairStratum>,
}

impl PairTally {
    /// The stratum of `dealers`, added in order when new.
    #[inline]
    fn stratum(&mut self, dealers: [u8; 2]) -> &mut PairStratum {
        let i = match self.strata.binary_search_by_key(&dealers, |s| s.dealers) {
            Ok(i) => i,
            Err(i) => {
                let new = PairStratum {
                    dealers,
                    ..PairStratum::default()
                };
                self.strata.insert(i, new);
                i
            }
        };
        &mut self.strata[i]
    }

    #[inline]
    fn record(&mut self, (da, db): (usize, usize), a: &RoundResult, b: &RoundResult) {
        let st = self.stratum([da as u8, db as u8]);
        st.rounds += 1;
        for (s, sums) in st.seats.iter_mut().enumerate() {
            if a.net[s] != b.net[s] {
                sums.add(a.net[s] - b.net[s]);
            }
        }
        st.player_dealer.add(a.net[da] - b.net[db]);
    }

    fn merge(&mut self, other: &PairTally) {
        for o in &other.strata {
            self.stratum(o.dealers).merge(o);
        }
    }

    /// Rounds over every stratum.
    pub fn rounds(&self) -> u64 {
        self.strata.iter().map(|s| s.rounds).sum()
    }
}

/// A run's integer results.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableTally {
    pub rounds: u64,
    /// Per variant.
    pub variants: Vec<VariantTally>,
    /// Per pair of variants, in [`Table::pairs`] order.
    pub pairs: Vec<PairTally>,
}

impl TableTally {
    /// The tally of no rounds of `variants` variants.
    pub fn new(variants: usize) -> TableTally {
        TableTally {
            rounds: 0,
            variants: vec![VariantTally::default(); variants],
            pairs: vec![PairTally::default(); pairs(variants).count()],
        }
    }
}

impl Tally for TableTally {
    fn merge(&mut self, other: &TableTally) {
        self.rounds += other.rounds;
        for (a, b) in self.variants.iter_mut().zip(&other.variants) {
            for (x, y) in a.by_dealer.iter_mut().zip(&b.by_dealer) {
                x.merge(y);
            }
        }
        for (a, b) in self.pairs.iter_mut().zip(&other.pairs) {
            a.merge(b);
        }
    }

    fn rounds(&self) -> u64 {
        self.rounds
    }

    /// Every variant and every pair covers every round; in each stratum the action pile went
    /// out once a round, the seats' nets (before collection) add up to zero, and no seat has
    /// more no-action or partial rounds than the stratum; each pair's sums of differences equal
    /// the difference of its variants' sums.
    fn check(&self) -> Result<(), String> {
        let n = self.variants.len();
        if self.pairs.len() != pairs(n).count() {
            return Err(format!("{n} variants but {} pairs", self.pairs.len()));
        }
        for (i, v) in self.variants.iter().enumerate() {
            let name = format!("variant {}", i + 1);
            if v.rounds() != self.rounds {
                return Err(format!(
                    "{name} has {} rounds of {}",
                    v.rounds(),
                    self.rounds
                ));
            }
            for (d, st) in v.by_dealer.iter().enumerate() {
                let piles = (st.seats.iter()).try_fold(0u64, |a, s| a.checked_add(s.action_pile));
                if piles != Some(st.rounds) {
                    return Err(format!(
                        "{name}: the action pile went out {piles:?} times in the {} rounds banked by seat {}",
                        st.rounds,
                        d + 1
                    ));
                }
                let net = (st.seats.iter()).try_fold(0i128, |a, s| a.checked_add(s.net));
                if net != Some(0) {
                    return Err(format!("{name}: the seats' nets add up to {net:?}, not 0"));
                }
                let over = |s: &SeatTally| s.no_action > st.rounds || s.partial > st.rounds;
                if st.bank_ran_out > st.rounds || st.seats.iter().any(over) {
                    return Err(format!("{name}: more rounds counted in a seat than it has"));
                }
            }
        }
        for (p, (a, b)) in pairs(n).enumerate() {
            let pair = &self.pairs[p];
            if pair.rounds() != self.rounds {
                return Err(format!(
                    "pair {}: {} rounds of {}",
                    p + 1,
                    pair.rounds(),
                    self.rounds
                ));
            }
            let (va, vb) = (&self.variants[a], &self.variants[b]);
            for s in 0..SEATS {
                let sum: i128 = pair.strata.iter().map(|st| st.seats[s].sum).sum();
                if sum != va.net(s) - vb.net(s) {
                    return Err(format!(
                        "pair {}: seat {}'s differences do not add up to its variants' nets",
                        p + 1,
                        s + 1
                    ));
                }
            }
            let sum: i128 = pair.strata.iter().map(|st| st.player_dealer.sum).sum();
            if sum != va.bank_net() - vb.bank_net() {
                return Err(format!(
                    "pair {}: the player-dealer's differences do not add up",
                    p + 1
                ));
            }
        }
        Ok(())
    }
}

/// One dealt round: the seven piles in deal order (pile 0 is the action pile), the dice, and
/// where each pile's hand sits in its way's cache.
pub struct DealtTable {
    cards: [Card; SEATS * PILE],
    dice: u8,
    /// By pile.
    slots: [Option<ShapeSlot>; SEATS],
}

impl DealtTable {
    /// Pile `pile`, in deal order.
    #[inline]
    fn pile(&self, pile: usize) -> &[Card; PILE] {
        let p = PILE * pile;
        self.cards[p..p + PILE]
            .try_into()
            .expect("seven cards a pile")
    }

    /// How many seats clockwise of the player-dealer the dice put the action pile: the seat
    /// `k` places clockwise of the player-dealer holds pile `(k - shift) mod 7`.
    #[inline]
    fn shift(&self) -> usize {
        (usize::from(self.dice) - 1) % SEATS
    }
}

impl Table {
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
        if let Some(known) = known_at(&self.player_cache, slot) {
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
            dice: 3,
            slots: [None; SEATS],
        }
    }

    fn empty_tally(&self) -> TableTally {
        TableTally::new(self.variants.len())
    }

    /// Deals seven piles, throws the dice, and locates the player-dealer's pile and every pile a
    /// bet may sit on in their ways' caches.
    #[inline]
    fn deal(&self, shoe: &mut Shoe, rng: &mut ChunkRng, round: &mut DealtTable) {
        shoe.deal_into(rng, &mut round.cards, SEATS * PILE);
        round.dice = roll_dice(rng);
        let shift = round.shift();
        for pile in 0..SEATS {
            let offset = (pile + shift) % SEATS;
            round.slots[pile] = match (offset, self.offsets[offset]) {
                (0, _) => locate(&self.dealer_cache, round.pile(pile)),
                (_, true) => locate(&self.player_cache, round.pile(pile)),
                (_, false) => None,
            };
        }
    }

    /// 1.5 M rounds of seven hands a second a thread, each further variant a quarter more.
    fn estimated_seconds(&self, plan: &Plan) -> f64 {
        plan.deals as f64 * (1.0 + (self.variants.len() as f64 - 1.0) / 4.0) / 1.5e6
    }

    /// Sets the hands, then seats, settles and tallies every variant on them.
    #[inline]
    fn play(&self, round: &mut DealtTable, deal: u64, tally: &mut TableTally) {
        let shift = round.shift();
        let dealer_pile = (SEATS - shift) % SEATS;
        let dealer = set_dealer_known(
            &self.ev,
            &*self.dealer.strategy,
            &self.game.main_wager,
            round.pile(dealer_pile),
            known_at(&self.dealer_cache, round.slots[dealer_pile]),
        );
        let mut by_pile: [Option<SeatOutcome>; SEATS] = [None; SEATS];
        let mut results = [RoundResult::default(); MAX_VARIANTS];
        let mut dealers = [0usize; MAX_VARIANTS];
        for (i, v) in self.variants.iter().enumerate() {
            let at = v.cycle.dealer_at(deal);
            let action = action_seat(at, round.dice);
            let mut outcomes: [Option<SeatOutcome>; SEATS] = [None; SEATS];
            for (seat, outcome) in outcomes.iter_mut().enumerate() {
                if seat == at || !v.layout.has_bets(seat) {
                    continue;
                }
                let pile = (seat + SEATS - action) % SEATS;
                let o = match by_pile[pile] {
                    Some(o) => o,
                    None => {
                        let o = self.seat_outcome(round.pile(pile), round.slots[pile], &dealer);
                        by_pile[pile] = Some(o);
                        o
                    }
                };
                *outcome = Some(o);
            }
            let result = settle_bets(&v.layout, at, v.bank, action, &outcomes);
            tally.variants[i].record(at, action, &result, &outcomes);
            results[i] = result;
            dealers[i] = at;
        }
        for ((a, b), pair) in pairs(self.variants.len()).zip(&mut tally.pairs) {
            pair.record((dealers[a], dealers[b]), &results[a], &results[b]);
        }
        tally.rounds += 1;
    }
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
    fn the_players_and_the_dealer_playing_alike_share_one_cache() {
        use crate::strategy::resolve::resolve;
        let game = GameRules::load("california").unwrap();
        let way = |name: &str| resolve(name, &game).unwrap();
        let table = |player: &str| {
            let collection = Collection::parse("1=1").unwrap();
            let ways = [way(player), way("foxwoods"), way("foxwoods")];
            Table::new(
                game.clone(),
                layout("D,10,-,-,-,-,-"),
                None,
                collection,
                ways,
            )
            .unwrap()
        };
        let cache = |c: &Option<Arc<ShapeTable>>| c.clone().expect("a house way has a cache");
        let alike = table("strategies/foxwoods.toml");
        assert!(Arc::ptr_eq(
            &cache(&alike.player_cache),
            &cache(&alike.dealer_cache)
        ));
        let apart = table("ballys-ac");
        assert!(!Arc::ptr_eq(
            &cache(&apart.player_cache),
            &cache(&apart.dealer_cache)
        ));
    }

    #[test]
    fn seed_000_rule_13_example() {
        // Bank 200; the first player bets 60 and loses, the next bets 60 and wins: 80 left.
        let l = layout("D,60,60,-,-,-,-");
        let mut outcomes = [None; SEATS];
        outcomes[1] = same(LOSS);
        outcomes[2] = same(Outcome::Win);
        let r = settle_bets(&l, 0, Some(200), 1, &outcomes);
        assert_eq!(r.bank_left, Some(80));
        assert_eq!(r.net[..3], [0, -60, 60]);
        assert_eq!(r.action[..3], [120, 60, 60]);
        assert!(!r.bank_ran_out);
    }

    #[test]
    fn a_seat_banking_in_a_rotation_sits_its_bets_out() {
        // Seat 2 banks 100 against seats 1 and 3; its own bet of 60 does not play.
        let l = layout("50,60,70,-,-,-,-");
        let outcomes = [
            same(LOSS),
            same(Outcome::Win),
            same(Outcome::Win),
            None,
            None,
            None,
            None,
        ];
        let r = settle_bets(&l, 1, Some(100), 2, &outcomes);
        // Clockwise from seat 3: it wins 70 (30 left), then seat 1 loses 30 of its 50.
        assert_eq!(r.net[..3], [-30, -40, 70]);
        assert_eq!(r.action[..3], [30, 100, 70]);
        assert!(r.partial[0] && r.bank_ran_out);
    }

    #[test]
    fn joint_cycles_count_each_pair_of_bankers() {
        let a = Cycle {
            dealers: vec![0, 0, 1],
            ..Cycle::fixed(0)
        };
        let b = Cycle::fixed(2);
        let (w, length) = joint_weights(&a, &b);
        assert_eq!(length, 3);
        assert_eq!(w, [([0, 2], 2), ([1, 2], 1)]);
        assert_eq!(lcm(4, 6), 12);
    }
}
