//! Paytable audit: from integer line counts to returns, hit rate and EV, set against what the
//! paytable's publisher claims.
//!
//! Invariants: every figure derives from the integer counts once, here; the Total row's return is
//! the player's EV per unit bet; a claim "agrees" only when the computed figure rounds to it at
//! the precision it was published with, and otherwise the report says DISAGREES with both numbers.
//! Nothing is ever adjusted toward a claim.

use std::io::{self, Write};

use crate::engine::exact::LineCounts;
use crate::game::paytable::{Claim, Paytable};
use crate::game::wager::BET_UNITS;
use crate::report::stats::{ExactMoments, exact_moments};
use crate::report::{fixed, one_in, units};

/// One side bet's counts, ready to report.
pub struct BetAudit<'a> {
    pub table: &'a Paytable,
    pub counts: &'a LineCounts,
    /// How the counts were obtained ("exact: every 7-card hand", ...).
    pub method: String,
}

impl BetAudit<'_> {
    fn total(&self) -> u64 {
        self.counts.total()
    }

    /// Hands (or deals) that some line pays (a push line returns the bet: not a hit).
    pub fn hits(&self) -> u64 {
        (self.table.lines.iter().zip(&self.counts.counts))
            .filter(|(line, _)| !line.pays.is_push())
            .map(|(_, &n)| n)
            .sum()
    }

    /// Probability that some line pays (more than the bet back).
    pub fn hit_rate(&self) -> f64 {
        self.hits() as f64 / self.total() as f64
    }

    /// The exact mean, variance and SD per unit bet, from the counts.
    pub fn moments(&self) -> ExactMoments {
        let lines = self.table.lines.iter().map(|line| line.pays.units());
        let nets = lines.chain(std::iter::once(self.table.no_line_units()));
        exact_moments(self.counts.counts.iter().copied().zip(nets), BET_UNITS)
    }

    /// The player's expected return per unit bet (a losing bet returns -1). For an Envy bonus,
    /// what one other player's hand pays: a player's return is that times the other players.
    pub fn player_ev(&self) -> f64 {
        let lines = self.table.lines.len();
        let won: f64 = self
            .table
            .lines
            .iter()
            .zip(&self.counts.counts)
            .map(|(line, &n)| n as f64 * line.pays.ratio())
            .sum();
        let no_line = self.table.no_line_units() as f64 / BET_UNITS as f64;
        (won + no_line * self.counts.counts[lines] as f64) / self.total() as f64
    }
}

/// "agrees" or "DISAGREES" for a claim against a computed fraction.
fn verdict(claim: Option<Claim>, computed: f64) -> String {
    match claim {
        None => "no claim".to_string(),
        Some(c) if c.agrees_with(100.0 * computed) => format!("agrees with the claimed {c}"),
        Some(c) => format!(
            "DISAGREES: computed {:.*}%, claimed {c}",
            c.decimals as usize + 2,
            100.0 * computed
        ),
    }
}

/// The columns of `returns.csv` of exact counts.
pub const RETURNS_COLUMNS: [&str; 11] = [
    "wager",
    "event",
    "label",
    "pays",
    "combinations",
    "total",
    "probability",
    "one_in",
    "return",
    "claimed_combinations",
    "difference",
];

/// `returns.csv` of exact counts: one row per line, a row for what no line pays (pays -1), a
/// Total row whose return is the player's EV. Pays are the net per unit bet ([`units`]).
pub fn write_returns<W: Write>(w: W, audits: &[BetAudit]) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(RETURNS_COLUMNS)?;
    for audit in audits {
        let total = audit.total();
        let lines = audit.table.lines.len();
        let rows = (audit.table.lines.iter().zip(&audit.counts.counts)).map(|(line, &n)| {
            let claim = line.claimed_combinations;
            let p = n as f64 / total as f64;
            let event = (line.event.name(), line.label.clone());
            (
                event,
                units(line.pays.units()),
                n,
                p * line.pays.ratio(),
                claim,
            )
        });
        let losers = audit.counts.counts[lines];
        let lost = losers as f64 / total as f64;
        let no_line = ("no line pays".to_string(), "No line pays".to_string());
        let rows = rows.chain(std::iter::once((
            no_line,
            units(audit.table.no_line_units()),
            losers,
            lost * audit.table.no_line_units() as f64 / BET_UNITS as f64,
            None,
        )));
        for ((event, label), pays, n, ret, claim) in rows {
            let (claimed, difference) = match claim {
                Some(c) => (c.to_string(), (i128::from(n) - i128::from(c)).to_string()),
                None => ("-".to_string(), "-".to_string()),
            };
            out.write_record([
                audit.table.name.clone(),
                event,
                label,
                pays,
                n.to_string(),
                total.to_string(),
                fixed(n as f64 / total as f64),
                one_in(n, total),
                fixed(ret),
                claimed,
                difference,
            ])?;
        }
        let dash = || "-".to_string();
        out.write_record([
            audit.table.name.clone(),
            "total".to_string(),
            "Total".to_string(),
            dash(),
            total.to_string(),
            total.to_string(),
            fixed(1.0),
            dash(),
            fixed(audit.player_ev()),
            dash(),
            dash(),
        ])?;
    }
    out.flush()
}

/// `summary.csv`: one row per side bet with hit rate, EV, house edge and the claims audit.
pub fn write_summary<W: Write>(w: W, audits: &[BetAudit]) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "wager",
        "method",
        "trials",
        "hit_rate",
        "player_ev",
        "house_edge",
        "variance",
        "sd",
        "claimed_hit_rate",
        "hit_rate_audit",
        "claimed_return",
        "return_audit",
    ])?;
    for audit in audits {
        let claim_text = |c: Option<Claim>| c.map_or("-".to_string(), |c| c.to_string());
        out.write_record([
            audit.table.name.clone(),
            audit.method.clone(),
            audit.total().to_string(),
            fixed(audit.hit_rate()),
            fixed(audit.player_ev()),
            fixed(-audit.player_ev()),
            fixed(audit.moments().variance),
            fixed(audit.moments().sd),
            claim_text(audit.table.claimed_hit_rate),
            verdict(audit.table.claimed_hit_rate, audit.hit_rate()),
            claim_text(audit.table.claimed_return),
            verdict(audit.table.claimed_return, audit.player_ev()),
        ])?;
    }
    out.flush()
}

/// Lines of plain text for stdout: each bet's hit rate, EV and audit verdicts.
pub fn summary_text(audits: &[BetAudit]) -> String {
    let mut text = String::new();
    for audit in audits {
        text.push_str(&format!(
            "{}: hit rate {:.4}% ({}), player EV {:+.4}% ({}), SD {:.4} over {} {}\n",
            audit.table.name,
            100.0 * audit.hit_rate(),
            verdict(audit.table.claimed_hit_rate, audit.hit_rate()),
            100.0 * audit.player_ev(),
            verdict(audit.table.claimed_return, audit.player_ev()),
            audit.moments().sd,
            audit.total(),
            audit.method
        ));
        if audit.table.is_envy() {
            text.push_str(&format!(
                "  an Envy bonus: the EV is what one other player's hand pays a player holding it; with N players a round it gets N - 1 times that, {:+.4}% at 6 players (it has no stake: a hand no line pays costs nothing)\n",
                500.0 * audit.player_ev()
            ));
        }
        for (line, &n) in audit.table.lines.iter().zip(&audit.counts.counts) {
            if let Some(c) = line.claimed_combinations.filter(|&c| c != n) {
                text.push_str(&format!(
                    "  line '{}': computed {n} combinations, published {c} (DISAGREES)\n",
                    line.event.name()
                ));
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Paytable {
        Paytable::from_toml(
            "name = \"t\"\nclaimed_hit_rate = \"25%\"\n[[line]]\nevent = \"flush\"\npays = 3\nclaimed_combinations = 2\n",
            "t.toml",
        )
        .unwrap()
    }

    #[test]
    fn ev_hit_rate_and_verdicts_come_from_the_counts() {
        let table = table();
        let counts = LineCounts { counts: vec![1, 3] };
        let audit = BetAudit {
            table: &table,
            counts: &counts,
            method: "exact".into(),
        };
        assert_eq!(audit.hit_rate(), 0.25);
        assert_eq!(audit.player_ev(), 0.0);
        // Pays 3 once in 4, else -1: variance (9 + 3) / 4 = 3.
        assert_eq!(audit.moments().variance, 3.0);
        assert!(verdict(table.claimed_hit_rate, 0.25).starts_with("agrees"));
        assert!(verdict(table.claimed_hit_rate, 0.26).starts_with("DISAGREES"));
        let text = summary_text(&[audit]);
        assert!(text.contains("published 2 (DISAGREES)"), "{text}");
    }

    /// A push line returns the bet: it nets 0, is its own row of returns.csv and is no hit.
    #[test]
    fn a_push_line_nets_zero_and_is_no_hit() {
        let text = "name = \"p\"\n[[line]]\nevent = \"flush\"\npays = 3\n\
                    [[line]]\nevent = \"two_pair\"\npays = \"push\"\n";
        let table = Paytable::from_toml(text, "p.toml").unwrap();
        let counts = LineCounts {
            counts: vec![1, 2, 5],
        };
        let audit = BetAudit {
            table: &table,
            counts: &counts,
            method: "exact".into(),
        };
        assert_eq!(audit.hit_rate(), 0.125);
        // 3 once, 0 twice, -1 five times in 8.
        assert_eq!(audit.player_ev(), -0.25);
        assert_eq!(audit.moments().variance, 14.0 / 8.0 - 0.0625);
        let mut buffer = Vec::new();
        write_returns(&mut buffer, &[audit]).unwrap();
        let returns = String::from_utf8(buffer).unwrap();
        let row = returns.lines().nth(2).unwrap();
        assert!(
            row.starts_with("p,two_pair,Two pair,0.0000,2,8,"),
            "{returns}"
        );
    }

    #[test]
    fn returns_close_with_a_total_row_equal_to_the_ev() {
        let table = table();
        let counts = LineCounts { counts: vec![1, 7] };
        let audit = BetAudit {
            table: &table,
            counts: &counts,
            method: "exact".into(),
        };
        let mut buffer = Vec::new();
        write_returns(&mut buffer, &[audit]).unwrap();
        let text = String::from_utf8(buffer).unwrap();
        let last = text.lines().last().unwrap();
        assert_eq!(last, "t,total,Total,-,8,8,1.0000000000,-,-0.5000000000,-,-");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            "t,flush,Flush,3.0000,1,8,0.1250000000,8.0000000000,0.3750000000,2,-1"
        );
        assert_eq!(
            lines[2],
            "t,no line pays,No line pays,-1.0000,7,8,0.8750000000,1.1428571429,-0.8750000000,-,-"
        );
    }
}
