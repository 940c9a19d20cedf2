//! The one strategy resolver: a strategy name as a user writes it (a shipped house way, a
//! house-way file, or a built-in) to the strategy, with the house way behind it and every file
//! it was read from, so that manifests and partial files can record and hash them.
//!
//! Names:
//! - `max-back`, `max-front`: the reference built-ins (no file);
//! - `exposed` / `exposed:WAY`: sees the dealer's set hand, ties by the house way `WAY`
//!   ([`EXPOSED_DEFAULT_WAY`] unless named);
//! - `optimal:D`: the highest EV against a dealer who sets by `D` (a house way or a reference
//!   built-in; see [`dealer_way`]), from the price table: the true optimum, card removal
//!   included;
//! - `full-deck-optimal:D`: its approximation against every dealer hand of the full deck (no card
//!   removal), built in seconds;
//! - anything else: a house way, by shipped name or TOML file, with a shape cache in front.

use crate::files::{ConfigError, TextFile};
use crate::game::GameRules;
use crate::strategy::cached::CachedWay;
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::exposed::Exposed;
use crate::strategy::optimal::best::TableOptimal;
use crate::strategy::optimal::cache::DealerWay;
use crate::strategy::optimal::{FULL_DECK_PREFIX as FULL_DECK, FullDeckOptimal, PREFIX as OPTIMAL};
use crate::strategy::way::HouseWay;
use crate::strategy::{MaxBack, MaxFront, Strategy};

/// Built-in strategy names, for help texts and errors.
pub const BUILT_INS: &[&str] = &[
    "max-back",
    "max-front",
    "exposed",
    "exposed:WAY",
    "optimal:WAY",
    "full-deck-optimal:WAY",
];

/// The house way `exposed` breaks ties with when none is named (`exposed:WAY` names one).
pub const EXPOSED_DEFAULT_WAY: &str = "foxwoods";

/// What kind of strategy a name resolved to, with what reports need of it.
pub enum Detail {
    /// `max-back` or `max-front`.
    BuiltIn,
    /// A house way (its rules name the rule that set a hand).
    House(HouseWay),
    /// `exposed:WAY`, breaking ties by this house way.
    Exposed(HouseWay),
    /// `optimal:D` (the best setting of each shape in the price table against `D`).
    Optimal(TableOptimal),
    /// `full-deck-optimal:D` (its dealer table prices settings).
    FullDeckOptimal(FullDeckOptimal),
}

/// A strategy resolved from its name.
pub struct Resolved {
    /// The name as given.
    pub label: String,
    pub strategy: Box<dyn Strategy>,
    pub detail: Detail,
    /// The files the strategy was read from (none for a built-in), with their exact text.
    pub sources: Vec<TextFile>,
}

/// What ties a result to a resolved strategy (cache keys, their file names): the name as given,
/// and its identity: its kind and the text of every file it was read from (a built-in's name).
/// Two strategies with the same identity set every hand alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WayIdentity {
    pub label: String,
    pub identity: String,
}

impl Resolved {
    /// The strategy's [`WayIdentity`].
    pub fn identity(&self) -> WayIdentity {
        let kind = match &self.detail {
            Detail::BuiltIn => format!("built-in {}", self.label),
            Detail::House(_) => "house way".to_string(),
            Detail::Exposed(_) => "exposed, ties by the house way".to_string(),
            Detail::Optimal(_) | Detail::FullDeckOptimal(_) => {
                let (kind, dealer) = optimal_dealer(&self.label).expect("an optimal name");
                match self.sources.is_empty() {
                    true => format!("{kind} against the built-in {dealer}"),
                    false => format!("{kind} against the house way"),
                }
            }
        };
        let texts: Vec<&str> = self.sources.iter().map(|f| f.text.as_str()).collect();
        WayIdentity {
            label: self.label.clone(),
            identity: format!("{kind}\n{}", texts.join("\n---\n")),
        }
    }

    /// The strategy itself, without the shape cache in front of it (what a check that must
    /// not lean on the cache applies: a house way's rules, `optimal:D`'s choice).
    pub fn uncached(&self) -> &dyn Strategy {
        match &self.detail {
            Detail::House(way) => way,
            Detail::Optimal(way) => way,
            Detail::FullDeckOptimal(way) => way,
            Detail::BuiltIn | Detail::Exposed(_) => &*self.strategy,
        }
    }

    /// The house way whose rules set the hands, for rule names (house ways only).
    pub fn house_way(&self) -> Option<&HouseWay> {
        match &self.detail {
            Detail::House(way) => Some(way),
            _ => None,
        }
    }
}

/// Gives every way that plays as an earlier one of `ways` (the same [`Resolved::identity`]) a
/// handle on that way's cache ([`Strategy::share`]), so that each shape is set once for all of
/// them (ways of one game: an identity says nothing of the ranking).
pub fn share_caches(mut ways: Vec<&mut Resolved>) {
    let identities: Vec<String> = ways.iter().map(|w| w.identity().identity).collect();
    for i in 1..ways.len() {
        let first = identities.iter().position(|id| *id == identities[i]);
        if let Some(shared) = first
            .filter(|&j| j < i)
            .and_then(|j| ways[j].strategy.share())
        {
            ways[i].strategy = shared;
        }
    }
}

/// Resolves a strategy name for `game` (see the module docs), reading house ways from their
/// shipped text or their file.
pub fn resolve(name: &str, game: &GameRules) -> Result<Resolved, ConfigError> {
    resolve_with(name, game, SuitDeck::of(game.deck), &HouseWay::load)
}

/// [`resolve`] for hands dealt from `deck` (a reduced deck of `--ranks`): there `optimal:D` is
/// that deck's own optimum, each of its shapes at its best setting against `D` on that deck
/// (the full deck's best settings are another strategy there, `full-deck-optimal:D` aside).
pub fn resolve_on_deck(
    name: &str,
    game: &GameRules,
    deck: SuitDeck,
) -> Result<Resolved, ConfigError> {
    resolve_with(name, game, deck, &HouseWay::load)
}

/// Resolves a strategy name with the house-way file it was resolved with before (`stored`, as
/// [`Resolved::sources`] gave it), reading no file: how a partial result is rebuilt elsewhere.
pub fn resolve_stored(
    name: &str,
    game: &GameRules,
    stored: &[TextFile],
) -> Result<Resolved, ConfigError> {
    resolve_with(
        name,
        game,
        SuitDeck::of(game.deck),
        &|way: &str| match stored {
            [file] => HouseWay::from_toml(&file.text, &file.origin),
            [] => HouseWay::load(way),
            _ => Err(ConfigError::file(
                name,
                format!("one house-way file expected, {} stored", stored.len()),
            )),
        },
    )
}

/// [`resolve`] with house ways read by `load_way`.
fn resolve_with(
    name: &str,
    game: &GameRules,
    deck: SuitDeck,
    load_way: &dyn Fn(&str) -> Result<HouseWay, ConfigError>,
) -> Result<Resolved, ConfigError> {
    let resolved = |strategy: Box<dyn Strategy>, detail, sources| Resolved {
        label: name.to_string(),
        strategy,
        detail,
        sources,
    };
    if let Some((kind, dealer)) = optimal_dealer(name) {
        check_dealer_label(dealer, name)?;
        let dealer = dealer_way_with(dealer, game, load_way)?;
        let (strategy, detail): (Box<dyn Strategy>, Detail) = match kind {
            OptimalKind::Table => {
                let way = TableOptimal::load_default_on(&dealer.way, game, deck);
                (Box::new(CachedWay::new(way.clone())), Detail::Optimal(way))
            }
            OptimalKind::FullDeck => {
                let way = FullDeckOptimal::load_default(&dealer.way, game);
                let cached = Box::new(CachedWay::new(way.clone()));
                (cached, Detail::FullDeckOptimal(way))
            }
        };
        return Ok(resolved(strategy, detail, dealer.sources));
    }
    match name {
        "max-back" => Ok(resolved(Box::new(MaxBack), Detail::BuiltIn, Vec::new())),
        "max-front" => Ok(resolved(Box::new(MaxFront), Detail::BuiltIn, Vec::new())),
        _ => match exposed_tie_break(name) {
            Some(tie_break) => {
                let way = load_way(tie_break)?;
                let sources = vec![way.file()];
                let strategy = Box::new(Exposed::new(way.clone()));
                Ok(resolved(strategy, Detail::Exposed(way), sources))
            }
            None => {
                let way = load_way(name)?;
                let sources = vec![way.file()];
                let strategy = Box::new(CachedWay::new(way.clone()));
                Ok(resolved(strategy, Detail::House(way), sources))
            }
        },
    }
}

/// The house way `name` names (a shipped name or a TOML file), for a command that reads a way's
/// rules; a built-in strategy's name is refused as one, saying what the command takes (`takes`).
pub fn house_way(name: &str, takes: &str) -> Result<HouseWay, ConfigError> {
    if sees_a_hand(name) {
        return Err(ConfigError::file(
            name,
            format!("a built-in strategy, not a house way; this command takes {takes}"),
        ));
    }
    HouseWay::load(name)
}

/// The house-way files behind a strategy name, as [`resolve`] would read them: none for a
/// built-in, the tie-break way's for `exposed:WAY`, the dealer way's for `optimal:D`.
pub fn sources(name: &str) -> Result<Vec<TextFile>, ConfigError> {
    let way = match (optimal_dealer(name), exposed_tie_break(name)) {
        (Some((_, dealer)), _) => {
            check_dealer_label(dealer, name)?;
            dealer
        }
        (None, Some(tie_break)) => tie_break,
        (None, None) => name,
    };
    if way == "max-back" || way == "max-front" {
        return Ok(Vec::new());
    }
    Ok(vec![HouseWay::load(way)?.file()])
}

/// The tie-break way of an `exposed` name, if `name` is one.
pub fn exposed_tie_break(name: &str) -> Option<&str> {
    match name {
        "exposed" => Some(EXPOSED_DEFAULT_WAY),
        other => other.strip_prefix("exposed:"),
    }
}

/// The two optimal strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimalKind {
    /// `optimal:D`, from the price table.
    Table,
    /// `full-deck-optimal:D`, from the full-deck dealer table.
    FullDeck,
}

impl std::fmt::Display for OptimalKind {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            OptimalKind::Table => "optimal",
            OptimalKind::FullDeck => "optimal against the full deck",
        })
    }
}

/// The kind and dealer's way of an optimal strategy's name (`optimal:D`, `full-deck-optimal:D`).
pub fn optimal_dealer(name: &str) -> Option<(OptimalKind, &str)> {
    (name.strip_prefix(OPTIMAL).map(|d| (OptimalKind::Table, d))).or_else(|| {
        name.strip_prefix(FULL_DECK)
            .map(|d| (OptimalKind::FullDeck, d))
    })
}

/// Whether `name` is a built-in that sets by seeing another hand (an optimal strategy the
/// dealer's way, `exposed` the dealer's setting): neither a house way nor a way a dealer may play.
fn sees_a_hand(name: &str) -> bool {
    optimal_dealer(name).is_some() || exposed_tie_break(name).is_some()
}

/// Refuses a dealer's way that would see a hand (`optimal:` or `exposed`), naming `given`: the
/// name as the user wrote it (`optimal:exposed`, or the dealer's way alone).
fn check_dealer_label(label: &str, given: &str) -> Result<(), ConfigError> {
    match sees_a_hand(label) {
        true => Err(ConfigError::file(
            given,
            "the dealer's way must be a house way or max-back/max-front \
             (the dealer sets without seeing the player)",
        )),
        false => Ok(()),
    }
}

/// A dealer's way resolved: the way with its identity, and its files.
pub struct ResolvedDealer {
    pub way: DealerWay,
    pub sources: Vec<TextFile>,
}

/// The way `label` names for a dealer who sets without seeing any player: a house way or a
/// reference built-in (not `optimal:` or `exposed`).
pub fn dealer_way(label: &str, game: &GameRules) -> Result<ResolvedDealer, ConfigError> {
    dealer_way_with(label, game, &HouseWay::load)
}

/// [`dealer_way`] with house ways read by `load_way`.
fn dealer_way_with(
    label: &str,
    game: &GameRules,
    load_way: &dyn Fn(&str) -> Result<HouseWay, ConfigError>,
) -> Result<ResolvedDealer, ConfigError> {
    check_dealer_label(label, label)?;
    let resolved = resolve_with(label, game, SuitDeck::of(game.deck), load_way)?;
    let text = match resolved.sources.first() {
        Some(file) => file.text.clone(),
        None => label.to_string(),
    };
    Ok(ResolvedDealer {
        way: DealerWay {
            label: label.to_string(),
            strategy: resolved.strategy,
            text,
        },
        sources: resolved.sources,
    })
}
