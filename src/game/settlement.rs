//! The one settlement model of the main wager: every engine settles a player's setting against
//! the dealer's through the [`Settlement`] table of the game, and nothing else decides an outcome.
//!
//! The model:
//! - a player's setting that fouls (its front outranks its back) loses, whatever the dealer holds
//!   ([`Outcome::Foul`]); every other outcome comes from the table;
//! - the dealer's hand falls in one [`DealerClass`], decided by the game file's dealer rules from
//!   the dealer's seven cards and setting ([`super::wager::MainWager::dealer_class`]): it plays,
//!   it does not qualify (`dealer_qualifies`: below a pair, a queen-high or ace-high pai gow, a
//!   9-high front), or it overqualifies (`overqualifier`);
//! - a legal setting is compared with the dealer's hand by hand: its front and its back each
//!   stand in one [`Relation`] to the dealer's (below, equal or above), nine relation *cells*;
//! - the table maps (dealer class, front relation, back relation) to an [`Outcome`]. A class
//!   that plays reads the cell: above on both hands wins; above on one pushes; below or equal on
//!   both loses, a copy-loss when a hand ties (`double_copy = "push"`: a tie on both hands
//!   pushes). A class that does not play settles every cell one way (not qualified: push;
//!   overqualified: paid the multiple), so its row is uniform;
//! - what an outcome pays is the wager's ([`super::wager::MainWager::net_by_outcome`]), read by
//!   every engine from the same list.
//!
//! So an engine either settles one pair (read the dealer's row at the pair's cell: the
//! simulations, the table, the exposed player) or counts the nine cells of every dealer class
//! and maps the counts through the table (the exact sweep, the optimal grid, `set --exact`): a
//! rule is one line of the table and every engine counts it.
//!
//! Invariants: every row of the table holds only outcomes the wager can produce
//! ([`Outcome::is_possible`]); a class other than [`DealerClass::Plays`] has a uniform row (the
//! exact engines count its pairs without comparing values); [`Outcome::Foul`] is in no row.

use crate::eval::Value;

/// How one player hand stands against the dealer's hand of the same size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Relation {
    /// The dealer's hand outranks the player's.
    Below,
    /// A tie (a copy).
    Equal,
    /// The player's hand outranks the dealer's.
    Above,
}

impl Relation {
    /// Every relation, in index order.
    pub const ALL: [Relation; 3] = [Relation::Below, Relation::Equal, Relation::Above];

    /// The relation of the player's `player` to the dealer's `dealer`, as an index into
    /// [`Relation::ALL`] (two comparisons, no branch).
    #[inline]
    pub fn index_of(player: Value, dealer: Value) -> usize {
        usize::from(player >= dealer) + usize::from(player > dealer)
    }
}

/// How one player hand ends: the one outcome list. Every tally keeps one counter per outcome
/// (`wager::OutcomeCounts`, sized by [`Outcome::COUNT`]), and statistics and report rows are
/// computed by iterating it, so a new outcome is a variant here (and in [`Outcome::ALL`], which
/// a compile-time check holds to the variants' order), the cells of [`Settlement`] that produce
/// it, its pay in `Outcome::units` and a row of `wager::return_rows`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Outcome {
    /// Both player hands beat the dealer's.
    Win,
    /// The dealer can make four of a kind or better: paid the overqualifier multiple.
    Overqualified,
    /// One hand won, the other lost or copied.
    Push,
    /// The dealer does not qualify: every bet pushes.
    NotQualified,
    /// Neither hand won, and neither copied.
    Loss,
    /// Neither hand won, and at least one copied (a copy goes to the dealer).
    CopyLoss,
    /// The player's setting fouled (its front outranks its back).
    Foul,
}

/// What an outcome does to the bet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BetResult {
    Lost,
    Pushed,
    Paid,
}

impl Outcome {
    /// Number of outcomes: the length of every counter array.
    pub const COUNT: usize = variants();

    /// Every outcome, in counter order.
    pub const ALL: [Outcome; Outcome::COUNT] = [
        Outcome::Win,
        Outcome::Overqualified,
        Outcome::Push,
        Outcome::NotQualified,
        Outcome::Loss,
        Outcome::CopyLoss,
        Outcome::Foul,
    ];

    /// The index of this outcome's counter.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether the bet is paid, pushes or is lost.
    #[inline]
    pub fn result(self) -> BetResult {
        match self {
            Outcome::Win | Outcome::Overqualified => BetResult::Paid,
            Outcome::Push | Outcome::NotQualified => BetResult::Pushed,
            Outcome::Loss | Outcome::CopyLoss | Outcome::Foul => BetResult::Lost,
        }
    }
}

/// The number of variants, from a match with no wildcard: a new outcome does not compile until it
/// is counted here, and then [`Outcome::ALL`] must list it (its length is this count).
const fn variants() -> usize {
    match Outcome::Win {
        Outcome::Win
        | Outcome::Overqualified
        | Outcome::Push
        | Outcome::NotQualified
        | Outcome::Loss
        | Outcome::CopyLoss
        | Outcome::Foul => 7,
    }
}

/// [`Outcome::ALL`] lists every outcome at its index (checked when compiling).
const _: () = {
    let mut i = 0;
    while i < Outcome::COUNT {
        assert!(Outcome::ALL[i] as usize == i);
        i += 1;
    }
};

/// The number of (front, back) relation cells.
pub const CELLS: usize = 9;

/// The cell of a front and a back relation: `front * 3 + back`.
#[inline]
pub const fn cell(front: Relation, back: Relation) -> usize {
    front as usize * 3 + back as usize
}

/// The cell of a player setting (`front`, `back` values) against the dealer's.
#[inline]
pub fn cell_of(front: Value, back: Value, dealer_front: Value, dealer_back: Value) -> usize {
    Relation::index_of(front, dealer_front) * 3 + Relation::index_of(back, dealer_back)
}

/// The dominance counts of one setting `(f, b)` (or a sum of them over settings) that give its
/// nine relation cells: `Q(x, y)` counts the playing dealer settings with front below `x` and
/// back below `y`; `F` and `B` lie past every front and back. The four dominance queries, strict
/// and non-strict on each axis, with the margins and the total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quadrants<T> {
    /// `Q(f, b)`, `Q(f + 1, b)`, `Q(F, b)`.
    pub below: [T; 3],
    /// `Q(f, b + 1)`, `Q(f + 1, b + 1)`, `Q(F, b + 1)`.
    pub through: [T; 3],
    /// `Q(f, B)`, `Q(f + 1, B)`, `Q(F, B)`.
    pub all_backs: [T; 3],
}

impl<T> Quadrants<T>
where
    T: Copy + Default + std::ops::Add<Output = T> + std::ops::Sub<Output = T>,
{
    /// The dealer settings in each relation cell (a count in a signed type: the terms of a
    /// difference are not ordered).
    pub fn cells(&self) -> [T; CELLS] {
        use Relation::{Above, Below, Equal};
        let [q_fb, q_f1b, q_b] = self.below;
        let [q_fb1, q_f1b1, q_b1] = self.through;
        let [q_f, q_f1, live] = self.all_backs;
        let mut cells = [T::default(); CELLS];
        cells[cell(Above, Above)] = q_fb;
        cells[cell(Equal, Above)] = q_f1b - q_fb;
        cells[cell(Below, Above)] = q_b - q_f1b;
        cells[cell(Above, Equal)] = q_fb1 - q_fb;
        cells[cell(Equal, Equal)] = q_f1b1 - q_f1b - q_fb1 + q_fb;
        cells[cell(Below, Equal)] = q_b1 - q_b - q_f1b1 + q_f1b;
        cells[cell(Above, Below)] = q_f - q_fb1;
        cells[cell(Equal, Below)] = q_f1 - q_f - q_f1b1 + q_fb1;
        cells[cell(Below, Below)] = live - q_f1 - q_b1 + q_f1b1;
        cells
    }
}

/// What the dealer's hand is, for the main wager: it plays (the hands are compared), or its
/// class settles every bet one way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum DealerClass {
    /// The hands are compared: the outcome is the relation cell's.
    Plays,
    /// The dealer does not qualify (the game's `dealer_qualifies` rule): every bet pushes.
    NotQualified,
    /// The dealer can make four of a kind or better and the game has an overqualifier.
    Overqualified,
}

impl DealerClass {
    /// The number of classes.
    pub const COUNT: usize = 3;
    /// Every class, in index order.
    pub const ALL: [DealerClass; DealerClass::COUNT] = [
        DealerClass::Plays,
        DealerClass::NotQualified,
        DealerClass::Overqualified,
    ];
}

/// Whether a hand that ties on both halves (a double copy) loses or pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoubleCopy {
    /// A copy goes to the dealer: a double copy is a copy-loss.
    #[default]
    Loss,
    /// A tie on both hands pushes.
    Push,
}

/// The settlement table of a game: the outcome of each relation cell for each dealer class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settlement {
    rows: [[Outcome; CELLS]; DealerClass::COUNT],
}

impl Settlement {
    /// The table of a game whose playing dealer settles by `double_copy`.
    pub const fn new(double_copy: DoubleCopy) -> Settlement {
        let mut plays = [Outcome::Loss; CELLS];
        let mut i = 0;
        while i < CELLS {
            plays[i] = played(Relation::ALL[i / 3], Relation::ALL[i % 3], double_copy);
            i += 1;
        }
        Settlement {
            rows: [
                plays,
                [Outcome::NotQualified; CELLS],
                [Outcome::Overqualified; CELLS],
            ],
        }
    }

    /// The outcome of each cell against a dealer of `class`.
    #[inline]
    pub fn row(&self, class: DealerClass) -> [Outcome; CELLS] {
        self.rows[class as usize]
    }

    /// The outcome of a setting in relation (`front`, `back`) to a dealer of `class`.
    pub fn outcome(&self, class: DealerClass, front: Relation, back: Relation) -> Outcome {
        self.rows[class as usize][cell(front, back)]
    }

    /// The one outcome of every cell of a class that does not compare hands, or None for a class
    /// whose cells differ.
    pub fn uniform(&self, class: DealerClass) -> Option<Outcome> {
        let row = self.row(class);
        row.iter().all(|&o| o == row[0]).then_some(row[0])
    }

    /// Pairs by outcome from pairs by cell against dealers of `class`: each cell's count added
    /// to its outcome's.
    pub fn by_outcome<T: Copy + Default + std::ops::AddAssign>(
        &self,
        class: DealerClass,
        cells: &[T; CELLS],
    ) -> [T; Outcome::COUNT] {
        let mut out = [T::default(); Outcome::COUNT];
        for (&outcome, &n) in self.row(class).iter().zip(cells) {
            out[outcome.index()] += n;
        }
        out
    }
}

/// The outcome of a setting in relation (`front`, `back`) to a dealer who plays.
const fn played(front: Relation, back: Relation, double_copy: DoubleCopy) -> Outcome {
    use Relation::{Above, Below, Equal};
    match (front, back, double_copy) {
        (Above, Above, _) => Outcome::Win,
        (Above, _, _) | (_, Above, _) => Outcome::Push,
        (Equal, Equal, DoubleCopy::Push) => Outcome::Push,
        (Below, Below, _) => Outcome::Loss,
        _ => Outcome::CopyLoss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cell_index_is_the_relations_index() {
        for (i, front) in Relation::ALL.into_iter().enumerate() {
            assert_eq!(front as usize, i);
            for back in Relation::ALL {
                let (d, p) = (Value(10), |r: Relation| Value(9 + r as u32));
                assert_eq!(cell_of(p(front), p(back), d, d), cell(front, back));
            }
        }
    }

    /// The cells from quadrant counts against the cells counted point by point, on a grid.
    #[test]
    fn quadrant_counts_give_the_nine_cells() {
        let points: Vec<(i64, i64)> = (0..400).map(|i| ((i * 7) % 9, (i * 13) % 11)).collect();
        let q = |x: i64, y: i64| points.iter().filter(|p| p.0 < x && p.1 < y).count() as i64;
        let (fronts, backs) = (9, 11);
        for (f, b) in [(0, 0), (3, 4), (8, 10), (5, 0), (0, 7)] {
            let quadrants = Quadrants {
                below: [q(f, b), q(f + 1, b), q(fronts, b)],
                through: [q(f, b + 1), q(f + 1, b + 1), q(fronts, b + 1)],
                all_backs: [q(f, backs), q(f + 1, backs), q(fronts, backs)],
            };
            let mut expected = [0i64; CELLS];
            for &(df, db) in &points {
                let rel = |p: i64, d: i64| Relation::ALL[usize::from(p >= d) + usize::from(p > d)];
                expected[cell(rel(f, df), rel(b, db))] += 1;
            }
            assert_eq!(quadrants.cells(), expected, "setting ({f}, {b})");
        }
    }

    #[test]
    fn a_double_copy_pushes_only_under_its_rule() {
        use Relation::Equal;
        let standard = Settlement::new(DoubleCopy::Loss);
        let pushes = Settlement::new(DoubleCopy::Push);
        let plays = DealerClass::Plays;
        assert_eq!(standard.outcome(plays, Equal, Equal), Outcome::CopyLoss);
        assert_eq!(pushes.outcome(plays, Equal, Equal), Outcome::Push);
        for c in (0..CELLS).filter(|&c| c != cell(Equal, Equal)) {
            assert_eq!(standard.row(plays)[c], pushes.row(plays)[c], "cell {c}");
        }
    }

    #[test]
    fn only_the_playing_class_compares_hands() {
        let table = Settlement::new(DoubleCopy::Loss);
        assert_eq!(table.uniform(DealerClass::Plays), None);
        assert_eq!(
            table.uniform(DealerClass::NotQualified),
            Some(Outcome::NotQualified)
        );
        assert_eq!(
            table.uniform(DealerClass::Overqualified),
            Some(Outcome::Overqualified)
        );
        let counts = table.by_outcome(DealerClass::Plays, &[1u64; CELLS]);
        assert_eq!(counts.iter().sum::<u64>(), CELLS as u64);
        assert_eq!(counts[Outcome::Win.index()], 1);
        assert_eq!(counts[Outcome::Push.index()], 4);
        assert_eq!(counts[Outcome::CopyLoss.index()], 3);
        assert_eq!(counts[Outcome::Loss.index()], 1);
    }
}
