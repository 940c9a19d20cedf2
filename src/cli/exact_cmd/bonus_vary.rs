//! `exact bonus --target-edge E --vary 'flush=4..8,...'`: a paytable designed to a target edge.
//!
//! A line's count does not depend on what the line pays, so a bet's return is linear in its
//! pays: the exact counts are enumerated once, and every combination of the varied lines' pays
//! (each a whole "X to 1" in its range) is priced from them exactly, in integers, with no
//! enumeration per combination. The combinations nearest the target come first.
//!
//! Invariants: a combination's house edge is the exact fraction `-(sum of count x net) / (total
//! x BET_UNITS)`, its nets in bet units as every report writes them; its hit rate counts the
//! lines paying more than the bet back; its SD is from the exact integer sums. Ties in the
//! distance from the target keep the grid's order (the first line's pay varying slowest), so the
//! output depends on the input alone. A grid is checked whole (every item, the number of
//! combinations) before anything is counted, and refused past [`MAX_COMBINATIONS`].

use std::fmt::Write as _;

use num_integer::Integer;
use serde::Serialize;

use crate::engine::exact::LineCounts;
use crate::game::paytable::{Claim, Event, MAX_PAYS, Paytable};
use crate::game::wager::BET_UNITS;
use crate::report::fixed;

/// The most combinations one `--vary` prices.
pub const MAX_COMBINATIONS: u64 = 1_000_000;

/// How many of the nearest combinations stdout shows (`vary.csv` holds them all).
const SHOWN: usize = 10;

/// One varied line: which line of the paytable, and the range of its pay, "X to 1".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VariedLine {
    /// The line's event, as the paytable names it.
    pub event: String,
    #[serde(skip)]
    index: usize,
    pub low: u64,
    pub high: u64,
}

/// A checked grid: the varied lines, the target and the number of combinations; what the
/// manifest records.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Grid {
    /// The target house edge as given (`5%`).
    pub target_edge: String,
    pub lines: Vec<VariedLine>,
    pub combinations: u64,
    /// Where every combination is written, nearest the target first.
    pub file: &'static str,
    #[serde(skip)]
    target: f64,
}

/// One combination's pays and its exact figures.
struct Priced {
    pays: Vec<u64>,
    /// Sum over lines of count x net, in bet units: the player's return times total x units.
    sum: i128,
    sum_squares: u128,
    hits: u64,
}

impl Grid {
    /// The grid `vary` ('flush=4..8,full_house=5..10') over the lines of `table`, aiming at the
    /// house edge `target` ("5%"). Every error names the item at fault.
    pub fn parse(target: &str, vary: &str, table: &Paytable) -> anyhow::Result<Grid> {
        let claim = Claim::parse(target).filter(|c| c.percent.abs() <= 100.0);
        let Some(claim) = claim else {
            anyhow::bail!(
                "--target-edge {target}: expected a house edge in percent, -100% to 100% \
                 (such as 5%)"
            );
        };
        let mut lines: Vec<VariedLine> = Vec::new();
        for item in vary.split(',').map(str::trim) {
            let line = varied_line(item, table)
                .map_err(|why| anyhow::anyhow!("--vary item '{item}': {why}"))?;
            if lines.iter().any(|l| l.index == line.index) {
                anyhow::bail!(
                    "--vary item '{item}': line '{}' is varied twice",
                    line.event
                );
            }
            lines.push(line);
        }
        let sizes = lines.iter().map(|l| l.high - l.low + 1);
        let combinations = sizes.fold(1u64, |n, size| n.saturating_mul(size));
        if combinations > MAX_COMBINATIONS {
            let ranges: Vec<String> = (lines.iter())
                .map(|l| (l.high - l.low + 1).to_string())
                .collect();
            anyhow::bail!(
                "--vary {vary}: {} combinations, more than the {MAX_COMBINATIONS} priced at \
                 once: narrow a range",
                ranges.join(" x ")
            );
        }
        Ok(Grid {
            target_edge: target.to_string(),
            lines,
            combinations,
            file: "vary.csv",
            target: claim.percent / 100.0,
        })
    }

    /// Every combination priced from `counts` (the counts of `table`'s lines, then of the hands
    /// no line pays), nearest the target first.
    fn price(&self, table: &Paytable, counts: &LineCounts) -> Vec<Priced> {
        let mut pays: Vec<u64> = self.lines.iter().map(|l| l.low).collect();
        let mut priced = Vec::with_capacity(self.combinations as usize);
        loop {
            priced.push(self.priced(&pays, table, counts));
            let Some(i) = (0..pays.len())
                .rev()
                .find(|&i| pays[i] < self.lines[i].high)
            else {
                break;
            };
            pays[i] += 1;
            for (j, pay) in pays.iter_mut().enumerate().skip(i + 1) {
                *pay = self.lines[j].low;
            }
        }
        let edge = |p: &Priced| self.edge(p, counts.total());
        priced.sort_by(|a, b| {
            (edge(a) - self.target)
                .abs()
                .total_cmp(&(edge(b) - self.target).abs())
        });
        priced
    }

    /// The figures of one combination of pays.
    fn priced(&self, pays: &[u64], table: &Paytable, counts: &LineCounts) -> Priced {
        let mut nets: Vec<i64> = table.lines.iter().map(|l| l.pays.units()).collect();
        for (line, &pay) in self.lines.iter().zip(pays) {
            nets[line.index] = pay as i64 * BET_UNITS;
        }
        let hits = (nets.iter().zip(&counts.counts))
            .filter(|(net, _)| **net > 0)
            .map(|(_, &n)| n)
            .sum();
        nets.push(table.no_line_units());
        let (mut sum, mut sum_squares) = (0i128, 0u128);
        for (&net, &n) in nets.iter().zip(&counts.counts) {
            sum += i128::from(n) * i128::from(net);
            sum_squares += u128::from(n) * u128::from(net.unsigned_abs()).pow(2);
        }
        Priced {
            pays: pays.to_vec(),
            sum,
            sum_squares,
            hits,
        }
    }

    /// The house edge of a combination, as a decimal.
    fn edge(&self, p: &Priced, total: u64) -> f64 {
        -(p.sum as f64) / (total as f64 * BET_UNITS as f64)
    }
}

/// One `--vary` item, `EVENT=LOW..HIGH`, against the lines of `table`.
fn varied_line(item: &str, table: &Paytable) -> Result<VariedLine, String> {
    let Some((name, range)) = item.split_once('=') else {
        return Err("expected LINE=LOW..HIGH, such as flush=4..8".to_string());
    };
    let (name, range) = (name.trim(), range.trim());
    let event = Event::parse(name);
    let index = (table.lines.iter())
        .position(|l| Some(l.event) == event)
        .ok_or_else(|| {
            let names: Vec<String> = table.lines.iter().map(|l| l.event.name()).collect();
            format!(
                "'{name}' is not a line of '{}' (its lines: {})",
                table.name,
                names.join(", ")
            )
        })?;
    let bound = |text: &str| text.trim().replace('_', "").parse::<u64>().ok();
    let parsed = range.split_once("..").map(|(a, b)| (bound(a), bound(b)));
    let Some((Some(low), Some(high))) = parsed else {
        return Err(format!(
            "'{range}' is not a range of whole pays (X to 1) LOW..HIGH, such as 4..8"
        ));
    };
    if low > high {
        return Err(format!("the range {low}..{high} is empty ({low} > {high})"));
    }
    if low == 0 || high > MAX_PAYS {
        return Err(format!(
            "a varied line pays 1 to {MAX_PAYS} to 1 (a push or a loss is not varied)"
        ));
    }
    Ok(VariedLine {
        event: table.lines[index].event.name(),
        index,
        low,
        high,
    })
}

/// `vary.csv` and the stdout lines of every combination of `grid` priced from `counts`.
pub fn report(
    grid: &Grid,
    table: &Paytable,
    counts: &LineCounts,
) -> anyhow::Result<(Vec<u8>, String)> {
    let priced = grid.price(table, counts);
    let total = counts.total();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["rank".to_string()];
    header.extend(grid.lines.iter().map(|l| l.event.clone()));
    header.extend(
        [
            "house_edge",
            "house_edge_exactly",
            "from_target",
            "hit_rate",
            "sd",
        ]
        .map(String::from),
    );
    writer.write_record(&header)?;
    let mut text = format!(
        "{}: {} combinations of {} priced from the one count; nearest the target house edge {} first (all in {}):\n",
        table.name,
        grid.combinations,
        (grid.lines.iter())
            .map(|l| format!("{} {}..{}", l.event, l.low, l.high))
            .collect::<Vec<_>>()
            .join(", "),
        grid.target_edge,
        grid.file
    );
    for (rank, p) in priced.iter().enumerate() {
        let edge = grid.edge(p, total);
        let exactly = fraction(-p.sum, i128::from(total) * i128::from(BET_UNITS));
        let hit_rate = p.hits as f64 / total as f64;
        let sd = sd(p, total);
        let mut row = vec![(rank + 1).to_string()];
        row.extend(p.pays.iter().map(u64::to_string));
        row.extend([fixed(edge), exactly.clone(), fixed(edge - grid.target)]);
        row.extend([fixed(hit_rate), fixed(sd)]);
        writer.write_record(&row)?;
        if rank < SHOWN {
            let pays: Vec<String> = (grid.lines.iter().zip(&p.pays))
                .map(|(l, pay)| format!("{} {pay}", l.event))
                .collect();
            let _ = writeln!(
                text,
                "  {:>2}. {}: house edge {:.4}% ({exactly}), hit rate {:.4}%, SD {:.4}",
                rank + 1,
                pays.join(", "),
                100.0 * edge,
                100.0 * hit_rate,
                sd
            );
        }
    }
    Ok((writer.into_inner()?, text))
}

/// The SD of one bet's net per unit bet, from the exact sums.
fn sd(p: &Priced, total: u64) -> f64 {
    let scale = total as f64 * BET_UNITS as f64;
    let mean = p.sum as f64 / scale;
    let second = p.sum_squares as f64 / (scale * BET_UNITS as f64);
    (second - mean * mean).max(0.0).sqrt()
}

/// `numerator/denominator` in lowest terms (`n` when the denominator is 1).
fn fraction(numerator: i128, denominator: i128) -> String {
    let g = numerator.gcd(&denominator).max(1);
    match denominator / g {
        1 => (numerator / g).to_string(),
        d => format!("{}/{d}", numerator / g),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Paytable {
        let text = "name = \"t\"\n[[line]]\nevent = \"full_house\"\npays = 5\n\
                    [[line]]\nevent = \"flush\"\npays = 4\n[[line]]\nevent = \"two_pair\"\npays = \"push\"\n";
        Paytable::from_toml(text, "t.toml").unwrap()
    }

    /// Every combination's edge equals the bet counted with those pays written in its file (the
    /// audit's EV), and its SD the audit's SD; the nearest the target comes first.
    #[test]
    fn every_combination_is_priced_as_its_own_paytable() {
        let table = table();
        let counts = LineCounts {
            counts: vec![3, 5, 11, 81],
        };
        let grid = Grid::parse("45%", "full_house=4..9,flush=1..3", &table).unwrap();
        assert_eq!(grid.combinations, 18);
        let priced = grid.price(&table, &counts);
        assert_eq!(priced.len(), 18);
        for p in &priced {
            let text = format!(
                "name = \"t\"\n[[line]]\nevent = \"full_house\"\npays = {}\n\
                 [[line]]\nevent = \"flush\"\npays = {}\n[[line]]\nevent = \"two_pair\"\npays = \"push\"\n",
                p.pays[0], p.pays[1]
            );
            let own = Paytable::from_toml(&text, "own.toml").unwrap();
            let audit = crate::report::audit::BetAudit {
                table: &own,
                counts: &counts,
                method: String::new(),
            };
            assert!((grid.edge(p, 100) + audit.player_ev()).abs() < 1e-15);
            assert!((sd(p, 100) - audit.moments().sd).abs() < 1e-12);
            assert_eq!(p.hits as f64 / 100.0, audit.hit_rate());
        }
        let distance = |p: &Priced| (grid.edge(p, 100) - 0.45).abs();
        assert!(
            priced
                .windows(2)
                .all(|w| distance(&w[0]) <= distance(&w[1]))
        );
        // The edge is (81 - 3 x full house - 5 x flush) / 100: 45% only at 7 and 3.
        assert_eq!(priced[0].pays, [7, 3]);
        assert_eq!(
            fraction(-priced[0].sum, 100 * i128::from(BET_UNITS)),
            "9/20"
        );
        assert_eq!(priced[0].hits, 8);
    }

    /// Bad items are errors naming the item; a grid past the cap says so.
    #[test]
    fn bad_grids_name_the_item() {
        let table = table();
        let error = |vary: &str| Grid::parse("5%", vary, &table).unwrap_err().to_string();
        assert!(error("flsh=4..8").contains("'flsh' is not a line of 't'"));
        assert!(error("flsh=4..8").contains("its lines: full_house, flush, two_pair"));
        assert!(error("flush=8..4").contains("--vary item 'flush=8..4': the range 8..4 is empty"));
        assert!(error("flush=").contains("not a range"));
        assert!(error("flush=4..").contains("not a range"));
        assert!(error("flush").contains("expected LINE=LOW..HIGH"));
        assert!(error("flush=0..3").contains("pays 1 to"));
        assert!(error("flush=1..2,flush=3..4").contains("varied twice"));
        assert!(error("").contains("--vary item ''"));
        let big = error("flush=1..1000,full_house=1..1001");
        assert!(
            big.contains("1000 x 1001 combinations, more than the 1000000"),
            "{big}"
        );
        let target = Grid::parse("5", "flush=1..2", &table)
            .unwrap_err()
            .to_string();
        assert!(target.contains("--target-edge 5: expected"), "{target}");
    }
}
