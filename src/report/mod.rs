//! Reports: statistics made once from integer tallies, and pure writers of every report file.
//!
//! Writers are pure functions of tallies, configurations and run facts into any `Write`: fixed
//! column order, fixed float formatting ([`fixed`]: ten decimals, never "-0"), payouts written
//! exactly from integer bet units, no timestamps in data rows. Equal tallies therefore give
//! byte-identical CSVs; only a manifest records run-specific facts (wall time, threads, rate).
//! A command's report files are written as a whole set ([`write_report_set`]), manifest last.

pub mod ahead;
pub mod audit;
pub mod checkpoint;
pub mod compare;
pub mod compose;
pub mod cost_way;
pub mod counted;
pub mod derive_way;
pub mod document;
pub mod exact_main;
pub mod exact_prices;
pub mod facts;
pub mod partial;
pub mod runs;
pub mod simulate;
pub mod stats;
pub mod sweep_way;
pub mod table;

use std::path::Path;

use serde::Serialize;

use crate::game::wager::BET_UNITS;

/// A float with ten decimals; a value that rounds to zero is written "0.0000000000".
pub fn fixed(x: f64) -> String {
    let text = format!("{x:.10}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => text,
    }
}

/// An amount in bet units as a decimal multiple of the bet, exactly ("0.9500", "-1.0000").
pub fn units(amount: i64) -> String {
    let sign = if amount < 0 { "-" } else { "" };
    let a = amount.unsigned_abs();
    let unit = BET_UNITS as u64;
    format!("{sign}{}.{:04}", a / unit, a % unit)
}

/// "1 in X" of an event counted `count` times in `total`: `total / count` ([`fixed`]), or "-" for
/// an event never seen.
pub fn one_in(count: u64, total: u64) -> String {
    match count {
        0 => "-".to_string(),
        n => fixed(total as f64 / n as f64),
    }
}

/// The columns of a wager's figures in every summary (`summary.csv`, `compare.csv`).
pub const WAGER_COLUMNS: [&str; 10] = [
    "player_ev",
    "house_edge",
    "win",
    "push",
    "loss",
    "sd",
    "ci95_low",
    "ci95_high",
    "ci99_low",
    "ci99_high",
];

/// A wager's figures as the [`WAGER_COLUMNS`] fields.
pub fn wager_fields(s: &stats::WagerStats) -> [String; 10] {
    [
        s.player_ev,
        -s.player_ev,
        s.win,
        s.push,
        s.loss,
        s.sd,
        s.ci95.low,
        s.ci95.high,
        s.ci99.low,
        s.ci99.high,
    ]
    .map(fixed)
}

/// A run's `manifest.json` as every command writes it: pretty JSON and a newline.
pub fn manifest_json(manifest: &impl Serialize) -> serde_json::Result<Vec<u8>> {
    let mut json = serde_json::to_vec_pretty(manifest)?;
    json.push(b'\n');
    Ok(json)
}

/// Writes the report files `(file name, bytes)` and `manifest` (as `manifest.json`, pretty JSON
/// and a newline, written last) as the whole content of directory `out`: into a fresh directory
/// beside it, swapped in at the end ([`crate::files::write_dir_atomic`]), so `out` holds this
/// run's set or the previous one, never a mix, and a manifest means its reports are complete.
pub fn write_report_set(
    out: &Path,
    reports: Vec<(&str, Vec<u8>)>,
    manifest: &impl Serialize,
) -> std::io::Result<()> {
    let json = manifest_json(manifest)?;
    let files: Vec<(&str, Vec<u8>)> = reports
        .into_iter()
        .chain([("manifest.json", json)])
        .collect();
    crate::files::write_dir_atomic(out, &files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_never_writes_negative_zero() {
        assert_eq!(fixed(-1e-13), "0.0000000000");
        assert_eq!(fixed(-0.25), "-0.2500000000");
        assert_eq!(fixed(0.0), "0.0000000000");
    }

    #[test]
    fn units_are_exact_decimals() {
        assert_eq!(units(9_500), "0.9500");
        assert_eq!(units(-10_000), "-1.0000");
        assert_eq!(units(28_500), "2.8500");
        assert_eq!(units(0), "0.0000");
    }

    #[test]
    fn one_in_is_total_over_count() {
        assert_eq!(one_in(4, 10), "2.5000000000");
        assert_eq!(one_in(0, 10), "-");
    }
}
