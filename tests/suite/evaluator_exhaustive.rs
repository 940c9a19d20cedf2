//! The evaluator against the naive card-level evaluator (`common/naive.rs`), exhaustively.
//!
//! For each ranking, every 5-card hand of the 54-card deck (which holds every hand of the 52- and
//! 53-card decks: hands without the second joker are the 53-card deck's, hands without jokers the
//! 52-card deck's) and every 2-card hand is scored by both evaluators. The library's values must
//! induce exactly the naive order: hands with equal naive values get equal library values (a
//! copy), and sorting the distinct naive values must sort the library values strictly upward
//! (fronts and backs together, so a front compares with a back as the rules say). The library's
//! category must be the naive one. Then named edge cases, with expectations written by hand.

use std::collections::HashMap;

use crate::common::naive::{self, NaiveValue};
use crate::common::{cards, for_each_subset_from, full_deck, ranking, set};
use paigow::cards::{Card, Cards};
use paigow::eval::{Category, Evaluator, FiveAces, JokerRule, Ranking, Value, Wheel};
use rayon::prelude::*;

/// One naive value's library value, an example hand, and whether a jokerless hand reached it.
#[derive(Clone, Copy)]
struct Seen {
    value: Value,
    example: Cards,
    natural: bool,
}

/// Naive value -> library value, with the conflicts found (equal naive values, unequal library
/// values) and the number of hands of each deck size visited.
#[derive(Default)]
struct Table {
    seen: HashMap<NaiveValue, Seen>,
    conflicts: Vec<String>,
    hands: [u64; 3],
}

impl Table {
    fn record(&mut self, naive: NaiveValue, value: Value, hand: Cards) {
        let natural = hand.jokers() == 0;
        match self.seen.get_mut(&naive) {
            Some(s) if s.value != value => {
                if self.conflicts.len() < 10 {
                    self.conflicts.push(format!(
                        "{} and {} are both {naive:?} but the library gives {:?} and {:?}",
                        s.example, hand, s.value, value
                    ));
                }
            }
            Some(s) => s.natural |= natural,
            None => {
                self.seen.insert(
                    naive,
                    Seen {
                        value,
                        example: hand,
                        natural,
                    },
                );
            }
        }
    }

    fn merge(mut self, other: Table) -> Table {
        for (naive, s) in other.seen {
            self.record(naive, s.value, s.example);
            if s.natural {
                self.seen.get_mut(&naive).expect("just recorded").natural = true;
            }
        }
        self.conflicts.extend(other.conflicts);
        for (a, b) in self.hands.iter_mut().zip(other.hands) {
            *a += b;
        }
        self
    }

    /// Panics unless the library order is exactly the naive order and categories agree.
    fn check(&self, ranking: Ranking) {
        assert!(
            self.conflicts.is_empty(),
            "{ranking:?}: copies disagree:\n{}",
            self.conflicts.join("\n")
        );
        let mut sorted: Vec<(&NaiveValue, &Seen)> = self.seen.iter().collect();
        sorted.sort_by_key(|(naive, _)| **naive);
        for pair in sorted.windows(2) {
            let ((na, a), (nb, b)) = (pair[0], pair[1]);
            assert!(
                a.value < b.value,
                "{ranking:?}: {} ({na:?}) ranks below {} ({nb:?}) but the library gives {:?} >= {:?}",
                a.example,
                b.example,
                a.value,
                b.value
            );
        }
        for (naive, s) in &sorted {
            assert_eq!(
                s.value.category(),
                naive::category(**naive, ranking),
                "{ranking:?}: category of {} ({naive:?})",
                s.example
            );
        }
    }
}

/// Every 5-card hand of the 54-card deck and every 2-card hand, both evaluators.
fn exhaustive(ranking: Ranking) -> Table {
    let ev = Evaluator::new(ranking);
    let deck = full_deck().cards();
    let mut table = (0..deck.len())
        .into_par_iter()
        .map(|first| {
            let mut table = Table::default();
            for_each_subset_from::<5>(&deck, first, |hand| {
                let set = Cards::from_cards(hand);
                table.hands[set.jokers() as usize] += 1;
                table.record(naive::value5(hand, ranking), ev.value5(set), set);
            });
            table
        })
        .reduce(Table::default, Table::merge);
    for (i, &a) in deck.iter().enumerate() {
        for &b in &deck[i + 1..] {
            let value = ev.value2(a, b);
            assert_eq!(value, ev.value2(b, a), "{a} {b}: order of the two cards");
            table.record(
                naive::value2(a, b, ranking),
                value,
                Cards::from_cards(&[a, b]),
            );
        }
    }
    table
}

fn check_exhaustively(ranking: Ranking) {
    let table = exhaustive(ranking);
    table.check(ranking);
    // C(52,5) jokerless hands, C(52,4) with each single joker, C(52,3) with both.
    assert_eq!(table.hands, [2_598_960, 2 * 270_725, 22_100]);
    // Hands of the 53-card deck: C(53,5).
    assert_eq!(table.hands[0] + table.hands[1] / 2, 2_869_685);
    // The 52-card deck has 7,462 distinct 5-card hand values (a published figure), and 2-card
    // hands have 13 pairs and C(13,2) = 78 high-card pairs.
    let natural_fives = table
        .seen
        .values()
        .filter(|s| s.natural && s.example.len() == 5)
        .count();
    assert_eq!(natural_fives, 7462, "{ranking:?}");
    let natural_fronts = table
        .seen
        .values()
        .filter(|s| s.natural && s.example.len() == 2)
        .count();
    assert_eq!(natural_fronts, 13 + 78, "{ranking:?}");
}

#[test]
fn bug_wheel_second_five_aces_above_matches_naive() {
    check_exhaustively(ranking(
        JokerRule::Bug,
        FiveAces::AboveRoyal,
        Wheel::SecondHighest,
    ));
}

#[test]
fn bug_wheel_second_five_aces_equal_matches_naive() {
    check_exhaustively(ranking(
        JokerRule::Bug,
        FiveAces::EqualRoyal,
        Wheel::SecondHighest,
    ));
}

#[test]
fn bug_wheel_lowest_five_aces_above_matches_naive() {
    check_exhaustively(ranking(JokerRule::Bug, FiveAces::AboveRoyal, Wheel::Lowest));
}

#[test]
fn bug_wheel_lowest_five_aces_equal_matches_naive() {
    check_exhaustively(ranking(JokerRule::Bug, FiveAces::EqualRoyal, Wheel::Lowest));
}

#[test]
fn wild_wheel_second_matches_naive() {
    check_exhaustively(ranking(
        JokerRule::Wild,
        FiveAces::AboveRoyal,
        Wheel::SecondHighest,
    ));
}

#[test]
fn wild_wheel_lowest_matches_naive() {
    check_exhaustively(ranking(
        JokerRule::Wild,
        FiveAces::AboveRoyal,
        Wheel::Lowest,
    ));
}

// ---------------------------------------------------------------------------------------------
// Named edge cases. Expectations are written from the rules, as comparisons with natural hands.

const BUG: Ranking = Ranking {
    joker: JokerRule::Bug,
    five_aces: FiveAces::AboveRoyal,
    wheel: Wheel::SecondHighest,
};

fn with(base: Ranking, f: impl FnOnce(&mut Ranking)) -> Ranking {
    let mut r = base;
    f(&mut r);
    r
}

fn v5(ev: &Evaluator, text: &str) -> Value {
    ev.value5(set(text))
}

fn v2(ev: &Evaluator, text: &str) -> Value {
    let c = cards(text);
    assert_eq!(c.len(), 2, "{text}");
    ev.value2(c[0], c[1])
}

/// Asserts that `hands`, written lowest first, are strictly increasing.
fn assert_ascending(ev: &Evaluator, hands: &[&str]) {
    for w in hands.windows(2) {
        assert!(
            v5(ev, w[0]) < v5(ev, w[1]),
            "{:?}: expected {} < {}",
            ev.ranking(),
            w[0],
            w[1]
        );
    }
}

fn assert_copy(ev: &Evaluator, a: &str, b: &str) {
    assert_eq!(
        v5(ev, a),
        v5(ev, b),
        "{:?}: {a} should equal {b}",
        ev.ranking()
    );
}

#[test]
fn joker_completes_a_wheel() {
    let second = Evaluator::new(BUG);
    // The joker as an ace makes A-2-3-4-5, which outranks the 6-high straight it could also make.
    assert_copy(&second, "Jk 2c 3d 4h 5s", "Ac 2d 3h 4s 5c");
    assert_eq!(v5(&second, "Jk 2c 3d 4h 5s").category(), Category::Straight);
    assert_ascending(
        &second,
        &["9c Td Jh Qs Kc", "Jk 2c 3d 4h 5s", "Tc Jd Qh Ks Ac"],
    );
    // With the wheel lowest, the same cards play as 2-3-4-5-6.
    let lowest = Evaluator::new(with(BUG, |r| r.wheel = Wheel::Lowest));
    assert_copy(&lowest, "Jk 2c 3d 4h 5s", "2d 3h 4s 5c 6c");
    // A joker filling the middle of a wheel.
    assert_copy(&second, "Ac 2d Jk 4h 5s", "Ad 2h 3s 4c 5c");
    assert_copy(&lowest, "Ac 2d Jk 4h 5s", "Ad 2h 3s 4c 5c");
    // 3-4-5-6 and a joker: 7-high either way (A-3-4-5-6 is no straight).
    assert_copy(&second, "Jk 3c 4d 5h 6s", "3d 4h 5s 6c 7c");
    assert_copy(&lowest, "Jk 3c 4d 5h 6s", "3d 4h 5s 6c 7c");
}

#[test]
fn bug_joker_is_otherwise_an_ace_and_wild_joker_anything() {
    let bug = Evaluator::new(BUG);
    let wild = Evaluator::new(with(BUG, |r| r.joker = JokerRule::Wild));
    // Bug: a pair of kings with an ace kicker; wild: three kings.
    assert_copy(&bug, "Kc Kd 7h 4s Jk", "Kh Ks Ac 7c 4d");
    assert_copy(&wild, "Kc Kd 7h 4s Jk", "Kh Ks Kc 7c 4d");
    // Bug: two pair stays two pair with an ace kicker; wild: a full house, kings full.
    assert_copy(&bug, "Kc Kd 7h 7s Jk", "Kh Ks 7c 7d Ac");
    assert_copy(&wild, "Kc Kd 7h 7s Jk", "Kh Ks Kc 7c 7d");
    // Bug with an ace: a pair of aces.
    assert_copy(&bug, "Ac Kd 7h 4s Jk", "Ah As Kc 7c 4d");
    // Four kings and the joker: bug, four kings with an ace; wild, five kings.
    assert_copy(&bug, "Kc Kd Kh Ks Jk", "Kc Kd Kh Ks Ac");
    assert_eq!(
        v5(&wild, "Kc Kd Kh Ks Jk").category(),
        Category::FiveOfAKind
    );
    assert_ascending(
        &wild,
        &["Ac Kc Qc Jc Tc", "Kc Kd Kh Ks Jk", "Ac Ad Ah As Jk"],
    );
    // Wild joker fills an inside straight.
    assert_copy(&wild, "9c 8d Jk 6h 5s", "9d 8h 7s 6c 5c");
    assert_copy(&bug, "9c 8d Jk 6h 5s", "9d 8h 7s 6c 5c");
}

#[test]
fn joker_in_a_flush_takes_the_highest_missing_card() {
    for rule in [JokerRule::Bug, JokerRule::Wild] {
        let ev = Evaluator::new(with(BUG, |r| r.joker = rule));
        // The ace of the suit is present: the joker is the king (no double-ace flush).
        assert_copy(&ev, "As 9s 5s 3s Jk", "As Ks 9s 5s 3s");
        // Ace and king present: the queen.
        assert_copy(&ev, "As Ks 9s 5s Jk", "As Ks Qs 9s 5s");
        // The ace missing: the joker is the ace.
        assert_copy(&ev, "Ks 9s 5s 3s Jk", "As Ks 9s 5s 3s");
        // A straight flush beats the higher flush card.
        assert_copy(&ev, "9s 8s 7s 6s Jk", "Ts 9s 8s 7s 6s");
        assert_copy(&ev, "Ks Qs Js Ts Jk", "As Ks Qs Js Ts");
        assert_eq!(v5(&ev, "Ks Qs Js Ts Jk").category(), Category::RoyalFlush);
        // A flush in another suit is a copy.
        assert_copy(&ev, "As 9s 5s 3s Jk", "Ah Kh 9h 5h 3h");
        assert_eq!(v5(&ev, "As 9s 5s 3s Jk").category(), Category::Flush);
    }
    // Wild: a flush with the joker still loses to a natural full house it cannot make.
    let wild = Evaluator::new(with(BUG, |r| r.joker = JokerRule::Wild));
    assert_ascending(&wild, &["As 9s 5s 3s Jk", "2c 2d 2h 3s 3c"]);
}

#[test]
fn two_jokers() {
    let ev = Evaluator::new(BUG);
    // Three aces and two jokers: five aces, above a royal flush.
    assert_eq!(v5(&ev, "Ac Ad Ah Jk Jk").category(), Category::FiveOfAKind);
    assert_copy(&ev, "Ac Ad Ah Jk Jk", "Ac Ad Ah As Jk");
    assert_ascending(&ev, &["As Ks Qs Js Ts", "Ac Ad Ah Jk Jk"]);
    // Straights: 2-3-4 and two jokers is A-2-3-4-5 (second-highest) or 2-3-4-5-6 (wheel lowest).
    assert_copy(&ev, "Jk Jk 2c 3d 4h", "Ac 2d 3h 4s 5c");
    let lowest = Evaluator::new(with(BUG, |r| r.wheel = Wheel::Lowest));
    assert_copy(&lowest, "Jk Jk 2c 3d 4h", "2d 3h 4s 5c 6c");
    // Q-J-T and two jokers: A-K-Q-J-T; 8-5 gap of two filled.
    assert_copy(&ev, "Jk Jk Qc Jd Th", "Ac Kd Qh Js Tc");
    assert_copy(&ev, "Jk Jk 8c 5d 4h", "8d 7h 6s 5c 4c");
    // Flushes: the jokers are the two highest missing cards, or complete a straight flush.
    assert_copy(&ev, "Jk Jk 9s 5s 2s", "As Ks 9s 5s 2s");
    assert_copy(&ev, "Jk Jk As 9s 2s", "As Ks Qs 9s 2s");
    assert_copy(&ev, "Jk Jk Ks 9s 2s", "As Ks Qs 9s 2s");
    assert_copy(&ev, "Jk Jk As Ks Qs", "As Ks Qs Js Ts");
    assert_copy(&ev, "Jk Jk 9s 7s 6s", "Ts 9s 8s 7s 6s");
    // 5-3-2 suited: A-2-3-4-5 (second-highest) beats 2-3-4-5-6; with the wheel lowest, 6-high.
    assert_copy(&ev, "Jk Jk 5s 3s 2s", "5h 4h 3h 2h Ah");
    assert_copy(&lowest, "Jk Jk 5s 3s 2s", "6s 5s 4s 3s 2s");
    // Nothing to complete: the jokers are aces.
    assert_copy(&ev, "Jk Jk Kc 9d 4h", "Ac Ad Kh 9s 4c");
    assert_copy(&ev, "Jk Jk Ac Kd 4h", "Ac Ad Ah Ks 4c");
    assert_copy(&ev, "Jk Jk Kc Kd 4h", "Ac Ad Kh Ks 4c");
    // Wild: two jokers and a pair make four of a kind; with a triple, five of a kind.
    let wild = Evaluator::new(with(BUG, |r| r.joker = JokerRule::Wild));
    assert_copy(&wild, "Jk Jk Kc Kd 4h", "Kc Kd Kh Ks 4c");
    assert_copy(&wild, "Jk Jk Kc 9d 4h", "Kc Kd Kh 9s 4c");
    assert_eq!(
        v5(&wild, "Jk Jk 7c 7d 7h").category(),
        Category::FiveOfAKind
    );
}

#[test]
fn five_aces_against_a_royal_flush() {
    let above = Evaluator::new(BUG);
    assert_ascending(
        &above,
        &["Ks Qs Js Ts 9s", "As Ks Qs Js Ts", "Ac Ad Ah As Jk"],
    );
    assert_eq!(
        v5(&above, "Ac Ad Ah As Jk").category(),
        Category::FiveOfAKind
    );
    let equal = Evaluator::new(with(BUG, |r| r.five_aces = FiveAces::EqualRoyal));
    assert_copy(&equal, "Ac Ad Ah As Jk", "As Ks Qs Js Ts");
    assert_copy(&equal, "Ac Ad Ah Jk Jk", "Ah Kh Qh Jh Th");
    assert_eq!(
        v5(&equal, "Ac Ad Ah As Jk").category(),
        Category::RoyalFlush
    );
    assert_ascending(&equal, &["Ks Qs Js Ts 9s", "Ac Ad Ah As Jk"]);
}

#[test]
fn wheel_ranking_options() {
    let second = Evaluator::new(BUG);
    let lowest = Evaluator::new(with(BUG, |r| r.wheel = Wheel::Lowest));
    // Straights.
    assert_ascending(
        &second,
        &[
            "Ac Kd Qh Js 9c",
            "2c 3d 4h 5s 6c",
            "9c Td Jh Qs Kc",
            "Ac 2d 3h 4s 5c",
            "Tc Jd Qh Ks Ac",
        ],
    );
    assert_ascending(
        &lowest,
        &[
            "Ac Kd Qh Js 9c",
            "Ac 2d 3h 4s 5c",
            "2c 3d 4h 5s 6c",
            "Tc Jd Qh Ks Ac",
        ],
    );
    // Straight flushes.
    assert_ascending(
        &second,
        &[
            "Ac Kd Qh Js Tc",
            "6h 5h 4h 3h 2h",
            "Kh Qh Jh Th 9h",
            "5h 4h 3h 2h Ah",
            "Ah Kh Qh Jh Th",
        ],
    );
    assert_ascending(
        &lowest,
        &["4c 4d 4h 4s 2c", "5h 4h 3h 2h Ah", "6h 5h 4h 3h 2h"],
    );
    assert_eq!(
        v5(&second, "5h 4h 3h 2h Ah").category(),
        Category::StraightFlush
    );
    assert_eq!(
        v5(&lowest, "5h 4h 3h 2h Ah").category(),
        Category::StraightFlush
    );
}

#[test]
fn equal_hands_in_different_suits_are_copies() {
    for ranking in crate::common::meaningful_rankings() {
        let ev = Evaluator::new(ranking);
        for (a, b) in [
            ("Ac Kd 9h 7s 3c", "As Kh 9d 7c 3s"),
            ("8c 8d Kh 7s 3c", "8h 8s Kd 7c 3s"),
            ("2c 3c 4c 5c 7c", "2h 3h 4h 5h 7h"),
            ("Ac Kc Qc Jc Tc", "Ad Kd Qd Jd Td"),
            ("9c 8d 7h 6s 5c", "9s 8h 7d 6c 5s"),
            ("Qc Qd Qh 3s 3c", "Qs Qd Qh 3h 3d"),
        ] {
            assert_copy(&ev, a, b);
        }
        // Jokers: either joker, any suit around it.
        assert_copy(&ev, "Jk1 Kd 9h 7s 3c", "Jk2 Ks 9d 7h 3d");
        assert_copy(&ev, "Jk1 9s 5s 3s 2s", "Jk2 9d 5d 3d 2d");
        assert_eq!(v2(&ev, "Jk1 Kd"), v2(&ev, "Jk2 Kc"));
    }
}

#[test]
fn front_hands() {
    let bug = Evaluator::new(BUG);
    let wild = Evaluator::new(with(BUG, |r| r.joker = JokerRule::Wild));
    // Bug: the joker is an ace.
    assert_eq!(v2(&bug, "Jk As"), v2(&bug, "Ac Ad"));
    assert_eq!(v2(&bug, "Jk Kd"), v2(&bug, "Ac Kh"));
    // Wild: the joker pairs the other card.
    assert_eq!(v2(&wild, "Jk Kd"), v2(&wild, "Kc Kh"));
    assert_eq!(v2(&wild, "Jk 2d"), v2(&wild, "2c 2h"));
    // Two jokers: a pair of aces under both rules.
    assert_eq!(v2(&bug, "Jk Jk"), v2(&bug, "Ac Ah"));
    assert_eq!(v2(&wild, "Jk Jk"), v2(&wild, "Ac Ah"));
    for ev in [&bug, &wild] {
        assert_eq!(v2(ev, "Ac Ah").category(), Category::OnePair);
        assert_eq!(v2(ev, "Ac Kh").category(), Category::HighCard);
        // Ordering inside the front: any pair beats any two high cards.
        assert!(v2(ev, "2c 2d") > v2(ev, "Ac Kd"));
        assert!(v2(ev, "Ac Kd") > v2(ev, "Ac Qd"));
        assert!(v2(ev, "Kc Qd") < v2(ev, "Ac 2d"));
    }
}

#[test]
fn fronts_compare_with_backs_like_hands_with_missing_kickers() {
    let ev = Evaluator::new(BUG);
    let full = full_deck().cards();
    let suited: Vec<Card> = full.iter().copied().filter(|c| !c.is_joker()).collect();
    // Every 5-card hand of the 52-card deck: a front pair of X is below every 5-card hand with a
    // pair of X (or better), above every 5-card hand with a lower pair; a front of two high cards
    // is below every 5-card high-card hand starting with the same two ranks.
    let fronts: Vec<(Card, Card)> = (0..13)
        .map(|r| (Card::new(r, 0).unwrap(), Card::new(r, 1).unwrap()))
        .chain([(Card::new(12, 0).unwrap(), Card::new(11, 1).unwrap())])
        .collect();
    let violations: usize = (0..suited.len())
        .into_par_iter()
        .map(|first| {
            let mut bad = 0;
            for_each_subset_from::<5>(&suited, first, |hand| {
                let back = ev.value5(Cards::from_cards(hand));
                let mut counts = [0u8; 13];
                for c in hand {
                    counts[c.rank().unwrap() as usize] += 1;
                }
                let top_pair = (0..13u8).rev().find(|&r| counts[r as usize] >= 2);
                let mut ranks: Vec<u8> = hand.iter().map(|c| c.rank().unwrap()).collect();
                ranks.sort_unstable_by(|a, b| b.cmp(a));
                for &(a, b) in &fronts {
                    let front = ev.value2(a, b);
                    let (ra, rb) = (a.rank().unwrap(), b.rank().unwrap());
                    let expect_back_higher = if ra == rb {
                        // One pair of X against a hand that is one pair: compare the pair ranks;
                        // a 5-card hand with two or more pairs, trips and up always wins.
                        match back.category() {
                            Category::HighCard => false,
                            Category::OnePair => top_pair.unwrap() >= ra,
                            _ => true,
                        }
                    } else {
                        // A-K against a 5-card high-card hand: it wins when its top two ranks
                        // are at least A-K (so exactly A-K); pairs and up always win.
                        match back.category() {
                            Category::HighCard => (ranks[0], ranks[1]) >= (ra, rb),
                            _ => true,
                        }
                    };
                    if (back > front) != expect_back_higher {
                        bad += 1;
                    }
                }
            });
            bad
        })
        .sum();
    assert_eq!(violations, 0);
    // And one by hand: a front pair of kings below kings with the lowest kickers.
    assert!(v2(&ev, "Kc Kd") < v5(&ev, "Kh Ks 4c 3d 2h"));
    assert!(v2(&ev, "Kc Kd") > v5(&ev, "Qh Qs Ac Jd Th"));
    assert!(v2(&ev, "Ac Kd") < v5(&ev, "Ah Ks 4c 3d 2h"));
    assert!(v2(&ev, "Jk Jk") < v5(&ev, "Ah As 4c 3d 2h"));
}
