//! Anchors: figures published outside this project that the tool reproduces, and the project's
//! own exact figure of JB's Foxwoods way that its committed report quotes, each with its source.
//!
//! The one home of these figures: the test suite checks the engines against them, and `paigow
//! self-test` reproduces them on a lab's machine ([`super::self_test`]). The shipped paytables
//! also state the published line counts and returns as claims, for every report's audit; a test
//! holds those claims equal to [`PUBLISHED_BETS`], so the two cannot drift apart.

use crate::engine::exact_main::PairCounts;
use crate::eval::Category;

/// Seven-card hands of the 52-card deck (133,784,560) by best five-card category: the published
/// counts (for instance Wikipedia, "Poker probability", the 7-card table; Brian Alspach, "Pai
/// Gow Poker Computations", 2003, Table 1, which merges the royal into the straight flushes).
pub const CATEGORIES_52: [(Category, u64); 10] = [
    (Category::RoyalFlush, 4_324),
    (Category::StraightFlush, 37_260),
    (Category::FourOfAKind, 224_848),
    (Category::FullHouse, 3_473_184),
    (Category::Flush, 4_047_644),
    (Category::Straight, 6_180_020),
    (Category::ThreeOfAKind, 6_461_620),
    (Category::TwoPair, 31_433_400),
    (Category::OnePair, 58_627_800),
    (Category::HighCard, 23_294_460),
];

/// A row of a published category table: the categories it holds (one, or several it merges)
/// and its count.
pub type CategoryRow = (&'static [Category], u64);

/// Where [`CATEGORIES_53`] was published.
pub const CATEGORIES_53_SOURCE: &str = "Brian Alspach, \"7-Card Poker Hands with Joker\" (2003), \
     people.math.sfu.ca/~alspach/comp40";

/// Seven-card hands of the 53-card deck (154,143,080; the joker an ace or completing a straight,
/// flush or straight flush) by best five-card category, five aces (four aces and the joker) a
/// row of their own: [`CATEGORIES_53_SOURCE`]. Its straight flushes include the royal flushes
/// (it says 26,124 of them are royal, where Wizard of Odds' Pai Gow Mania table and this tool
/// count 26,132), so the two are one row here; the royal flushes are checked against Pai Gow
/// Mania's royal flush line ([`PAI_GOW_MANIA_SEVEN`]).
pub const CATEGORIES_53: [CategoryRow; 10] = [
    (&[Category::FiveOfAKind], 1_128),
    (&[Category::RoyalFlush, Category::StraightFlush], 210_964),
    (&[Category::FourOfAKind], 307_472),
    (&[Category::FullHouse], 4_188_528),
    (&[Category::Flush], 6_172_088),
    (&[Category::Straight], 11_236_028),
    (&[Category::ThreeOfAKind], 7_470_676),
    (&[Category::TwoPair], 35_553_816),
    (&[Category::OnePair], 64_221_960),
    (&[Category::HighCard], 24_780_420),
];

/// A side bet's published return table on the 53-card deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublishedBet {
    /// The shipped paytable it is.
    pub paytable: &'static str,
    /// Where it was published.
    pub source: &'static str,
    /// Each line: its event, as the paytable names it, and its combinations.
    pub lines: &'static [(&'static str, u64)],
    /// The hands no line pays (every hand less the lines').
    pub no_line: u64,
    /// The player's return per unit bet, in percent, at the precision published.
    pub player_return: &'static str,
}

/// Emperor's Challenge (Galaxy Gaming), on the player's seven cards.
pub const EMPERORS_CHALLENGE: PublishedBet = PublishedBet {
    paytable: "emperors-challenge",
    source: "Wizard of Odds, Fortune Pai Gow Poker, Emperor's Challenge return table",
    lines: &[
        ("seven_card_natural_straight_flush", 32),
        ("seven_card_straight_flush_with_joker", 196),
        ("five_aces", 1_128),
        ("royal_flush", 26_092),
        ("straight_flush", 184_644),
        ("four_of_a_kind", 307_472),
        ("full_house", 4_188_528),
        ("flush", 6_172_088),
        ("three_of_a_kind", 7_672_500),
        ("straight", 11_034_204),
        ("pai_gow_9_high", 31_080),
        ("pai_gow_T_high", 248_640),
        ("pai_gow_J_high", 963_480),
    ],
    no_line: 123_312_996,
    player_return: "-4.1714",
};

/// Pai Gow Mania's seven-card bet.
pub const PAI_GOW_MANIA_SEVEN: PublishedBet = PublishedBet {
    paytable: "pai-gow-mania-seven",
    source: "Wizard of Odds, Pai Gow Mania (appendix 5 of Pai Gow Poker)",
    lines: &[
        ("five_aces", 1_128),
        ("royal_flush", 26_132),
        ("straight_flush", 184_832),
        ("four_of_a_kind", 307_472),
        ("full_house", 4_188_528),
        ("flush", 6_172_088),
        ("three_of_a_kind", 7_672_500),
        ("straight", 11_034_204),
    ],
    no_line: 124_556_196,
    player_return: "-6.3667",
};

/// Pai Gow Mania's three-card bet, on every 3-card hand of the 53 cards.
pub const PAI_GOW_MANIA_THREE: PublishedBet = PublishedBet {
    paytable: "pai-gow-mania-three",
    source: "Wizard of Odds, Pai Gow Mania (appendix 5 of Pai Gow Poker)",
    lines: &[
        ("three_card_natural_straight_flush", 48),
        ("three_card_three_of_a_kind", 58),
        ("three_card_straight_flush_with_joker", 100),
        ("three_card_straight", 1_020),
        ("three_card_flush", 1_308),
        ("three_card_pair", 3_912),
    ],
    no_line: 16_980,
    player_return: "-3.859",
};

/// Every published side-bet table, in the order `paigow self-test` checks them.
pub const PUBLISHED_BETS: [PublishedBet; 3] =
    [EMPERORS_CHALLENGE, PAI_GOW_MANIA_SEVEN, PAI_GOW_MANIA_THREE];

/// The standard game's main wager, Foxwoods against Foxwoods, over all
/// 8,250,459,031,214,400 ordered pairs of disjoint hands, as this tool's reading of JB's
/// Foxwoods way counts it (`paigow exact main --player-way foxwoods --dealer-way foxwoods`;
/// the committed `reports/exact/standard-foxwoods-vs-foxwoods-main/returns.csv`, which a test
/// holds equal). The wins equal the losses without a copy: the game is the same from either
/// seat but for copies, which the dealer takes.
pub const FOXWOODS_EXACT: PairCounts = PairCounts {
    classes: [
        2_402_482_226_669_052, // win
        0,                     // overqualified
        3_341_113_289_015_576, // push
        0,                     // dealer not qualified
        2_402_482_226_669_052, // loss without a copy
        104_381_288_860_720,   // loss with a copy
        0,                     // foul
    ],
};

/// JB's published enumeration of the same pairs (Wizard of Odds, Pai Gow Poker, Foxwoods
/// against Foxwoods), losses with or without a copy together: player EV −2.721216% against
/// this tool's −2.721126% ([`FOXWOODS_EXACT`]), 1 to 3 parts per million of the pairs apart,
/// unexplained. Not reproduced, so not a check of `paigow self-test`; the tests use it as a
/// cached result that differs from any count of the engine.
pub const FOXWOODS_JB: PairCounts = PairCounts {
    classes: [
        2_402_491_783_820_756, // win
        0,
        3_341_087_256_920_524, // push
        0,
        2_506_879_990_473_120, // loss, copies included
        0,
        0,
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::paytable::{Event, Paytable};

    /// Each shipped paytable states the published figures of [`PUBLISHED_BETS`] as its claims,
    /// line for line, and its claimed return as published: the audit and the self-test read
    /// the same figures.
    #[test]
    fn the_shipped_paytables_claim_the_published_figures() {
        for bet in PUBLISHED_BETS {
            let table = Paytable::load(bet.paytable).unwrap();
            let claimed: Vec<(Event, Option<u64>)> = (table.lines.iter())
                .map(|l| (l.event, l.claimed_combinations))
                .collect();
            let published: Vec<(Event, Option<u64>)> = (bet.lines.iter())
                .map(|&(event, n)| (Event::parse(event).unwrap(), Some(n)))
                .collect();
            assert_eq!(claimed, published, "{}", bet.paytable);
            let claim = table.claimed_return.unwrap().to_string();
            assert_eq!(claim, format!("{}%", bet.player_return), "{}", bet.paytable);
        }
    }

    /// The published category tables count every hand once: C(52,7) and C(53,7).
    #[test]
    fn the_category_tables_count_every_hand() {
        let total_52: u64 = CATEGORIES_52.iter().map(|(_, n)| n).sum();
        let total_53: u64 = CATEGORIES_53.iter().map(|(_, n)| n).sum();
        assert_eq!((total_52, total_53), (133_784_560, 154_143_080));
    }
}
