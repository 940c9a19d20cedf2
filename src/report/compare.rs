//! The reports of a comparison: `compare.csv` (one row per variant, then one per pair),
//! `rule_groups.csv` (hands set differently, by the rules that set them) and `examples.csv` (the
//! first such hands, each setting priced against the dealer's way). Pure functions of the
//! comparison, its tally and the examples' samples; every float comes from [`super::stats`].

use super::stats::{PairStats, WagerStats, outcome_ev, pair_stats, variant_stats};
use super::{WAGER_COLUMNS, fixed, wager_fields};
use crate::cards::Cards;
use crate::engine::compare::{CompareTally, Comparison, NO_RULE, RuleGroup, SettingSample, pairs};
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
        _ => "-".to_string(),
    }
}

/// `compare.csv`: one row per variant, then one per pair. Variant rows fill the EV columns and
/// leave the pair columns `-`; pair rows the reverse. Floats by [`crate::report::fixed`].
pub fn write_csv<W: std::io::Write>(
    w: W,
    cmp: &Comparison,
    tally: &CompareTally,
) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(csv_header())?;
    let wager = &cmp.game.main_wager;
    for (i, v) in cmp.variants.iter().enumerate() {
        out.write_record(variant_row(
            &v.label,
            tally.deals,
            &variant_stats(tally, i, wager),
        ))?;
    }
    for (p, pair) in pairs(cmp.variants.len()).enumerate() {
        let s = pair_stats(tally, cmp.vary, p, pair, wager);
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
    let head = ["kind", "a", "b", "deals"];
    head.into_iter().chain(WAGER_COLUMNS).chain(pair).collect()
}

fn variant_row(label: &str, deals: u64, s: &WagerStats) -> Vec<String> {
    let mut row = vec![
        "variant".to_string(),
        label.to_string(),
        "-".to_string(),
        deals.to_string(),
    ];
    row.extend(wager_fields(s));
    row.extend(std::iter::repeat_n("-".to_string(), 11));
    row
}

fn pair_row(cmp: &Comparison, deals: u64, s: &PairStats) -> Vec<String> {
    let label = |i: usize| cmp.variants[i].label.clone();
    let mut row = vec![
        "pair".to_string(),
        label(s.a),
        label(s.b),
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
/// over all deals). With two variants, `ev_gap` is the second's less the first's and the groups
/// where the gap is largest come first; otherwise the most frequent come first (ties by rules).
pub fn write_rule_groups<W: std::io::Write>(
    w: W,
    cmp: &Comparison,
    tally: &CompareTally,
) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    let labels = cmp.variants.iter().map(|v| &v.label);
    let mut header: Vec<String> = labels.clone().map(|l| format!("rule of {l}")).collect();
    header.extend(["hands".to_string(), "share_of_deals".to_string()]);
    header.extend(labels.map(|l| format!("ev_share of {l}")));
    let two = cmp.variants.len() == 2;
    if two {
        header.push("ev_gap".to_string());
    }
    out.write_record(&header)?;
    let per_deal = |units: i64| units as f64 / (tally.deals as f64 * BET_UNITS as f64);
    let gap = |g: &RuleGroup| g.net[1] - g.net[0];
    let mut groups: Vec<(&Vec<u16>, &RuleGroup)> = tally.rule_groups.iter().collect();
    groups.sort_by_key(|&(rules, g)| {
        let order = if two { gap(g).unsigned_abs() } else { g.hands };
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
        if two {
            row.push(fixed(per_deal(gap(g))));
        }
        out.write_record(&row)?;
    }
    out.flush()
}

/// `examples.csv`: each example hand, one row per distinct setting, with the variants that chose
/// it, their rules, and the setting's EV against the dealer's way with a 95% interval (from
/// `samples`, one list per example: [`Comparison::sample_example`]).
pub fn write_examples<W: std::io::Write>(
    w: W,
    cmp: &Comparison,
    tally: &CompareTally,
    samples: &[Vec<SettingSample>],
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
        "ci95_low",
        "ci95_high",
        "dealer_hands",
    ])?;
    for (index, (e, settings)) in tally.examples.iter().zip(samples).enumerate() {
        for s in settings {
            let (ev, ci95) = outcome_ev(&s.outcomes, &cmp.game.main_wager);
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
                fixed(ev),
                fixed(ci95.low),
                fixed(ci95.high),
                cmp.example_dealer_hands.to_string(),
            ])?;
        }
    }
    out.flush()
}
