//! What each hand means for the main wager, by hand id: the dealer's set hand as a point of the
//! value grid, and the player's hand as regions of that grid.
//!
//! Coordinates are indices into the sorted front and back values of the deck
//! ([`crate::strategy::optimal::grid::ValueIndex`]): comparing indices is comparing values. A
//! dealer who plays ([`DealerClass::Plays`]) is the point `(f, b)` of its setting; any other
//! dealer is its class. A player hand that is a setting `(f, b)` stands in one relation cell
//! ([`crate::game::settlement`]) to each dealer point, read off the two comparisons; its pairs
//! are counted by cell and mapped through the game's table like every other engine's.
//!
//! The `exposed` player (who may pick any legal split against the dealer's) is three regions of
//! dealer points:
//! - `stairs`: it wins against the dealer points below and left of some stair,
//!   `df < f_i and db < b_i` for some `i` (one stair for a setting; for the `exposed` player, who
//!   may pick any legal split against the dealer's, one per undominated legal split, fronts
//!   ascending and backs descending);
//! - `loss`: it loses against the dealer points at or above `loss` on both axes;
//! - `clean`: it loses without a copy against the dealer points at or above `clean` on both.
//!
//! The `exposed` player loses only when the dealer ties or beats both hands of every legal split,
//! that is at or above (highest legal front, highest legal back); it then sets the hand by its
//! house way (its tie-break among equally bad splits is every legal split), so `clean` is the
//! loss region less the dealer points that tie that setting's front or back. Its result is
//! booked at the cell of a split that has it: a win above on both hands, a push above on the
//! front and below on the back, a copy-loss equal on the front and below on the back, a loss
//! below on both. That is the standard table's reading of the split it picks: its choice (win
//! both, else win one, else lose) is right only while a tie on both hands loses, and the game
//! file refuses `double_copy = "push"` with an exposed dealer.
//!
//! Invariants: `stairs` fronts strictly ascend and backs strictly descend; a point is in at most
//! one of (the union of) `stairs` and `loss`; `clean` lies inside `loss`.

use crate::game::settlement::{DealerClass, Relation, Settlement, cell};
use crate::game::wager::Outcome;
pub use crate::strategy::optimal::grid::DealerPoint;

/// A player's hand as regions of dealer points (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Regions<'a> {
    pub stairs: &'a [[u16; 2]],
    pub loss: [u16; 2],
    pub clean: [u16; 2],
}

/// Where an exposed player's result is booked: the cell of a split with that result.
pub mod booked {
    use super::{Relation, cell};
    use Relation::{Above, Below, Equal};
    pub const WIN: usize = cell(Above, Above);
    pub const PUSH: usize = cell(Above, Below);
    pub const COPY_LOSS: usize = cell(Equal, Below);
    pub const LOSS: usize = cell(Below, Below);
}

impl Regions<'_> {
    /// The cell this hand's result is booked at against a playing dealer's point (`f`, `b`).
    pub fn cell_against(&self, f: u16, b: u16) -> usize {
        let at_or_above = |[lf, lb]: [u16; 2]| f >= lf && b >= lb;
        if self.stairs.iter().any(|&[sf, sb]| f < sf && b < sb) {
            booked::WIN
        } else if at_or_above(self.clean) {
            booked::LOSS
        } else if at_or_above(self.loss) {
            booked::COPY_LOSS
        } else {
            booked::PUSH
        }
    }
}

/// A player id as the counting sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player<'a> {
    /// No hand has this id.
    Absent,
    /// A setting: (front index, back index).
    Set([u16; 2]),
    /// The `exposed` player's regions.
    Exposed(Regions<'a>),
}

impl Player<'_> {
    /// The relation cell of this hand against a playing dealer's point (`f`, `b`).
    pub fn cell_against(&self, f: u16, b: u16) -> usize {
        let relation = |player: u16, dealer: u16| {
            Relation::ALL[usize::from(player >= dealer) + usize::from(player > dealer)]
        };
        match self {
            Player::Absent => 0,
            Player::Set([pf, pb]) => cell(relation(*pf, f), relation(*pb, b)),
            Player::Exposed(regions) => regions.cell_against(f, b),
        }
    }

    /// The outcome of this hand against a dealer, under `table`.
    pub fn against(&self, dealer: DealerPoint, table: &Settlement) -> Outcome {
        match dealer {
            DealerPoint::NotQualified => table.row(DealerClass::NotQualified)[0],
            DealerPoint::Overqualified => table.row(DealerClass::Overqualified)[0],
            DealerPoint::Live { front, back } => {
                table.row(DealerClass::Plays)[self.cell_against(front, back)]
            }
        }
    }
}

/// The player's hand as its strategy sets it, before it becomes regions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerHand {
    /// A setting chosen from the seven cards alone: (front index, back index).
    Set([u16; 2]),
    /// The `exposed` player: the (front, back) of every legal split, sorted and each once, and
    /// of the split it sets when every split loses.
    Exposed {
        legal: Vec<[u16; 2]>,
        on_loss: [u16; 2],
    },
}

/// How an id's player hand is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Absent,
    Set,
    Exposed,
}

/// Dealer points and player regions by hand id.
pub struct Codes {
    /// Front indices run `0..fronts`, back indices `0..backs`.
    pub fronts: u16,
    pub backs: u16,
    dealer: Vec<DealerPoint>,
    /// Whether each id's hand is absent, a setting or exposed.
    kinds: Vec<Kind>,
    starts: Vec<u32>,
    stairs: Vec<[u16; 2]>,
    loss: Vec<[u16; 2]>,
    clean: Vec<[u16; 2]>,
}

impl Codes {
    /// Codes over a `fronts x backs` grid, with no ids yet.
    pub fn new(fronts: u16, backs: u16) -> Codes {
        Codes {
            fronts,
            backs,
            dealer: Vec::new(),
            kinds: Vec::new(),
            starts: vec![0],
            stairs: Vec::new(),
            loss: Vec::new(),
            clean: Vec::new(),
        }
    }

    /// Adds the next id: its dealer point and player hand (`None` for an id no hand has).
    pub fn push(&mut self, dealer: DealerPoint, player: Option<&PlayerHand>) {
        self.dealer.push(dealer);
        let nowhere = [self.fronts, self.backs];
        self.kinds.push(match player {
            None => Kind::Absent,
            Some(PlayerHand::Set(_)) => Kind::Set,
            Some(PlayerHand::Exposed { .. }) => Kind::Exposed,
        });
        let (loss, clean) = match player {
            None => (nowhere, nowhere),
            Some(PlayerHand::Set([f, b])) => {
                self.stairs.push([*f, *b]);
                ([*f, *b], [f + 1, b + 1])
            }
            Some(PlayerHand::Exposed { legal, on_loss }) => {
                self.stairs.extend(staircase(legal));
                let top = |axis: usize| legal.iter().map(|s| s[axis]).max().unwrap_or(0);
                let loss = [top(0), top(1)];
                (
                    loss,
                    [loss[0].max(on_loss[0] + 1), loss[1].max(on_loss[1] + 1)],
                )
            }
        };
        self.loss.push(loss);
        self.clean.push(clean);
        self.starts.push(self.stairs.len() as u32);
    }

    /// The number of ids.
    pub fn ids(&self) -> usize {
        self.dealer.len()
    }

    /// The dealer point of an id.
    #[inline]
    pub fn dealer(&self, id: u32) -> DealerPoint {
        self.dealer[id as usize]
    }

    /// The player hand of an id.
    #[inline]
    pub fn player(&self, id: u32) -> Player<'_> {
        let id = id as usize;
        match self.kinds[id] {
            Kind::Absent => Player::Absent,
            Kind::Set => Player::Set(self.loss[id]),
            Kind::Exposed => Player::Exposed(Regions {
                stairs: &self.stairs[self.starts[id] as usize..self.starts[id + 1] as usize],
                loss: self.loss[id],
                clean: self.clean[id],
            }),
        }
    }
}

/// The undominated points of `points` (no other point at or above on both axes, duplicates
/// once), fronts ascending and backs descending.
pub fn staircase(points: &[[u16; 2]]) -> Vec<[u16; 2]> {
    let mut sorted = points.to_vec();
    sorted.sort_unstable_by(|a, b| b[0].cmp(&a[0]).then(b[1].cmp(&a[1])));
    let mut out: Vec<[u16; 2]> = Vec::new();
    for p in sorted {
        if out.last().is_none_or(|last| p[1] > last[1]) {
            out.push(p);
        }
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staircase_keeps_the_undominated_points() {
        let points = [[1, 9], [3, 5], [2, 5], [3, 2], [5, 1], [0, 9], [5, 1]];
        assert_eq!(staircase(&points), vec![[1, 9], [3, 5], [5, 1]]);
    }

    #[test]
    fn a_setting_wins_pushes_and_loses_as_settlement_says() {
        let mut codes = Codes::new(10, 10);
        codes.push(DealerPoint::NotQualified, Some(&PlayerHand::Set([4, 6])));
        let p = codes.player(0);
        let table = Settlement::new(crate::game::settlement::DoubleCopy::Loss);
        let live = |front, back| DealerPoint::Live { front, back };
        let against = |dealer| p.against(dealer, &table);
        assert_eq!(against(live(3, 5)), Outcome::Win);
        assert_eq!(against(live(4, 5)), Outcome::Push);
        assert_eq!(against(live(4, 6)), Outcome::CopyLoss);
        assert_eq!(against(live(5, 6)), Outcome::CopyLoss);
        assert_eq!(against(live(5, 7)), Outcome::Loss);
        assert_eq!(against(live(3, 7)), Outcome::Push);
        assert_eq!(against(DealerPoint::Overqualified), Outcome::Overqualified);
        let double_copy_pushes = Settlement::new(crate::game::settlement::DoubleCopy::Push);
        assert_eq!(p.against(live(4, 6), &double_copy_pushes), Outcome::Push);
        assert_eq!(
            p.against(live(4, 7), &double_copy_pushes),
            Outcome::CopyLoss
        );
    }

    #[test]
    fn the_exposed_player_takes_the_best_split() {
        let mut codes = Codes::new(10, 10);
        let legal = vec![[2, 8], [6, 3], [1, 1]];
        let hand = PlayerHand::Exposed {
            legal,
            on_loss: [2, 8],
        };
        codes.push(DealerPoint::NotQualified, Some(&hand));
        let p = codes.player(0);
        let table = Settlement::new(crate::game::settlement::DoubleCopy::Loss);
        let live = |front, back| DealerPoint::Live { front, back };
        let against = |dealer| p.against(dealer, &table);
        assert_eq!(against(live(1, 7)), Outcome::Win);
        assert_eq!(against(live(5, 2)), Outcome::Win);
        assert_eq!(against(live(5, 7)), Outcome::Push);
        assert_eq!(against(live(6, 8)), Outcome::CopyLoss);
        assert_eq!(against(live(7, 9)), Outcome::Loss);
        assert_eq!(against(live(6, 9)), Outcome::Loss);
        assert_eq!(against(live(9, 8)), Outcome::CopyLoss);
    }
}
