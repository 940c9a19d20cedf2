//! A simulation against the exact counts of the same wager, as a whole: a chi-square goodness
//! of fit over all its lines, and why its SD differs from the exact SD.
//!
//! The fit: each line's simulated count against n times its exact probability
//! ([`chi_square`]: lines expected under 5 times pooled, the p-value from statrs). Each line's
//! own 95% interval misses its exact value one time in twenty by chance, so a line flagged
//! there is read against the overall test: a large p-value says the flags are what chance
//! gives. With several players a round the hands of a round are not independent, and no test
//! is made.
//!
//! The SD: a sample SD of n hands has standard error about `sqrt(mu4 - sigma^4) / (2 sigma
//! sqrt(n))` (the delta method on the sample variance), `mu4` the exact fourth central moment;
//! the difference of the variances is, line by line, `(simulated share - exact probability) x
//! (pays - EV)^2` (to first order in the shares), so the lines that moved it most are named.
//! With several players a round the simulation's SD is a round's, not a hand's, and is not
//! compared.
//!
//! Invariant: every figure is made from the two runs' integer counts, pays and SD cells.

use num_rational::BigRational;

use super::format::{count, number, pays, percent_of};
use super::wagers::WagerRun;
use crate::report::counted::{Counted, to_f64};
use crate::report::document::{Block, DataFile, Document, Table, slug, strong, text};
use crate::report::fixed;
use crate::report::stats::{LEAST_EXPECTED, chi_square};

/// The p-value under which the simulation is said to disagree with the exact counts.
const DISAGREES_BELOW: f64 = 0.01;

/// The chi-square goodness of fit of `sim`'s lines against `exact`'s probabilities.
pub fn goodness_of_fit(doc: &mut Document, sim: &WagerRun, exact: &WagerRun) {
    let players = sim.run.fact("players_per_deal");
    if number(&players).is_some_and(|p| p > 1.0) {
        doc.say(format!(
            "No chi-square test: with {players} players a round, a round's hands share the \
             dealer's hand and the deck and are not independent draws."
        ));
        return;
    }
    let (Some(e), Some(c)) = (exact.counted(), sim.counted()) else {
        return;
    };
    let n = to_f64(&BigRational::from(c.total.clone()));
    let sim_rows = sim.paying_rows();
    let mut cells = Vec::new();
    let mut flagged = 0;
    for (i, row) in exact.paying_rows().iter().enumerate() {
        let event = exact.returns.get(row, "event");
        let Some(j) = (sim_rows.iter()).position(|r| sim.returns.get(r, "event") == event) else {
            return;
        };
        let p = to_f64(&e.probability(i));
        let observed = c.lines[j].count.to_string().parse::<u64>().unwrap_or(0);
        cells.push((observed, n * p));
        let (lo, hi) = (
            number(sim.returns.get(sim_rows[j], "probability_ci95_low")),
            number(sim.returns.get(sim_rows[j], "probability_ci95_high")),
        );
        if let (Some(lo), Some(hi)) = (lo, hi)
            && !(lo <= p && p <= hi)
        {
            flagged += 1;
        }
    }
    let Some(fit) = chi_square(&cells) else {
        return;
    };
    let verdict = if fit.p_value < DISAGREES_BELOW {
        format!("below {DISAGREES_BELOW}: the simulation disagrees with the exact counts")
    } else {
        format!("{DISAGREES_BELOW} or more: no evidence against the exact counts")
    };
    let pooled = if fit.pooled > 0 {
        format!(
            " ({} lines pooled into one cell: those expected fewer than {LEAST_EXPECTED} times, \
             smallest first, and the next smallest while the pool is expected fewer)",
            fit.pooled
        )
    } else {
        String::new()
    };
    let flags = match flagged {
        0 => "No line falls outside its 95% interval.".to_string(),
        k => format!(
            " {k} of {} lines {} outside {} 95% interval (about one in twenty does by \
             chance){}.",
            cells.len(),
            if k == 1 { "falls" } else { "fall" },
            if k == 1 { "its" } else { "their" },
            if fit.p_value < DISAGREES_BELOW {
                ""
            } else {
                ", which the overall test puts down to chance"
            }
        ),
    };
    let mut data = DataFile::new(
        format!(
            "fit-{}-{}.csv",
            slug(sim.figure("wager")),
            slug(&sim.run.dir)
        ),
        &[
            "wager",
            "run",
            "exact_run",
            "lines",
            "pooled",
            "chi_square",
            "df",
            "p_value",
            "lines_outside_95",
        ],
    );
    data.row(vec![
        sim.figure("wager").to_string(),
        sim.run.dir.clone(),
        exact.run.dir.clone(),
        cells.len().to_string(),
        fit.pooled.to_string(),
        fixed(fit.statistic),
        fit.df.to_string(),
        fixed(fit.p_value),
        flagged.to_string(),
    ]);
    doc.paragraph(vec![
        strong("Goodness of fit"),
        text(format!(
            ": chi-square over all {} lines{pooled}, each simulated count against {} x its \
             exact probability: {:.4} on {} degrees of freedom, p-value {:.4}, {verdict}. {}",
            cells.len(),
            count(&c.total.to_string()),
            fit.statistic,
            fit.df,
            fit.p_value,
            flags.trim_start()
        )),
    ]);
    doc.push(Block::Data(data));
}

/// The lines named as moving the sample variance most.
const LINES_NAMED: usize = 3;

/// Why the simulation `sim`'s SD differs from the exact run `exact`'s, where it does.
pub fn sd_gap(doc: &mut Document, sim: &WagerRun, exact: &WagerRun) {
    let (Some(s), Some(sigma)) = (number(sim.figure("sd")), number(exact.figure("sd"))) else {
        return;
    };
    if s == sigma {
        return;
    }
    let players = sim.run.fact("players_per_deal");
    if number(&players).is_some_and(|p| p > 1.0) {
        doc.paragraph(vec![
            strong("Its SD"),
            text(format!(
                " ({s:.10}) is not the exact SD of one hand ({sigma:.10}): with {players} \
                 players a round the simulation's SD is of a round's net per unit wagered, and \
                 the players of a round share the dealer's hand and the deck, so their results \
                 are not independent."
            )),
        ]);
        return;
    }
    let (Some(e), Some(c)) = (exact.counted(), sim.counted()) else {
        return;
    };
    let n = to_f64(&BigRational::from(c.total.clone()));
    let mu4 = to_f64(&e.central_moment(4));
    let se = (mu4 - sigma.powi(4)).max(0.0).sqrt() / (2.0 * sigma * n.sqrt());
    let k = if se > 0.0 {
        format!("{:+.2}", (s - sigma) / se)
    } else {
        "-".to_string()
    };
    doc.paragraph(vec![
        strong("Its SD"),
        text(format!(
            " {s:.10} against the exact {sigma:.10} ({}): {k} standard errors of a sample SD of \
             {} hands (standard error {se:.4e}: sqrt(mu4 - SD^4) / (2 SD sqrt(n)), mu4 = {mu4:.4} \
             the exact fourth central moment). A sample SD moves with how often each line came \
             up, the most with the rare lines that pay the most; the difference of the \
             variances, line by line, is (simulated share - exact probability) x (pays - EV)^2, \
             the largest:",
            signed(percent_of(s / sigma - 1.0, 4)),
            count(&c.total.to_string()),
        )),
    ]);
    doc.push(Block::Table(gap_lines(sim, exact, &e, &c)));
}

fn signed(text: String) -> String {
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

/// The lines that moved the simulated variance most.
fn gap_lines(sim: &WagerRun, exact: &WagerRun, e: &Counted, c: &Counted) -> Table {
    let ev = e.ev();
    let n = to_f64(&BigRational::from(c.total.clone()));
    let sim_rows = sim.paying_rows();
    let mut lines: Vec<(f64, Vec<String>)> = (exact.paying_rows().iter().enumerate())
        .filter_map(|(i, row)| {
            let event = exact.returns.get(row, "event");
            let j = (sim_rows.iter()).position(|r| sim.returns.get(r, "event") == event)?;
            let p = to_f64(&e.probability(i));
            let share = to_f64(&c.probability(j));
            let spread = to_f64(&((&e.lines[i].pays - &ev) * (&e.lines[i].pays - &ev)));
            let part = (share - p) * spread;
            Some((
                part,
                vec![
                    sim.label(sim_rows[j]),
                    pays(exact.returns.get(row, "pays")),
                    format!("{:.2}", p * n),
                    count(&c.lines[j].count.to_string()),
                    format!("{part:+.6}"),
                ],
            ))
        })
        .collect();
    lines.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
    let mut t = Table::new(&[
        "line",
        "pays (to 1)",
        "expected count (exact)",
        "simulated count",
        "its part of the variance's difference",
    ]);
    for (_, cells) in lines.into_iter().take(LINES_NAMED) {
        t.row(cells);
    }
    t
}
