//! Every rule of every shipped house way, exercised by hands written from its published text:
//! each row is a hand, the rule (1-based) that must set it, and the front it must get.

use std::collections::BTreeSet;

use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::strategy::way::HouseWay;

/// Checks each row and returns the set of rules exercised.
fn check(way_name: &str, game_name: &str, rows: &[(&str, usize, &str)]) -> BTreeSet<usize> {
    let game = GameRules::load(game_name).unwrap();
    let ev = Evaluator::new(game.ranking);
    let way = HouseWay::load(way_name).unwrap();
    let mut seen = BTreeSet::new();
    for &(text, rule, front) in rows {
        let hand = game.deck.parse_hand7(text).unwrap();
        let splits = ev.split_values(&hand);
        let set = way.set(&hand, &splits);
        let f = game.deck.parse_hand(front, 2).unwrap();
        assert_eq!(
            (set.rule + 1, splits.front[set.split]),
            (rule, ev.value2(f[0], f[1])),
            "{way_name}: {text}: expected rule {rule} '{}' with {front} in front, got rule {} '{}' ({})",
            way.rule_name(rule - 1),
            set.rule + 1,
            way.rule_name(set.rule),
            splits.front[set.split].describe()
        );
        seen.insert(rule);
    }
    seen
}

fn all(n: usize) -> BTreeSet<usize> {
    (1..=n).collect()
}

#[test]
fn foxwoods_every_rule() {
    let rows = [
        ("As Ad Ah Ac Jk Kd Kc", 1, "Kd Kc"),
        ("As Ad Ah Ac Jk Qd 2c", 1, "As Ad"),
        ("9s 9d 9h 9c 5d 5c 2h", 2, "5d 5c"),
        ("Js Jd Jh Jc 9d 5c 2h", 3, "Js Jd"),
        ("8s 8d 8h 8c Kd 5c 2h", 4, "Kd 5c"),
        ("8s 8d 8h 8c Qd 5c 2h", 4, "8s 8d"),
        ("5s 5d 5h 5c Kd Qc 2h", 5, "Kd Qc"),
        ("9s 9d 9h 4c 4d 4h Kc", 6, "9s 9d"),
        ("9s 9d 9h 4c 4d Kh Kc", 7, "Kh Kc"),
        ("7s 7d 7h 8c 9d Th Jc", 8, "7s 7d"),
        // Issue 17: two aces and the joker completing a royal flush, a straight or a flush: the
        // complete hand stays behind with the best front that leaves it.
        ("As Js Ah Jk 5c Qs Ks", 8, "Ah 5c"),
        ("Ah Kd Jh 5c Jk Ad Qh", 8, "Ad 5c"),
        ("Jk 9h Ah 2c Ad Kh 8h", 8, "Ad 2c"),
        ("Ks Kd 8h 8c 4d 4h 2c", 9, "Ks Kd"),
        ("Qs Qd 5h 5c Ad 9h 2c", 10, "5h 5c"),
        ("Ts Td 5h 5c Ad 9h 2c", 11, "Ad 9h"),
        ("Ts Td 5h 5c Kd 9h 2c", 11, "5h 5c"),
        ("6s 6d 3h 3c Kd 9h 2c", 12, "Kd 9h"),
        ("6s 6d 3h 3c Qd 9h 2c", 12, "3h 3c"),
        ("Ks Kd Ah Qc Jd Th 2c", 13, "Ah Qc"),
        ("8s 9s Td Jh Qc Kd 2c", 14, "Kd 2c"),
        ("As Ad Ah 9c 7d 4h 2c", 15, "As 9c"),
        ("9s 9d 9h Kc 7d 4h 2c", 16, "Kc 7d"),
        ("9s 9d Ah Kc 7d 4h 2c", 17, "Ah Kc"),
        ("As Qd Th 8c 7d 4h 2c", 18, "Qd Th"),
    ];
    assert_eq!(check("foxwoods", "standard", &rows), all(18));
}

#[test]
fn foxwoods_exception_keeps_the_straight_when_the_ace_does_not_improve_the_front() {
    // Pair of kings, an ace and a straight 9-K: the straight leaves A-K in front, better than A-Q.
    let rows = [("Ks Kd Ah Qc Jd Th 9c", 13, "Ah Kd")];
    check("foxwoods", "standard", &rows);
}

#[test]
fn ballys_every_rule() {
    let rows = [
        ("As Ad Ah Ac Jk Kd Kc", 1, "Kd Kc"),
        ("As Ad Ah Ac Jk Kd Qc", 1, "As Ad"),
        ("As Ad Ah Ac 9d 5c 2h", 2, "As Ad"),
        ("Ks Kd Kh Kc Ad 5c 2h", 3, "Ad 5c"),
        ("Ks Kd Kh Kc Qd 5c 2h", 3, "Ks Kd"),
        ("Ts Td Th Tc Ad 9c 2h", 3, "Ad 9c"),
        ("5s 5d 5h 5c Kd Qc 2h", 4, "Kd Qc"),
        ("9s 9d 9h 9c Ad Kc 2h", 4, "Ad Kc"),
        ("9s 9d 9h 4c 4d 4h Kc", 5, "9s 9d"),
        ("9s 9d 9h 2c 2d Ah Kc", 6, "Ah Kc"),
        ("9s 9d 9h 2c 2d Ah Qc", 6, "2c 2d"),
        ("9s 9d 9h 4c 4d Kh 2c", 7, "4c 4d"),
        ("9s 9d 9h 2c 2d Kh Qc", 7, "2c 2d"),
        ("7s 7d 7h 8c 9d Th Jc", 8, "7s 7d"),
        // Two aces and the joker with a straight that needs an ace and the joker: no pair of aces
        // can go in front, so the straight stays behind with the highest front.
        ("Jk Ac Ad Qs Jh Td 2c", 8, "Ad 2c"),
        ("Ks Kd 8h 8c 4d 4h 2c", 9, "Ks Kd"),
        ("As Ad 5h 5c Kd 9h 2c", 10, "5h 5c"),
        ("Qs Qd 8h 8c Ad 9h 2c", 11, "8h 8c"),
        ("Qs Qd 5h 5c Ad 9h 2c", 12, "Ad 9h"),
        ("Ts Td 8h 8c Kd 9h 2c", 12, "8h 8c"),
        ("6s 6d 3h 3c Kd 9h 2c", 13, "Kd 9h"),
        ("6s 6d 3h 3c Qd 9h 2c", 13, "3h 3c"),
        ("Ah Jk Kd Qc Jd 9h 2c", 14, "Ah 2c"),
        ("Ah Jk Kd Qc Jd 7h 2c", 14, "Kd Qc"),
        ("4s 4d 9h Tc Jd Qh Kc", 15, "4s 4d"),
        // The pair is needed in the straight: the highest front that keeps it.
        ("9s 9d Th Jc Qd Kh 2c", 15, "9s 2c"),
        ("8s 9s Td Jh Qc Kd 2c", 16, "Kd 2c"),
        ("As Ad Ah 9c 7d 4h 2c", 17, "As 9c"),
        ("9s 9d 9h Kc 7d 4h 2c", 18, "Kc 7d"),
        ("9s 9d Ah Kc 7d 4h 2c", 19, "Ah Kc"),
        ("As Qd Th 8c 7d 4h 2c", 20, "Qd Th"),
    ];
    assert_eq!(check("ballys-ac", "standard", &rows), all(20));
}

#[test]
fn canterbury_every_rule() {
    let rows = [
        ("As Ad Ah Ac Jk Kd Qc", 1, "As Ad"),
        ("5s 5d 5h 5c Kd Qc 2h", 2, "Kd Qc"),
        ("9s 9d 9h 4c 4d 4h Kc", 3, "9s 9d"),
        ("9s 9d 9h 4c 4d Kh 2c", 4, "4c 4d"),
        ("Ks Kd 8h 8c 4d 4h 2c", 5, "Ks Kd"),
        ("As Ad 5h 5c Kd 9h 2c", 6, "5h 5c"),
        ("Qs Qd 8h 8c Ad 9h 2c", 7, "8h 8c"),
        ("9s 9d 7h 7c Ad Jh 2c", 8, "Ad Jh"),
        ("9s 9d 7h 7c Ad Th 2c", 8, "7h 7c"),
        ("5s 5d 3h 3c Kd 9h 2c", 9, "Kd 9h"),
        ("5s 5d 3h 3c Qd 9h 2c", 9, "3h 3c"),
        ("8s 9s Td Jh Qc Kd 2c", 10, "Kd 2c"),
        ("As Ad Ah 9c 7d 4h 2c", 11, "As 9c"),
        ("9s 9d 9h Kc 7d 4h 2c", 12, "Kc 7d"),
        ("9s 9d Ah Kc 7d 4h 2c", 13, "Ah Kc"),
        ("As Qd Th 8c 7d 4h 2c", 14, "Qd Th"),
    ];
    assert_eq!(check("canterbury-park", "standard", &rows), all(14));
}

#[test]
fn double_joker_dealer_overqualifier_then_house_way() {
    let rows = [
        // Four of a kind or better: shown behind, strongest front with the rest.
        ("Js Jd Jh Jc 9d 5c 2h", 1, "9d 5c"),
        ("As Ad Ah Jk Jk Qd 2c", 1, "As Qd"),
        ("9h Th Jh Qh Kh Kc Kd", 1, "Kc Kd"),
        // Otherwise the Foxwoods way (its rule numbers plus one).
        ("9s 9d 9h 4c 4d 4h Kc", 7, "9s 9d"),
        ("9s 9d 9h 4c 4d Kh Kc", 8, "Kh Kc"),
        ("7s 7d 7h 8c 9d Th Jc", 9, "7s 7d"),
        ("Ks Kd 8h 8c 4d 4h 2c", 10, "Ks Kd"),
        ("Qs Qd 5h 5c Ad 9h 2c", 11, "5h 5c"),
        ("Ts Td 5h 5c Ad 9h 2c", 12, "Ad 9h"),
        ("6s 6d 3h 3c Kd 9h 2c", 13, "Kd 9h"),
        ("Ks Kd Ah Qc Jd Th 2c", 14, "Ah Qc"),
        ("8s 9s Td Jh Qc Kd 2c", 15, "Kd 2c"),
        ("As Ad Jk 9c 7d 4h 2c", 16, "As 9c"),
        ("9s 9d 9h Kc 7d 4h 2c", 17, "Kc 7d"),
        ("9s 9d Ah Kc 7d 4h 2c", 18, "Ah Kc"),
        ("As Qd Th 8c 7d 4h 2c", 19, "Qd Th"),
    ];
    let seen = check("double-joker-dealer", "double-joker", &rows);
    // Rules 2-6 (five aces, four of a kind) are the Foxwoods rules the overqualifier shadows;
    // check-way reports them as shadowed.
    let reachable: BTreeSet<usize> = [1].into_iter().chain(7..=19).collect();
    assert_eq!(seen, reachable);
}

#[test]
fn mgm_grand_every_rule() {
    let rows = [
        ("As Ad Ah Ac Jk Kd Qc", 1, "As Ad"),
        ("9s 9d 9h 9c Kd Qc 2h", 2, "Kd Qc"),
        ("9s 9d 9h 4c 4d 4h Kc", 3, "9s 9d"),
        ("9s 9d 9h 4c 4d Kh Kc", 4, "Kh Kc"),
        ("9s 9d 9h 4c 4d Kh 2c", 4, "4c 4d"),
        ("7s 7d 7h 8c 9d Th Jc", 5, "7s 7d"),
        ("Jk Ac Ad Qs Jh Td 2c", 5, "Ad 2c"),
        ("Ks Kd 8h 8c 4d 4h 2c", 6, "Ks Kd"),
        // Medium-high and high-high split even with an ace; aces are a high pair.
        ("Qs Qd 8h 8c Ad 9h 2c", 7, "8h 8c"),
        ("As Ad Jh Jc 9d 5h 2c", 7, "Jh Jc"),
        ("Qs Qd 5h 5c Ad 9h 2c", 8, "Ad 9h"),
        ("Ts Td 8h 8c Kd 9h 2c", 8, "8h 8c"),
        ("9s 9d 4h 4c Ad Kh 2c", 8, "Ad Kh"),
        // Aces and a low pair with a straight: no ace single, so split (an ace of the pair in
        // front with both pairs broken for the wheel behind satisfied "two pair or better").
        ("Ac Ad 5h 5c 2s 3d 4h", 8, "5h 5c"),
        ("6s 6d 3h 3c Ad 9h 2c", 9, "Ad 9h"),
        ("6s 6d 3h 3c Kd 9h 2c", 9, "3h 3c"),
        ("4s 4d 9h Tc Jd Qh Kc", 10, "4s 4d"),
        ("9s 9d Th Jc Qd Kh 2c", 10, "9s 2c"),
        ("8s 9s Td Jh Qc Kd 2c", 11, "Kd 2c"),
        ("As Ad Ah 9c 7d 4h 2c", 12, "As 9c"),
        ("9s 9d 9h Kc 7d 4h 2c", 13, "Kc 7d"),
        ("9s 9d Ah Kc 7d 4h 2c", 14, "Ah Kc"),
        ("As Qd Th 8c 7d 4h 2c", 15, "Qd Th"),
    ];
    assert_eq!(check("mgm-grand", "standard", &rows), all(15));
}

#[test]
fn harrahs_reno_every_rule() {
    let rows = [
        ("As Ad Ah Ac Jk Kd Qc", 1, "As Ad"),
        ("9s 9d 9h 9c Kd Qc 2h", 2, "Kd Qc"),
        ("9s 9d 9h 4c 4d 4h Kc", 3, "9s 9d"),
        ("9s 9d 9h 4c 4d Kh 2c", 4, "4c 4d"),
        ("7s 7d 7h 8c 9d Th Jc", 5, "7s 7d"),
        ("Ks Kd 8h 8c 4d 4h 2c", 6, "Ks Kd"),
        // Both pairs 6s or higher: split even with an ace.
        ("Ts Td 6h 6c Ad 9h 2c", 7, "6h 6c"),
        ("Ts Td 5h 5c Ad 9h 2c", 8, "Ad 9h"),
        ("Ts Td 5h 5c Kd 9h 2c", 8, "5h 5c"),
        // Aces and 5s with a straight: no ace single, so split (see mgm-grand).
        ("Ac Ad 5h 5c 2s 3d 4h", 8, "5h 5c"),
        ("4s 4d 9h Tc Jd Qh Kc", 9, "4s 4d"),
        ("8s 9s Td Jh Qc Kd 2c", 10, "Kd 2c"),
        // A seven-card straight: the two highest cards in front.
        ("8s 9d Th Jc Qd Kh Ac", 10, "Ac Kh"),
        ("As Ad Ah 9c 7d 4h 2c", 11, "As 9c"),
        ("9s 9d 9h Kc 7d 4h 2c", 12, "Kc 7d"),
        ("9s 9d Ah Kc 7d 4h 2c", 13, "Ah Kc"),
        ("As Qd Th 8c 7d 4h 2c", 14, "Qd Th"),
    ];
    assert_eq!(check("harrahs-reno", "standard", &rows), all(14));
}

#[test]
fn gold_star_school_every_rule() {
    let rows = [
        ("As Ad Ah Ac Jk Kd Kc", 1, "Kd Kc"),
        ("As Ad Ah Ac Jk Qd 2c", 1, "As Ad"),
        ("9s 9d 9h 9c 5d 5c 5h", 2, "5d 5c"),
        ("9s 9d 9h 9c 5d 5c 2h", 3, "5d 5c"),
        ("Js Jd Jh Jc 9d 5c 2h", 4, "Js Jd"),
        ("8s 8d 8h 8c Ad 5c 2h", 5, "Ad 5c"),
        ("8s 8d 8h 8c Kd 5c 2h", 5, "8s 8d"),
        ("5s 5d 5h 5c Ad Kc 2h", 6, "Ad Kc"),
        ("9s 9d 9h 4c 4d 4h Kc", 7, "9s 9d"),
        ("9s 9d 9h 4c 4d Kh Kc", 8, "Kh Kc"),
        ("9s 9d 9h 2c 2d Ah Kc", 9, "Ah Kc"),
        ("9s 9d 9h 2c 2d Ah Qc", 9, "2c 2d"),
        ("9s 9d 9h 4c 4d Kh 2c", 10, "4c 4d"),
        ("7s 7d 7h 8c 9d Th Jc", 11, "7s 7d"),
        ("Ks Kd 8h 8c 4d 4h 2c", 12, "Ks Kd"),
        ("Js Jd 6h 6c Ad 9h 2c", 13, "6h 6c"),
        ("6s 6d 5h 5c Ad 9h 2c", 14, "Ad 9h"),
        ("6s 6d 3h 3c Kd 9h 2c", 14, "Kd 9h"),
        // Both pairs behind, not a straight that breaks them (9,216 hands once set so).
        ("6s 6h 5d 5c 4s 3h 2d", 14, "4s 3h"),
        ("Qs Qd 5h 5c Ad 9h 2c", 15, "Ad 9h"),
        ("Qs Qd 5h 5c Kd 9h 2c", 15, "5h 5c"),
        // Aces and 5s with a straight: no ace single, so split (see mgm-grand).
        ("Ac Ad 5h 5c 2s 3d 4h", 15, "5h 5c"),
        ("Ks Kd Ah Qc Jd Th 2c", 16, "Ah Qc"),
        ("4s 4d 9h Tc Jd Qh Kc", 17, "4s 4d"),
        ("9s 9d Th Jc Qd Kh 2c", 17, "9s 2c"),
        ("8s 9s Td Jh Qc Kd 2c", 18, "Kd 2c"),
        ("As Ad Ah 9c 7d 4h 2c", 19, "As 9c"),
        ("9s 9d 9h Kc 7d 4h 2c", 20, "Kc 7d"),
        ("9s 9d Ah Kc 7d 4h 2c", 21, "Ah Kc"),
        ("As Qd Th 8c 7d 4h 2c", 22, "Qd Th"),
    ];
    assert_eq!(check("gold-star-school", "standard", &rows), all(22));
}

#[test]
fn frixo_summary_every_rule() {
    let rows = [
        ("As Ad Ah Ac Jk Kd Qc", 1, "As Ad"),
        ("9s 9d 9h 9c Kd Qc 2h", 2, "Kd Qc"),
        ("9s 9d 9h 4c 4d 4h Kc", 3, "9s 9d"),
        ("9s 9d 9h 4c 4d Kh 2c", 4, "4c 4d"),
        ("7s 7d 7h 8c 9d Th Jc", 5, "7s 7d"),
        ("Ks Kd 8h 8c 4d 4h 2c", 6, "Ks Kd"),
        ("As Ad 5h 5c Kd 9h 2c", 7, "5h 5c"),
        ("Qs Qd 8h 8c Ad 9h 2c", 8, "8h 8c"),
        ("6s 6d 3h 3c Ad 9h 2c", 9, "Ad 9h"),
        // Never split: both pairs behind, not a straight that breaks them (9,216 hands once).
        ("6s 6h 5d 5c 4s 3h 2d", 9, "4s 3h"),
        ("Ts Td 5h 5c Ad 9h 2c", 10, "Ad 9h"),
        ("Ts Td 5h 5c Kd 9h 2c", 10, "5h 5c"),
        ("4s 4d 9h Tc Jd Qh Kc", 11, "4s 4d"),
        // A six-card straight: its highest card goes in front.
        ("8s 9d Th Jc Qd Kh 2c", 12, "Kh 2c"),
        ("As Ad Jk 9c 7d 4h 2c", 13, "As 9c"),
        ("9s 9d 9h Kc 7d 4h 2c", 14, "Kc 7d"),
        ("9s 9d Ah Kc 7d 4h 2c", 15, "Ah Kc"),
        ("As Qd Th 8c 7d 4h 2c", 16, "Qd Th"),
    ];
    assert_eq!(check("frixo-summary", "standard", &rows), all(16));
}
