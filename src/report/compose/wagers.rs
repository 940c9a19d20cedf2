//! The wagers of a game: for the main wager and each side bet, the return table of every run
//! that reports it (exact counts or simulated counts), its figures (EV, house edge, hit
//! frequency, variance and SD per unit wagered), the range of a player's average result over
//! 100 to 100,000 hands, the return of each paytable line, and each simulation against the exact
//! figures with its convergence.
//!
//! Every figure is a CSV cell as written, or formatted from one ([`super::format`]). Some are
//! derived, each from cells of the same wager and said so in the text: "1 in X" where a file has
//! no `one_in` column (total over count), a simulation's variance (its SD squared), the ranges
//! (the EV plus or minus z SD over the square root of the hands, [`average_result_range`]), the
//! volatility index (z x SD, [`volatility_index`]), and an exact run's fractions (its integer
//! counts and exact pays as rationals, `report::counted`, also written as
//! `tables/exact-WAGER-RUN.csv`).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::format::{count, dash, decimal, number, pays, percent, percent_of};
use super::game::GameView;
use crate::files::TextFile;
use crate::game::paytable::Paytable;
use crate::game::wager::{ReturnRow, return_rows};
use crate::report::counted::{self, Counted, Line, fraction, to_f64};
use crate::report::document::svg::{RunningPoint, bars, convergence};
use crate::report::document::{Block, DataFile, Document, Figure, Table, slug, strong, text};
use crate::report::runs::{CsvFile, RunDir, RunKind};
use crate::report::stats::{average_result_range, volatility_index, z};

pub use crate::report::runs::MAIN_NAMES;
/// The hands over which a player's average result is given.
pub const RANGE_HANDS: [u64; 4] = [100, 1_000, 10_000, 100_000];
/// The confidence of each range.
pub const RANGE_LEVELS: [f64; 3] = [0.90, 0.95, 0.99];

/// One wager as one run reports it: its returns rows and its summary row.
pub struct WagerRun<'a> {
    pub run: &'a RunDir,
    pub returns: &'a CsvFile,
    pub rows: Vec<&'a Vec<String>>,
    pub summary: &'a CsvFile,
    pub figures: &'a Vec<String>,
    /// The words of each main-wager event, where the returns file has no `label` column (an
    /// `exact main` run): the same words a simulation of the game writes.
    labels: Vec<ReturnRow>,
    /// Whether the wager is an Envy bonus (the run's game says so): paid on other players'
    /// hands, with no stake of its own.
    envy: bool,
}

impl<'a> WagerRun<'a> {
    /// The wager named `name` in `run`, if the run reports it.
    pub fn find(run: &'a RunDir, names: &[&str]) -> Option<WagerRun<'a>> {
        let returns = run.csv.get("returns.csv")?;
        let summary = run.csv.get("summary.csv")?;
        let figures = summary
            .rows
            .iter()
            .find(|r| names.contains(&summary.get(r, "wager")))?;
        let wager = summary.get(figures, "wager");
        let rows = returns.rows_with("wager", wager).collect();
        let labels = if MAIN_NAMES.contains(&wager) && !returns.has("label") {
            (GameView::of(run).rules.as_ref())
                .map_or_else(Vec::new, |rules| return_rows(&rules.main_wager))
        } else {
            Vec::new()
        };
        let side_bet = !MAIN_NAMES.contains(&wager);
        let envy = side_bet && paytable_of(run, wager).is_some_and(|(bet, _)| bet.is_envy());
        Some(WagerRun {
            run,
            returns,
            rows,
            summary,
            figures,
            labels,
            envy,
        })
    }

    /// Whether the wager is an Envy bonus: paid to a player holding the qualifying bet on each
    /// other player's hand, with no stake of its own.
    pub fn is_envy(&self) -> bool {
        self.envy
    }

    /// Players a round: a simulation's `players_per_deal`; 1 for an exact run (one hand).
    pub fn players(&self) -> u64 {
        match self.run.kind {
            RunKind::Simulate => number(&self.run.fact("players_per_deal")).map_or(1, |p| p as u64),
            _ => 1,
        }
    }

    /// The other players' hands an Envy bonus's EV is over: one in an exact run (its EV is per
    /// other player's hand), every other player of the round in a simulation (its EV is per
    /// player); 1 for any other wager (the player's own hand).
    pub fn hands_paid_on(&self) -> u64 {
        match self.envy && !self.is_exact() {
            true => self.players().saturating_sub(1),
            false => 1,
        }
    }

    /// How the EV is counted, where it is not simply per unit bet on one player's hand: an Envy
    /// bonus per other player's hand or per player of a round, a simulation of several players
    /// a round.
    pub fn basis(&self) -> Option<String> {
        let players = self.players();
        match (self.envy, self.is_exact()) {
            (true, true) => Some("per other player's hand".into()),
            (true, false) => Some(format!(
                "per player of {players} a round (paid on {} other hands)",
                players.saturating_sub(1)
            )),
            (false, _) if players > 1 => Some(format!("{players} players a round")),
            _ => None,
        }
    }

    /// The SD of one player's result on one hand, per unit bet: the summary's `sd` where a round
    /// is one hand (an exact run, or one player a round); with several players, from the return
    /// lines' counts, since the summary's SD is of a round's net per unit wagered and the players
    /// of a round share the dealer's hand. None for an Envy bonus of several players (a player's
    /// result is the sum of the other hands', which the files do not give jointly).
    pub fn player_sd(&self) -> Option<f64> {
        match (self.players(), self.envy) {
            (1, _) => number(self.figure("sd")),
            (_, true) => None,
            _ => self.counted().map(|c| to_f64(&c.variance()).sqrt()),
        }
    }

    /// A line's event in words: its `label` cell; where the file has none, the words the game
    /// gives the event (so an exact run's table names each line as a simulation's does); else
    /// the event as written.
    pub fn label(&self, row: &[String]) -> String {
        let (label, event) = (
            self.returns.get(row, "label"),
            self.returns.get(row, "event"),
        );
        if !label.is_empty() {
            return label.to_string();
        }
        (self.labels.iter())
            .find(|r| r.event == event)
            .map_or_else(|| event.trim().to_string(), |r| r.label.to_string())
    }

    /// Whether the counts are exact (an enumeration) rather than simulated.
    pub fn is_exact(&self) -> bool {
        matches!(self.run.kind, RunKind::ExactBonus | RunKind::ExactMain)
    }

    /// A summary cell.
    pub fn figure(&self, column: &str) -> &str {
        self.summary.get(self.figures, column)
    }

    /// The hit frequency: the exact `hit_rate`, or a run's `win` share.
    pub fn hit_rate(&self) -> &str {
        let hit = self.figure("hit_rate");
        if hit.is_empty() {
            self.figure("win")
        } else {
            hit
        }
    }

    /// The number of bets or combinations counted.
    pub fn trials(&self) -> &str {
        let t = self.figure("trials");
        if t.is_empty() {
            self.figure("combinations")
        } else {
            t
        }
    }

    /// The standard error of the EV: a simulation's 95% half-width over z(0.95).
    pub fn standard_error(&self) -> Option<f64> {
        let (lo, hi) = (
            number(self.figure("ci95_low"))?,
            number(self.figure("ci95_high"))?,
        );
        Some((hi - lo) / (2.0 * z(0.95)))
    }

    /// The run described in a few words.
    pub fn describe(&self) -> String {
        describe_run(self.run)
    }

    /// The column holding each line's count: `combinations` (exact) or `count` (simulated).
    pub fn count_column(&self) -> &'static str {
        if self.is_exact() {
            "combinations"
        } else {
            "count"
        }
    }

    /// The number of outcomes counted: the `total` row's count.
    pub fn total(&self) -> Option<BigInt> {
        let row = (self.rows.iter()).find(|r| self.returns.get(r, "event") == "total")?;
        counted::whole(self.returns.get(row, self.count_column()))
    }

    /// The rows of lines with a pay (neither the total nor a breakdown such as "of which
    /// copies"), in file order.
    pub fn paying_rows(&self) -> Vec<&'a Vec<String>> {
        (self.rows.iter().copied())
            .filter(|r| self.returns.get(r, "event") != "total")
            .filter(|r| counted::decimal(self.returns.get(r, "pays")).is_some())
            .collect()
    }

    /// The lines of [`WagerRun::paying_rows`] with their counts, exactly: an exact run's
    /// combinations, or a simulation's counts; `None` where they do not add up to the total.
    pub fn counted(&self) -> Option<Counted> {
        let lines = (self.paying_rows().iter())
            .map(|r| {
                Some(Line {
                    count: counted::whole(self.returns.get(r, self.count_column()))?,
                    pays: counted::decimal(self.returns.get(r, "pays"))?,
                })
            })
            .collect::<Option<Vec<Line>>>()?;
        Counted::new(lines, self.total()?)
    }
}

/// Every paytable `run` embeds (its game's side bets, then those given with `--bet`) that reads,
/// with its file.
pub fn paytables_in(run: &RunDir) -> impl Iterator<Item = (Paytable, &TextFile)> {
    let files = (run.spec.iter()).flat_map(|spec| spec.side_bets.iter().chain(&spec.paytables));
    files.filter_map(|file| Some((Paytable::from_toml(&file.text, &file.origin).ok()?, file)))
}

/// The paytable `name` as `run` embeds it, with its file.
pub fn paytable_of<'a>(run: &'a RunDir, name: &str) -> Option<(Paytable, &'a TextFile)> {
    paytables_in(run).find(|(table, _)| table.name == name)
}

/// A run in a few words: what it is, and for a simulation its ways, deals and seed.
pub fn describe_run(run: &RunDir) -> String {
    match &run.kind {
        RunKind::Simulate => format!(
            "simulation, player {} vs dealer {}, {} deals, seed {}",
            run.fact("player_way"),
            run.fact("dealer_way"),
            count(&run.fact("deals")),
            run.fact("seed")
        ),
        RunKind::ExactMain => format!(
            "exact main wager, player {} vs dealer {}",
            run.fact("player_way"),
            run.fact("dealer_way")
        ),
        RunKind::ExactBonus => "exact side bets, every hand counted".to_string(),
        RunKind::ExactCategories => "exact 7-card categories".to_string(),
        RunKind::Compare => format!(
            "house-way comparison, {} deals, seed {}",
            count(&run.fact("deals")),
            run.fact("seed")
        ),
        RunKind::Table => format!(
            "card-room table, {} rounds, seed {}",
            count(&run.fact("deals")),
            run.fact("seed")
        ),
        RunKind::CostWay => format!(
            "exact cost of each rule of {} against {}",
            run.fact("way"),
            run.fact("dealer_way")
        ),
        RunKind::SweepWay => format!(
            "exact sweep of {}'s rules against {}",
            run.fact("player_way"),
            run.fact("dealer_way")
        ),
        RunKind::DeriveWay => format!(
            "short house way derived against {}, {} rules",
            run.fact("dealer_way"),
            run.fact("rules")
        ),
        RunKind::Other(name) => format!("a run of `{name}`"),
    }
}

/// The returns table of one wager in one run: Event, Pays, Combinations or Count, Probability,
/// 1 in X, Return; the Total row's return is the player's EV. An exact run's table also gives
/// the probability and the return exactly, as fractions in lowest terms of its counts and pays.
pub fn returns_table(w: &WagerRun) -> Table {
    let exactly = w.is_exact().then(|| w.counted()).flatten();
    let mut header = vec![
        "event",
        "pays (to 1)",
        w.count_column(),
        "probability",
        "1 in",
        "return",
    ];
    if exactly.is_some() {
        header.insert(4, "probability, exactly");
        header.push("return, exactly");
    }
    let mut t = Table::new(&header);
    for row in &w.rows {
        let cell = |c: &str| w.returns.get(row, c).to_string();
        let is_total = cell("event") == "total";
        let label = if is_total {
            "Total".to_string()
        } else {
            w.label(row)
        };
        let n = cell(w.count_column());
        let one_in = match (w.returns.has("one_in"), is_total) {
            (_, true) => String::new(),
            (true, false) => decimal(&cell("one_in"), 2),
            (false, false) => derived_one_in(&n, &cell("total")),
        };
        let pay = if is_total {
            String::new()
        } else {
            pays(&cell("pays"))
        };
        let mut cells = vec![
            label,
            pay,
            count(&n),
            cell("probability"),
            one_in,
            dash(&cell("return")),
        ];
        if let Some(c) = &exactly {
            let p = counted::whole(&n).map(|n| BigRational::new(n, c.total.clone()));
            let r = match (is_total, &p, counted::decimal(&cell("pays"))) {
                (true, _, _) => Some(c.ev()),
                (false, Some(p), Some(pays)) => Some(p * pays),
                _ => None,
            };
            cells.insert(4, p.as_ref().map_or("-".to_string(), fraction));
            cells.push(r.as_ref().map_or("-".to_string(), fraction));
        }
        t.row(cells);
    }
    t.total = t
        .rows
        .last()
        .is_some_and(|r| r[0] == "Total" || r[0] == "total");
    t
}

/// "1 in X" as total over count, for files without a `one_in` column.
fn derived_one_in(n: &str, total: &str) -> String {
    match (number(n), number(total)) {
        (Some(n), Some(t)) if n > 0.0 => decimal(&(t / n).to_string(), 2),
        _ => "-".to_string(),
    }
}

/// An exact run's lines as a CSV file, `tables/exact-WAGER-RUN.csv`: each line's probability
/// and return as decimals and as fractions, and a total row (its return the EV).
pub fn exact_data(w: &WagerRun) -> Option<DataFile> {
    let c = w.counted()?;
    let mut data = DataFile::new(
        format!("exact-{}-{}.csv", slug(w.figure("wager")), slug(&w.run.dir)),
        &[
            "event",
            "pays",
            "count",
            "total",
            "probability",
            "probability_exact",
            "return",
            "return_exact",
        ],
    );
    let total = c.total.to_string();
    for (i, row) in w.paying_rows().iter().enumerate() {
        let (p, r) = (c.probability(i), c.line_return(i));
        data.row(vec![
            w.returns.get(row, "event").trim().to_string(),
            w.returns.get(row, "pays").to_string(),
            c.lines[i].count.to_string(),
            total.clone(),
            crate::report::fixed(counted::to_f64(&p)),
            fraction(&p),
            crate::report::fixed(counted::to_f64(&r)),
            fraction(&r),
        ]);
    }
    let ev = c.ev();
    data.row(vec![
        "total".to_string(),
        "-".to_string(),
        total.clone(),
        total,
        crate::report::fixed(1.0),
        "1".to_string(),
        crate::report::fixed(counted::to_f64(&ev)),
        fraction(&ev),
    ]);
    Some(data)
}

/// The confidences of the volatility index.
pub const VOLATILITY_LEVELS: [f64; 2] = [0.90, 0.95];

/// The figures of one wager in one run; an exact run's also exactly (fractions in lowest terms
/// of its counts and pays). The volatility index is z x SD ([`volatility_index`]).
pub fn figures_table(w: &WagerRun) -> Table {
    let exactly = w.is_exact().then(|| w.counted()).flatten();
    let mut header = vec!["figure", "value", "in percent"];
    if exactly.is_some() {
        header.push("exactly");
    }
    let mut t = Table::new(&header);
    let mut row = |name: &str, cell: &str, as_percent: bool, exact: Option<BigRational>| {
        let shown = if as_percent {
            percent(cell, 4)
        } else {
            String::new()
        };
        let mut cells = vec![name.to_string(), dash(cell), shown];
        if exactly.is_some() {
            cells.push(exact.as_ref().map_or(String::new(), fraction));
        }
        t.row(cells);
    };
    let of = |f: &dyn Fn(&Counted) -> BigRational| exactly.as_ref().map(f);
    let ev = of(&|c| c.ev());
    let ev_name = match w.basis() {
        Some(basis) => format!("player EV per unit bet, {basis}"),
        None => "player EV per unit bet".to_string(),
    };
    row(&ev_name, w.figure("player_ev"), true, ev.clone());
    row("house edge", w.figure("house_edge"), true, ev.map(|e| -e));
    let hit = of(&|c| c.share(|p| p.is_positive()));
    if MAIN_NAMES.contains(&w.figure("wager")) {
        let name = "hit frequency (the bet wins, or is paid the overqualifier)";
        row(name, w.hit_rate(), true, hit);
        row(
            "push",
            w.figure("push"),
            true,
            of(&|c| c.share(|p| p.is_zero())),
        );
        row(
            "loss",
            w.figure("loss"),
            true,
            of(&|c| c.share(|p| p.is_negative())),
        );
    } else {
        row("hit frequency (some line pays)", w.hit_rate(), true, hit);
    }
    let players = w.players();
    if players > 1 {
        spread_of_several(&mut row, w, players);
    } else {
        spread_of_one(&mut row, w, of(&|c| c.variance()));
    }
    if !w.is_exact() {
        for (name, column) in [
            ("95% interval, low", "ci95_low"),
            ("95% interval, high", "ci95_high"),
            ("99% interval, low", "ci99_low"),
            ("99% interval, high", "ci99_high"),
        ] {
            row(name, w.figure(column), true, None);
        }
    }
    let counted = if w.is_exact() {
        "combinations"
    } else {
        "bets simulated"
    };
    let mut last = vec![counted.to_string(), count(w.trials()), String::new()];
    if exactly.is_some() {
        last.push(String::new());
    }
    t.row(last);
    t
}

/// One figure row: name, cell, shown as a percent, exact value.
type FigureRow<'r> = dyn FnMut(&str, &str, bool, Option<BigRational>) + 'r;

/// The SD, variance and volatility index of a run whose round is one hand: the summary's.
fn spread_of_one(row: &mut FigureRow, w: &WagerRun, exact_variance: Option<BigRational>) {
    row(
        "standard deviation per unit bet",
        w.figure("sd"),
        false,
        None,
    );
    let variance = w.figure("variance").to_string();
    match (variance.is_empty(), number(w.figure("sd"))) {
        (false, _) => row("variance per unit bet", &variance, false, exact_variance),
        (true, Some(sd)) => {
            let squared = format!("{:.10}", sd * sd);
            row(
                "variance per unit bet (SD squared)",
                &squared,
                false,
                exact_variance,
            )
        }
        _ => {}
    }
    if let Some(sd) = number(w.figure("sd")) {
        volatility_rows(row, sd);
    }
}

/// The spread of a simulation of several players a round: the summary's SD is of a round's net
/// per unit wagered (what its interval uses); one player's hand has its own SD, from the return
/// lines (the players share the dealer's hand, so the two differ), and the volatility index is
/// of that one player's. An Envy bonus has no one-player SD in the files.
fn spread_of_several(row: &mut FigureRow, w: &WagerRun, players: u64) {
    let name = format!(
        "standard deviation of a round's net per unit wagered ({players} players a round; the \
         interval's)"
    );
    row(&name, w.figure("sd"), false, None);
    if let Some(sd) = w.player_sd() {
        let one = format!("{sd:.10}");
        row(
            "standard deviation of one player's hand per unit bet (from the return lines)",
            &one,
            false,
            None,
        );
        let squared = format!("{:.10}", sd * sd);
        row(
            "variance of one player's hand per unit bet (its SD squared)",
            &squared,
            false,
            None,
        );
        volatility_rows(row, sd);
    }
}

fn volatility_rows(row: &mut FigureRow, sd: f64) {
    for level in VOLATILITY_LEVELS {
        let index = format!("{:.10}", volatility_index(sd, level));
        let name = format!(
            "volatility index, {:.0}% (z x SD, z = {:.3})",
            100.0 * level,
            z(level)
        );
        row(&name, &index, false, None);
    }
}

/// The range of a player's average result per hand over [`RANGE_HANDS`] hands, each end held
/// within `[least, most]`, what one hand can return (a held end is marked `*`). Returns the
/// table and whether any end was held.
pub fn ranges_table(ev: f64, sd: f64, (least, most): (f64, f64)) -> (Table, bool) {
    let header = [
        "hands",
        "90% of players between",
        "95% of players between",
        "99% of players between",
    ];
    let mut t = Table::new(&header);
    let mut held = false;
    let mut end = |x: f64| {
        // Not `clamp`, which panics on a NaN or an empty range.
        let kept = x.max(least).min(most);
        held |= kept != x;
        let mark = if kept != x { "*" } else { "" };
        format!("{}{mark}", signed(percent_of(kept, 2)))
    };
    for hands in RANGE_HANDS {
        let mut row = vec![count(&hands.to_string())];
        for level in RANGE_LEVELS {
            let r = average_result_range(ev, sd, hands, level);
            row.push(format!("{} to {}", end(r.low), end(r.high)));
        }
        t.row(row);
    }
    (t, held)
}

/// A percent with its sign.
fn signed(text: String) -> String {
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

/// The least and the most one hand can return: the smallest and the largest pays (none for a
/// wager without a line that pays a number, which a checked run never has).
fn result_bounds(w: &WagerRun) -> Option<(f64, f64)> {
    let pays = (w.rows.iter()).filter_map(|r| number(w.returns.get(r, "pays")));
    pays.fold(None, |bounds, p| match bounds {
        None => Some((p, p)),
        Some((lo, hi)) => Some((p.min(lo), p.max(hi))),
    })
}

/// The ranges paragraph and table of a wager from its EV and SD cells; where they (or the pays)
/// are not numbers, a line saying the ranges are left out.
pub fn ranges(doc: &mut Document, w: &WagerRun) {
    if w.is_envy() {
        doc.say(format!(
            "The range of a player's average result is left out: {} is an Envy bonus, with no \
             stake, paid on every other player's hand, so a player's result depends on how many \
             play (each player's hand is counted here alone).",
            w.figure("wager")
        ));
        return;
    }
    let ev = number(w.figure("player_ev"));
    let sd = w.player_sd().filter(|sd| *sd >= 0.0);
    let (Some(ev), Some(sd), Some(bounds)) = (ev, sd, result_bounds(w)) else {
        doc.say(format!(
            "The range of a player's average result is left out: {} gives no EV, SD or pays \
             to compute it from.",
            w.run.dir
        ));
        return;
    };
    let one_player = match w.players() {
        1 => String::new(),
        _ => " (one player's hand, from the return lines)".to_string(),
    };
    doc.paragraph(vec![
        strong("A player's average result per hand"),
        text(format!(
            " over N hands, per unit bet (normal approximation: EV {} plus or minus z x SD \
             {sd:.10}{one_player} / sqrt(N), z = 1.645, 1.960, 2.576 for 90, 95, 99% of \
             players):",
            percent(w.figure("player_ev"), 4),
        )),
    ]);
    let (table, held) = ranges_table(ev, sd, bounds);
    doc.push(Block::Table(table));
    if held {
        doc.say(
            "* The normal range passes what one hand can return (from the smallest to the largest \
             pay) and is held at that bound. Where it does, the approximation is poor: over few \
             hands a bet with rare large pays has a skewed result, most players doing worse than \
             the middle of the range and a few far better.",
        );
    }
}

/// A figure of each paying line's return (the part of the EV it contributes).
pub fn return_by_line(w: &WagerRun, name: &str) -> Option<Figure> {
    let rows: Vec<(String, f64)> = (w.rows.iter())
        .filter(|r| number(w.returns.get(r, "pays")).is_some_and(|p| p > 0.0))
        .filter_map(|r| Some((w.label(r), number(w.returns.get(r, "return"))?)))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let kind = if w.is_exact() { "exact" } else { "simulated" };
    Some(Figure {
        file: format!("return-by-line-{}-{}.svg", slug(name), slug(&w.run.dir)),
        svg: bars(
            &format!("{name}: return of each paying line ({kind})"),
            &rows,
            "return per unit bet",
        ),
        caption: format!(
            "{name}: each paying line's return (probability x pays), from returns.csv of {}; the losing line returns {} and the total {}.",
            w.run.dir,
            w.rows
                .iter()
                .find(|r| number(w.returns.get(r, "pays")).is_some_and(|p| p < 0.0))
                .map_or("-".to_string(), |r| percent(w.returns.get(r, "return"), 4)),
            percent(w.figure("player_ev"), 4)
        ),
    })
}

/// A simulation's convergence for `wager`, with the exact EV where known.
pub fn convergence_figure(run: &RunDir, wager: &str, exact: Option<f64>) -> Option<Figure> {
    let file = run.csv.get("convergence.csv")?;
    let points: Vec<RunningPoint> = (file.rows_with("wager", wager))
        .filter_map(|r| {
            Some(RunningPoint {
                deals: number(file.get(r, "deals"))?,
                estimate: number(file.get(r, "player_ev"))?,
                low: number(file.get(r, "ci95_low"))?,
                high: number(file.get(r, "ci95_high"))?,
            })
        })
        .collect();
    let last = points.last()?.deals;
    let shown: Vec<RunningPoint> = points
        .into_iter()
        .filter(|p| last < 16e3 || p.deals >= (last / 1e4).max(1e3))
        .collect();
    let name = if MAIN_NAMES.contains(&wager) {
        "main wager"
    } else {
        wager
    };
    let exact_words = match exact {
        Some(e) => format!("; the dashed line is the exact EV, {}", percent_of(e, 4)),
        None => String::new(),
    };
    Some(Figure {
        file: format!("convergence-{}-{}.svg", slug(name), slug(&run.dir)),
        svg: convergence(
            &format!("{name}: simulated EV as the deals accumulate"),
            &shown,
            exact,
        ),
        caption: format!(
            "{name}: the simulated EV after the first {}, {}, ... deals (powers of two) and after all of them, with its 95% interval \
             (the EV plus or minus 1.96 x the run's SD / sqrt(deals)), from convergence.csv of {}{exact_words}.",
            shown
                .first()
                .map_or("-".to_string(), |p| count(&p.deals.to_string())),
            shown
                .get(1)
                .map_or("-".to_string(), |p| count(&p.deals.to_string())),
            run.dir
        ),
    })
}

/// The EV the exact run gives for what the simulation counts: the same, but for an Envy bonus,
/// whose exact EV is per other player's hand and whose simulated EV is per player, paid on every
/// other player's hand of the round (linearity of expectation: each other hand is dealt from
/// the same deck, so each pays the exact EV on average).
pub fn exact_ev_for(sim: &WagerRun, exact: &WagerRun) -> Option<f64> {
    let per_hand = number(exact.figure("player_ev"))?;
    Some(per_hand * sim.hands_paid_on() as f64 / exact.hands_paid_on() as f64)
}

/// One simulation of a side bet against its exact counts, line by line, and its EV in
/// standard errors from the exact EV.
pub fn cross_check(doc: &mut Document, sim: &WagerRun, exact: &WagerRun) {
    let mut t = Table::new(&[
        "event",
        "exact probability",
        "simulated count",
        "simulated probability",
        "95% interval (Wilson)",
        "holds the exact value",
    ]);
    for row in sim
        .rows
        .iter()
        .filter(|r| sim.returns.get(r, "event") != "total")
    {
        let event = sim.returns.get(row, "event");
        let exact_row = exact
            .rows
            .iter()
            .find(|r| exact.returns.get(r, "event") == event);
        let p_exact = exact_row.map_or("", |r| exact.returns.get(r, "probability"));
        let (lo, hi) = (
            sim.returns.get(row, "probability_ci95_low"),
            sim.returns.get(row, "probability_ci95_high"),
        );
        let inside = match (number(p_exact), number(lo), number(hi)) {
            (Some(p), Some(l), Some(h)) => {
                if l <= p && p <= h {
                    "yes"
                } else {
                    "no"
                }
            }
            _ => "-",
        };
        t.row(vec![
            sim.label(row),
            dash(p_exact),
            count(sim.returns.get(row, "count")),
            dash(sim.returns.get(row, "probability")),
            format!("{} to {}", dash(lo), dash(hi)),
            inside.to_string(),
        ]);
    }
    doc.push(Block::Table(t));
    let sim_ev = sim.figure("player_ev");
    let expected = exact_ev_for(sim, exact);
    let distance = match (number(sim_ev), expected, sim.standard_error()) {
        (Some(s), Some(e), Some(se)) if se > 0.0 => Some((s - e) / se),
        _ => None,
    };
    let k = distance.map_or("-".to_string(), |k| format!("{k:+.2}"));
    let outside = match distance {
        Some(k) if k.abs() > 4.0 => {
            " The exact EV lies far outside this interval: past 4 \
             standard errors chance is not a likely reason; the simulation or the exact count \
             needs a look."
        }
        Some(k) if k.abs() > 1.96 => {
            " The exact EV lies outside this 95% interval, as it does \
             by chance in about one run in twenty."
        }
        _ => "",
    };
    let exact_words = match sim.hands_paid_on() {
        1 => percent(exact.figure("player_ev"), 4),
        hands => format!(
            "{} per other player's hand, so {} to a player paid on {hands} other hands as here",
            percent(exact.figure("player_ev"), 4),
            expected.map_or("-".to_string(), |e| percent_of(e, 4))
        ),
    };
    let lines = match sim.players() {
        1 => " Each line's interval holds its exact probability 95% of the time, so about one \
               line in twenty falls outside by chance."
            .to_string(),
        players => format!(
            " Each line's interval counts rounds, not hands (the {players} hands of a round \
             share the dealer's): it holds its exact probability at least 95% of the time, \
             exactly so for a line every player makes at once."
        ),
    };
    doc.paragraph(vec![
        text(format!(
            "Simulated EV {} (95% interval {} to {}); exact EV {exact_words}; the simulation is ",
            percent(sim_ev, 4),
            percent(sim.figure("ci95_low"), 4),
            percent(sim.figure("ci95_high"), 4),
        )),
        strong(format!("{k} standard errors")),
        text(format!(
            " from the exact EV (standard error: the 95% half-width over 1.96).{outside}{lines}"
        )),
    ]);
}
