//! What each hand means for the main wager, by hand id: the dealer's set hand as a point of the
//! value grid, and the player's hand as regions of that grid.
//!
//! Coordinates are indices into the sorted front and back values of the deck
//! ([`crate::strategy::optimal::grid::ValueIndex`]): comparing indices is comparing values. A
//! live dealer (qualified, not overqualified) is the point `(f, b)` of its setting. A player hand
//! is three regions of dealer points:
//! - `stairs`: it wins against the dealer points below and left of some stair,
//!   `df < f_i and db < b_i` for some `i` (one stair for a setting; for the `exposed` player, who
//!   may pick any legal split against the dealer's, one per undominated legal split, fronts
//!   ascending and backs descending);
//! - `loss`: it loses against the dealer points at or above `loss` on both axes;
//! - `clean`: it loses without a copy against the dealer points at or above `clean` on both.
//!
//! A setting `(f, b)` has stairs `[(f, b)]`, loss `(f, b)` and clean `(f + 1, b + 1)`: it loses
//! when the dealer ties or beats both hands, and the loss is a copy when a hand ties. The
//! `exposed` player loses only when the dealer ties or beats both hands of every legal split,
//! that is at or above (highest legal front, highest legal back); it then sets the hand by its
//! house way (its tie-break among equally bad splits is every legal split), so `clean` is the
//! loss region less the dealer points that tie that setting's front or back.
//!
//! Invariants: `stairs` fronts strictly ascend and backs strictly descend; a point is in at most
//! one of (the union of) `stairs` and `loss`; `clean` lies inside `loss`.

use crate::game::wager::Outcome;

/// A dealer's hand as the main wager sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealerPoint {
    NotQualified,
    Overqualified,
    Live { front: u16, back: u16 },
}

/// A player's hand as regions of dealer points (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Regions<'a> {
    pub stairs: &'a [[u16; 2]],
    pub loss: [u16; 2],
    pub clean: [u16; 2],
}

impl Regions<'_> {
    /// The class of this hand against a dealer's.
    pub fn against(&self, dealer: DealerPoint) -> Outcome {
        let (f, b) = match dealer {
            DealerPoint::NotQualified => return Outcome::NotQualified,
            DealerPoint::Overqualified => return Outcome::Overqualified,
            DealerPoint::Live { front, back } => (front, back),
        };
        let at_or_above = |[lf, lb]: [u16; 2]| f >= lf && b >= lb;
        if self.stairs.iter().any(|&[sf, sb]| f < sf && b < sb) {
            Outcome::Win
        } else if at_or_above(self.clean) {
            Outcome::Loss
        } else if at_or_above(self.loss) {
            Outcome::CopyLoss
        } else {
            Outcome::Push
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

/// Dealer points and player regions by hand id.
pub struct Codes {
    /// Front indices run `0..fronts`, back indices `0..backs`.
    pub fronts: u16,
    pub backs: u16,
    dealer: Vec<DealerPoint>,
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

    /// The player regions of an id.
    #[inline]
    pub fn player(&self, id: u32) -> Regions<'_> {
        let id = id as usize;
        Regions {
            stairs: &self.stairs[self.starts[id] as usize..self.starts[id + 1] as usize],
            loss: self.loss[id],
            clean: self.clean[id],
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
        let live = |front, back| DealerPoint::Live { front, back };
        assert_eq!(p.against(live(3, 5)), Outcome::Win);
        assert_eq!(p.against(live(4, 5)), Outcome::Push);
        assert_eq!(p.against(live(4, 6)), Outcome::CopyLoss);
        assert_eq!(p.against(live(5, 6)), Outcome::CopyLoss);
        assert_eq!(p.against(live(5, 7)), Outcome::Loss);
        assert_eq!(p.against(live(3, 7)), Outcome::Push);
        assert_eq!(
            p.against(DealerPoint::Overqualified),
            Outcome::Overqualified
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
        let live = |front, back| DealerPoint::Live { front, back };
        assert_eq!(p.against(live(1, 7)), Outcome::Win);
        assert_eq!(p.against(live(5, 2)), Outcome::Win);
        assert_eq!(p.against(live(5, 7)), Outcome::Push);
        assert_eq!(p.against(live(6, 8)), Outcome::CopyLoss);
        assert_eq!(p.against(live(7, 9)), Outcome::Loss);
        assert_eq!(p.against(live(6, 9)), Outcome::Loss);
        assert_eq!(p.against(live(9, 8)), Outcome::CopyLoss);
    }
}
