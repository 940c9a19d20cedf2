//! Everything the tool writes, the tool accepts: a property test over generated games.
//!
//! A seeded generator writes a valid game file (every main-wager option: no commission, a
//! percent of wins, a flat collection on every bet; each qualification rule; an overqualifier;
//! a double copy that pushes; an exposed dealer; 52, 53 and 54 cards and every ranking option; up to four side bets, shipped
//! or generated paytables of seven-card, dealer, Envy and setting events) and picks valid ways
//! (the shipped house ways, max-back, max-front, and exposed where the dealer sets first). For
//! each game every command that writes a run runs through the real binary: `simulate` (1 to 6
//! players, as few as one deal), `compare` (each side varied), `table` (where the game is an
//! even-money 53- or 54-card game), `exact main --ranks` on a reduced deck, `cost-way --ranks`
//! (on half the games: a shipped way costed rule by rule against a shipped dealer's way) and
//! `exact bonus`;
//! then `paigow report` reads all of them and must succeed, and every figure of every run must
//! be in the report as written: each returns row (label, pays, count, probability, 1 in X,
//! return) and each summary's house edge and SD, in the Markdown and in the HTML; each
//! comparison's EVs and differences; each table CSV row, cell for cell; each rule's cost and
//! each summary figure of the cost-way run.
//!
//! Size and seed from the environment, so that the same test is the suite's check and the long
//! run: `PAIGOW_PROPERTY_GAMES` (default 32), `PAIGOW_PROPERTY_SEED` (the first game's seed,
//! default 1; game i is generated from seed SEED + i alone) and `PAIGOW_PROPERTY_THREADS` (games
//! run at once, default one per core); `PAIGOW_PROPERTY_SECONDS`, if set, stops drawing games
//! after that many seconds (the summary line says how many were checked). A failure names its
//! seed; one game again:
//! `PAIGOW_PROPERTY_SEED=S PAIGOW_PROPERTY_GAMES=1 cargo test --release --test suite
//! self_consistency`. The long run on another machine, from the copied binaries, with no
//! toolchain there: `tests/longrun.sh stage` here, `tests/longrun.sh run GAMES SEED` there.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use paigow::game::GameRules;
use paigow::game::paytable::{BetKind, Paytable};
use paigow::game::wager::Commission;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::common::cli::paigow;
use crate::common::report_rows::{
    csv_rows, field, html_rows, markdown_rows, shown, shows_returns_row,
};

/// The shipped house ways and the two built-ins that need nothing.
const WAYS: [&str; 10] = [
    "foxwoods",
    "ballys-ac",
    "canterbury-park",
    "double-joker-dealer",
    "mgm-grand",
    "harrahs-reno",
    "gold-star-school",
    "frixo-summary",
    "max-back",
    "max-front",
];

/// Half the last digit of a percent shown to 4 decimals, as a fraction times 100 (a shown figure
/// may round half up: -0.3749705 shows as -37.4971%), with room for the float's error.
const HALF_LAST_DIGIT: f64 = 5e-5 + 1e-9;

/// The shipped paytables.
const PAYTABLES: [&str; 8] = [
    "big-hand-bonus",
    "joker-bonus",
    "emperors-challenge",
    "pai-gow-mania-seven",
    "pai-gow-mania-three",
    "fortune",
    "fortune-envy",
    "queens-dragon",
];

/// Game names that test quoting, escaping and file names in reports.
const NAMES: [&str; 6] = [
    "Lab game",
    "Jeu d'essai à l'été",
    "A & B <table> | \\\"pipes\\\"",
    "*stars* _under_ `ticks` [link](x)",
    "牌九 ♠♥",
    "Ünïcode — dash",
];

/// A generated game: its file, and what the commands need to know of it.
struct Game {
    path: PathBuf,
    rules: GameRules,
}

/// One game's file from `seed`, written in `dir` with any paytable it makes. `None` when the
/// library refuses what was drawn (a paytable whose line can never pay, a bet the deck cannot
/// make): the generator draws freely and the library says what is valid.
fn generate(seed: u64, dir: &Path) -> Option<Game> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let deck: u8 = *[52u8, 53, 54].choose(&mut rng).unwrap();
    let joker = if rng.random_bool(0.3) { "wild" } else { "bug" };
    let five_aces = match joker == "bug" && rng.random_bool(0.3) {
        true => "equal_royal",
        false => "above_royal",
    };
    let wheel = *["second_highest", "lowest"].choose(&mut rng).unwrap();
    let mut name = NAMES.choose(&mut rng).unwrap().to_string();
    if rng.random_bool(0.1) {
        name = "Long name ".repeat(rng.random_range(5..25));
    }
    let mut text = String::new();
    writeln!(text, "name = \"{name} {seed}\"").unwrap();
    if rng.random_bool(0.5) {
        writeln!(text, "source = \"generated, seed {seed}\"").unwrap();
    }
    writeln!(text, "deck = {deck}\njoker = \"{joker}\"").unwrap();
    writeln!(text, "five_aces = \"{five_aces}\"\nwheel = \"{wheel}\"").unwrap();
    let bets = side_bets(&mut rng, dir, deck);
    if !bets.is_empty() {
        let quoted: Vec<String> = bets.iter().map(|b| format!("\"{b}\"")).collect();
        writeln!(text, "side_bets = [{}]", quoted.join(", ")).unwrap();
    }
    if rng.random_bool(0.9) {
        text.push_str(&main_wager(&mut rng));
    }
    let path = dir.join("game.toml");
    fs::write(&path, &text).unwrap();
    let rules = GameRules::load(path.to_str().unwrap()).ok()?;
    Some(Game { path, rules })
}

/// A `[main_wager]` table: every key drawn, each sometimes left out.
fn main_wager(rng: &mut Xoshiro256PlusPlus) -> String {
    let mut text = "[main_wager]\n".to_string();
    let percents = [0.01, 0.5, 1.0, 2.5, 5.0, 10.0, 33.33, 99.99];
    match rng.random_range(0..4) {
        0 => {}
        1 => text.push_str("commission = \"none\"\n"),
        kind => {
            let kind = ["percent_of_win", "flat_per_bet"][kind - 2];
            let percent = percents.choose(rng).unwrap();
            writeln!(
                text,
                "commission = \"{kind}\"\ncommission_percent = {percent}"
            )
            .unwrap();
        }
    }
    if rng.random_bool(0.7) {
        let rules = [
            "always",
            "pair",
            "not_queen_high",
            "not_ace_high",
            "not_nine_high_front",
        ];
        let rule = rules.choose(rng).unwrap();
        writeln!(text, "dealer_qualifies = \"{rule}\"").unwrap();
    }
    if rng.random_bool(0.3) {
        writeln!(text, "overqualifier = {}", rng.random_range(1..=4)).unwrap();
    }
    // A double copy that pushes is refused with an exposed dealer (the game file says so).
    if rng.random_bool(0.3) {
        text.push_str("dealer_exposed = true\n");
    } else if rng.random_bool(0.3) {
        text.push_str("double_copy = \"push\"\n");
    }
    text
}

/// Up to four side bets: shipped names, and paytables written in `dir`, each a bet the deck can
/// pay (others are left out here, so that most games drawn are valid).
fn side_bets(rng: &mut Xoshiro256PlusPlus, dir: &Path, deck: u8) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut bets: Vec<Paytable> = Vec::new();
    for i in 0..rng.random_range(0..=4) {
        let name = match rng.random_bool(0.6) {
            true => PAYTABLES.choose(rng).unwrap().to_string(),
            false => {
                let file = format!("bet-{i}.toml");
                fs::write(dir.join(&file), paytable(rng, i)).unwrap();
                file
            }
        };
        let Ok(bet) =
            Paytable::load(dir.join(&name).to_str().unwrap()).or_else(|_| Paytable::load(&name))
        else {
            continue;
        };
        let fits = bet.check_deck(deck - 52, usize::from(deck)).is_ok();
        if fits && bets.iter().all(|b| b.name != bet.name) {
            names.push(name);
            bets.push(bet);
        }
    }
    names
}

/// A paytable of one kind: seven-card (on the player's, the dealer's or, as an Envy bonus,
/// every other player's hand), or judged on the player's setting; lines in pay order.
fn paytable(rng: &mut Xoshiro256PlusPlus, i: usize) -> String {
    let seven = [
        "seven_card_natural_straight_flush",
        "five_aces",
        "royal_flush",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
        "two_pair",
    ];
    let setting = [
        "four_of_a_kind_behind_plus_pair",
        "four_of_a_kind_behind",
        "full_house_behind_plus_pair",
        "full_house_behind",
        "flush_behind",
    ];
    let (events, judged_on): (&[&str], &str) = match rng.random_range(0..4) {
        0 => (&setting, ""),
        1 => (&seven, "judged_on = \"dealer\"\n"),
        2 => (&seven, "judged_on = \"other_players\"\n"),
        _ => (&seven, ""),
    };
    let envy = judged_on.contains("other");
    let mut text = format!("name = \"Generated bet {i} <&>\"\n{judged_on}");
    let amount = rng.random_range(1..=4);
    let mut chosen: Vec<&str> = events.sample(rng, amount).copied().collect();
    chosen.sort_by_key(|e| events.iter().position(|x| x == e));
    for event in chosen {
        let pays = rng.random_range(1..=200);
        let pays = match envy {
            true => format!("\"{pays} to 5\""),
            false => pays.to_string(),
        };
        writeln!(text, "\n[[line]]\nevent = \"{event}\"\npays = {pays}").unwrap();
        if rng.random_bool(0.2) {
            text.push_str("label = \"A | label, with \\\"quotes\\\" & <tags>\"\n");
        }
    }
    text
}

/// The runs of one game: each command that writes a run, as arguments after `paigow`, with the
/// directory it writes (relative to the game's folder).
fn commands(game: &Game, seed: u64) -> Vec<(String, Vec<String>)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    let rules = &game.rules;
    let path = game.path.to_str().unwrap().to_string();
    let exposed = rules.main_wager.dealer_exposed;
    let pick = |rng: &mut Xoshiro256PlusPlus| WAYS.choose(rng).unwrap().to_string();
    let player = |rng: &mut Xoshiro256PlusPlus| match exposed && rng.random_bool(0.3) {
        true => "exposed".to_string(),
        false => pick(rng),
    };
    let deals =
        |rng: &mut Xoshiro256PlusPlus| [1u32, 2, 3, 50, 200, 500].choose(rng).unwrap().to_string();
    let mut runs = Vec::new();
    let common = |rng: &mut Xoshiro256PlusPlus, out: &str| {
        let seed = rng.random_range(0..1000u32).to_string();
        let mut args = vec!["--seed".into(), seed, "--threads".into(), "1".into()];
        args.extend(["--quiet".into(), "--out".into(), out.into()]);
        args
    };
    let mut simulate: Vec<String> = ["simulate", "--game", &path].map(String::from).to_vec();
    let players = rng.random_range(1..=6u8).to_string();
    simulate.extend(["--player-way".into(), player(&mut rng)]);
    simulate.extend(["--dealer-way".into(), pick(&mut rng)]);
    simulate.extend([
        "--players".into(),
        players,
        "--deals".into(),
        deals(&mut rng),
    ]);
    simulate.extend(common(&mut rng, "simulate"));
    runs.push(("simulate".to_string(), simulate));

    let mut compare: Vec<String> = ["compare", "--game", &path].map(String::from).to_vec();
    let mut ways: Vec<&str> = WAYS.to_vec();
    ways.shuffle(&mut rng);
    ways.truncate(rng.random_range(2..=4));
    match rng.random_range(0..3) {
        0 => compare.extend(["--dealer-way".into(), pick(&mut rng)]),
        1 => compare.extend(["--vary", "dealer", "--player-way"].map(String::from)),
        _ => compare.extend(["--vary".into(), "both".into()]),
    }
    if compare.last().is_some_and(|a| a == "--player-way") {
        compare.push(player(&mut rng));
    }
    compare.push("--ways".into());
    compare.extend(ways.iter().map(|w| w.to_string()));
    compare.extend(["--deals".into(), deals(&mut rng)]);
    compare.extend(common(&mut rng, "compare"));
    runs.push(("compare".to_string(), compare));

    let even_money =
        rules.main_wager.commission == Commission::None && rules.main_wager.overqualifier.is_none();
    if even_money && rules.deck.size() >= 53 && !exposed {
        runs.push(("table".to_string(), table(&mut rng, &path, pick, &common)));
    }

    let mut ranks: Vec<char> = "AKQJT98765432".chars().collect();
    ranks.shuffle(&mut rng);
    ranks.truncate(rng.random_range(4..=5));
    let mut exact: Vec<String> = ["exact", "main", "--game", &path]
        .map(String::from)
        .to_vec();
    exact.extend(["--player-way".into(), player(&mut rng)]);
    exact.extend(["--dealer-way".into(), pick(&mut rng)]);
    exact.extend(["--ranks".into(), ranks.into_iter().collect()]);
    exact.extend(["--threads", "1", "--quiet", "--out", "exact-main"].map(String::from));
    runs.push(("exact-main".to_string(), exact));

    if rng.random_bool(0.5) {
        runs.push(("cost-way".to_string(), cost_way(&mut rng, &path, pick)));
    }

    if !rules.side_bets.is_empty() {
        let mut bonus: Vec<String> = ["exact", "bonus", "--game", &path]
            .map(String::from)
            .to_vec();
        if rules.side_bets.iter().any(|b| b.kind == BetKind::Setting) {
            bonus.extend(["--player-way".into(), pick(&mut rng)]);
        }
        bonus.extend(["--quiet", "--out", "exact-bonus"].map(String::from));
        runs.push(("exact-bonus".to_string(), bonus));
    }
    runs
}

/// A `cost-way` run on a reduced deck of four ranks: a shipped way against a shipped dealer's way
/// (`max-back` and `max-front` have no rules to cost), sometimes with the house's side.
fn cost_way(
    rng: &mut Xoshiro256PlusPlus,
    path: &str,
    pick: impl Fn(&mut Xoshiro256PlusPlus) -> String,
) -> Vec<String> {
    let house = |rng: &mut Xoshiro256PlusPlus| loop {
        let way = pick(rng);
        if !way.starts_with("max-") {
            return way;
        }
    };
    let mut ranks: Vec<char> = "AKQJT98765432".chars().collect();
    ranks.shuffle(rng);
    ranks.truncate(4);
    let mut args: Vec<String> = [
        "cost-way".to_string(),
        house(rng),
        "--game".into(),
        path.into(),
    ]
    .to_vec();
    args.extend(["--dealer-way".into(), pick(rng)]);
    args.extend(["--ranks".into(), ranks.into_iter().collect()]);
    if rng.random_bool(0.3) {
        args.push("--both".into());
    }
    args.extend(["--threads", "1", "--quiet", "--out", "cost-way"].map(String::from));
    args
}

/// A `table` run: a player-dealer and some bets on seven seats.
fn table(
    rng: &mut Xoshiro256PlusPlus,
    path: &str,
    pick: impl Fn(&mut Xoshiro256PlusPlus) -> String,
    common: &impl Fn(&mut Xoshiro256PlusPlus, &str) -> Vec<String>,
) -> Vec<String> {
    let dealer = rng.random_range(0..7);
    let bet_seat = (dealer + rng.random_range(1..7)) % 7;
    let seats: Vec<String> = (0..7)
        .map(|s| match s {
            _ if s == dealer => "D".to_string(),
            _ if s != bet_seat && rng.random_bool(0.5) => "-".to_string(),
            _ if rng.random_bool(0.3) => {
                format!("{}+{}", rng.random_range(1..50), rng.random_range(1..20))
            }
            _ => rng.random_range(1..100).to_string(),
        })
        .collect();
    let bank = match rng.random_bool(0.5) {
        true => "unlimited".to_string(),
        false => rng.random_range(20..500).to_string(),
    };
    let collection = *["none", "1", "2.5%", "1=1,60=2.5"].choose(rng).unwrap();
    let mut args: Vec<String> = ["table", "--game", path].map(String::from).to_vec();
    args.extend(["--seats".into(), seats.join(","), "--bank".into(), bank]);
    args.extend(["--collection".into(), collection.into()]);
    args.extend([
        "--player-way".into(),
        pick(rng),
        "--dealer-way".into(),
        pick(rng),
    ]);
    let rounds = [2u32, 3, 100, 400].choose(rng).unwrap().to_string();
    args.extend(["--rounds".into(), rounds]);
    args.extend(common(rng, "table"));
    args
}

/// Runs `args` in `dir`; the command line and its error on failure.
fn run(dir: &Path, args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let output = paigow().current_dir(dir).args(args).output().unwrap();
    if std::env::var_os("PAIGOW_PROPERTY_VERBOSE").is_some() {
        eprintln!(
            "{:.2} s: paigow {}",
            started.elapsed().as_secs_f64(),
            quoted(args)
        );
    }
    match output.status.success() {
        true => Ok(()),
        false => Err(format!(
            "paigow {} failed: {}",
            quoted(args),
            String::from_utf8_lossy(&output.stderr).trim()
        )),
    }
}

fn quoted(args: &[String]) -> String {
    let quote = |a: &String| match a.contains([' ', '|', '"', ',', ';', '<', '&']) {
        true => format!("'{a}'"),
        false => a.clone(),
    };
    args.iter().map(quote).collect::<Vec<_>>().join(" ")
}

/// One game: generate it, run its commands and the report, compare the figures.
fn check_game(seed: u64, root: &Path) -> Result<bool, String> {
    let dir = root.join(format!("game-{seed}"));
    fs::create_dir_all(&dir).unwrap();
    let Some(game) = generate(seed, &dir) else {
        fs::remove_dir_all(&dir).unwrap();
        return Ok(false);
    };
    let runs = commands(&game, seed);
    for (_, args) in &runs {
        run(&dir, args)?;
    }
    let mut report: Vec<String> = vec!["report".into()];
    report.extend(runs.iter().map(|(out, _)| out.clone()));
    report.extend(["--out", "report", "--quiet"].map(String::from));
    run(&dir, &report)?;
    let md = fs::read_to_string(dir.join("report/report.md")).unwrap();
    let html = fs::read_to_string(dir.join("report/report.html")).unwrap();
    let shown_in = [
        ("report.md", markdown_rows(&md)),
        ("report.html", html_rows(&html)),
    ];
    for (run, _) in &runs {
        let run_dir = dir.join(run);
        for (page, rows) in &shown_in {
            let missing = match run.as_str() {
                "compare" => compare_missing(&run_dir, rows),
                "table" => table_missing(&run_dir, rows),
                "cost-way" => cost_way_missing(&run_dir, rows),
                _ => {
                    returns_missing(&run_dir, rows).or_else(|| summary_missing(&run_dir, run, rows))
                }
            };
            if let Some(what) = missing {
                return Err(format!("{page} does not show {run}'s {what}"));
            }
        }
    }
    fs::remove_dir_all(&dir).unwrap();
    Ok(true)
}

/// The first returns row of a run that no row of the report shows.
fn returns_missing(run: &Path, rows: &[Vec<String>]) -> Option<String> {
    let returns = csv_rows(&run.join("returns.csv"));
    (returns[1..].iter())
        .find(|row| !shows_returns_row(rows, &returns[0], row))
        .map(|row| format!("returns row {row:?}"))
}

/// The first summary row whose house edge or SD the report's summary line does not show.
fn summary_missing(run_dir: &Path, run: &str, rows: &[Vec<String>]) -> Option<String> {
    let summary = csv_rows(&run_dir.join("summary.csv"));
    summary[1..].iter().find_map(|row| {
        let wager = field(&summary[0], row, "wager");
        let name = if wager == "main" { "main wager" } else { wager };
        let edge: f64 = field(&summary[0], row, "house_edge").parse().ok()?;
        let sd = field(&summary[0], row, "sd");
        // The summary's line: wager, (game,) method, EV, house edge, hit, SD, run (the report
        // names its copy of the run, under runs/).
        let copy = format!("runs/{run}");
        let line = (rows.iter())
            .find(|r| r.len() >= 7 && r[0] == name && r.last().is_some_and(|l| *l == copy));
        let shows = line.is_some_and(|l| {
            let n = l.len();
            shown(&l[n - 4]).is_some_and(|e| (e - 100.0 * edge).abs() <= HALF_LAST_DIGIT)
                && l[n - 2] == sd
        });
        (!shows).then(|| format!("summary row {row:?} (line {line:?})"))
    })
}

/// The first comparison figure the report does not show: a way's EV, or a pair's difference.
fn compare_missing(run: &Path, rows: &[Vec<String>]) -> Option<String> {
    let compare = csv_rows(&run.join("compare.csv"));
    let head = &compare[0];
    compare[1..].iter().find_map(|row| {
        let get = |c: &str| field(head, row, c);
        let (label, column) = match get("kind") {
            "variant" => (get("a").to_string(), "player_ev"),
            _ => (format!("{} - {}", get("a"), get("b")), "ev_difference"),
        };
        let value: f64 = get(column).parse().ok()?;
        let shows = (rows.iter().filter(|r| r.len() > 2 && r[0] == label))
            .any(|r| shown(&r[1]).is_some_and(|v| (v - 100.0 * value).abs() <= HALF_LAST_DIGIT));
        (!shows).then(|| format!("{column} of {label} ({value})"))
    })
}

/// The first rule of a cost-way run whose cost the report does not show beside its name (in
/// percent to 5 decimals), or the first summary figure it does not show beside its description
/// (a count as written, the gap to 5 decimals, an EV to 4).
fn cost_way_missing(run: &Path, rows: &[Vec<String>]) -> Option<String> {
    let close_to = |cell: &str, value: f64, decimals: i32| {
        let half = HALF_LAST_DIGIT / 10f64.powi(decimals - 4);
        shown(cell).is_some_and(|v| (v - 100.0 * value).abs() <= half)
    };
    let close = |cell: &str, value: f64| close_to(cell, value, 5);
    let rules = csv_rows(&run.join("rules.csv"));
    let missing = rules[1..].iter().find_map(|row| {
        let (name, cost) = (field(&rules[0], row, "name"), field(&rules[0], row, "cost"));
        let cost: f64 = cost.parse().ok()?;
        let shows = (rows.iter()).any(|r| r.len() == 8 && r[1] == name && close(&r[6], cost));
        (!shows).then(|| format!("rules row {row:?}"))
    });
    let summary = csv_rows(&run.join("summary.csv"));
    missing.or_else(|| {
        summary[1..].iter().find_map(|row| {
            let (description, value) = (&row[1], &row[2]);
            let shows = (rows.iter()).any(|r| {
                r.len() == 2
                    && r[0] == *description
                    && (value.parse::<f64>().ok()).map_or(r[1] == "-", |v| {
                        match (row[0].as_str(), value.contains('.')) {
                            (_, false) => shown(&r[1]) == Some(v),
                            ("gap", true) => close(&r[1], v),
                            _ => close_to(&r[1], v, 4),
                        }
                    })
            });
            (!shows).then(|| format!("summary row {row:?}"))
        })
    })
}

/// The first row of a table run's CSV files that no row of the report shows cell for cell
/// (`summary.csv` turned on its side: a row per column).
fn table_missing(run: &Path, rows: &[Vec<String>]) -> Option<String> {
    let same = |shown_cell: &String, written: &String| {
        shown_cell.trim() == written.trim()
            || shown(shown_cell).is_some_and(|v| written.parse::<f64>().is_ok_and(|w| v == w))
    };
    let shows = |cells: &[String]| {
        rows.iter()
            .any(|r| r.len() == cells.len() && r.iter().zip(cells).all(|(a, b)| same(a, b)))
    };
    let summary = csv_rows(&run.join("summary.csv"));
    let column = |j: usize| -> Vec<String> { summary.iter().map(|r| r[j].clone()).collect() };
    if let Some(j) = (0..summary[0].len()).find(|&j| !shows(&column(j))) {
        return Some(format!("summary.csv column {:?}", column(j)));
    }
    ["outcomes.csv", "breakeven.csv", "rotation.csv"]
        .iter()
        .find_map(|file| {
            let csv = csv_rows(&run.join(file));
            (csv[1..].iter())
                .find(|row| !shows(row))
                .map(|row| format!("{file} row {row:?}"))
        })
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v}: expected a whole number"))
    })
}

#[test]
fn every_run_of_a_generated_game_makes_a_report_with_its_figures() {
    let games = env_number("PAIGOW_PROPERTY_GAMES", 32);
    let first = env_number("PAIGOW_PROPERTY_SEED", 1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let threads = env_number("PAIGOW_PROPERTY_THREADS", cores).clamp(1, games.max(1));
    let root = tempfile::tempdir().unwrap();
    // A failed game's folder is kept (and named) for a look at what it wrote.
    let root = root.keep();
    let next = AtomicU64::new(first);
    let (checked, refused) = (AtomicU64::new(0), AtomicU64::new(0));
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let seconds = env_number("PAIGOW_PROPERTY_SECONDS", u64::MAX);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    if seed >= first + games || started.elapsed().as_secs() >= seconds {
                        break;
                    }
                    match check_game(seed, &root) {
                        Ok(true) => checked.fetch_add(1, Ordering::Relaxed),
                        Ok(false) => refused.fetch_add(1, Ordering::Relaxed),
                        Err(e) => {
                            failures.lock().unwrap().push(format!("seed {seed}: {e}"));
                            0
                        }
                    };
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    if failures.is_empty() {
        fs::remove_dir_all(&root).unwrap();
    }
    let (checked, refused) = (checked.into_inner(), refused.into_inner());
    let elapsed = started.elapsed().as_secs_f64();
    eprintln!(
        "self-consistency: seeds from {first}: {checked} games checked, {} failed, {refused} \
         drawn games refused by the library, in {elapsed:.1} s on {threads} threads ({:.2} \
         games/s)",
        failures.len(),
        (checked as f64 + failures.len() as f64) / elapsed
    );
    assert!(
        failures.is_empty(),
        "{} of {games} games failed (their folders are in {}):\n{}",
        failures.len(),
        root.display(),
        failures.join("\n")
    );
    assert!(
        refused * 4 <= checked + refused,
        "the generator drew {refused} games of {games} that the library refuses"
    );
}

/// The repro: a flat collection on every bet is part of each outcome's pay, so the
/// return table's lines count each bet once and `report` reads the run back.
#[test]
fn a_flat_collection_on_every_bet_makes_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let game = "name = \"flat\"\ndeck = 53\n[main_wager]\ncommission = \"flat_per_bet\"\n\
                commission_percent = 5\n";
    fs::write(dir.path().join("flat.toml"), game).unwrap();
    let args = |words: &str| words.split(' ').map(String::from).collect::<Vec<_>>();
    let ways = "--game flat.toml --player-way max-back --dealer-way foxwoods";
    let simulate = format!("simulate {ways} --deals 1e3 --players 6 --quiet --out out");
    run(dir.path(), &args(&simulate)).unwrap();
    let exact = format!("exact main {ways} --ranks AKQJT --threads 1 --quiet --out exact");
    run(dir.path(), &args(&exact)).unwrap();
    run(dir.path(), &args("report out exact --out rep --quiet")).unwrap();
    let returns = fs::read_to_string(dir.path().join("out/returns.csv")).unwrap();
    assert!(
        returns.contains("main,push,Push: one hand each,-0.0500,"),
        "{returns}"
    );
    assert!(
        returns.contains("main,win both,Player wins both hands,0.9500,"),
        "{returns}"
    );
    assert!(
        returns.contains("main,lose,Player loses,-1.0500,"),
        "{returns}"
    );
}
