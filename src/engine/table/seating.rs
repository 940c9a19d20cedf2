//! Who sits where at the California table: seven seats, each with its bets (the seated player's
//! first, then backline bets), at most one of them marked as the fixed player-dealer; the
//! player-dealer's bank; and the three dice that choose the seat that gets the action pile.
//!
//! Invariants: a [`Layout`] holds 1 to [`MAX_CHIPS`] chips per bet and never bets on the seat
//! it marks as the player-dealer; amounts are whole chips; [`action_seat`] counts clockwise from
//! the player-dealer's seat as 1, 8 and 15 (seed 001), so it depends only on the player-dealer's
//! seat and the dice.

use thiserror::Error;

use crate::cards::deal::below;

/// Seats at the table, the player-dealer's included.
pub const SEATS: usize = 7;
/// Cards in a pile.
pub const PILE: usize = 7;
/// The largest bet or bank in chips (keeps every sum and square of a run far from overflow).
pub const MAX_CHIPS: u64 = 1_000_000_000_000;

/// Why a seating or a bank cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SeatingError {
    #[error("a seating needs {SEATS} comma-separated seats, got {0}")]
    SeatCount(usize),
    #[error(
        "seat {seat}: '{text}' is not a bet (N, N+M for backline bets, '-' for empty, 'D' for the player-dealer)"
    )]
    BadSeat { seat: usize, text: String },
    #[error("seat {0}: a bet must be 1 to {MAX_CHIPS} chips")]
    BetSize(usize),
    #[error(
        "a seating needs exactly one 'D' (the player-dealer) when the player-dealer is fixed, and none when it rotates; got {0}"
    )]
    Dealers(usize),
    #[error("no seat has a bet: the player-dealer would have no one to play")]
    NoBets,
    #[error("the bank must be 1 to {MAX_CHIPS} chips or 'unlimited', got '{0}'")]
    Bank(String),
}

/// Who sits where: each seat's bets (empty: nobody plays), and the fixed player-dealer's seat
/// when there is one (a rotating table marks none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The seat marked `D`, `0..SEATS` (seat 1 is index 0, clockwise).
    pub dealer: Option<usize>,
    /// Each seat's bets in chips, the seated player's first, then backline bets.
    pub bets: [Vec<u64>; SEATS],
}

impl Layout {
    /// Parses seven comma-separated seats: `D` the player-dealer (at most one), `-` (or empty,
    /// or `0`) no bet, `N` a bet of N chips, `N+M+..` a bet with backline bets.
    pub fn parse(text: &str) -> Result<Layout, SeatingError> {
        let words: Vec<&str> = text.split(',').map(str::trim).collect();
        if words.len() != SEATS {
            return Err(SeatingError::SeatCount(words.len()));
        }
        let dealers: Vec<usize> = (0..SEATS)
            .filter(|&i| words[i].eq_ignore_ascii_case("d"))
            .collect();
        if dealers.len() > 1 {
            return Err(SeatingError::Dealers(dealers.len()));
        }
        let mut bets: [Vec<u64>; SEATS] = Default::default();
        for (i, word) in words.iter().enumerate() {
            if !dealers.contains(&i) {
                bets[i] = parse_seat(i + 1, word)?;
            }
        }
        let layout = Layout {
            dealer: dealers.first().copied(),
            bets,
        };
        if layout.total_bets() == 0 {
            return Err(SeatingError::NoBets);
        }
        Ok(layout)
    }

    /// The sum of every bet at the table.
    pub fn total_bets(&self) -> u64 {
        self.bets.iter().flatten().sum()
    }

    /// Whether seat `seat` has a bet.
    pub fn has_bets(&self, seat: usize) -> bool {
        !self.bets[seat].is_empty()
    }

    /// The bets that face a player-dealer on `dealer`: every bet on the other seats.
    pub fn bets_facing(&self, dealer: usize) -> u64 {
        (0..SEATS)
            .filter(|&s| s != dealer)
            .map(|s| self.bets[s].iter().sum::<u64>())
            .sum()
    }

    /// The index, within its seat, of the bet whose owner sets the hand: the largest, the first
    /// listed on a tie.
    pub fn setter(&self, seat: usize) -> usize {
        let bets = &self.bets[seat];
        (0..bets.len()).fold(0, |best, i| if bets[i] > bets[best] { i } else { best })
    }

    /// Seat `seat`'s bets as written ("50+20"; "-" when empty).
    pub fn bets_text(&self, seat: usize) -> String {
        let bets = &self.bets[seat];
        if bets.is_empty() {
            return "-".to_string();
        }
        let text: Vec<String> = bets.iter().map(u64::to_string).collect();
        text.join("+")
    }
}

fn parse_seat(seat: usize, word: &str) -> Result<Vec<u64>, SeatingError> {
    if word.is_empty() || word == "-" || word == "0" {
        return Ok(Vec::new());
    }
    let bad = || SeatingError::BadSeat {
        seat,
        text: word.to_string(),
    };
    let mut bets = Vec::new();
    for part in word.split('+') {
        let bet: u64 = part.trim().parse().map_err(|_| bad())?;
        if bet == 0 || bet > MAX_CHIPS {
            return Err(SeatingError::BetSize(seat));
        }
        bets.push(bet);
    }
    Ok(bets)
}

/// Parses a bank: a number of chips, or `unlimited` (None).
pub fn parse_bank(text: &str) -> Result<Option<u64>, SeatingError> {
    if text.trim().eq_ignore_ascii_case("unlimited") {
        return Ok(None);
    }
    match text.trim().parse::<u64>() {
        Ok(b) if (1..=MAX_CHIPS).contains(&b) => Ok(Some(b)),
        _ => Err(SeatingError::Bank(text.to_string())),
    }
}

/// A bank as written: chips, or "unlimited".
pub fn bank_text(bank: Option<u64>) -> String {
    bank.map_or("unlimited".to_string(), |b| b.to_string())
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
