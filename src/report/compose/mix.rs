//! Hold, handle, a bet mix and liability, per game, from each wager's preferred run (its first
//! exact run, else its first simulation):
//!
//! - hold against handle: the house edge is the house's expected win per unit of handle (every
//!   unit bet); the edge per hand resolved leaves pushes out: `edge / (1 - push)`;
//! - a bet mix (`--mix main=1,big-hand-bonus=0.2`: units on each wager a round; by default one
//!   on each): the handle a round `sum w`, the house's expected win a round `sum w edge`, the
//!   combined edge `sum w edge / sum w` and per unit of the main wager; the SD of a round's
//!   result and its volatility index (`z x SD`). The runs record each wager's outcomes apart,
//!   not jointly, so the SD of the mix is given where the wagers are independent,
//!   `sqrt(sum (w SD)^2)` (not a lower bound: a negative correlation gives less), and at its
//!   upper bound, `sum w SD` (Cauchy-Schwarz: no correlation gives
//!   more);
//! - maximum payout and liability: each wager's largest pay, and with `--table-max` that pay
//!   times the table maximum (the most one hand can cost the house on that wager);
//! - the range of returns of the main wager: where exact runs against one dealer's way give
//!   both, the house way's EV (the minimum: a player who asks for the house way) and the optimal
//!   strategy's (the maximum: `optimal:D`, or `exposed` where the dealer sets face up).
//!
//! Invariant: every figure is made from the preferred run's counts and pays (exact rationals,
//! then one conversion) and the given amounts.

use num_traits::Zero;

use super::format::{count, pays, percent_of};
use super::wagers::{MAIN_NAMES, VOLATILITY_LEVELS, WagerRun};
use crate::engine::simulate::MAX_PLAYERS;
use crate::report::ahead::{LARGEST_LATTICE, Lattice};
use crate::report::counted::{Counted, fraction, to_f64};
use crate::report::document::{Block, DataFile, Document, Table, code, slug, strong, text};
use crate::report::facts::Identity;
use crate::report::fixed;
use crate::report::runs::RunDir;
use crate::report::runs::RunKind;
use crate::report::stats::{volatility_index, z};
use crate::strategy::resolve::{BUILT_INS, OptimalKind, exposed_tie_break, optimal_dealer};

/// Amounts per wager, as `NAME=AMOUNT,...`, with an amount for every other wager where a bare
/// number is given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Amounts {
    pub each: Vec<(String, f64)>,
    pub otherwise: Option<f64>,
}

impl Amounts {
    /// Reads `main=1,big-hand-bonus=0.2` (or `500`, or `500,main=1000`); each amount a finite
    /// number, 0 or more. The error names the item and what was expected.
    pub fn parse(text: &str) -> Result<Amounts, String> {
        let mut amounts = Amounts::default();
        for item in text.split(',').map(str::trim) {
            let expected = || {
                format!(
                    "'{item}': expected NAME=AMOUNT (a wager: main, or a side bet's name such as \
                     big-hand-bonus) or AMOUNT alone, an amount a number from 0 to 10^12"
                )
            };
            let (name, value) = match item.split_once('=') {
                Some((name, value)) => (Some(name.trim()), value),
                None => (None, item),
            };
            let value: f64 = value.trim().parse().map_err(|_| expected())?;
            // At most 10^12 units, so that every figure from it (squares of units x SD
            // included) stays finite.
            if !(0.0..=1e12).contains(&value) {
                return Err(expected());
            }
            match name {
                Some("") => return Err(expected()),
                Some(name) if amounts.each.iter().any(|(n, _)| slug(n) == slug(name)) => {
                    return Err(format!("'{item}': {name} is given twice"));
                }
                Some(name) => amounts.each.push((name.to_string(), value)),
                None if amounts.otherwise.is_some() => {
                    return Err(format!("'{item}': a second amount for every wager"));
                }
                None => amounts.otherwise = Some(value),
            }
        }
        Ok(amounts)
    }

    /// The amount for the wager `name`: given by its name (case and punctuation aside: `main`
    /// for the main wager, `big-hand-bonus` for Big Hand Bonus), else the amount for every wager.
    pub fn of(&self, name: &str) -> Option<f64> {
        (self.each.iter())
            .find(|(n, _)| names_wager(n, name))
            .map(|(_, v)| *v)
            .or(self.otherwise)
    }

    /// The names given that are no wager of `wagers`.
    pub fn unknown<'a>(&'a self, wagers: &[String]) -> Vec<&'a str> {
        (self.each.iter())
            .filter(|(n, _)| !wagers.iter().any(|w| names_wager(n, w)))
            .map(|(n, _)| n.as_str())
            .collect()
    }
}

/// Whether `given` names the wager `wager`.
fn names_wager(given: &str, wager: &str) -> bool {
    let main = |n: &str| MAIN_NAMES.iter().any(|m| slug(m) == slug(n));
    slug(given) == slug(wager) || (main(given) && main(wager))
}

/// What a report is asked beyond its runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// Units on each wager a round (`--mix`); `None`: one on each.
    pub mix: Option<Amounts>,
    /// The table maximum bet of each wager (`--table-max`).
    pub table_max: Option<Amounts>,
    /// The software making the report, shown beside the software of each run.
    pub maker: Identity,
}

/// A wager's figures from its preferred run.
struct Figures<'a> {
    name: String,
    run: &'a RunDir,
    exact: bool,
    ev: f64,
    push: f64,
    sd: f64,
    largest: Option<(String, String, f64)>,
    counted: Counted,
}

impl<'a> Figures<'a> {
    fn of(name: &str, w: &WagerRun<'a>) -> Option<Figures<'a>> {
        let c = w.counted()?;
        let ev = to_f64(&c.ev());
        let largest = c.largest_pay().map(|line| {
            let i = (c.lines.iter()).position(|l| l == line).unwrap_or(0);
            let row = w.paying_rows()[i];
            let pay = w.returns.get(row, "pays").to_string();
            (w.label(row), pay, to_f64(&c.probability(i)))
        });
        Some(Figures {
            name: name.to_string(),
            run: w.run,
            exact: w.is_exact(),
            ev,
            push: to_f64(&c.share(|p| p.is_zero())),
            sd: to_f64(&c.variance()).sqrt(),
            largest,
            counted: c,
        })
    }

    fn edge(&self) -> f64 {
        -self.ev
    }

    fn shown_name(&self) -> &str {
        if MAIN_NAMES.contains(&self.name.as_str()) {
            "main wager"
        } else {
            &self.name
        }
    }

    fn method(&self) -> String {
        let kind = if self.exact { "exact" } else { "simulation" };
        format!("{kind}, {}", self.run.dir)
    }
}

/// The section: hold and handle, the bet mix, maximum payout and liability, and the chances
/// after N hands; each table's values also as `tables/KIND-GAME.csv` (`game` a slug).
pub fn section(
    doc: &mut Document,
    game: &str,
    wagers: &[(String, Vec<WagerRun>)],
    options: &Options,
) {
    let preferred = (wagers.iter()).filter_map(|(name, runs)| {
        let run = (runs.iter().find(|w| w.is_exact())).or_else(|| runs.first())?;
        Some((name, run))
    });
    let (envy, staked): (Vec<_>, Vec<_>) = preferred.partition(|(_, w)| w.is_envy());
    let figures: Vec<Figures> = (staked.into_iter())
        .filter_map(|(name, w)| Figures::of(name, w))
        .collect();
    let envy: Vec<Figures> = (envy.into_iter())
        .filter_map(|(name, w)| Figures::of(name, w))
        .collect();
    if figures.is_empty() && envy.is_empty() {
        return;
    }
    doc.heading(3, "Hold, handle, bet mix and liability");
    for f in &envy {
        envy_returns(doc, f, options.mix.as_ref());
    }
    if figures.is_empty() {
        return;
    }
    let file = |kind: &str| format!("{kind}-{game}.csv");
    let main = wagers
        .iter()
        .find(|(name, _)| MAIN_NAMES.contains(&name.as_str()));
    if let Some((_, runs)) = main {
        range(doc, runs, file("range"));
    }
    hold(doc, &figures, file("hold"));
    mix(doc, &figures, options.mix.as_ref(), file("mix"));
    liability(doc, &figures, options.table_max.as_ref(), file("liability"));
    ahead(doc, &figures, file("ahead"));
}

/// An Envy bonus is no wager of the mix: it has no stake and is paid to a player holding the
/// qualifying bet on each other player's hand, so its return to that player is the number of
/// other players times its return per other player's hand (each other hand is dealt from the
/// same deck, so each pays that on average), given here for each table size.
fn envy_returns(doc: &mut Document, f: &Figures, mix: Option<&Amounts>) {
    let by_players: Vec<String> = (2..=MAX_PLAYERS)
        .map(|p| {
            let others = f64::from(p - 1);
            format!("{p} players {}", percent_of(others * f.ev, 4))
        })
        .collect();
    doc.paragraph(vec![
        strong(f.shown_name()),
        text(format!(
            " has no stake: it is paid to a player holding the qualifying bet on each other \
             player's hand, so it has no hold against handle and is left out of the tables \
             below. It returns {} per other player's hand ({}), so (players - 1) x that to such \
             a player, in units of the qualifying bet: {}.",
            percent_of(f.ev, 4),
            f.method(),
            by_players.join(", ")
        )),
    ]);
    let named = mix.is_some_and(|m| m.each.iter().any(|(n, _)| names_wager(n, &f.name)));
    if named {
        doc.say(format!(
            "The --mix amount given for {} is not used: the bonus takes no stake.",
            f.shown_name()
        ));
    }
}

/// The hands after which the chance of being ahead is given.
pub const AHEAD_HANDS: [u64; 5] = [1, 10, 100, 1_000, 10_000];

fn ahead(doc: &mut Document, figures: &[Figures], file: String) {
    let mut data = DataFile::new(file, &["wager", "hands", "ahead", "even", "behind"]);
    doc.heading(3, "Ahead, even or behind after N hands");
    doc.paragraph(vec![
        strong("The chance that a player is ahead, even or behind"),
        text(format!(
            " after N hands of one unit each, from each wager's whole outcome distribution \
             (its run above), not a normal approximation: the pays are put on an integer \
             lattice and one hand's distribution is convolved with itself N times (a fast \
             Fourier transform of the lattice, each coefficient to the N-th power, and back), \
             so each chance is exact for that distribution up to floating-point error (the \
             largest shown below, from any probability that came out below zero; about 1e-12). \
             The distribution is the run's: counted where the run is exact, sampled where it \
             is a simulation, whose chances are therefore estimates (a line the sample never \
             saw counts as never paying). A wager whose N-hand \
             lattice passes {} points (large pays over many hands) is left out (\"-\"): the \
             ranges of the average result above give its normal approximation.",
            count(&LARGEST_LATTICE.to_string())
        )),
    ]);
    let mut t = Table::new(&["wager", "hands", "ahead", "even", "behind"]);
    let mut error: f64 = 0.0;
    for f in figures {
        let outcomes: Vec<_> = (0..f.counted.lines.len())
            .map(|i| {
                let line = &f.counted.lines[i];
                (line.pays.clone(), to_f64(&f.counted.probability(i)))
            })
            .collect();
        let lattice = Lattice::of(&outcomes);
        for hands in AHEAD_HANDS {
            let chances = lattice.as_ref().and_then(|l| l.after(hands));
            let shown = |x: Option<f64>| x.map_or("-".to_string(), |p| percent_of(p, 4));
            error = error.max(chances.map_or(0.0, |c| c.error));
            t.row(vec![
                f.shown_name().to_string(),
                count(&hands.to_string()),
                shown(chances.map(|c| c.ahead)),
                shown(chances.map(|c| c.even)),
                shown(chances.map(|c| c.behind)),
            ]);
            // A chance computed a hair below zero is written as 0 ("-0.000000000000" once).
            let raw = |x: Option<f64>| x.map_or("-".to_string(), |p| format!("{:.12}", p.max(0.0)));
            data.row(vec![
                f.name.clone(),
                hands.to_string(),
                raw(chances.map(|c| c.ahead)),
                raw(chances.map(|c| c.even)),
                raw(chances.map(|c| c.behind)),
            ]);
        }
    }
    doc.push(Block::Table(t));
    doc.push(Block::Data(data));
    doc.say(format!(
        "Largest floating-point error seen (a probability below zero): {error:.1e}."
    ));
}

/// How a player's way bounds the main wager's return: a house way (the minimum of the range:
/// the player who asks for the house way) or an optimal strategy (the maximum).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    HouseWay,
    Optimal,
}

impl Bound {
    /// The bound a run's player way (its name as resolved) sets: `optimal:D` and `exposed` the
    /// maximum, a house way the minimum; the other built-ins neither.
    fn of(player_way: &str) -> Option<Bound> {
        match (optimal_dealer(player_way), exposed_tie_break(player_way)) {
            (Some((OptimalKind::Table, _)), _) | (None, Some(_)) => Some(Bound::Optimal),
            (Some((OptimalKind::FullDeck, _)), _) => None,
            (None, None) if player_way.is_empty() || BUILT_INS.contains(&player_way) => None,
            (None, None) => Some(Bound::HouseWay),
        }
    }
}

/// The range of returns of the main wager, from its exact runs: the first house-way run and the
/// first optimal run against the same dealer's way, labelled minimum and maximum.
fn range(doc: &mut Document, runs: &[WagerRun], file: String) {
    let exact = |w: &&WagerRun| w.run.kind == RunKind::ExactMain;
    let bounded: Vec<(Bound, &WagerRun)> = (runs.iter().filter(exact))
        .filter_map(|w| Bound::of(&w.run.fact("player_way")).map(|b| (b, w)))
        .collect();
    let pair = (bounded.iter().filter(|(b, _)| *b == Bound::HouseWay)).find_map(|(_, low)| {
        let dealer = low.run.fact("dealer_way");
        (bounded.iter())
            .find(|(b, high)| *b == Bound::Optimal && high.run.fact("dealer_way") == dealer)
            .map(|(_, high)| (*low, *high))
    });
    let Some((low, high)) = pair else {
        return;
    };
    let (Some(lowest), Some(highest)) = (low.counted(), high.counted()) else {
        return;
    };
    doc.paragraph(vec![
        strong("Range of returns of the main wager"),
        text(format!(
            " against the dealer's way {}, exact: a player's return lies between the house way's \
             (the minimum: a player who asks the dealer to set by the house way) and the optimal \
             strategy's (the maximum: every hand at its best setting{}).",
            low.run.fact("dealer_way"),
            match exposed_tie_break(&high.run.fact("player_way")) {
                None => " of its shape, card removal included",
                Some(_) => " against the dealer's setting, which the player sees",
            }
        )),
    ]);
    let mut data = DataFile::new(
        file,
        &["bound", "player_way", "run", "player_ev", "exactly"],
    );
    let mut t = Table::new(&[
        "bound",
        "player's way",
        "player EV",
        "exactly",
        "house edge",
    ])
    .left(&[1]);
    for (bound, w, c) in [("minimum", low, lowest), ("maximum", high, highest)] {
        let ev = c.ev();
        let player = w.run.fact("player_way");
        t.row(vec![
            bound.to_string(),
            player.clone(),
            percent_of(to_f64(&ev), 6),
            fraction(&ev),
            percent_of(-to_f64(&ev), 6),
        ]);
        let cells = [
            bound,
            &player,
            &w.run.dir,
            &fixed(to_f64(&ev)),
            &fraction(&ev),
        ];
        data.row(cells.map(str::to_string).to_vec());
    }
    doc.push(Block::Table(t));
    doc.push(Block::Data(data));
}

fn hold(doc: &mut Document, figures: &[Figures], file: String) {
    let mut data = DataFile::new(
        file,
        &[
            "wager",
            "run",
            "house_edge",
            "push",
            "edge_per_hand_resolved",
        ],
    );
    doc.paragraph(vec![
        strong("Hold against handle"),
        text(
            ": the house edge is the house's expected win per unit of handle (every unit bet, \
             pushes included); the edge per hand resolved leaves pushes out, edge / (1 - push). \
             Each wager from its exact run where there is one, else its first simulation.",
        ),
    ]);
    let mut t = Table::new(&[
        "wager",
        "from",
        "house edge per unit of handle",
        "push",
        "edge per hand resolved",
    ])
    .left(&[1]);
    for f in figures {
        let resolved = if f.push < 1.0 {
            percent_of(f.edge() / (1.0 - f.push), 4)
        } else {
            "-".to_string()
        };
        t.row(vec![
            f.shown_name().to_string(),
            f.method(),
            percent_of(f.edge(), 4),
            percent_of(f.push, 4),
            resolved,
        ]);
        data.row(vec![
            f.name.clone(),
            f.run.dir.clone(),
            fixed(f.edge()),
            fixed(f.push),
            if f.push < 1.0 {
                fixed(f.edge() / (1.0 - f.push))
            } else {
                "-".into()
            },
        ]);
    }
    doc.push(Block::Table(t));
    doc.push(Block::Data(data));
}

fn units(x: f64) -> String {
    let text = format!("{x:.4}");
    pays(&text)
}

fn mix(doc: &mut Document, figures: &[Figures], given: Option<&Amounts>, file: String) {
    let mut data = DataFile::new(
        file,
        &[
            "wager",
            "units",
            "house_edge",
            "expected_house_win",
            "sd_independent",
            "sd_bound",
            "vi90_independent",
            "vi90_bound",
            "vi95_independent",
            "vi95_bound",
            "edge_per_main_unit",
        ],
    );
    let mut data_row = |name: &str, w: f64, edge: f64, win: f64, sds: (f64, f64), main: String| {
        let vi = |sd: f64, level: f64| fixed(volatility_index(sd, level));
        data.row(vec![
            name.to_string(),
            fixed(w),
            fixed(edge),
            fixed(win),
            fixed(sds.0),
            fixed(sds.1),
            vi(sds.0, 0.90),
            vi(sds.1, 0.90),
            vi(sds.0, 0.95),
            vi(sds.1, 0.95),
            main,
        ]);
    };
    let weight = |f: &Figures| given.map_or(Some(1.0), |a| a.of(&f.name)).unwrap_or(0.0);
    let stated = match given {
        Some(_) => "units a round as given by --mix".to_string(),
        None => "one unit on each wager a round (--mix sets others)".to_string(),
    };
    let mut t = Table::new(&[
        "wager",
        "units a round",
        "house edge",
        "house's expected win a round",
        "SD of a round's result",
    ]);
    let (mut handle, mut win, mut independent, mut bound) = (0.0, 0.0, 0.0, 0.0);
    let mut main_units = 0.0;
    for f in figures {
        let w = weight(f);
        handle += w;
        win += w * f.edge();
        independent += (w * f.sd).powi(2);
        bound += w * f.sd;
        if MAIN_NAMES.contains(&f.name.as_str()) {
            main_units = w;
        }
        t.row(vec![
            f.shown_name().to_string(),
            units(w),
            percent_of(f.edge(), 4),
            format!("{:.6}", w * f.edge()),
            format!("{:.6}", w * f.sd),
        ]);
        let sd = w * f.sd;
        data_row(&f.name, w, f.edge(), w * f.edge(), (sd, sd), "-".into());
    }
    if handle <= 0.0 {
        doc.say("The bet mix puts nothing on any wager: no combined edge.");
        return;
    }
    let independent = independent.sqrt();
    t.row(vec![
        "the mix".to_string(),
        units(handle),
        percent_of(win / handle, 4),
        format!("{win:.6}"),
        format!("{independent:.6} to {bound:.6}"),
    ]);
    t.total = true;
    let per_main = if main_units > 0.0 {
        fixed(win / main_units)
    } else {
        "-".to_string()
    };
    let sds = (independent, bound);
    data_row("mix", handle, win / handle, win, sds, per_main);
    doc.paragraph(vec![
        strong("The bet mix"),
        text(format!(
            " ({stated}): the combined edge is the house's expected win a round over the \
             handle a round, sum(units x edge) / sum(units). The runs count each wager's \
             outcomes apart, not together, so the SD of a round's result is given as \
             sqrt(sum (units x SD)^2), its value were the wagers independent, and sum(units x \
             SD), a bound no correlation passes; a side bet that goes against the main wager \
             (negatively correlated) would give less than the first."
        )),
    ]);
    doc.push(Block::Table(t));
    let mut lines = vec![vec![
        text("Combined edge per unit of handle: "),
        strong(percent_of(win / handle, 4)),
    ]];
    if main_units > 0.0 {
        lines.push(vec![text(format!(
            "per unit on the main wager: {}",
            percent_of(win / main_units, 4)
        ))]);
    }
    for level in VOLATILITY_LEVELS {
        lines.push(vec![text(format!(
            "volatility index of a round at {:.0}% (z x SD, z = {:.3}): {:.6} to {:.6}",
            100.0 * level,
            z(level),
            volatility_index(independent, level),
            volatility_index(bound, level)
        ))]);
    }
    doc.push(Block::Bullets(lines));
    doc.push(Block::Data(data));
}

fn liability(doc: &mut Document, figures: &[Figures], table_max: Option<&Amounts>, file: String) {
    let mut data = DataFile::new(
        file,
        &[
            "wager",
            "largest_pays",
            "line",
            "probability",
            "table_max",
            "liability",
        ],
    );
    doc.paragraph(vec![
        strong("Maximum payout and liability"),
        text(": the largest pay of each wager per unit bet; "),
        match table_max {
            Some(_) => text(
                "the liability per hand is that pay times the table maximum (--table-max), the \
                 most one hand can cost the house on that wager.",
            ),
            None => text("with "),
        },
    ]);
    if table_max.is_none()
        && let Some(Block::Paragraph(runs)) = doc.blocks.last_mut()
    {
        runs.push(code("--table-max AMOUNT"));
        runs.push(text(
            " (or NAME=AMOUNT,...) the report also gives the liability per hand (that pay \
             times the table maximum).",
        ));
    }
    let mut header = vec!["wager", "largest pay (to 1)", "on", "1 in"];
    if table_max.is_some() {
        header.extend(["table maximum", "liability per hand"]);
    }
    let mut t = Table::new(&header).left(&[2]);
    for f in figures {
        let Some((label, pay, p)) = &f.largest else {
            continue;
        };
        let one_in = if *p > 0.0 {
            count(&format!("{:.0}", 1.0 / p))
        } else {
            "-".to_string()
        };
        let mut row = vec![f.shown_name().to_string(), pays(pay), label.clone(), one_in];
        let most = table_max.and_then(|a| a.of(&f.name));
        let pay_value: f64 = super::format::number(pay).unwrap_or(0.0);
        if table_max.is_some() {
            row.push(most.map_or("-".to_string(), units));
            row.push(most.map_or("-".to_string(), |m| units(m * pay_value)));
        }
        t.row(row);
        data.row(vec![
            f.name.clone(),
            pay.clone(),
            label.clone(),
            fixed(*p),
            most.map_or("-".to_string(), units),
            most.map_or("-".to_string(), |m| units(m * pay_value)),
        ]);
    }
    doc.push(Block::Table(t));
    doc.push(Block::Data(data));
}
