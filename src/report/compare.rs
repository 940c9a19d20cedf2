//! The reports of a comparison: `compare.csv` (one row per variant, then one per pair),
//! `rule_groups.csv` (hands set differently, by the rules that set them) and `examples.csv` (the
//! first such hands, each setting priced against the dealer's way). Pure functions of the
//! comparison, its tally and the examples' samples; every float comes from [`super::stats`].

use super::stats::{PairStats, WagerStats, pair_stats, rule_gap, variant_stats};
use super::{WAGER_COLUMNS, fixed, wager_fields};
use crate::cards::Cards;
use crate::engine::compare::{CompareTally, Comparison, ExampleSetting, NO_RULE, RuleGroup};
use crate::game::wager::BET_UNITS;
use crate::strategy::resolve::Detail;

/// The name of the rule recorded for variant `i` (`-` for none).
pub fn rule_label(cmp: &Comparison, i: usize, rule: u16) -> String {
    match (&cmp.variants[i].detail, rule) {
        (Detail::House(way), r) if r != NO_RULE => {
            format!("{}: {}", r + 1, way.rule_name(usize::from(r)))
        }
        (Detail::Exposed(_), _) => "best result against the exposed dealer".to_string(),
        (Detail::Optimal(_), _) => "highest EV against the dealer's way".to_string(),
        (Detail::FullDeckOptimal(_), _) => {
            "highest EV against the dealer's way (full-deck table)".to_string()
        }
        _ => "-".to_string(),
    }
}

/// `compare.csv`: one row per arm (a way on a side), then one per pair of arms on the same
/// side (a minus b). Variant rows fill the EV columns and leave the pair columns `-`; pair rows
/// the reverse. The `side` column says which side the way set: `player` (against the fixed or
/// baseline dealer), `dealer` (against the fixed or baseline player) or `both`. Floats by
/// [`crate::report::fixed`].
pub fn write_csv<W: std::io::Write>(
    w: W,
    cmp: &Comparison,
    tally: &CompareTally,
) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(csv_header())?;
    let wager = &cmp.game.main_wager;
    for a in 0..cmp.arms.len() {
        let stats = variant_stats(tally, a, wager);
        out.write_record(variant_row(cmp, a, tally.deals, &stats))?;
    }
    for (p, &(a, b)) in cmp.pairs.iter().enumerate() {
        let s = pair_stats(tally, cmp.arms[a].side, p, (a, b), wager);
        out.write_record(pair_row(cmp, tally.deals, &s))?;
    }
    out.flush()
}

/// The columns of `compare.csv`.
pub fn csv_header() -> Vec<&'static str> {
    let pair = [
        "ev_difference",
        "se_difference",
        "diff_ci95_low",
        "diff_ci95_high",
        "diff_ci99_low",
        "diff_ci99_high",
        "independent_se",
        "paired_to_independent",
        "set_differently",
        "result_differs",
        "correlation",
    ];
    let head = ["kind", "side", "a", "b", "deals"];
    head.into_iter().chain(WAGER_COLUMNS).chain(pair).collect()
}

/// The compared way and side of arm `a`.
fn arm_label(cmp: &Comparison, a: usize) -> (String, &'static str) {
    let arm = &cmp.arms[a];
    (cmp.variants[arm.variant].label.clone(), arm.side.name())
}

fn variant_row(cmp: &Comparison, a: usize, deals: u64, s: &WagerStats) -> Vec<String> {
    let (label, side) = arm_label(cmp, a);
    let mut row = vec![
        "variant".to_string(),
        side.to_string(),
        label,
        "-".to_string(),
        deals.to_string(),
    ];
    row.extend(wager_fields(s));
    row.extend(std::iter::repeat_n("-".to_string(), 11));
    row
}

fn pair_row(cmp: &Comparison, deals: u64, s: &PairStats) -> Vec<String> {
    let ((a, side), (b, _)) = (arm_label(cmp, s.a), arm_label(cmp, s.b));
    let mut row = vec![
        "pair".to_string(),
        side.to_string(),
        a,
        b,
        deals.to_string(),
    ];
    row.extend(std::iter::repeat_n("-".to_string(), 10));
    row.extend(
        [
            s.difference,
            s.se,
            s.ci95.low,
            s.ci95.high,
            s.ci99.low,
            s.ci99.high,
            s.independent_se,
        ]
        .map(fixed),
    );
    row.push(match s.independent_se > 0.0 {
        true => fixed(s.se / s.independent_se),
        false => "-".to_string(),
    });
    row.extend([fixed(s.set_differently), fixed(s.result_differs)]);
    row.push(s.correlation.map_or_else(|| "-".to_string(), fixed));
    row
}

/// `rule_groups.csv`: hands set differently, grouped by the rule of each variant that set them,
/// with their share of all deals and each variant's net on them as a share of its EV (per bet
/// over all deals); then, for every variant but the reference (the baseline, else the first
/// way), its gap on the group (its net less the reference's, per bet over all deals) with a 95%
/// interval. With a baseline or two ways, the groups where a gap is largest come first;
/// otherwise the most frequent come first (ties by rules).
pub fn write_rule_groups<W: std::io::Write>(
    w: W,
    cmp: &Comparison,
    tally: &CompareTally,
) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    let reference = cmp.reference();
    let others: Vec<usize> = (0..cmp.variants.len())
        .filter(|&i| i != reference)
        .collect();
    let label = |i: usize| &cmp.variants[i].label;
    let mut header: Vec<String> = (0..cmp.variants.len())
        .map(|i| format!("rule of {}", label(i)))
        .collect();
    header.extend(["hands".to_string(), "share_of_deals".to_string()]);
    header.extend((0..cmp.variants.len()).map(|i| format!("ev_share of {}", label(i))));
    for &i in &others {
        header.extend(
            ["gap", "gap_ci95_low", "gap_ci95_high"]
                .map(|c| format!("{c} of {} less {}", label(i), label(reference))),
        );
    }
    out.write_record(&header)?;
    let per_deal = |units: i64| units as f64 / (tally.deals as f64 * BET_UNITS as f64);
    let by_gap = cmp.baseline.is_some() || cmp.variants.len() == 2;
    let largest_gap = |g: &RuleGroup| {
        (others.iter())
            .map(|&i| (g.net[i] - g.net[reference]).unsigned_abs())
            .max()
            .unwrap_or(0)
    };
    let mut groups: Vec<(&Vec<u16>, &RuleGroup)> = tally.rule_groups.iter().collect();
    groups.sort_by_key(|&(rules, g)| {
        let order = if by_gap { largest_gap(g) } else { g.hands };
        (
            std::cmp::Reverse(order),
            std::cmp::Reverse(g.hands),
            rules.clone(),
        )
    });
    for (rules, g) in groups {
        let mut row: Vec<String> = rules
            .iter()
            .enumerate()
            .map(|(i, &r)| rule_label(cmp, i, r))
            .collect();
        row.extend([
            g.hands.to_string(),
            fixed(g.hands as f64 / tally.deals as f64),
        ]);
        row.extend(g.net.iter().map(|&n| fixed(per_deal(n))));
        for &i in &others {
            let (gap, ci) = rule_gap(g, i, reference, tally.deals);
            row.extend([gap, ci.low, ci.high].map(fixed));
        }
        out.write_record(&row)?;
    }
    out.flush()
}

/// `examples.csv`: each example hand, one row per distinct setting, with the variants that chose
/// it, their rules, and the setting's exact EV and outcome probabilities against every dealer
/// hand of the remaining cards, set by the dealer's way (`priced`, one list per example:
/// [`Comparison::price_example`]).
pub fn write_examples<W: std::io::Write>(
    w: W,
    cmp: &Comparison,
    tally: &CompareTally,
    priced: &[Vec<ExampleSetting>],
) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "example",
        "deal",
        "hand",
        "dealer_hand",
        "front",
        "back",
        "variants",
        "rules",
        "player_ev",
        "win",
        "push",
        "loss",
        "overqualified",
        "dealer_hands",
    ])?;
    for (index, (e, settings)) in tally.examples.iter().zip(priced).enumerate() {
        for s in settings {
            let (front, back) = crate::eval::split::split_cards(&e.player, s.split);
            let names: Vec<&str> = s
                .variants
                .iter()
                .map(|&i| cmp.variants[i].label.as_str())
                .collect();
            let rules: Vec<String> = s
                .variants
                .iter()
                .map(|&i| {
                    format!(
                        "{}: {}",
                        cmp.variants[i].label,
                        rule_label(cmp, i, e.rules[i])
                    )
                })
                .collect();
            out.write_record([
                (index + 1).to_string(),
                e.deal.to_string(),
                Cards::from_cards(&e.player).to_string(),
                Cards::from_cards(&e.dealer).to_string(),
                front.to_string(),
                back.to_string(),
                names.join(" "),
                rules.join("; "),
                fixed(s.ev()),
                fixed(s.probabilities[0]),
                fixed(s.probabilities[1]),
                fixed(s.probabilities[2]),
                fixed(s.probabilities[3]),
                s.dealer_hands.to_string(),
            ])?;
        }
    }
    out.flush()
}
