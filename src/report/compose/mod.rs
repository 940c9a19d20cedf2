//! `paigow report`: a lab-ready document from run directories of any kind.
//!
//! The runs are grouped by game (the SHA-256 of the game file); for each game the report gives its
//! rules, its house ways, the main wager and each side bet (every run that reports it, exact and
//! simulated, with figures, ranges, plots and cross-checks), house-way comparisons, card-room
//! table runs, category counts and the house-way workbench's runs ([`workbench`]); then every audit of a published claim, the method of each run
//! and how to reproduce it, the software that made the report and each run, and the SHA-256 of
//! the report's figure and table files.
//!
//! What a test lab asks beyond the runs' own figures is derived from them, each where its module
//! says how: exact fractions and the volatility index ([`wagers`], from `report::counted`), the
//! overqualifier's multiples ([`premium`]), each simulation's chi-square and SD against the
//! exact run ([`fit`]), the dealing assumptions ([`dealing`]), hold, a bet mix, liability and the
//! chances after N hands ([`mix`], `report::ahead`); each derived table links the CSV of its
//! values (`tables/`).
//!
//! Invariants: every figure is a cell of a run's CSV file, as written or formatted
//! ([`format`](mod@format)), or a derivation its module names, from the runs' cells (exact
//! rationals where the counts are exact) and the report's options (`--mix`, `--table-max`); a
//! simulation is set against an exact run only when both list the same paytable (by SHA-256,
//! where both manifests embed it) and, for the main wager, the same ways by name and file; the
//! document depends only on the runs' files and the options, so the same runs give the same
//! report. Each line of a wager is named alike in every run's table (`WagerRun::label`: an
//! `exact main` run's events in the game's words, as a simulation writes them), and a
//! simulation whose results for a wager are an earlier one's, row for row from the same deals,
//! is named with a link to it, not shown twice.

pub mod dealing;
pub mod fit;
pub mod format;
pub mod game;
pub mod mix;
pub mod premium;
pub mod provenance;
pub mod runs_sections;
pub mod wagers;
pub mod workbench;

use self::format::{count, percent};
use self::game::{GameView, game_section, ways_of, ways_section};
use self::provenance::{
    claims_section, method_section, report_files_section, reproducibility_section, software_section,
};
use self::runs_sections::{categories_section, compare_section, table_section};
use self::wagers::{
    MAIN_NAMES, WagerRun, convergence_figure, cross_check, describe_run, figures_table,
    paytable_of, paytables_in, ranges, return_by_line, returns_table,
};
use crate::game::paytable::{BetKind, Paytable};
use crate::report::document::{Block, Document, Inline, Table, code, slug, text};
use crate::report::runs::{RunDir, RunKind};

/// The report of `runs`, in the order given, with what `options` ask.
pub fn compose(runs: &[RunDir], options: &mix::Options) -> Document {
    let groups = by_game(runs);
    let names: Vec<String> = groups.iter().map(|(g, _)| g.name.clone()).collect();
    let mut doc = Document {
        title: format!("Pai Gow Poker mathematics: {}", names.join("; ")),
        blocks: Vec::new(),
    };
    introduction(&mut doc, runs);
    let contents_at = doc.blocks.len();
    doc.heading(2, "Summary");
    summary_table(&mut doc, &groups);
    for (game, members) in &groups {
        game_part(&mut doc, game, members, options);
    }
    let all: Vec<&RunDir> = runs.iter().collect();
    doc.heading(2, "Audits of published claims");
    claims_section(&mut doc, &all);
    doc.heading(2, "Method");
    method_section(&mut doc, &all);
    doc.heading(2, "Reproducibility");
    reproducibility_section(&mut doc, &all);
    doc.heading(2, "Software");
    software_section(&mut doc, &all, &options.maker);
    doc.heading(2, "Report files");
    report_files_section(&mut doc);
    let contents = contents(&doc);
    doc.blocks.insert(contents_at, contents);
    doc
}

/// The runs grouped by game, in order of first appearance.
fn by_game(runs: &[RunDir]) -> Vec<(GameView, Vec<&RunDir>)> {
    let mut groups: Vec<(GameView, Vec<&RunDir>)> = Vec::new();
    for run in runs {
        let view = GameView::of(run);
        let key = |g: &GameView| g.sha256.clone().unwrap_or_else(|| g.name.clone());
        match groups.iter_mut().find(|(g, _)| key(g) == key(&view)) {
            Some((_, members)) => members.push(run),
            None => groups.push((view, vec![run])),
        }
    }
    groups
}

/// What the report is made from.
fn introduction(doc: &mut Document, runs: &[RunDir]) {
    doc.paragraph(vec![text("Made by "), code("paigow report"), text(format!(
        " from {} run director{}. Every figure below is read from the CSV files of those runs \
         (a value in percent is the fraction times 100); the few figures derived from them say how. The command \
         of each run and the SHA-256 of every input and file are under Reproducibility; the \
         software that made the report and each run (version, commit, build, the binary's \
         SHA-256) under Software; the SHA-256 of the report's own files under Report files.",
        runs.len(),
        if runs.len() == 1 { "y" } else { "ies" }
    ))]);
    let items = runs
        .iter()
        .map(|r| vec![code(&r.dir), text(format!(": {}", describe_run(r)))])
        .collect();
    doc.push(Block::Bullets(items));
}

/// Links to every level-2 heading.
fn contents(doc: &Document) -> Block {
    let items = (doc.blocks.iter())
        .filter_map(|b| match b {
            Block::Heading { level: 2, text, id } => Some(vec![Inline::Link {
                text: text.clone(),
                target: format!("#{id}"),
            }]),
            _ => None,
        })
        .collect();
    Block::Bullets(items)
}

/// One line per wager per run: method, EV, house edge, hit frequency, SD.
fn summary_table(doc: &mut Document, groups: &[(GameView, Vec<&RunDir>)]) {
    let header = [
        "wager",
        "game",
        "method",
        "player EV",
        "house edge",
        "hit frequency",
        "SD",
        "run",
    ];
    let mut t = Table::new(&header).left(&[1, 2, 7]);
    for (game, runs) in groups {
        for name in wager_names(game, runs) {
            for w in runs
                .iter()
                .filter_map(|r| WagerRun::find(r, &names_of(&name)))
            {
                t.row(vec![
                    display_name(&name).to_string(),
                    game.name.clone(),
                    method_words(&w),
                    percent(w.figure("player_ev"), 4),
                    percent(w.figure("house_edge"), 4),
                    percent(w.hit_rate(), 4),
                    w.figure("sd").to_string(),
                    w.run.dir.clone(),
                ]);
            }
        }
    }
    if groups.len() == 1 {
        t = without_column(t, 1);
    }
    if t.rows.is_empty() {
        doc.say("No run reports a wager.");
    } else {
        doc.push(Block::Table(t));
    }
}

/// "exact" or "simulation", and how its EV is counted where it is not per unit bet on one
/// player's hand ([`WagerRun::basis`]).
fn method_words(w: &WagerRun) -> String {
    let kind = if w.is_exact() { "exact" } else { "simulation" };
    match w.basis() {
        Some(basis) => format!("{kind}, {basis}"),
        None => kind.to_string(),
    }
}

/// The table without column `c`.
fn without_column(mut t: Table, c: usize) -> Table {
    t.header.remove(c);
    t.align.remove(c);
    for row in &mut t.rows {
        row.remove(c);
    }
    t
}

/// Every wager any of `runs` reports, each once, in order of first appearance.
pub fn every_wager(runs: &[RunDir]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for summary in runs.iter().filter_map(|r| r.csv.get("summary.csv")) {
        for row in &summary.rows {
            let name = summary.get(row, "wager");
            if !name.is_empty() && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// The wagers the runs of a game report: the main wager, then side bets in the game's order.
fn wager_names(game: &GameView, runs: &[&RunDir]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if runs
        .iter()
        .any(|r| WagerRun::find(r, &MAIN_NAMES).is_some())
    {
        names.push(MAIN_NAMES[0].to_string());
    }
    let mut bets: Vec<String> = (game.rules.iter())
        .flat_map(|g| g.side_bets.iter().map(|b| b.name.clone()))
        .collect();
    for run in runs
        .iter()
        .filter(|r| matches!(r.kind, RunKind::ExactBonus | RunKind::Simulate))
    {
        if let Some(summary) = run.csv.get("summary.csv") {
            bets.extend(
                summary
                    .rows
                    .iter()
                    .map(|r| summary.get(r, "wager").to_string()),
            );
        }
    }
    for bet in bets {
        let reported = runs
            .iter()
            .any(|r| WagerRun::find(r, &[bet.as_str()]).is_some());
        if !MAIN_NAMES.contains(&bet.as_str()) && reported && !names.contains(&bet) {
            names.push(bet);
        }
    }
    names
}

/// The names a wager goes by in reports.
fn names_of(name: &str) -> Vec<&str> {
    if MAIN_NAMES.contains(&name) {
        MAIN_NAMES.to_vec()
    } else {
        vec![name]
    }
}

fn display_name(name: &str) -> &str {
    if MAIN_NAMES.contains(&name) {
        "main wager"
    } else {
        name
    }
}

/// Everything about one game.
fn game_part(doc: &mut Document, game: &GameView, runs: &[&RunDir], options: &mix::Options) {
    doc.heading(2, &game.name);
    let tables = paytables(runs);
    game_section(doc, game, &tables);
    ways_section(doc, &ways_of(runs));
    dealing::dealing_section(doc, game, runs);
    let mut wagers = Vec::new();
    for name in wager_names(game, runs) {
        wager_part(doc, &name, runs);
        let found = (runs.iter())
            .filter_map(|r| WagerRun::find(r, &names_of(&name)))
            .collect();
        wagers.push((name, found));
    }
    mix::section(doc, &slug(&game.name), &wagers, options);
    let part =
        |doc: &mut Document, kind: RunKind, title: &str, each: fn(&mut Document, &RunDir)| {
            let chosen: Vec<&&RunDir> = runs.iter().filter(|r| r.kind == kind).collect();
            if !chosen.is_empty() {
                doc.heading(3, title);
                for run in chosen {
                    each(doc, run);
                }
            }
        };
    part(
        doc,
        RunKind::Compare,
        "House-way comparisons",
        compare_section,
    );
    part(doc, RunKind::Table, "Card-room table runs", table_section);
    part(
        doc,
        RunKind::ExactCategories,
        "7-card hand categories",
        categories_section,
    );
    part(
        doc,
        RunKind::CostWay,
        "The cost of each rule of a house way",
        workbench::cost_way_section,
    );
    part(
        doc,
        RunKind::SweepWay,
        "Sweeps of a house way's rules",
        workbench::sweep_way_section,
    );
    part(
        doc,
        RunKind::DeriveWay,
        "Short house ways derived from the optimum",
        workbench::derive_way_section,
    );
    let others: Vec<&&RunDir> = (runs.iter())
        .filter(|r| matches!(r.kind, RunKind::Other(_)))
        .collect();
    if !others.is_empty() {
        doc.heading(3, "Other runs");
        for run in others {
            other_section(doc, run);
        }
    }
}

/// A run of a command this report does not know: each CSV file as written.
fn other_section(doc: &mut Document, run: &RunDir) {
    doc.heading(4, &format!("{} ({})", run.dir, run.kind.name()));
    for (name, file) in &run.csv {
        doc.paragraph(vec![text(format!("{name}:"))]);
        doc.push(Block::Table(runs_sections::as_is(file)));
    }
}

/// The paytables the runs embed, each once (by name).
fn paytables(runs: &[&RunDir]) -> Vec<Paytable> {
    let mut tables: Vec<Paytable> = Vec::new();
    for (table, _) in runs.iter().flat_map(|run| paytables_in(run)) {
        if !tables.iter().any(|o| o.name == table.name) {
            tables.push(table);
        }
    }
    tables
}

/// The SHA-256 of the paytable `name` as `run` embeds it.
fn paytable_sha(run: &RunDir, name: &str) -> Option<String> {
    paytable_of(run, name).map(|(_, file)| file.sha256())
}

/// One wager: every run that reports it.
fn wager_part(doc: &mut Document, name: &str, runs: &[&RunDir]) {
    let names = names_of(name);
    let found: Vec<WagerRun> = runs
        .iter()
        .filter_map(|r| WagerRun::find(r, &names))
        .collect();
    let main = MAIN_NAMES.contains(&name);
    doc.heading(
        3,
        &if main {
            "Main wager".to_string()
        } else {
            format!("Side bet: {name}")
        },
    );
    let exact = || found.iter().filter(|w| w.is_exact());
    for w in exact() {
        exact_part(doc, name, w);
    }
    // Each simulation shown in full so far, with its heading's id.
    let mut shown: Vec<(&WagerRun, String)> = Vec::new();
    for (i, w) in found.iter().filter(|w| !w.is_exact()).enumerate() {
        if let Some((earlier, id)) = shown.iter().find(|(s, _)| same_results(s, w)) {
            repeated_part(doc, w, earlier, id);
            continue;
        }
        let matched = exact().find(|e| same_paytable(e.run, w.run, name, main));
        let id = simulated_part(doc, w, matched, exact().next().is_none() && i == 0);
        shown.push((w, id));
    }
}

/// Whether two simulations of the same deals (seed and number) report the wager alike, row for
/// row: its returns lines, its summary and its convergence (a side bet paid on the player's
/// seven cards, in two runs whose ways differ).
fn same_results(a: &WagerRun, b: &WagerRun) -> bool {
    let same_deals = ["seed", "deals"]
        .iter()
        .all(|f| a.run.fact(f) == b.run.fact(f));
    same_deals
        && a.rows == b.rows
        && a.figures == b.figures
        && convergence_rows(a) == convergence_rows(b)
}

/// A simulation's convergence rows for its wager.
fn convergence_rows<'a>(w: &WagerRun<'a>) -> Option<Vec<&'a Vec<String>>> {
    let file = w.run.csv.get("convergence.csv")?;
    Some(
        file.rows_with("wager", w.summary.get(w.figures, "wager"))
            .collect(),
    )
}

/// A simulation whose results for the wager are an earlier one's (headed `id`): said in one
/// line, not repeated.
fn repeated_part(doc: &mut Document, w: &WagerRun, earlier: &WagerRun, id: &str) {
    doc.heading(4, &format!("Simulated: {}", w.run.dir));
    doc.say(format!("{}.", capital(&describe_run(w.run))));
    doc.paragraph(vec![
        text("Its counts, figures and convergence for this wager are those of "),
        Inline::Link {
            text: earlier.run.dir.clone(),
            target: format!("#{id}"),
        },
        text(
            ", line for line, so they are not repeated: the runs deal the same hands, and this \
             bet's result does not depend on the ways that differ between them.",
        ),
    ]);
}

/// The text with a capital first letter.
fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Whether two runs play the same wager: for the main wager, the same player's and dealer's ways
/// (by their files' SHA-256 where both list them, else by name); for a side bet, the same
/// paytable (by SHA-256 where both embed it), and for a bet judged on the player's setting the
/// same player's way too (its counts depend on how the way sets each hand).
fn same_paytable(a: &RunDir, b: &RunDir, name: &str, main: bool) -> bool {
    if main {
        return ["player way", "dealer way"]
            .iter()
            .all(|role| same_way(a, b, role));
    }
    let paytable = match (paytable_sha(a, name), paytable_sha(b, name)) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    let on_setting = [a, b].iter().any(|run| judged_on_setting(run, name));
    paytable && (!on_setting || same_way(a, b, "player way"))
}

/// Whether two runs name the same way in `role` (by its files' SHA-256 where both list them,
/// else by name).
fn same_way(a: &RunDir, b: &RunDir, role: &str) -> bool {
    let fact = role.replace(' ', "_");
    let files = match (way_digests(a, role), way_digests(b, role)) {
        (Some(x), Some(y)) => x == y,
        _ => a.fact(&fact) == b.fact(&fact),
    };
    // `exposed:W` reads W's file but is not W.
    let named = match (strategy_names(a, role), strategy_names(b, role)) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    files && named
}

/// Whether the run's side bet `name` is judged on the player's setting.
fn judged_on_setting(run: &RunDir, name: &str) -> bool {
    paytable_of(run, name).is_some_and(|(bet, _)| bet.kind == BetKind::Setting)
}

/// The names of the strategies a run's spec lists in `role`, if it embeds a spec.
fn strategy_names(run: &RunDir, role: &str) -> Option<Vec<String>> {
    let spec = run.spec.as_ref()?;
    Some(
        (spec.strategies.iter())
            .filter(|s| s.role == role)
            .map(|s| s.name.clone())
            .collect(),
    )
}

/// The SHA-256 (or the built-in's name) of each input a run lists in `role`, if it lists any.
fn way_digests(run: &RunDir, role: &str) -> Option<Vec<String>> {
    let found: Vec<String> = (run.inputs.iter())
        .filter(|i| i.role == role)
        .map(|i| i.sha256.clone().unwrap_or_else(|| i.origin.clone()))
        .collect();
    (!found.is_empty()).then_some(found)
}

/// An exact run of a wager: returns, figures, ranges, the return of each line.
fn exact_part(doc: &mut Document, name: &str, w: &WagerRun) {
    doc.heading(4, &format!("Exact: {}", w.run.dir));
    doc.say(format!(
        "Every hand (or deal) counted: {}.",
        w.figure("method")
    ));
    doc.push(Block::Table(returns_table(w)));
    if let Some(data) = wagers::exact_data(w) {
        doc.push(Block::Data(data));
    }
    doc.paragraph(vec![
        text("House edge "),
        Inline::Strong(percent(w.figure("house_edge"), 4)),
        text(format!(
            "; hit frequency {}; SD {} per unit bet; {} combinations.",
            percent(w.hit_rate(), 4),
            w.figure("sd"),
            count(w.trials())
        )),
    ]);
    doc.push(Block::Table(figures_table(w)));
    premium::multiples(doc, w);
    ranges(doc, w);
    if let Some(figure) = return_by_line(w, display_name(name)) {
        doc.push(Block::Figure(figure));
    }
}

/// A simulated run of a wager: returns, figures, its cross-check against the exact run, and its
/// convergence. Returns the heading's id.
fn simulated_part(
    doc: &mut Document,
    w: &WagerRun,
    exact: Option<&WagerRun>,
    with_ranges: bool,
) -> String {
    let id = doc.heading(4, &format!("Simulated: {}", w.run.dir));
    doc.say(format!("{}.", capital(&describe_run(w.run))));
    doc.push(Block::Table(returns_table(w)));
    doc.push(Block::Table(figures_table(w)));
    if with_ranges {
        ranges(doc, w);
    }
    if let Some(e) = exact {
        doc.paragraph(vec![
            Inline::Strong("Against the exact counts".into()),
            text(format!(" of {}:", e.run.dir)),
        ]);
        cross_check(doc, w, e);
        fit::goodness_of_fit(doc, w, e);
        fit::sd_gap(doc, w, e);
    }
    let exact_ev = exact.and_then(|e| wagers::exact_ev_for(w, e));
    let wager = w.summary.get(w.figures, "wager");
    if let Some(figure) = convergence_figure(w.run, wager, exact_ev) {
        doc.push(Block::Figure(figure));
    }
    id
}
