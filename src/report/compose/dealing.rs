//! The dealing assumptions every figure of a game rests on, run by run: the deck, how each round
//! is dealt (one full deck, shuffled afresh for every round: no continuous shuffler, nothing
//! carried between rounds, so rounds are independent), the seats (players a round and the
//! dealer), and the player's and dealer's ways.
//!
//! Invariant: each cell is a manifest fact of the run or a property of its command (what an
//! enumeration counts, which the command fixes), never a guess about the run.

use super::format::count;
use super::game::GameView;
use crate::report::document::{Block, Document, Table, strong, text};
use crate::report::runs::{RunDir, RunKind};

/// The dealing assumptions of `runs` (of the game `game`).
pub fn dealing_section(doc: &mut Document, game: &GameView, runs: &[&RunDir]) {
    let mut t =
        Table::new(&["run", "deal", "seats", "player's way", "dealer's way"]).left(&[1, 2, 3, 4]);
    for run in runs {
        let Some((deal, seats)) = deal_of(run) else {
            continue;
        };
        let way = |key: &str| match run.fact(key) {
            w if w.is_empty() => "-".to_string(),
            w => w,
        };
        let player = match run.kind {
            RunKind::CostWay => format!("{} and optimal:{}", way("way"), way("dealer_way")),
            RunKind::DeriveWay => {
                format!("each step's derived way (the last: {})", way("way_file"))
            }
            _ => way("player_way"),
        };
        t.row(vec![
            run.dir.clone(),
            deal,
            seats,
            player,
            way("dealer_way"),
        ]);
    }
    if t.rows.is_empty() {
        return;
    }
    doc.heading(3, "Dealing assumptions");
    let deck = (game.rules.as_ref())
        .map(|r| format!("{} cards", r.deck.size()))
        .unwrap_or_else(|| "the game's deck".to_string());
    let exposed = (game.rules.as_ref()).is_some_and(|r| r.main_wager.dealer_exposed);
    let order = if exposed {
        "The dealer sets first, face up; the player's way may read the dealer's setting."
    } else {
        "The players set without seeing the dealer's cards; the dealer sets by the dealer's way."
    };
    doc.paragraph(vec![
        strong("One deck"),
        text(format!(
            " of {deck}, and every round dealt from the full deck shuffled afresh: no \
             continuous shuffler, no cards carried from one round to the next, so rounds are \
             independent. An enumeration counts every hand (or pair of hands) of the full \
             deck once, each as likely as a fair shuffle deals it. Each seat gets seven cards \
             of the round's deck and sets them into a five-card and a two-card hand. {order}"
        )),
    ]);
    doc.push(Block::Table(t));
}

/// How a run deals and its seats, by its kind; `None` for a run that deals nothing.
fn deal_of(run: &RunDir) -> Option<(String, String)> {
    let players = match run.fact("players_per_deal") {
        p if p.is_empty() => "1".to_string(),
        p => p,
    };
    let plural = if players == "1" { "" } else { "s" };
    let shuffled = || {
        format!(
            "{} rounds, each from the full deck ({})",
            count(&run.fact("deals")),
            run.fact("shuffle")
        )
    };
    Some(match run.kind {
        RunKind::ExactCategories => (
            "every 7-card hand of the full deck".to_string(),
            "one hand".to_string(),
        ),
        RunKind::ExactBonus => (
            "every 7-card hand of the full deck (a bet read on two hands: every pair of \
             disjoint hands)"
                .to_string(),
            "one player (and the dealer, for a bet that reads the dealer's hand)".to_string(),
        ),
        RunKind::ExactMain => (
            "every ordered pair of disjoint 7-card hands of the full deck".to_string(),
            "one player and the dealer".to_string(),
        ),
        RunKind::Simulate | RunKind::Compare => (
            shuffled(),
            format!("{players} player{plural} and the dealer"),
        ),
        RunKind::Table => (shuffled(), "the seats of the table run".to_string()),
        RunKind::CostWay | RunKind::SweepWay | RunKind::DeriveWay => (
            "every ordered pair of disjoint 7-card hands of the full deck (from the price table)"
                .to_string(),
            "one player and the dealer".to_string(),
        ),
        RunKind::Other(_) => return None,
    })
}
