//! `paigow report RUN_DIR... --out DIR`: a lab-ready report (`report.md`, a self-contained
//! `report.html`, and the figures as `plots/*.svg`) from run directories of any kind; with
//! `--game G --all`, first the runs a game's package needs.
//!
//! The package runs each step as its own `paigow` process (this same executable), so each run's
//! manifest records the command line that made it, exactly as run (its `--out` is under the
//! report's temporary directory, `.OUT.tmp-PID/runs/STEP`, renamed to `OUT/runs/STEP` at the
//! end); a step that fails stops the package with its exit status, and nothing is reported from
//! a partial package. Every option of the package (the game, both ways, players, deals,
//! threads) is checked before its first step runs, so a bad one fails at once with nothing
//! written.
//!
//! Whole sets: the report (its figures, tables, `report.md`, `report.html`, `runs/` and
//! `SHA256SUMS`) is made in a temporary directory beside `--out` and renamed into place as
//! one set ([`crate::files::replace_dir_atomic`]), so a failure at any step, a late one included
//! (a refused runtime estimate, a full disk), leaves the previous report whole and no
//! half-built directory; a replacement a killed run left half done is recovered by the next run.
//! `--out` must be new, empty or an earlier report (`report.md`, `report.html`, the
//! `plots/*.svg` and `tables/*.csv` that `report.md` shows, `runs/` of run directories,
//! `SHA256SUMS`): any other directory is
//! refused, so no file the report did not write is ever removed; and a `RUN_DIR` inside `--out`
//! is refused, since replacing `--out` would remove it. Tests make a late step fail with
//! `PAIGOW_FAIL_AFTER_STEP` ([`FAIL_AFTER_STEP`]).
//!
//! A run directory is read once: the same directory given twice (by its canonical path) is
//! refused, naming it.
//!
//! Self-contained: every `RUN_DIR` given is copied into `OUT/runs/NAME` (its last path
//! component; `-2`, `-3`, ... where taken) and the report names the copy, so the package holds
//! every run its report reads; `OUT/SHA256SUMS`, written last, lists every other file of the
//! package with its SHA-256 (`sha256sum -c SHA256SUMS` in `OUT` checks them).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::Args;

use super::help::{Accepts, Help};

use super::run_args::{parse_count, parse_threads};
use crate::engine::exact::{NotCountable, countable};
use crate::engine::simulate::{self as sim, Simulation};
use crate::game::GameRules;
use crate::game::paytable::BetKind;
use crate::report::compose::mix::{Amounts, Options};
use crate::report::compose::{compose, every_wager};
use crate::report::document::markdown::PLOTS_DIR;
use crate::report::document::{TABLES_DIR, slug};
use crate::report::document::{html, markdown};
use crate::report::facts::Identity;
use crate::report::runs::RunDir;

/// The end of `paigow report --help`.
const HELP: Help = Help {
    examples: &[
        (
            "One report from an exact side-bet count and a simulation",
            "paigow report runs/exact/double-joker-bonus runs/simulate/double-joker-foxwoods-vs-double-joker-dealer-s1-n1000000 --out /tmp/dj-report",
        ),
        (
            "A whole game package: run every count and simulation the game needs, then report",
            "paigow report --game double-joker --all --dealer-way double-joker-dealer --out runs/package/double-joker",
        ),
        (
            "The standard game's package with a longer simulation",
            "paigow report --game standard --all --deals 1e8 --out /tmp/standard-package",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::Ways],
    writes: "report.md, report.html (self-contained), plots/*.svg, runs/ (a copy of each \
             RUN_DIR, and with --all the package's runs) and SHA256SUMS (every file's SHA-256) \
             in --out.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct ReportArgs {
    /// Run directories written by `exact`, `simulate`, `compare`, `table`, `merge`, `cost-way`,
    /// `sweep-way` or `derive-way`.
    #[arg(value_name = "RUN_DIR")]
    runs: Vec<PathBuf>,
    /// Report directory: report.md, report.html, plots/*.svg, tables/*.csv, runs/ (every run
    /// read) and SHA256SUMS, replaced as a whole; new, empty or an earlier report.
    #[arg(long)]
    out: PathBuf,
    /// With --all: the game (a shipped name or a game TOML file).
    #[arg(long, short = 'g', requires = "all")]
    game: Option<String>,
    /// Run what the game needs first (exact categories, exact side bets, the exact main wager,
    /// a simulation), into OUT/runs/, and report on those runs (and any RUN_DIRs given).
    #[arg(long, requires = "game")]
    all: bool,
    /// With --all: the player's way in the simulation and exact main (and, for a side bet
    /// judged on the player's setting, in exact bonus).
    #[arg(long, requires = "all", default_value = "foxwoods")]
    player_way: String,
    /// With --all: the dealer's way in the simulation and exact main.
    #[arg(long, requires = "all", default_value = "foxwoods")]
    dealer_way: String,
    /// With --all: deals in the simulation.
    #[arg(long, requires = "all", short = 'n', default_value = "1e7", value_parser = parse_count)]
    deals: u64,
    /// With --all: the simulation's seed.
    #[arg(long, requires = "all", short = 's', default_value_t = 1)]
    seed: u64,
    /// With --all: players a round in the simulation (2 to 6 for a game with an Envy bonus).
    #[arg(long, requires = "all", default_value_t = 1)]
    players: u8,
    /// With --all: worker threads of each step, 1 to 1024 (default: one per core).
    #[arg(long, requires = "all", short = 't', value_parser = parse_threads)]
    threads: Option<usize>,
    /// The bet mix of the combined edge: units on each wager a round, NAME=UNITS,... (`main`
    /// for the main wager, a side bet by its name with dashes: big-hand-bonus); a wager not
    /// named gets none. Default: one unit on each wager.
    #[arg(long, value_name = "NAME=UNITS,...", value_parser = parse_amounts)]
    mix: Option<Amounts>,
    /// The table maximum bet, for each wager's liability per hand (its largest pay times this):
    /// one AMOUNT for every wager, or NAME=AMOUNT,... (a bare AMOUNT among them for the others).
    #[arg(long, value_name = "AMOUNT|NAME=AMOUNT,...", value_parser = parse_amounts)]
    table_max: Option<Amounts>,
    /// No progress lines and no summary.
    #[arg(long, short = 'q')]
    quiet: bool,
}

fn parse_amounts(text: &str) -> Result<Amounts, String> {
    Amounts::parse(text)
}

/// Refuses a `--mix` or `--table-max` that names a wager not among `wagers` (those the runs
/// report).
fn check_amounts(args: &ReportArgs, wagers: &[String]) -> anyhow::Result<()> {
    for (flag, amounts) in [("--mix", &args.mix), ("--table-max", &args.table_max)] {
        if let Some(unknown) = amounts
            .as_ref()
            .and_then(|a| a.unknown(wagers).first().copied())
        {
            let known: Vec<String> = (wagers.iter())
                .map(|w| match w.as_str() {
                    "main" | "main wager" => "main".to_string(),
                    w => slug(w),
                })
                .collect();
            anyhow::bail!(
                "{flag}: '{unknown}' is no wager of these runs (they report: {})",
                known.join(", ")
            );
        }
    }
    Ok(())
}

pub fn run(args: &ReportArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    check_report_out(&args.out)?;
    refuse_runs_inside(&args.runs, &args.out)?;
    let mut steps = Steps::from_env()?;
    let mut failure = None;
    let mut made = None;
    let replaced = crate::files::replace_dir_atomic(&args.out, &mut |temp| match fill(
        args, temp, &mut steps,
    ) {
        Ok(counts) => {
            made = Some(counts);
            Ok(())
        }
        Err(e) => {
            let message = format!("{e:#}");
            failure = Some(e);
            Err(std::io::Error::other(message))
        }
    });
    if let Some(e) = failure {
        return Err(e.context(format!(
            "{}: nothing written (a report is replaced as a whole, and any earlier one is left \
             as it was)",
            args.out.display()
        )));
    }
    replaced.with_context(|| format!("{}: cannot write the report", args.out.display()))?;
    let (runs, figures) = made.unwrap_or_default();
    if !args.quiet {
        super::print_stdout(&format!(
            "report of {runs} runs ({figures} figures) in {:.1} s: {}, {}\n",
            started.elapsed().as_secs_f64(),
            args.out.join("report.md").display(),
            args.out.join("report.html").display()
        ))?;
    }
    Ok(())
}

/// Makes the whole report set in `temp` (the package's runs under `temp/runs/` first, with
/// `--all`); returns the runs reported and the figure count.
fn fill(args: &ReportArgs, temp: &Path, steps: &mut Steps) -> anyhow::Result<(usize, usize)> {
    let mut dirs = Vec::new();
    if let Some(game) = args.game.as_deref().filter(|_| args.all) {
        dirs.extend(run_package(args, game, temp, steps)?);
    }
    let made = dirs.len();
    dirs.extend(args.runs.iter().cloned());
    if dirs.is_empty() {
        anyhow::bail!("no run directories: give RUN_DIR..., or --game G --all to make them");
    }
    refuse_repeats(&dirs)?;
    let mut runs = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        let mut run = RunDir::read(dir)?;
        let copy = if i < made {
            dir.clone()
        } else {
            copy_run(dir, &temp.join(RUNS_DIR))?
        };
        run.dir = shown_name(&copy, temp);
        runs.push(run);
    }
    check_amounts(args, &every_wager(&runs))?;
    let options = Options {
        mix: args.mix.clone(),
        table_max: args.table_max.clone(),
        maker: Identity::of_this_binary(),
    };
    let figures = write_report(temp, &runs, &options, steps)?;
    Ok((runs.len(), figures))
}

/// The fault injection of the tests: `PAIGOW_FAIL_AFTER_STEP=K` makes `paigow report` fail as
/// if its next step had failed once `K` steps have succeeded. The steps, in order: a package's
/// runs (with `--all`), then each file of the report set (every figure, `report.md`,
/// `report.html`). So a test can make a late step fail after others succeeded, and see that
/// nothing of the failed report is left and an earlier report is whole.
pub const FAIL_AFTER_STEP: &str = "PAIGOW_FAIL_AFTER_STEP";

/// The steps a report has done, and after how many it is made to fail ([`FAIL_AFTER_STEP`]).
#[derive(Default)]
struct Steps {
    done: usize,
    fail_after: Option<usize>,
}

impl Steps {
    fn from_env() -> anyhow::Result<Steps> {
        let fail_after = match std::env::var(FAIL_AFTER_STEP) {
            Ok(k) => Some(k.trim().parse().map_err(|_| {
                anyhow::anyhow!("{FAIL_AFTER_STEP}={k}: expected a whole number of steps")
            })?),
            Err(_) => None,
        };
        Ok(Steps {
            done: 0,
            fail_after,
        })
    }

    /// Counts a step about to start (`what`); fails it if the steps are to stop here.
    fn start(&mut self, what: &str) -> anyhow::Result<()> {
        if self.fail_after == Some(self.done) {
            anyhow::bail!(
                "{what}: failed on purpose ({FAIL_AFTER_STEP}={}: after {} steps)",
                self.done,
                self.done
            );
        }
        self.done += 1;
        Ok(())
    }
}

/// Refuses an `--out` that is not new, empty or an earlier report of `paigow report`
/// ([`is_report_set`]), before anything runs: a report replaces its directory as a whole.
fn check_report_out(out: &Path) -> anyhow::Result<()> {
    let set = "a paigow report (report.md, report.html, the plots/*.svg and tables/*.csv it \
               shows, runs/, SHA256SUMS)";
    crate::files::check_replaceable_as(out, set, &|entries| is_report_set(out, entries))?;
    Ok(())
}

/// Whether the entries of `dir` are a report `paigow report` wrote: `report.md`, `report.html`,
/// `SHA256SUMS`, `plots/` and `tables/` holding only the files `report.md` shows, and `runs/`
/// holding only run directories; nothing else.
fn is_report_set(dir: &Path, entries: &[std::fs::DirEntry]) -> bool {
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap_or_default();
    let is_dir = |e: &std::fs::DirEntry| e.file_type().is_ok_and(|t| t.is_dir());
    let is_file = |e: &std::fs::DirEntry| e.file_type().is_ok_and(|t| t.is_file());
    let listed = |dir: &Path| -> Option<Vec<std::fs::DirEntry>> {
        std::fs::read_dir(dir)
            .ok()?
            .collect::<Result<Vec<_>, _>>()
            .ok()
    };
    entries.iter().all(|e| match e.file_name().to_str() {
        Some("report.md" | "report.html" | CHECKSUMS) => is_file(e),
        Some(folder @ (PLOTS_DIR | TABLES_DIR)) => {
            is_dir(e)
                && listed(&e.path()).is_some_and(|files| {
                    files.iter().all(|p| {
                        let shown = format!("]({folder}/{})", p.file_name().to_string_lossy());
                        is_file(p) && markdown.contains(&shown)
                    })
                })
        }
        Some(RUNS_DIR) => {
            is_dir(e)
                && listed(&e.path()).is_some_and(|runs| {
                    runs.iter().all(|r| {
                        is_dir(r) && crate::files::check_replaceable_dir(&r.path()).is_ok()
                    })
                })
        }
        _ => false,
    })
}

/// Refuses a run directory inside `out` (the report replaces `out` as a whole, so the run would
/// be removed with it: report an earlier package's runs into another directory), and `out`
/// inside a run directory (one with a manifest: the report would be written into the run it
/// reads, which the run commands then refuse to replace).
fn refuse_runs_inside(runs: &[PathBuf], out: &Path) -> anyhow::Result<()> {
    let Some(out_path) = resolved(out) else {
        return Ok(());
    };
    for run in runs {
        let Ok(run_path) = std::fs::canonicalize(run) else {
            continue;
        };
        if run_path.starts_with(&out_path) {
            anyhow::bail!(
                "{}: is inside --out {}, which the report replaces as a whole (it would remove \
                 the run); give the report another --out",
                run.display(),
                out.display()
            );
        }
        if out_path.starts_with(&run_path) && run_path.join("manifest.json").is_file() {
            anyhow::bail!(
                "--out {}: is inside the run directory {}, which the report reads (a report \
                 written into a run would leave it no longer a run); give the report another --out",
                out.display(),
                run.display()
            );
        }
    }
    Ok(())
}

/// `path` made absolute through its nearest existing ancestor (the rest as written), so that a
/// directory not made yet compares with existing ones; None for a path ending in `..`.
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(existing) = std::fs::canonicalize(path) {
        return Some(existing);
    }
    let parent = (path.parent())
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Some(resolved(parent)?.join(path.file_name()?))
}

/// The folder of a package's runs, in the report directory.
const RUNS_DIR: &str = "runs";

/// Refuses a run directory given twice (the same canonical path, however it is spelled).
fn refuse_repeats(dirs: &[PathBuf]) -> anyhow::Result<()> {
    match crate::files::first_repeat(dirs) {
        Some((first, again)) => anyhow::bail!(
            "{}: run directory given twice (as {} and {}); give each run once",
            std::fs::canonicalize(again)
                .unwrap_or_else(|_| again.to_path_buf())
                .display(),
            first.display(),
            again.display()
        ),
        None => Ok(()),
    }
}

/// A run directory as the report names it: relative to the report directory when inside it (so
/// a package's report reads the same wherever it is made), else as given.
fn shown_name(dir: &Path, out: &Path) -> String {
    dir.strip_prefix(out)
        .map_or_else(|_| dir.display().to_string(), |p| p.display().to_string())
}

/// Writes `report.md`, `report.html` and the figures into the new directory `out`; returns the
/// figure count.
fn write_report(
    out: &Path,
    runs: &[RunDir],
    options: &Options,
    steps: &mut Steps,
) -> anyhow::Result<usize> {
    let doc = compose(runs, options);
    let plots = out.join(PLOTS_DIR);
    std::fs::create_dir_all(&plots)
        .with_context(|| format!("{}: cannot create the plots directory", plots.display()))?;
    let mut write = |path: PathBuf, bytes: &[u8]| {
        steps.start(&path.display().to_string())?;
        crate::files::write_synced(&path, bytes)
            .with_context(|| format!("{}: cannot write", path.display()))
    };
    for figure in doc.figures() {
        write(plots.join(&figure.file), figure.svg.as_bytes())?;
    }
    let tables = out.join(TABLES_DIR);
    if !doc.data_files().is_empty() {
        std::fs::create_dir_all(&tables)
            .with_context(|| format!("{}: cannot create", tables.display()))?;
    }
    for data in doc.data_files() {
        write(tables.join(&data.file), data.csv().as_bytes())?;
    }
    write(out.join("report.md"), markdown::render(&doc).as_bytes())?;
    write(out.join("report.html"), html::render(&doc).as_bytes())?;
    let sums = checksums(out)?;
    write(out.join(CHECKSUMS), sums.as_bytes())?;
    Ok(doc.figures().len())
}

/// The package's manifest: every other file of the package with its SHA-256, one a line in
/// `sha256sum`'s format (`sha256sum -c SHA256SUMS` checks them), sorted by path.
pub const CHECKSUMS: &str = "SHA256SUMS";

/// The [`CHECKSUMS`] text of every file under `dir` (paths relative to it, `/`-separated).
fn checksums(dir: &Path) -> anyhow::Result<String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in
            std::fs::read_dir(&d).with_context(|| format!("{}: cannot list", d.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(dir).unwrap_or(&path);
                let name: Vec<String> = (relative.components())
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                files.push((name.join("/"), path));
            }
        }
    }
    files.sort();
    let mut text = String::new();
    for (name, path) in files.iter().filter(|(n, _)| n != CHECKSUMS) {
        let bytes =
            std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
        text.push_str(&format!("{}  {name}\n", crate::files::sha256_hex(&bytes)));
    }
    Ok(text)
}

/// Copies the run directory `run` (its files; a run directory holds no folders) into a new
/// folder of `runs` named as its last component (with `-2`, `-3`, ... where taken), so the
/// package holds every run its report reads; returns the copy.
fn copy_run(run: &Path, runs: &Path) -> anyhow::Result<PathBuf> {
    let base = (std::fs::canonicalize(run).ok())
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| !n.is_empty() && !n.starts_with('.'))
        .unwrap_or_else(|| "run".to_string());
    let mut target = runs.join(&base);
    let mut n = 2;
    while target.exists() {
        target = runs.join(format!("{base}-{n}"));
        n += 1;
    }
    std::fs::create_dir_all(&target)
        .with_context(|| format!("{}: cannot create", target.display()))?;
    for entry in
        std::fs::read_dir(run).with_context(|| format!("{}: cannot list", run.display()))?
    {
        let path = entry?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_file() && !name.starts_with('.') {
            let bytes =
                std::fs::read(&path).with_context(|| format!("{}: cannot read", path.display()))?;
            crate::files::write_synced(&target.join(&name), &bytes)
                .with_context(|| format!("{}: cannot write", target.join(&name).display()))?;
        }
    }
    Ok(target)
}

/// One step of a game's package: its run directory's name and its `paigow` arguments.
struct Step {
    dir: &'static str,
    args: Vec<String>,
}

/// The runs a game's package needs, in order: `paigow COMMAND --game G OPTIONS --out OUT/DIR`,
/// then `--threads N` when given (every step takes it).
fn package_steps(args: &ReportArgs, game_name: &str, game: &GameRules, runs: &Path) -> Vec<Step> {
    let step = |dir: &'static str, command: &[&str], options: &[(&str, String)]| {
        let mut words: Vec<String> = command.iter().map(|w| w.to_string()).collect();
        words.extend(["--game".to_string(), game_name.to_string()]);
        for (flag, value) in options {
            words.push(format!("--{flag}"));
            words.extend((!value.is_empty()).then(|| value.clone()));
        }
        words.extend(["--out".to_string(), runs.join(dir).display().to_string()]);
        let threads = (args.threads).map(|t| ["--threads".to_string(), t.to_string()]);
        words.extend(threads.into_iter().flatten());
        Step { dir, args: words }
    };
    let quiet = ("quiet", String::new());
    let (player, dealer) = (
        ("player-way", args.player_way.clone()),
        ("dealer-way", args.dealer_way.clone()),
    );
    let mut steps = vec![step("exact-categories", &["exact", "categories"], &[])];
    if !game.side_bets.is_empty() {
        // A bet judged on the player's setting is counted with the package's player way.
        let setting = game.side_bets.iter().any(|t| t.kind == BetKind::Setting);
        let mut options = vec![quiet.clone()];
        options.extend(setting.then(|| player.clone()));
        steps.push(step("exact-bonus", &["exact", "bonus"], &options));
    }
    let ways = [player.clone(), dealer.clone()];
    steps.push(step(
        "exact-main",
        &["exact", "main"],
        &[&ways[..], std::slice::from_ref(&quiet)].concat(),
    ));
    // One player a round is the default, and is left out of the command as before.
    let players = (args.players != 1).then(|| ("players", args.players.to_string()));
    let simulation = [
        ("deals", args.deals.to_string()),
        ("seed", args.seed.to_string()),
    ];
    let options = [&ways[..], &simulation[..], players.as_slice(), &[quiet]].concat();
    steps.push(step("simulate", &["simulate"], &options));
    steps
}

/// Checks every option of a game's package before its first step: both ways resolve for the
/// game and can play each other with `--players` players (as `simulate` and `exact main` will
/// build them), and a side bet judged on the player's setting can be counted with the player's
/// way (as `exact bonus` will).
fn check_package(args: &ReportArgs, game: &GameRules) -> anyhow::Result<()> {
    let spec = sim::spec(game, &args.player_way, &args.dealer_way, args.players)?;
    let (simulation, _) = Simulation::from_spec_with_ways(&spec)?;
    let player = simulation.player.as_ref();
    for table in game.side_bets.iter().filter(|t| t.kind == BetKind::Setting) {
        if let Err(NotCountable::WaySeesDealer(way)) = countable(table, Some(player)) {
            anyhow::bail!(
                "--player-way {way}: side bet '{}' ({}) is judged on the player's setting, and \
                 its exact count needs a way that sets from the player's seven cards alone",
                table.name,
                table.origin
            );
        }
    }
    Ok(())
}

/// Runs a game's package into `temp/runs/` (the report's new directory); returns the run
/// directories.
fn run_package(
    args: &ReportArgs,
    game_name: &str,
    temp: &Path,
    steps: &mut Steps,
) -> anyhow::Result<Vec<PathBuf>> {
    let game = GameRules::load(game_name)?;
    check_package(args, &game)?;
    // A package reports the main wager, the game's side bets and the RUN_DIRs' wagers: a
    // --mix or --table-max naming another fails before the first step.
    let mut wagers = vec!["main".to_string()];
    wagers.extend(game.side_bets.iter().map(|t| t.name.clone()));
    for dir in &args.runs {
        wagers.extend(every_wager(&[RunDir::read(dir)?]));
    }
    check_amounts(args, &wagers)?;
    let runs = temp.join(RUNS_DIR);
    let exe = std::env::current_exe()
        .context("cannot find this paigow executable to run the package's steps")?;
    let mut dirs = Vec::new();
    for step in package_steps(args, game_name, &game, &runs) {
        let started = Instant::now();
        steps.start(&format!(
            "the package step `paigow {}`",
            step.args.join(" ")
        ))?;
        if !args.quiet {
            eprintln!("paigow {}", step.args.join(" "));
        }
        let status = std::process::Command::new(&exe)
            .args(&step.args)
            .env_remove(FAIL_AFTER_STEP)
            .status()
            .with_context(|| format!("cannot run paigow {}", step.args.join(" ")))?;
        if !status.success() {
            anyhow::bail!(
                "the package step `paigow {}` failed ({status})",
                step.args.join(" ")
            );
        }
        if !args.quiet {
            eprintln!("  {}: {:.1} s", step.dir, started.elapsed().as_secs_f64());
        }
        dirs.push(runs.join(step.dir));
    }
    Ok(dirs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        report: ReportArgs,
    }

    /// `--threads` reaches every step of a package (once only exact main's and simulate's: the
    /// categories and side bets ran on one thread per core whatever was asked).
    #[test]
    fn every_package_step_gets_the_threads_asked_for() {
        let words = [
            "report",
            "--game",
            "double-joker",
            "--all",
            "--threads",
            "1",
        ];
        let cli = Cli::try_parse_from(words.into_iter().chain(["--out", "pkg"])).unwrap();
        let game = GameRules::load("double-joker").unwrap();
        let steps = package_steps(&cli.report, "double-joker", &game, Path::new("pkg/runs"));
        let dirs: Vec<&str> = steps.iter().map(|s| s.dir).collect();
        assert_eq!(
            dirs,
            ["exact-categories", "exact-bonus", "exact-main", "simulate"]
        );
        for step in &steps {
            let asked = step.args.windows(2).any(|w| w == ["--threads", "1"]);
            assert!(asked, "{}: {:?}", step.dir, step.args);
        }
    }
}
