//! `paigow set --exact`: every legal setting of one hand priced exactly against the dealer's way,
//! over every dealer hand of the cards the player does not hold (by dealer shapes with card
//! removal in closed form, [`crate::strategy::optimal::pricer::HandPricer`]: milliseconds a hand).

use std::fmt::Write as _;

use super::{Format, SetContext};
use crate::cards::{Card, Cards};
use crate::eval::split::split_cards;
use crate::strategy::Strategy;
use crate::strategy::optimal::hand::{HandExact, by_enumeration};

/// The columns of `set --exact --format csv`: one row per legal setting, best EV first.
pub const EXACT_CSV_HEADER: &str = "hand,front,back,front_hand,back_hand,dealer_hands,\
     win,push,loss,overqualified,ev,ev_below_best,exact_best,chosen_by_way";

/// The report of one hand: a table or CSV rows, settings by EV (best first, ties by split).
pub fn exact_report(ctx: &SetContext, dealer: &dyn Strategy, hand: &[Card; 7]) -> String {
    let wager = &ctx.game.main_wager;
    let splits = ctx.ev.split_values(hand);
    let exact = match &ctx.exact_pricer {
        Some(pricer) => pricer.hand_exact(&splits, hand),
        None => by_enumeration(&ctx.ev, wager, ctx.game.deck, dealer, hand),
    };
    let chosen = ctx.setter.strategy().choose(hand, &splits, None);
    let best = exact.best(wager);
    let best_ev = exact.ev(best, wager);
    let mut order: Vec<_> = exact.settings.iter().collect();
    order.sort_by_key(|s| (std::cmp::Reverse(exact.net_units(s, wager)), s.split));
    let mut out = match ctx.args.format {
        Format::Table => heading(ctx, dealer, hand, &exact),
        Format::Csv => String::new(),
    };
    for s in order {
        let (front, back) = split_cards(hand, s.split);
        let [win, push, loss, over] = exact.probabilities(s, wager);
        let ev = exact.ev(s, wager);
        let is_best = s.split == best.split;
        let is_chosen = s.split == chosen;
        let _ = match ctx.args.format {
            Format::Csv => {
                let fixed = |x: f64| format!("{x:.10}");
                let line = crate::cli::csv_line([
                    Cards::from_cards(hand).to_string(),
                    front.to_string(),
                    back.to_string(),
                    splits.front[s.split].describe(),
                    splits.back[s.split].describe(),
                    exact.dealer_hands.to_string(),
                    fixed(win),
                    fixed(push),
                    fixed(loss),
                    fixed(over),
                    fixed(ev),
                    fixed(best_ev - ev),
                    is_best.to_string(),
                    is_chosen.to_string(),
                ]);
                writeln!(out, "{line}")
            }
            Format::Table => writeln!(
                out,
                "  {:<7} {:<16} {:>9.4}% {:>9.4}% {:>9.4}% {:>+9.4}% {:>9.4}%  {}",
                front.to_string(),
                back.to_string(),
                100.0 * win,
                100.0 * push,
                100.0 * loss,
                100.0 * ev,
                100.0 * (best_ev - ev),
                marks(is_best, is_chosen, ctx.setter.strategy().name()),
            ),
        };
    }
    out
}

/// The table's first lines: the hand, what was enumerated, and the column names.
fn heading(ctx: &SetContext, dealer: &dyn Strategy, hand: &[Card; 7], exact: &HandExact) -> String {
    let others = ctx.game.deck.size() - 7;
    let mut text = format!(
        "{}: all {} dealer hands of the {others} other cards, dealer setting by {} (exact)\n",
        Cards::from_cards(hand),
        exact.dealer_hands,
        dealer.name(),
    );
    if exact.not_qualified + exact.overqualified > 0 {
        let _ = writeln!(
            text,
            "  dealer does not qualify in {} (counted as pushes), overqualifies in {} \
             (the overqualified column)",
            exact.not_qualified, exact.overqualified
        );
    }
    let _ = writeln!(
        text,
        "  {:<7} {:<16} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "front", "back", "win", "push", "loss", "EV", "below best"
    );
    text
}

fn marks(is_best: bool, is_chosen: bool, way: &str) -> String {
    match (is_best, is_chosen) {
        (true, true) => format!("exact best; {way}'s choice"),
        (true, false) => "exact best".to_string(),
        (false, true) => format!("{way}'s choice"),
        (false, false) => String::new(),
    }
}
