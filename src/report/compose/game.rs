//! The rules a report's runs were played under: the game, read from its file, and each house way
//! in words, read from its file, each with its source and SHA-256.
//!
//! A file's words are its own: the game's name, source and notes, its options as the tool reads
//! them (deck, joker, rankings, the main wager, the side bets), and each house way's rules by
//! their names in the order they are tried. Nothing is paraphrased beyond naming the options.

use crate::eval::{FiveAces, JokerRule, Wheel};
use crate::files::TextFile;
use crate::game::GameRules;
use crate::game::paytable::Paytable;
use crate::report::document::{Block, Document, Inline, Table, code, text};
use crate::report::runs::{RunDir, shipped_for, verified_text};
use crate::strategy::resolve::OptimalKind;

/// A game as the report shows it.
pub struct GameView {
    /// The game file, where known.
    pub file: Option<TextFile>,
    /// The validated rules, where the file (and its side bets) read.
    pub rules: Option<GameRules>,
    pub name: String,
    pub sha256: Option<String>,
}

impl GameView {
    /// The game of `run`.
    pub fn of(run: &RunDir) -> GameView {
        let rules = match &run.spec {
            Some(spec) => spec.game().ok(),
            None => (run.game.as_ref()).and_then(|f| GameRules::from_toml(&f.text, &f.origin).ok()),
        };
        let name = (rules.as_ref().map(|r| r.name.clone()))
            .or_else(|| Some(run.fact("game")).filter(|g| !g.is_empty()))
            .unwrap_or_else(|| "an unnamed game".to_string());
        GameView {
            file: run.game.clone(),
            rules,
            name,
            sha256: run.game_sha256(),
        }
    }
}

/// A string field of a TOML text ("" when absent).
fn toml_field(text: &str, key: &str) -> String {
    (text.parse::<toml::Table>().ok())
        .and_then(|t| t.get(key).and_then(|v| v.as_str()).map(str::to_string))
        .unwrap_or_default()
}

/// The game section: options, source, notes, the file and its text.
pub fn game_section(doc: &mut Document, game: &GameView, paytables: &[Paytable]) {
    doc.heading(3, "Rules of the game");
    let Some(file) = &game.file else {
        doc.say(format!(
            "The game file's text is not among the runs' files, and no file with the SHA-256 its manifest lists ({}) was found; its rules cannot be shown.",
            game.sha256.as_deref().unwrap_or("none listed")
        ));
        return;
    };
    doc.paragraph(vec![
        text("Read from "),
        code(&file.origin),
        text(" (SHA-256 "),
        code(file.sha256()),
        text(")."),
    ]);
    if let Some(rules) = &game.rules {
        doc.push(Block::Table(options_table(rules)));
    }
    let source = toml_field(&file.text, "source");
    let notes = toml_field(&file.text, "notes");
    let mut items = Vec::new();
    if !source.is_empty() {
        items.push(vec![text("Source: "), text(source)]);
    }
    if !notes.is_empty() {
        items.push(vec![text("Notes: "), text(notes)]);
    }
    for table in paytables {
        let source = if table.source.is_empty() {
            "no source given".to_string()
        } else {
            table.source.clone()
        };
        items.push(vec![
            text(format!(
                "Side bet {}: {} lines, from ",
                table.name,
                table.lines.len()
            )),
            code(&table.origin),
            text(format!("; source: {source}")),
        ]);
    }
    if !items.is_empty() {
        doc.push(Block::Bullets(items));
    }
    doc.push(file_text("The game file", file));
}

/// A file's notes: their first lines as a paragraph, lines starting "- " as a list.
fn notes(doc: &mut Document, text: &str) {
    let mut words: Vec<&str> = Vec::new();
    let mut items: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match (line.strip_prefix("- "), items.last_mut()) {
            (Some(item), _) => items.push(item.to_string()),
            (None, Some(last)) => {
                last.push(' ');
                last.push_str(line);
            }
            (None, None) => words.push(line),
        }
    }
    if !words.is_empty() {
        doc.say(format!("Notes: {}", words.join(" ")));
    } else if !items.is_empty() {
        doc.say("Notes:");
    }
    if !items.is_empty() {
        let bullets = items.iter().map(|item| vec![text_run(item)]).collect();
        doc.push(Block::Bullets(bullets));
    }
}

fn text_run(s: &str) -> crate::report::document::Inline {
    text(s)
}

/// The game's options as the tool reads them.
fn options_table(rules: &GameRules) -> Table {
    let mut t = Table::new(&["option", "value"]).left(&[1]);
    let joker = match rules.ranking.joker {
        JokerRule::Bug => "bug: an ace, or completes a straight, flush or straight flush",
        JokerRule::Wild => "wild: any card",
    };
    let five_aces = match rules.ranking.five_aces {
        FiveAces::AboveRoyal => "above a royal flush",
        FiveAces::EqualRoyal => "equal to a royal flush",
    };
    let wheel = match rules.ranking.wheel {
        Wheel::SecondHighest => "the second-highest straight",
        Wheel::Lowest => "the lowest straight",
    };
    let bets: Vec<&str> = rules.side_bets.iter().map(|b| b.name.as_str()).collect();
    let five_of_a_kind = match rules.ranking.joker {
        JokerRule::Bug => "five aces",
        JokerRule::Wild => "five of a kind (any rank)",
    };
    let rows = [
        ("game", rules.name.clone()),
        ("deck", deck_words(rules.deck.size(), rules.deck.jokers())),
        ("joker", joker.to_string()),
        (five_of_a_kind, five_aces.to_string()),
        ("A-2-3-4-5", wheel.to_string()),
        ("main wager", rules.main_wager.describe()),
        (
            "side bets",
            if bets.is_empty() {
                "none".to_string()
            } else {
                bets.join(", ")
            },
        ),
    ];
    for (k, v) in rows {
        t.row(vec![k.to_string(), v]);
    }
    t
}

/// A deck in words: "53 cards (one joker)".
fn deck_words(size: usize, jokers: u8) -> String {
    let jokers = match jokers {
        0 => "no joker",
        1 => "one joker",
        _ => "two jokers",
    };
    format!("{size} cards ({jokers})")
}

/// A strategy of a run: its role, its name, and its house-way file where it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WayView {
    pub roles: Vec<String>,
    pub name: String,
    pub file: Option<TextFile>,
}

/// Every strategy the runs name, each once (by name and file), with the roles it played.
pub fn ways_of(runs: &[&RunDir]) -> Vec<WayView> {
    let mut ways: Vec<WayView> = Vec::new();
    for run in runs {
        for (role, name, file) in strategies(run) {
            match ways.iter_mut().find(|w| w.name == name && w.file == file) {
                Some(w) if !w.roles.contains(&role) => w.roles.push(role),
                Some(_) => {}
                None => ways.push(WayView {
                    roles: vec![role],
                    name,
                    file,
                }),
            }
        }
    }
    ways
}

/// A run's strategies: from its spec, else from the house-way files its manifest lists.
fn strategies(run: &RunDir) -> Vec<(String, String, Option<TextFile>)> {
    if let Some(spec) = &run.spec {
        return (spec.strategies.iter())
            .map(|s| (s.role.clone(), s.name.clone(), s.sources.first().cloned()))
            .collect();
    }
    (run.inputs.iter())
        .filter(|i| i.role.ends_with("way"))
        .map(|i| {
            let file = verified_text(i, shipped_for(&i.role));
            let name = toml_field(file.as_ref().map_or("", |f| &f.text), "name");
            (
                i.role.clone(),
                if name.is_empty() {
                    i.origin.clone()
                } else {
                    name
                },
                file,
            )
        })
        .collect()
}

/// The house-ways section: each strategy's rules in words, with its source.
pub fn ways_section(doc: &mut Document, ways: &[WayView]) {
    if ways.is_empty() {
        return;
    }
    doc.heading(3, "House ways and strategies");
    // Each file shown so far: its SHA-256, the way it was shown under and that heading's id.
    let mut shown_files: Vec<(String, String, String)> = Vec::new();
    for way in ways {
        let file_name = way.file.as_ref().map(|f| toml_field(&f.text, "name"));
        let shown = match file_name.filter(|n| !n.is_empty()) {
            Some(n) if built_in(&way.name).is_none() => n,
            _ => way.name.clone(),
        };
        let id = doc.heading(4, &format!("{shown} ({})", way.roles.join(", ")));
        if let Some(words) = built_in(&way.name) {
            doc.say(words);
        }
        let Some(file) = &way.file else {
            continue;
        };
        match shown_files.iter().find(|(sha, _, _)| *sha == file.sha256()) {
            Some((_, name, id)) => doc.paragraph(vec![
                text("Its house-way file is "),
                Inline::Link {
                    text: format!("{name}'s"),
                    target: format!("#{id}"),
                },
                text(format!(", above ({}, the same SHA-256).", file.origin)),
            ]),
            None => {
                way_rules(doc, file);
                shown_files.push((file.sha256(), shown, id));
            }
        }
    }
}

/// What a built-in strategy does, in words.
fn built_in(name: &str) -> Option<String> {
    let tie = |w: &str| {
        if w.is_empty() {
            "foxwoods".to_string()
        } else {
            w.to_string()
        }
    };
    match crate::strategy::resolve::optimal_dealer(name) {
        Some((OptimalKind::Table, dealer)) => {
            return Some(format!(
                "Built-in: each hand is set the legal way with the highest expected value against a dealer who sets by {dealer}, \
             priced exactly against every dealer hand of the cards it leaves and summed over the hands of its shape \
             (card removal is modelled: the best of every strategy that sets from the hand's shape; ties go to the better back hand, then front). \
             The dealer's way is read from its file."
            ));
        }
        Some((OptimalKind::FullDeck, dealer)) => {
            return Some(format!(
                "Built-in: each hand is set the legal way with the highest expected value against a dealer who sets by {dealer}, \
             priced against every dealer hand of the full deck (an approximation: card removal is not modelled; ties go to the better back hand). \
             The dealer's way is read from its file."
            ));
        }
        None => {}
    }
    if let Some(way) = name
        .strip_prefix("exposed")
        .map(|w| w.trim_start_matches(':'))
    {
        return Some(format!(
            "Built-in: the player sees the dealer's set hand and keeps the legal settings with the best result against it \
             (win both, then push, then lose; a tie on a hand goes to the dealer), breaking ties by the house way {}.",
            tie(way)
        ));
    }
    match name {
        "max-back" => Some(
            "Built-in: the legal setting with the best back hand; ties by the best front hand."
                .into(),
        ),
        "max-front" => Some(
            "Built-in: the legal setting with the best front hand; ties by the best back hand."
                .into(),
        ),
        _ => None,
    }
}

/// A house-way file's name, source, notes and rules in order, then its text.
fn way_rules(doc: &mut Document, file: &TextFile) {
    let table = file.text.parse::<toml::Table>().ok();
    let field = |key: &str| toml_field(&file.text, key);
    doc.paragraph(vec![
        text(format!("{}: read from ", field("name"))),
        code(&file.origin),
        text(" (SHA-256 "),
        code(file.sha256()),
        text(format!("). Source: {}", dash(&field("source")))),
    ]);
    notes(doc, &field("notes"));
    let rules: Vec<String> = (table.as_ref())
        .and_then(|t| t.get("rule").and_then(|r| r.as_array()).cloned())
        .unwrap_or_default()
        .iter()
        .map(|r| {
            r.get("name")
                .and_then(|n| n.as_str())
                .unwrap_or("(unnamed rule)")
                .to_string()
        })
        .collect();
    if !rules.is_empty() {
        doc.say("Rules, tried in order; the first that applies sets the hand:");
        let mut t = Table::new(&["rule", "what it does"]).left(&[1]);
        for (i, rule) in rules.iter().enumerate() {
            t.row(vec![(i + 1).to_string(), rule.clone()]);
        }
        doc.push(Block::Table(t));
    }
    doc.push(file_text("The house-way file", file));
}

/// A collapsed block holding an input file's whole text, headed `WHAT ORIGIN`.
fn file_text(what: &str, file: &TextFile) -> Block {
    Block::Details {
        summary: format!("{what} {}", file.origin),
        blocks: vec![Block::Code {
            language: "toml".to_string(),
            text: file.text.clone(),
        }],
    }
}

fn dash(s: &str) -> String {
    if s.is_empty() {
        "none given".to_string()
    } else {
        s.to_string()
    }
}
