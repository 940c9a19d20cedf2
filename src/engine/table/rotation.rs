//! The rotation of the player-dealer position (seed 000 rules 3 and 40, seed 003 rules 1 to 6).
//!
//! The option to bank moves clockwise around the seats with bets (an empty seat is never
//! offered it: rule 40, "if there was no wager on the previous hand, no one may be the
//! Player-Dealer on that spot"). At each offer the seat, if eligible, follows its policy:
//! bank two consecutive hands (`2`), one hand (`1`) or decline (`0`); a policy may be a pattern
//! taken in turn at the seat's successive offers (`2/0`: two hands, then decline the next time,
//! and so on). After the hands it takes, or at once when it declines or is not eligible, the
//! option passes to the next seat with bets. A pass through every seat with bets is an *orbit*.
//!
//! **The round** (rules 3d and 40: "a Player must wager a minimum of three times during that
//! round of play to be eligible"): a seat's round is the hands played since the option last
//! passed that seat (offered, declined or skipped as ineligible), so one orbit of the option
//! back to it. In this model a seat with bets bets on every hand it does not bank, so its bets
//! in the round are the hands other seats banked since the option last passed it. It is
//! eligible when they reach the minimum (three by default; 1 to [`MAX_MIN_BETS`]); since its
//! own hands come right after its offer, a count of at least one also means it bet on the
//! previous hand, as rule 40 asks. A seat that banked and saw every other seat decline is
//! therefore not eligible again at once, and a table too small to give anyone three bets
//! between offers (three seats that each take one hand) closes.
//!
//! **Closing** (seed 003 rule 6): when no seat will ever bank again, the game closes; a
//! configuration that closes is refused ([`RotationError::Closed`]). An orbit with no hand
//! (everyone declines once) is a game closed and re-opened, with no hands dealt.
//!
//! **Determinism**: the offers are simulated from a fixed start (the first seat with bets is
//! offered first, every seat eligible, every pattern at its first choice: a game that has been
//! running) until the state at an orbit's start (each seat's place in its pattern and its bets
//! since its last pass) repeats; the hands between the two are the [`Cycle`], the rotation's
//! steady state, and the transient before it is dropped. Round `d` of a run (its index in the
//! whole run, whatever chunk deals it) is banked by `cycle[d mod length]`, so the rotation does
//! not depend on chunks, threads or shards, and over `k` whole cycles each seat banks exactly
//! `k` times its hands per cycle.

use std::collections::HashMap;
use std::fmt;

use thiserror::Error;

use super::seating::{Layout, SEATS};

/// The bets in the round a seat needs to be eligible, by default (seed 000 rule 3d).
pub const DEFAULT_MIN_BETS: u32 = 3;
/// The largest minimum of bets in the round.
pub const MAX_MIN_BETS: u32 = 50;
/// The longest pattern of choices.
pub const MAX_PATTERN: usize = 6;
/// Orbits simulated before giving up on finding the cycle (the state space of realistic
/// policies repeats within a few hundred).
const MAX_ORBITS: usize = 100_000;

/// Why a rotation cannot be configured.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RotationError {
    #[error(
        "rotation '{0}': expected 'none' (a fixed player-dealer), one policy for every seat with bets, or {SEATS} comma-separated policies ('-' for an empty seat); a policy is 2 (bank two consecutive hands), 1 (one hand) or 0 (decline), or up to {MAX_PATTERN} of them separated by '/', taken in turn at the seat's successive offers, e.g. '2/0'"
    )]
    Syntax(String),
    #[error("seat {0} has bets but no rotation policy ('-')")]
    NoPolicy(usize),
    #[error(
        "seat {0} is empty, so it is never offered the player-dealer position (seed 000 rule 40); give it '-'"
    )]
    EmptySeat(usize),
    #[error("a rotating player-dealer needs at least two seats with bets, got {0}")]
    TooFewSeats(usize),
    #[error(
        "the game closes: in the rotation's steady state every seat declines the player-dealer position or has not bet {0} times in the round (the hands since the option last passed it)"
    )]
    Closed(u32),
    #[error("the bets in the round to be eligible must be 1 to {MAX_MIN_BETS}, got '{0}'")]
    MinBets(String),
    #[error("the rotation did not settle into a cycle within {MAX_ORBITS} orbits")]
    NoCycle,
}

/// What a seat does when offered the player-dealer position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    Decline,
    /// Bank this many consecutive hands (1 or 2).
    Take(u8),
}

/// A seat's choices, taken in turn at its successive offers (one choice: always the same).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPolicy {
    pub choices: Vec<Choice>,
}

impl SeatPolicy {
    fn parse(text: &str) -> Option<SeatPolicy> {
        let choices: Option<Vec<Choice>> = (text.split('/'))
            .map(|c| match c.trim() {
                "0" => Some(Choice::Decline),
                "1" => Some(Choice::Take(1)),
                "2" => Some(Choice::Take(2)),
                _ => None,
            })
            .collect();
        let choices = choices?;
        (choices.len() <= MAX_PATTERN).then_some(SeatPolicy { choices })
    }
}

impl fmt::Display for SeatPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<&str> = (self.choices.iter())
            .map(|c| match c {
                Choice::Decline => "0",
                Choice::Take(1) => "1",
                Choice::Take(_) => "2",
            })
            .collect();
        write!(f, "{}", text.join("/"))
    }
}

/// Who banks: one fixed seat, or a rotation with each seat's policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// The seat marked `D` banks every hand.
    Fixed,
    /// The same policy for every seat with bets.
    Every(SeatPolicy),
    /// Each seat's policy (None: an empty seat).
    Seats(Box<[Option<SeatPolicy>; SEATS]>),
}

impl Rotation {
    /// Parses `none` (or `fixed`), one policy, or seven comma-separated policies.
    pub fn parse(text: &str) -> Result<Rotation, RotationError> {
        let trimmed = text.trim();
        if ["none", "fixed"]
            .iter()
            .any(|w| trimmed.eq_ignore_ascii_case(w))
        {
            return Ok(Rotation::Fixed);
        }
        let bad = || RotationError::Syntax(text.to_string());
        let words: Vec<&str> = trimmed.split(',').map(str::trim).collect();
        match words.len() {
            1 => Ok(Rotation::Every(
                SeatPolicy::parse(words[0]).ok_or_else(bad)?,
            )),
            SEATS => {
                let mut seats: [Option<SeatPolicy>; SEATS] = Default::default();
                for (seat, word) in seats.iter_mut().zip(&words) {
                    if *word != "-" {
                        *seat = Some(SeatPolicy::parse(word).ok_or_else(bad)?);
                    }
                }
                Ok(Rotation::Seats(Box::new(seats)))
            }
            _ => Err(bad()),
        }
    }

    /// Whether the player-dealer rotates.
    pub fn rotates(&self) -> bool {
        *self != Rotation::Fixed
    }

    /// Each seat's policy on `layout`, checked: every seat with bets has one, no empty seat has.
    pub fn policies(&self, layout: &Layout) -> Result<[Option<SeatPolicy>; SEATS], RotationError> {
        let mut out: [Option<SeatPolicy>; SEATS] = Default::default();
        for (seat, slot) in out.iter_mut().enumerate() {
            let given = match self {
                Rotation::Fixed => None,
                Rotation::Every(p) => layout.has_bets(seat).then(|| p.clone()),
                Rotation::Seats(seats) => seats[seat].clone(),
            };
            match (layout.has_bets(seat), given) {
                (true, None) => return Err(RotationError::NoPolicy(seat + 1)),
                (false, Some(_)) => return Err(RotationError::EmptySeat(seat + 1)),
                (_, given) => *slot = given,
            }
        }
        Ok(out)
    }

    /// Seat `seat`'s policy as written in reports ("2", "2/0"; "-" for none).
    pub fn seat_text(&self, layout: &Layout, seat: usize) -> String {
        match (self, layout.has_bets(seat)) {
            (Rotation::Fixed, _) | (_, false) => "-".to_string(),
            (Rotation::Every(p), true) => p.to_string(),
            (Rotation::Seats(seats), true) => seats[seat]
                .as_ref()
                .map_or("-".to_string(), |p| p.to_string()),
        }
    }
}

/// Parses the bets in the round a seat needs to be eligible (1 to [`MAX_MIN_BETS`]).
pub fn parse_min_bets(text: &str) -> Result<u32, RotationError> {
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_MIN_BETS).contains(&n) => Ok(n),
        _ => Err(RotationError::MinBets(text.to_string())),
    }
}

/// What happened at one seat's offers over a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// Times the option passed the seat.
    pub offers: u32,
    /// Offers taken (one or two hands each).
    pub accepted: u32,
    /// Offers declined by the seat's policy.
    pub declined: u32,
    /// Offers the seat was not eligible for.
    pub ineligible: u32,
    /// Hands the seat banked.
    pub hands: u32,
}

/// The rotation's steady state: who banks each hand of one cycle, and what each seat's offers
/// came to in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The player-dealer's seat of each hand of the cycle.
    pub dealers: Vec<u8>,
    pub offers: [Offers; SEATS],
    /// Orbits of the option in one cycle (0 for a fixed player-dealer).
    pub orbits: u32,
}

impl Cycle {
    /// A fixed player-dealer on `dealer`: a cycle of one hand.
    pub fn fixed(dealer: usize) -> Cycle {
        let mut offers = [Offers::default(); SEATS];
        offers[dealer].hands = 1;
        Cycle {
            dealers: vec![dealer as u8],
            offers,
            orbits: 0,
        }
    }

    /// The rotation of `policies` (None: an empty seat) with eligibility after `min_bets` bets
    /// in the round.
    pub fn rotating(
        policies: &[Option<SeatPolicy>; SEATS],
        min_bets: u32,
    ) -> Result<Cycle, RotationError> {
        let seated: Vec<usize> = (0..SEATS).filter(|&s| policies[s].is_some()).collect();
        if seated.len() < 2 {
            return Err(RotationError::TooFewSeats(seated.len()));
        }
        let policy = |s: usize| &policies[s].as_ref().expect("a seated seat").choices;
        let mut place = [0usize; SEATS];
        let mut bets = [min_bets; SEATS];
        let mut seen: HashMap<([usize; SEATS], [u32; SEATS]), (usize, usize)> = HashMap::new();
        let mut hands: Vec<u8> = Vec::new();
        let mut orbits: Vec<[Offers; SEATS]> = Vec::new();
        for orbit in 0..MAX_ORBITS {
            if let Some(&(first_orbit, first_hand)) = seen.get(&(place, bets)) {
                let dealers = hands.split_off(first_hand);
                if dealers.is_empty() {
                    return Err(RotationError::Closed(min_bets));
                }
                let mut offers = [Offers::default(); SEATS];
                for o in &orbits[first_orbit..] {
                    for (total, seat) in offers.iter_mut().zip(o) {
                        total.offers += seat.offers;
                        total.accepted += seat.accepted;
                        total.declined += seat.declined;
                        total.ineligible += seat.ineligible;
                        total.hands += seat.hands;
                    }
                }
                return Ok(Cycle {
                    dealers,
                    offers,
                    orbits: (orbit - first_orbit) as u32,
                });
            }
            seen.insert((place, bets), (orbit, hands.len()));
            let mut offers = [Offers::default(); SEATS];
            for &s in &seated {
                let o = &mut offers[s];
                o.offers += 1;
                let eligible = bets[s] >= min_bets;
                bets[s] = 0;
                if !eligible {
                    o.ineligible += 1;
                    continue;
                }
                let choices = policy(s);
                let choice = choices[place[s]];
                place[s] = (place[s] + 1) % choices.len();
                let Choice::Take(n) = choice else {
                    o.declined += 1;
                    continue;
                };
                o.accepted += 1;
                o.hands += u32::from(n);
                for _ in 0..n {
                    hands.push(s as u8);
                    for &t in seated.iter().filter(|&&t| t != s) {
                        bets[t] = (bets[t] + 1).min(min_bets);
                    }
                }
            }
            orbits.push(offers);
        }
        Err(RotationError::NoCycle)
    }

    /// Hands in one cycle.
    pub fn len(&self) -> u64 {
        self.dealers.len() as u64
    }

    /// Whether the cycle has no hand (never: a closing rotation is refused).
    pub fn is_empty(&self) -> bool {
        self.dealers.is_empty()
    }

    /// The player-dealer's seat of round `deal` of a run.
    #[inline]
    pub fn dealer_at(&self, deal: u64) -> usize {
        match self.dealers.len() {
            1 => usize::from(self.dealers[0]),
            n => usize::from(self.dealers[(deal % n as u64) as usize]),
        }
    }

    /// Hands each seat banks in one cycle.
    pub fn hands(&self) -> [u64; SEATS] {
        let mut counts = [0u64; SEATS];
        for &d in &self.dealers {
            counts[usize::from(d)] += 1;
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(rotation: &str, seats: &str, min_bets: u32) -> Result<Cycle, RotationError> {
        let layout = Layout::parse(seats).unwrap();
        let policies = Rotation::parse(rotation)
            .unwrap()
            .policies(&layout)
            .unwrap();
        Cycle::rotating(&policies, min_bets)
    }

    #[test]
    fn everyone_taking_two_hands_banks_in_seat_order() {
        let c = cycle("2", "10,-,10,10,-,-,10", 3).unwrap();
        assert_eq!(c.dealers, [0, 0, 2, 2, 3, 3, 6, 6]);
        assert_eq!(c.orbits, 1);
        assert_eq!(c.dealer_at(8 * 1_000_003 + 5), 3);
    }

    #[test]
    fn a_small_table_closes_when_nobody_bets_three_times_between_offers() {
        // Three seats taking one hand each: two bets between offers.
        assert_eq!(
            cycle("1", "10,10,10,-,-,-,-", 3),
            Err(RotationError::Closed(3))
        );
        // Four: three bets, every seat eligible.
        let c = cycle("1", "10,10,10,10,-,-,-", 3).unwrap();
        assert_eq!(c.dealers, [0, 1, 2, 3]);
        // Two seats taking two hands each: two bets; with a minimum of two they alternate.
        assert_eq!(
            cycle("2", "10,10,-,-,-,-,-", 3),
            Err(RotationError::Closed(3))
        );
        assert_eq!(
            cycle("2", "10,10,-,-,-,-,-", 2).unwrap().dealers,
            [0, 0, 1, 1]
        );
    }

    #[test]
    fn a_lone_banker_is_not_eligible_again_at_once() {
        // Only seat 1 banks; after its two hands everyone declines and it has not bet since.
        let e = cycle("2,0,0,0,-,-,-", "10,10,10,10,-,-,-", 3);
        assert_eq!(e, Err(RotationError::Closed(3)));
    }

    #[test]
    fn patterns_and_declines_give_exact_counts() {
        // Seat 1 takes two hands, seat 2 one, seat 3 always declines, seat 4 alternates two
        // hands and a decline, seat 5 takes two. From the start (everyone eligible), orbit 0
        // banks 1,1,2,4,4,5,5 and ends with seat 4 owing a decline; orbit 1 banks 1,1,2,5,5
        // (seat 4 declines); orbit 2 repeats orbit 0's hands and ends in the state orbit 1
        // started in. The cycle is orbits 1 and 2: 12 hands.
        let c = cycle("2,1,0,2/0,2,-,-", "10,10,10,10,10,-,-", 3).unwrap();
        assert_eq!(c.dealers, [0, 0, 1, 4, 4, 0, 0, 1, 3, 3, 4, 4]);
        assert_eq!(c.orbits, 2);
        assert_eq!(c.hands(), [4, 2, 0, 2, 4, 0, 0]);
        let o = c.offers;
        assert_eq!((o[2].offers, o[2].declined, o[2].accepted), (2, 2, 0));
        assert_eq!((o[3].offers, o[3].accepted, o[3].declined), (2, 1, 1));
        assert_eq!((o[0].hands, o[0].ineligible), (4, 0));
        // The same policy on four seats closes: after seat 4's decline, seat 1 has bet once
        // (seat 2's hand) since the option last passed it, and nobody is eligible again.
        let e = cycle("2,1,0,2/0,-,-,-", "10,10,10,10,-,-,-", 3);
        assert_eq!(e, Err(RotationError::Closed(3)));
    }

    #[test]
    fn policies_must_match_the_seating() {
        let layout = Layout::parse("10,-,10,-,-,-,-").unwrap();
        let p = |t: &str| Rotation::parse(t).unwrap().policies(&layout);
        assert_eq!(p("2,2,2,-,-,-,-"), Err(RotationError::EmptySeat(2)));
        assert_eq!(p("2,-,-,-,-,-,-"), Err(RotationError::NoPolicy(3)));
        assert!(p("2").is_ok());
        for bad in ["3", "2/", "2,2", "1/1/1/1/1/1/1", "two"] {
            assert!(Rotation::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Rotation::parse("none"), Ok(Rotation::Fixed));
        assert!(parse_min_bets("0").is_err() && parse_min_bets("51").is_err());
    }
}
