//! A strategy with a shape cache in front of it ([`crate::strategy::shape`]): the fast path of
//! every engine. Invariant: the cached strategy reads only what a shape keeps (split values and
//! suit-blind hand features, never the dealer), so a cached answer equals the strategy's own
//! (`tests/suite/way_cache.rs`). Handles made by [`Strategy::share`] read and fill one cache, so
//! a shape is set once for every role that plays the same way.

use std::sync::Arc;

use crate::cards::Card;
use crate::eval::split::SplitValues;
use crate::game::wager::DealerSetting;
use crate::strategy::Strategy;
use crate::strategy::shape::ShapeTable;
use crate::strategy::way::HouseWay;

/// A strategy (a house way unless named) with a shape cache in front of it. The strategy must
/// read only what the shape keeps: split values and suit-blind features, never the dealer.
pub struct CachedWay<S = HouseWay> {
    way: S,
    table: Arc<ShapeTable>,
}

impl<S: Strategy> CachedWay<S> {
    /// Wraps `way` with an empty cache.
    pub fn new(way: S) -> CachedWay<S> {
        debug_assert!(!way.needs_dealer(), "the cache key holds no dealer");
        CachedWay {
            way,
            table: Arc::new(ShapeTable::default()),
        }
    }

    /// The strategy behind the cache.
    pub fn way(&self) -> &S {
        &self.way
    }
}

impl<S: Strategy + Clone + 'static> Strategy for CachedWay<S> {
    fn name(&self) -> &str {
        self.way.name()
    }

    /// The same way in front of the same cache.
    fn share(&self) -> Option<Box<dyn Strategy>> {
        Some(Box::new(CachedWay {
            way: self.way.clone(),
            table: Arc::clone(&self.table),
        }))
    }

    #[inline]
    fn choose(&self, hand: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        self.table
            .split_or_insert(hand, splits, || self.way.choose(hand, splits, None))
    }

    fn shape_table(&self) -> Option<&Arc<ShapeTable>> {
        Some(&self.table)
    }
}
