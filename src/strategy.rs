//! Strategies: how a 7-card hand is set. A house way read from TOML, or a built-in.
//!
//! Every strategy chooses among the 21 splits of a hand (see `split`) and only ever returns a
//! legal one, so no strategy can foul. Hands are passed sorted by card index, so split indices
//! mean the same thing for every strategy; a strategy must be deterministic (same hand, same
//! answer) because reports must be reproducible.
//!
//! Built-ins here are the two reference ways:
//! - `max-back`: the legal split with the best back; ties by the best front.
//! - `max-front`: the legal split with the best front; ties by the best back.
//! - `exposed` / `exposed:WAY` (in `way::exposed`): sees the dealer's set hand, takes the best
//!   result against it, ties by a house way ([`EXPOSED_DEFAULT_WAY`] unless named).
//! - `optimal:D` (in `optimal`): the setting with the highest EV against a dealer who sets by
//!   the way `D` (its dealer table is built once, then cached on disk).
//!
//! Any other name is a house way: a shipped name (`way::SHIPPED_WAYS`) or a TOML file.

use crate::card::Card;
use crate::eval::Value;
use crate::split::{SPLIT_COUNT, SplitValues};
pub use crate::way::cache::ShapeSlot;

/// The dealer's set hand, as a player who sees it (an exposed dealer) knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealerSetting {
    pub front: Value,
    pub back: Value,
}

/// What a strategy's setting of a hand means for settlement, known without the split values
/// (from a cache): the front and back values, and what the seven cards make for side bets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownSetting {
    pub front: Value,
    pub back: Value,
    /// The best five-card category of the seven cards.
    pub best: crate::eval::Category,
    /// Bit `c` set when some five of the seven cards make category `c` exactly.
    pub made: u16,
    /// The best five's highest rank slot (rank + 1).
    pub best_top_slot: u8,
}

impl KnownSetting {
    /// The setting of split `k` of a hand with split values `splits`.
    pub fn of_split(splits: &SplitValues, k: usize) -> KnownSetting {
        let best = splits.best_five();
        KnownSetting {
            front: splits.front[k],
            back: splits.back[k],
            best: best.category(),
            made: splits.categories_made(),
            best_top_slot: best.slots()[0],
        }
    }
}

/// A way to set a 7-card hand.
pub trait Strategy: Send + Sync {
    /// A short name for reports.
    fn name(&self) -> &str;

    /// The chosen split (0..21, always legal) of `hand` (sorted by card index), given its split
    /// values and, where the game exposes it, the dealer's setting.
    fn choose(
        &self,
        hand: &[Card; 7],
        splits: &SplitValues,
        dealer: Option<DealerSetting>,
    ) -> usize;

    /// Whether this strategy needs the dealer's setting (so the dealer must set first).
    fn needs_dealer(&self) -> bool {
        false
    }

    /// Where this strategy's cache keeps `hand`'s setting (`None`: it has no cache), with that
    /// memory already requested, so a [`Strategy::known_at`] a little later does not wait for
    /// it. The hand may come in any order (a cache reads only the set of cards).
    fn locate(&self, hand: &[Card; 7]) -> Option<ShapeSlot> {
        let _ = hand;
        None
    }

    /// The setting cached at `slot` (from [`Strategy::locate`] of some hand), when it is there;
    /// `None` means "sort the hand, compute the split values and call `choose`". When `Some`, it
    /// equals the values of `choose`'s split and the facts of the hand's seven cards.
    fn known_at(&self, slot: ShapeSlot) -> Option<KnownSetting> {
        let _ = slot;
        None
    }

    /// The setting of `hand` when it is known without the split values, as after a cache hit:
    /// [`Strategy::locate`] then [`Strategy::known_at`].
    fn known_setting(&self, hand: &[Card; 7]) -> Option<KnownSetting> {
        self.locate(hand).and_then(|slot| self.known_at(slot))
    }
}

/// The legal split that is best by `(primary, secondary)` values, first in split order on ties.
pub fn best_legal_by(splits: &SplitValues, key: impl Fn(usize) -> (Value, Value)) -> usize {
    let mut best = usize::MAX;
    for k in 0..SPLIT_COUNT {
        if splits.is_legal(k) && (best == usize::MAX || key(k) > key(best)) {
            best = k;
        }
    }
    debug_assert!(best != usize::MAX, "every 7-card hand has a legal split");
    best
}

/// Built-in: the legal split with the best back, then the best front.
pub struct MaxBack;

impl Strategy for MaxBack {
    fn name(&self) -> &str {
        "max-back"
    }
    fn choose(&self, _: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        best_legal_by(splits, |k| (splits.back[k], splits.front[k]))
    }
}

/// Built-in: the legal split with the best front, then the best back.
pub struct MaxFront;

impl Strategy for MaxFront {
    fn name(&self) -> &str {
        "max-front"
    }
    fn choose(&self, _: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        best_legal_by(splits, |k| (splits.front[k], splits.back[k]))
    }
}

/// Built-in strategy names.
pub const BUILT_INS: &[&str] = &[
    "max-back",
    "max-front",
    "exposed",
    "exposed:WAY",
    "optimal:WAY",
];

/// The house way `exposed` breaks ties with when none is named (`exposed:WAY` names one).
pub const EXPOSED_DEFAULT_WAY: &str = "foxwoods";

/// A strategy by name: a built-in, or a house way (a shipped name or a TOML file).
pub fn resolve(
    name: &str,
    game: &crate::game::GameRules,
) -> Result<Box<dyn Strategy>, crate::config::ConfigError> {
    use crate::way::{HouseWay, cache::CachedWay, exposed::Exposed};
    if let Some(dealer) = name.strip_prefix(crate::optimal::PREFIX) {
        let way = crate::optimal::OptimalWay::load_default(dealer, game)?;
        return Ok(Box::new(CachedWay::new(way)));
    }
    match name {
        "max-back" => Ok(Box::new(MaxBack)),
        "max-front" => Ok(Box::new(MaxFront)),
        "exposed" => Ok(Box::new(Exposed::new(HouseWay::load(EXPOSED_DEFAULT_WAY)?))),
        other => match other.strip_prefix("exposed:") {
            Some(way) => Ok(Box::new(Exposed::new(HouseWay::load(way)?))),
            None => HouseWay::load(other).map(|w| Box::new(CachedWay::new(w)) as Box<dyn Strategy>),
        },
    }
}
