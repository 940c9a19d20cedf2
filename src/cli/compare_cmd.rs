//! `paigow compare`: house-way variants on the same deals, ranked with paired intervals.
//!
//! Arguments become a validated [`CompareConfig`] before anything runs (the game, every way,
//! which side varies, counts); the report directory is created and checked up front. Reports are
//! written atomically, manifest last; the ranking goes to stdout.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::GameArg;
use super::simulate_cmd::{ThreadsArg, parse_count, prepare_out, write_report_files};
use crate::engine::compare::{self, CompareConfig, CompareTally, Variant, Vary};
use crate::files::sha256_hex;
use crate::report::{ConfigFile, fixed};
use crate::strategy::resolve::resolve;

#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    game: GameArg,
    /// The ways compared (2 to 12): house ways (shipped names or TOML files) or built-ins.
    #[arg(long, num_args = 1.., required = true)]
    ways: Vec<String>,
    /// Which side the ways set: the player's (default), the dealer's, or both.
    #[arg(long, value_enum, default_value = "player")]
    vary: VaryArg,
    /// The dealer's way (required with --vary player).
    #[arg(long)]
    dealer_way: Option<String>,
    /// The player's way (required with --vary dealer).
    #[arg(long)]
    player_way: Option<String>,
    /// Rounds to deal: 1000000, 1_000_000, 1e6 or 2.5e8.
    #[arg(long, short = 'n', value_parser = parse_count)]
    deals: u64,
    /// Seed; the same seed and chunk size deal the same cards as `paigow simulate`.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Report directory (default: reports/compare/GAME-vary-SIDE-WAYS-sSEED-nDEALS).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rounds per chunk, each with its own RNG stream (as in `simulate`).
    #[arg(long, default_value = "65536", value_parser = parse_count)]
    chunk_size: u64,
    /// Keep up to K hands the ways set differently (examples.csv, rule_groups.csv).
    #[arg(long, default_value_t = 0)]
    examples: usize,
    /// Dealer hands simulated per example to estimate each setting's EV.
    #[arg(long, default_value = "100000", value_parser = parse_count)]
    example_dealer_hands: u64,
    /// No ranking on stdout and no progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum VaryArg {
    Player,
    Dealer,
    Both,
}

/// `manifest.json` of a comparison.
#[derive(Serialize, Debug)]
struct CompareManifest {
    tool: String,
    version: String,
    git_commit: String,
    command_line: String,
    game: String,
    main_wager: String,
    vary: Vary,
    fixed_way: Option<String>,
    ways: Vec<String>,
    players_per_deal: u8,
    seed: u64,
    deals: u64,
    chunk_size: u64,
    chunks: u64,
    rng: String,
    shuffle: String,
    examples: usize,
    example_dealer_hands: u64,
    config_files: Vec<ConfigFile>,
    threads: usize,
    wall_seconds: f64,
    deals_per_second: f64,
}

pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    let cfg = config(args)?;
    let threads = args.threads.count();
    let pool = compare::thread_pool(threads)?;
    let out = args.out.clone().unwrap_or_else(|| default_out(args, &cfg));
    prepare_out(&out)?;
    let bar = super::progress::bar_unless_quiet(args.quiet, cfg.deals, "deals");
    let start = Instant::now();
    let tally = pool.install(|| compare::run(&cfg, &|n| bar.inc(n)))?;
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let manifest = manifest(args, &cfg, threads, wall);
    write_reports(&out, &cfg, &tally, &manifest)?;
    if !args.quiet {
        super::print_stdout(&ranking_text(&cfg, &tally, &manifest, &out))?;
    }
    Ok(())
}

/// The validated configuration: the game, each way resolved and loaded, the fixed side.
fn config(args: &CompareArgs) -> anyhow::Result<CompareConfig> {
    let game = args.game.load()?;
    let vary = match args.vary {
        VaryArg::Player => Vary::Player,
        VaryArg::Dealer => Vary::Dealer,
        VaryArg::Both => Vary::Both,
    };
    let fixed_name = fixed_way_name(args, vary)?;
    let fixed = match fixed_name {
        Some(name) => Some(resolve(name, &game)?.strategy),
        None => None,
    };
    let variants = args
        .ways
        .iter()
        .map(|label| variant(label, &game))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let cfg = CompareConfig {
        game,
        vary,
        fixed,
        variants,
        deals: args.deals,
        seed: args.seed,
        chunk_size: args.chunk_size,
        examples: args.examples,
        example_dealer_hands: args.example_dealer_hands,
    };
    cfg.validate()?;
    Ok(cfg)
}

/// The fixed side's way, checking that only the option the mode uses is given.
fn fixed_way_name(args: &CompareArgs, vary: Vary) -> anyhow::Result<Option<&str>> {
    let (dealer, player) = (args.dealer_way.as_deref(), args.player_way.as_deref());
    match (vary, dealer, player) {
        (Vary::Player, Some(d), None) => Ok(Some(d)),
        (Vary::Player, None, _) => {
            anyhow::bail!("--vary player needs --dealer-way (the fixed dealer's way)")
        }
        (Vary::Player, Some(_), Some(_)) => {
            anyhow::bail!(
                "--player-way is not used with --vary player: the --ways are the player's"
            )
        }
        (Vary::Dealer, None, Some(p)) => Ok(Some(p)),
        (Vary::Dealer, _, None) => {
            anyhow::bail!("--vary dealer needs --player-way (the fixed player's way)")
        }
        (Vary::Dealer, Some(_), Some(_)) => {
            anyhow::bail!(
                "--dealer-way is not used with --vary dealer: the --ways are the dealer's"
            )
        }
        (Vary::Both, None, None) => Ok(None),
        (Vary::Both, _, _) => {
            anyhow::bail!(
                "--vary both takes no --dealer-way or --player-way: each way plays both sides"
            )
        }
    }
}

/// A way by name, with its house way (for rule names) where it has one.
fn variant(label: &str, game: &crate::game::GameRules) -> anyhow::Result<Variant> {
    let resolved = resolve(label, game)?;
    Ok(Variant {
        label: label.to_string(),
        way: resolved.house_way().cloned(),
        strategy: resolved.strategy,
    })
}

/// `reports/compare/GAME-vary-SIDE-WAYS-sSEED-nDEALS`, names reduced to file stems.
fn default_out(args: &CompareArgs, cfg: &CompareConfig) -> PathBuf {
    let stem = |s: &str| {
        Path::new(s)
            .file_stem()
            .map_or_else(|| s.to_string(), |f| f.to_string_lossy().replace(':', "_"))
    };
    let ways: Vec<String> = args.ways.iter().map(|w| stem(w)).collect();
    let side = format!("{:?}", cfg.vary).to_lowercase();
    PathBuf::from("reports").join("compare").join(format!(
        "{}-vary-{side}-{}-s{}-n{}",
        stem(&cfg.game.origin),
        ways.join("-"),
        cfg.seed,
        cfg.deals
    ))
}

/// Writes `compare.csv`, with `--examples` also `examples.csv` and `rule_groups.csv`, and
/// `manifest.json` last.
fn write_reports(
    out: &Path,
    cfg: &CompareConfig,
    tally: &CompareTally,
    manifest: &CompareManifest,
) -> anyhow::Result<()> {
    let mut files: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut csv = Vec::new();
    compare::write_csv(&mut csv, cfg, tally)?;
    files.push(("compare.csv", csv));
    if cfg.examples > 0 {
        let (mut examples, mut groups) = (Vec::new(), Vec::new());
        compare::write_examples(&mut examples, cfg, tally)?;
        compare::write_rule_groups(&mut groups, cfg, tally)?;
        files.push(("examples.csv", examples));
        files.push(("rule_groups.csv", groups));
    }
    write_report_files(out, files, manifest)
}

fn manifest(args: &CompareArgs, cfg: &CompareConfig, threads: usize, wall: f64) -> CompareManifest {
    let fixed_way = args.dealer_way.clone().or_else(|| args.player_way.clone());
    CompareManifest {
        tool: "paigow".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: super::provenance::git_commit(),
        command_line: super::provenance::command_line(),
        game: cfg.game.name.clone(),
        main_wager: cfg.game.main_wager.describe(),
        vary: cfg.vary,
        config_files: config_files(cfg, fixed_way.as_deref(), &args.ways),
        fixed_way,
        ways: args.ways.clone(),
        players_per_deal: 1,
        seed: cfg.seed,
        deals: cfg.deals,
        chunk_size: cfg.chunk_size,
        chunks: cfg.chunks(),
        rng: crate::cards::deal::RNG_NAME.to_string(),
        shuffle: crate::cards::deal::SHUFFLE_NAME.to_string(),
        examples: cfg.examples,
        example_dealer_hands: cfg.example_dealer_hands,
        threads,
        wall_seconds: (wall * 1000.0).round() / 1000.0,
        deals_per_second: (cfg.deals as f64 / wall).round(),
    }
}

/// The game file and every way given as a file or shipped name, each with its SHA-256.
fn config_files(cfg: &CompareConfig, fixed: Option<&str>, ways: &[String]) -> Vec<ConfigFile> {
    let mut files = vec![ConfigFile {
        role: "game".to_string(),
        origin: cfg.game.origin.clone(),
        sha256: Some(sha256_hex(cfg.game.text.as_bytes())),
    }];
    let fixed_role = match cfg.vary {
        Vary::Dealer => "player way",
        _ => "dealer way",
    };
    let roles = fixed
        .map(|f| (fixed_role, f))
        .into_iter()
        .chain(ways.iter().map(|w| ("compared way", w.as_str())));
    for (role, way) in roles {
        let file = super::simulate_cmd::way_file(way);
        files.push(ConfigFile {
            role: role.to_string(),
            origin: file
                .as_ref()
                .map_or_else(|| way.to_string(), |(_, o)| o.clone()),
            sha256: file.map(|(text, _)| sha256_hex(text.as_bytes())),
        });
    }
    files
}

/// The ranking, best first, each way's difference from the one above it and from the best.
fn ranking_text(
    cfg: &CompareConfig,
    tally: &CompareTally,
    m: &CompareManifest,
    out: &Path,
) -> String {
    let pct = |x: f64| format!("{:+.4}%", 100.0 * x);
    let wager = &cfg.game.main_wager;
    let order = compare::ranking(tally, wager);
    let fixed_side = m
        .fixed_way
        .as_deref()
        .map_or(String::new(), |f| match cfg.vary {
            Vary::Dealer => format!(", player way {f}"),
            _ => format!(", dealer way {f}"),
        });
    let mut text = format!(
        "{game} ({rules}): {vary}{fixed_side}\n\
         {deals} deals, seed {seed}, {threads} threads: {wall:.2} s, {rate:.0} deals/s\n\
         rank  way  player EV  [95% CI]  house edge\n",
        game = cfg.game.name,
        rules = m.main_wager,
        vary = match cfg.vary {
            Vary::Player => "the player's way varies",
            Vary::Dealer => "the dealer's way varies",
            Vary::Both => "each way sets both hands",
        },
        deals = cfg.deals,
        seed = cfg.seed,
        threads = m.threads,
        wall = m.wall_seconds,
        rate = m.deals_per_second,
    );
    for (rank, &i) in order.iter().enumerate() {
        let s = compare::variant_stats(tally, i, wager);
        text += &format!(
            "{:>4}  {}  {}  [{}, {}]  {:.4}%\n",
            rank + 1,
            cfg.variants[i].label,
            pct(s.player_ev),
            pct(s.ci95.low),
            pct(s.ci95.high),
            -100.0 * s.player_ev
        );
    }
    text += "paired differences (each way against the one ranked above it and the best), 95% CI:\n";
    for r in 1..order.len() {
        text += &difference_line(cfg, tally, (r - 1, order[r - 1]), (r, order[r]));
        if r > 1 {
            text += &difference_line(cfg, tally, (0, order[0]), (r, order[r]));
        }
    }
    text + &format!("reports in {}\n", out.display())
}

/// One line: `#i A - #j B: diff [low, high], significant or not, paired/independent width`,
/// for the variants `hi` and `lo` ranked `hi_rank` and `lo_rank` (from 0).
fn difference_line(
    cfg: &CompareConfig,
    tally: &CompareTally,
    (hi_rank, hi): (usize, usize),
    (lo_rank, lo): (usize, usize),
) -> String {
    let (a, b) = (hi.min(lo), hi.max(lo));
    let p = compare::pairs(cfg.variants.len())
        .position(|pair| pair == (a, b))
        .expect("every pair is tallied");
    let s = compare::pair_stats(tally, cfg.vary, p, (a, b), &cfg.game.main_wager);
    let sign = if hi == a { 1.0 } else { -1.0 };
    let (low, high) = if sign > 0.0 {
        (s.ci95.low, s.ci95.high)
    } else {
        (-s.ci95.high, -s.ci95.low)
    };
    let verdict = if s.is_significant() {
        "significant"
    } else {
        "not significant"
    };
    let ratio = match s.independent_se > 0.0 {
        true => fixed(s.se / s.independent_se)[..6].to_string(),
        false => "-".to_string(),
    };
    format!(
        "  #{} {} - #{} {}: {:+.4}% [{:+.4}%, {:+.4}%] {verdict}; set differently {:.4}%; paired/independent width {ratio}\n",
        hi_rank + 1,
        cfg.variants[hi].label,
        lo_rank + 1,
        cfg.variants[lo].label,
        100.0 * sign * s.difference + 0.0,
        100.0 * low + 0.0,
        100.0 * high + 0.0,
        100.0 * s.set_differently,
    )
}
