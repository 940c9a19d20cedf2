//! `paigow set` (set hands by a house way) and `paigow check-way` (validate and lint).

use std::io::{BufRead, Write};

use clap::{Args, ValueEnum};

use super::help::{Accepts, Help};
use super::{GameArg, parse_cards};
use crate::cards::Card;
use crate::eval::Evaluator;
use crate::eval::split::split_cards;
use crate::game::GameRules;
use crate::strategy::Strategy;
use crate::strategy::optimal::best::ShapeOptimal;
use crate::strategy::optimal::pricer::HandPricer;
use crate::strategy::optimal::{self, FullDeckOptimal};
use crate::strategy::resolve::{self, OptimalKind};
use crate::strategy::way::{HouseWay, lint};

mod exact_report;
use exact_report::{EXACT_CSV_HEADER, exact_report};

/// The end of `paigow set --help`.
const SET_HELP: Help = Help {
    examples: &[
        (
            "One hand set by the Foxwoods way, with every rule tried",
            "paigow set As Ad 9h 9c 5s 3d Jk --way foxwoods --explain",
        ),
        (
            "Every legal setting of a hand with its exact EV against the Foxwoods dealer",
            "paigow set As Ad 9h 9c 5s 3d Jk --way optimal:foxwoods --exact",
        ),
        (
            "One hand per line from stdin, as CSV",
            "paigow set --way foxwoods --format csv < hands.txt > settings.csv",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::Ways],
    writes: "nothing: the settings on stdout (full-deck-optimal:D builds its dealer table once \
             into the cache: $PAIGOW_CACHE_DIR, else $XDG_CACHE_HOME/paigow, else \
             ~/.cache/paigow; optimal:D prices each hand's shape, from a cached price table when \
             there is one).",
};

/// The end of `paigow check-way --help`.
const CHECK_WAY_HELP: Help = Help {
    examples: &[
        (
            "Lint two shipped ways",
            "paigow check-way foxwoods ballys-ac",
        ),
        (
            "A way of your own on the Double Joker deck, warnings as errors",
            "paigow check-way my-way.toml --game double-joker --strict",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::HouseWays],
    writes: "nothing: errors and lint findings on stderr.",
};

#[derive(Args, Debug)]
#[command(after_long_help = SET_HELP.render())]
pub struct SetArgs {
    #[command(flatten)]
    game: GameArg,
    /// A shipped house way (see Accepts in --help), max-back, max-front, a house-way TOML file,
    /// or optimal:D (the highest EV against dealer way D).
    #[arg(long, short = 'w')]
    way: String,
    /// Show every rule tried and why it did or did not apply (optimal:D: every legal setting with
    /// its hand shape's exact EV; full-deck-optimal:D: every undominated setting with its EV
    /// against the full-deck dealer table).
    #[arg(long)]
    explain: bool,
    /// Every legal setting with its exact EV and win/push/loss against every dealer hand of the
    /// remaining cards (card removal included), the dealer setting by --dealer-way.
    #[arg(long)]
    exact: bool,
    /// The dealer's way for --exact [default: D of optimal:D, else the --way itself].
    #[arg(long, requires = "exact")]
    dealer_way: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// 7 cards, e.g. `As Ah Kd Qc 9s 5h Jk`; without them, one hand per line from stdin.
    cards: Vec<String>,
}

#[derive(Args, Debug)]
#[command(after_long_help = CHECK_WAY_HELP.render())]
pub struct CheckWayArgs {
    /// The game whose deck and ranking the lint uses [default: the game each file names with
    /// `game = "..."`, else standard].
    #[arg(long, short = 'g')]
    game: Option<String>,
    /// Treat lint warnings as errors (exit status 1).
    #[arg(long)]
    strict: bool,
    /// House-way TOML files (or shipped names).
    #[arg(required = true, num_args = 1..)]
    files: Vec<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Table,
    Csv,
}

const CSV_HEADER: &str =
    "hand,front,back,front_value,back_value,front_hand,back_hand,rule,rule_name";

/// One hand set by the way, as a line of the chosen format.
fn set_line(way: &HouseWay, ev: &Evaluator, hand: &[Card; 7], format: Format) -> String {
    let splits = ev.split_values(hand);
    let s = way.set(hand, &splits);
    let rule = (s.rule + 1).to_string();
    let why = format!("rule {rule}: {}", way.rule_name(s.rule));
    setting_line(
        hand,
        &splits,
        s.split,
        (&rule, way.rule_name(s.rule)),
        &why,
        format,
    )
}

/// Split `k` of `hand` as a line: CSV (ending in the `rule` number and name) or a table line
/// (ending in `why`).
fn setting_line(
    hand: &[Card; 7],
    splits: &crate::eval::split::SplitValues,
    k: usize,
    (rule, rule_name): (&str, &str),
    why: &str,
    format: Format,
) -> String {
    let (front, back) = split_cards(hand, k);
    let (fv, bv) = (splits.front[k], splits.back[k]);
    match format {
        Format::Csv => super::csv_line([
            crate::cards::Cards::from_cards(hand).to_string(),
            front.to_string(),
            back.to_string(),
            fv.0.to_string(),
            bv.0.to_string(),
            fv.describe(),
            bv.describe(),
            rule.to_string(),
            rule_name.to_string(),
        ]),
        Format::Table => format!(
            "front {front} ({}) | back {back} ({}) | {why}",
            fv.describe(),
            bv.describe()
        ),
    }
}

fn seven(game: &GameRules, words: &[String]) -> anyhow::Result<[Card; 7]> {
    let cards = parse_cards(game, words, &[7])?;
    let mut hand: [Card; 7] = cards.try_into().expect("seven cards checked");
    hand.sort();
    Ok(hand)
}

/// What sets the hands: a house way (with its rules), `optimal:D` (the hand's shape priced
/// here, as the price table prices it) or `full-deck-optimal:D`.
enum Setter {
    House(HouseWay),
    Optimal(Box<ShapeOptimal>),
    FullDeck(FullDeckOptimal),
}

impl Setter {
    fn load(name: &str, game: &GameRules) -> anyhow::Result<Setter> {
        Ok(match resolve::optimal_dealer(name) {
            Some((OptimalKind::Table, dealer)) => {
                let dealer = resolve::dealer_way(dealer, game)
                    .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
                Setter::Optimal(Box::new(ShapeOptimal::new(&dealer.way, game)))
            }
            Some((OptimalKind::FullDeck, _)) => match resolve::resolve(name, game)?.detail {
                resolve::Detail::FullDeckOptimal(way) => Setter::FullDeck(way),
                _ => unreachable!("a full-deck-optimal: name resolves to one"),
            },
            None => Setter::House(resolve::house_way(
                name,
                "a house way, optimal:D or full-deck-optimal:D",
            )?),
        })
    }

    fn strategy(&self) -> &dyn Strategy {
        match self {
            Setter::House(way) => way,
            Setter::Optimal(way) => &**way,
            Setter::FullDeck(way) => way,
        }
    }
}

/// Everything `set` needs per hand.
struct SetContext<'a> {
    args: &'a SetArgs,
    game: GameRules,
    ev: Evaluator,
    setter: Setter,
    /// The dealer's way for `--exact`.
    exact_dealer: Option<Box<dyn Strategy>>,
    /// Every dealer shape set by that way, to price hands with.
    exact_pricer: Option<HandPricer>,
}

impl SetContext<'_> {
    fn write_hand(&self, out: &mut impl Write, hand: &[Card; 7]) -> anyhow::Result<()> {
        match (&self.setter, &self.exact_dealer) {
            (_, Some(dealer)) => write!(out, "{}", exact_report(self, &**dealer, hand))?,
            (Setter::House(way), None) => {
                writeln!(out, "{}", set_line(way, &self.ev, hand, self.args.format))?;
                if self.args.explain {
                    for line in way.explain(hand, &self.ev.split_values(hand)) {
                        writeln!(out, "  {line}")?;
                    }
                }
            }
            (Setter::Optimal(way), None) => {
                write!(out, "{}", optimal_lines(way, self, hand))?;
            }
            (Setter::FullDeck(way), None) => {
                write!(out, "{}", full_deck_lines(way, self, hand))?;
            }
        }
        Ok(())
    }
}

/// One hand set by `optimal:D`: the setting, and with `--explain` every legal setting (distinct
/// by value) with the exact EV of the hand's shape at it, best first.
fn optimal_lines(way: &ShapeOptimal, ctx: &SetContext, hand: &[Card; 7]) -> String {
    let splits = ctx.ev.split_values(hand);
    let (ranked, k) = way.ranked_and_chosen(hand);
    let value = |c: usize| (splits.front[c], splits.back[c]);
    let ev = (ranked.iter())
        .find(|&&(c, _)| value(c) == value(k))
        .map_or(f64::NAN, |&(_, ev)| ev);
    let why = format!(
        "{}: best setting of the hand's shape against the dealer's way, exact over every \
         dealer hand of the cards each hand of the shape leaves ({:+.4}%)",
        way.name(),
        100.0 * ev
    );
    let mut text = setting_line(hand, &splits, k, ("-", &why), &why, ctx.args.format) + "\n";
    if ctx.args.explain {
        for (c, ev) in ranked {
            let (f, b) = split_cards(hand, c);
            text += &format!("  front {f} | back {b}: shape EV {:+.4}%\n", 100.0 * ev);
        }
    }
    text
}

/// One hand set by `full-deck-optimal:D`: the setting, and with `--explain` every undominated
/// setting with its EV against the dealer table (full deck, no card removal), best first.
fn full_deck_lines(way: &FullDeckOptimal, ctx: &SetContext, hand: &[Card; 7]) -> String {
    let splits = ctx.ev.split_values(hand);
    let k = way.choose(hand, &splits, None);
    let table_ev = way.table_ev(&splits, k);
    let why = format!(
        "{}: highest EV against the dealer table ({:+.4}%)",
        way.name(),
        100.0 * table_ev
    );
    let mut text = setting_line(hand, &splits, k, ("-", &why), &why, ctx.args.format) + "\n";
    if ctx.args.explain {
        let (candidates, n) = optimal::frontier(&splits);
        let mut scored: Vec<(usize, f64)> = candidates[..n]
            .iter()
            .map(|&c| (c, way.table_ev(&splits, c)))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        for (c, ev) in scored {
            let (f, b) = split_cards(hand, c);
            text += &format!("  front {f} | back {b}: table EV {:+.4}%\n", 100.0 * ev);
        }
    }
    text
}

/// The dealer's way of `set --exact`: `--dealer-way`, else D of `optimal:D`, else the way itself.
fn exact_dealer(args: &SetArgs, game: &GameRules) -> anyhow::Result<Option<Box<dyn Strategy>>> {
    if !args.exact {
        return Ok(None);
    }
    let name = match (&args.dealer_way, resolve::optimal_dealer(&args.way)) {
        (Some(name), _) => name.as_str(),
        (None, Some((_, dealer))) => dealer,
        (None, None) => args.way.as_str(),
    };
    Ok(Some(resolve::dealer_way(name, game)?.way.strategy))
}

pub fn set(args: &SetArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let exact_dealer = exact_dealer(args, &game)?;
    let ctx = SetContext {
        args,
        ev: Evaluator::new(game.ranking),
        setter: Setter::load(&args.way, &game)?,
        exact_pricer: (exact_dealer.as_ref()).map(|dealer| HandPricer::new(&game, &**dealer)),
        exact_dealer,
        game,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match (args.exact, args.format) {
        (true, Format::Csv) => writeln!(out, "{EXACT_CSV_HEADER}")?,
        (false, Format::Csv) => writeln!(out, "{CSV_HEADER}")?,
        _ => {}
    }
    if !args.cards.is_empty() {
        let hand = seven(&ctx.game, &args.cards)?;
        ctx.write_hand(&mut out, &hand)?;
        return Ok(out.flush()?);
    }
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => {
                anyhow::anyhow!(
                    "stdin:{}: not UTF-8 text (expected cards such as As Kd Jk)",
                    n + 1
                )
            }
            _ => anyhow::anyhow!("stdin:{}: cannot read: {e}", n + 1),
        })?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let hand = seven(&ctx.game, &[text.to_string()])
            .map_err(|e| anyhow::anyhow!("stdin:{}: {e}", n + 1))?;
        ctx.write_hand(&mut out, &hand)?;
    }
    Ok(out.flush()?)
}

pub fn check_way(args: &CheckWayArgs) -> anyhow::Result<()> {
    let mut failed = 0;
    let mut out = std::io::stdout().lock();
    for file in &args.files {
        let way = match HouseWay::load(file) {
            Ok(way) => way,
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
                continue;
            }
        };
        let game_name = (args.game.as_deref())
            .or(way.game.as_deref())
            .unwrap_or("standard");
        let game = GameRules::load(game_name)?;
        let started = std::time::Instant::now();
        let report = lint::check(&way, &Evaluator::new(game.ranking), game.deck);
        let seconds = started.elapsed().as_secs_f64();
        report_findings(&way, &report);
        failed += (args.strict && !report.is_clean()) as usize;
        write_coverage(&mut out, &way, &report, &game, seconds)?;
    }
    if failed > 0 {
        let what = if args.strict {
            "errors or warnings"
        } else {
            "errors"
        };
        anyhow::bail!("{failed} of {} house way(s) have {what}", args.files.len());
    }
    Ok(())
}

/// Findings to stderr: warnings, then the findings the file accepts (notes), then allowances no
/// finding needs.
fn report_findings(way: &HouseWay, report: &lint::Report) {
    let at = |r: usize| {
        let rule = &way.compiled.rules[r];
        format!(
            "{}:{}: rule {} '{}'",
            way.origin,
            rule.line,
            r + 1,
            rule.name
        )
    };
    for issue in report.warnings() {
        eprintln!("warning: {}: {}", at(issue.rule), issue.message);
    }
    for issue in report.notes() {
        let because = issue.allowed_because.as_deref().unwrap_or_default();
        eprintln!(
            "note: {}: {} (allowed: {because})",
            at(issue.rule),
            issue.message
        );
    }
    for (r, finding) in &report.unused_allowances {
        eprintln!(
            "warning: {}: allow lists '{}' but the lint finds none on this deck: remove it",
            at(*r),
            finding.key()
        );
    }
}

fn write_coverage(
    out: &mut impl Write,
    way: &HouseWay,
    report: &lint::Report,
    game: &GameRules,
    seconds: f64,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} ({}): {} rules; exact over all {} hands of the {}-card deck of {} ({} shapes, \
         {seconds:.2} s); {} warning(s), {} note(s)",
        way.origin,
        way.name,
        way.compiled.rules.len(),
        report.hands,
        game.deck.size(),
        game.origin,
        report.shapes,
        report.warnings().count() + report.unused_allowances.len(),
        report.notes().count(),
    )?;
    writeln!(
        out,
        "  rule       hands set   share      fell through  name"
    )?;
    for (i, (rule, c)) in way.compiled.rules.iter().zip(&report.coverage).enumerate() {
        let pct = 100.0 * c.set as f64 / report.hands.max(1) as f64;
        writeln!(
            out,
            "  rule {:>2} {:>12} {:>9.4}% {:>12}  {}",
            i + 1,
            c.set,
            pct,
            c.fell,
            rule.name
        )?;
    }
    Ok(())
}
