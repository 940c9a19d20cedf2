//! Game definitions: the rules of one pai gow variant, read from TOML.
//!
//! A [`GameRules`] is validated once at load: the deck has 52 + 0, 1 or 2 cards, and option
//! combinations the ranking does not define are refused (five aces "equal to a royal flush" is a
//! rule of the bug joker; with a wild joker every five of a kind exists). The engine only ever sees
//! a validated `GameRules`.
//!
//! Shipped games are embedded in the binary (so `--game standard` works from any directory) and
//! are the same files as `games/*.toml` in the repository.

pub mod events;
pub mod paytable;
pub mod settlement;
pub mod wager;

use serde::Deserialize;

use crate::cards::Deck;
use crate::eval::{FiveAces, JokerRule, Ranking, Wheel};
use crate::files::{ConfigError, TextFile, check_name, parse_toml, read_named};
use crate::game::paytable::Paytable;
use crate::game::wager::MainWager;

/// The most side bets one game may offer.
pub const MAX_SIDE_BETS: usize = 4;

/// Shipped games: (name, origin, TOML text).
pub const SHIPPED_GAMES: &[(&str, &str, &str)] = &[
    (
        "standard",
        "games/standard.toml",
        include_str!("../../games/standard.toml"),
    ),
    (
        "double-joker",
        "games/double-joker.toml",
        include_str!("../../games/double-joker.toml"),
    ),
    (
        "jokers-wild",
        "games/jokers-wild.toml",
        include_str!("../../games/jokers-wild.toml"),
    ),
    (
        "california",
        "games/california.toml",
        include_str!("../../games/california.toml"),
    ),
    (
        "ez-pai-gow",
        "games/ez-pai-gow.toml",
        include_str!("../../games/ez-pai-gow.toml"),
    ),
    (
        "fortune",
        "games/fortune.toml",
        include_str!("../../games/fortune.toml"),
    ),
    (
        "face-up",
        "games/face-up.toml",
        include_str!("../../games/face-up.toml"),
    ),
    (
        "commission-free",
        "games/commission-free.toml",
        include_str!("../../games/commission-free.toml"),
    ),
];

/// The game file as written.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct GameFile {
    name: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    notes: String,
    /// 52, 53 or 54 cards (read as any whole number, so that one out of range is refused in the
    /// key's own words).
    deck: i64,
    #[serde(default = "default_joker")]
    joker: JokerRule,
    #[serde(default = "default_five_aces")]
    five_aces: FiveAces,
    #[serde(default = "default_wheel")]
    wheel: Wheel,
    /// Main-wager rules (`[main_wager]`); absent: no commission, no qualification.
    #[serde(default)]
    main_wager: wager::MainWagerFile,
    /// Side bets offered: shipped paytable names, or paytable files (relative to this file).
    #[serde(default)]
    side_bets: Vec<String>,
}

fn default_joker() -> JokerRule {
    JokerRule::Bug
}
fn default_five_aces() -> FiveAces {
    FiveAces::AboveRoyal
}
fn default_wheel() -> Wheel {
    Wheel::SecondHighest
}

/// The validated rules of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRules {
    /// Display name.
    pub name: String,
    /// Where the rules come from.
    pub source: String,
    /// Where this definition was read from (a path, or `games/NAME.toml` for a shipped game).
    pub origin: String,
    /// The exact text read, for hashing into manifests.
    pub text: String,
    pub deck: Deck,
    pub ranking: Ranking,
    /// How the main wager is settled.
    pub main_wager: MainWager,
    /// The side bets offered, in the order the game file lists them.
    pub side_bets: Vec<Paytable>,
}

impl GameRules {
    /// Loads a shipped game by name, or a game file by path.
    pub fn load(name_or_path: &str) -> Result<GameRules, ConfigError> {
        let (text, origin) = read_named(name_or_path, SHIPPED_GAMES, "game")?;
        GameRules::from_toml(&text, &origin)
    }

    /// Parses and validates a game definition; its side bets are read from the paytables it
    /// names (files relative to it, or shipped names).
    pub fn from_toml(text: &str, origin: &str) -> Result<GameRules, ConfigError> {
        let (file, main_wager) = parse_game(text, origin)?;
        let side_bets = load_side_bets(&file.side_bets, text, origin)?;
        GameRules::build(file, main_wager, text, origin, side_bets)
    }

    /// A game from the exact texts of its file and of its side bets' paytables (as a partial
    /// result stores them), reading no other file.
    pub fn from_texts(game: &TextFile, side_bets: &[TextFile]) -> Result<GameRules, ConfigError> {
        let (file, main_wager) = parse_game(&game.text, &game.origin)?;
        if file.side_bets.len() != side_bets.len() {
            return Err(ConfigError::at_key(
                &game.origin,
                &game.text,
                &["side_bets"],
                format!(
                    "names {} side bets but {} paytables are given",
                    file.side_bets.len(),
                    side_bets.len()
                ),
            ));
        }
        let tables = side_bets
            .iter()
            .map(|t| Paytable::from_toml(&t.text, &t.origin))
            .collect::<Result<Vec<_>, _>>()?;
        GameRules::build(file, main_wager, &game.text, &game.origin, tables)
    }

    /// The game file.
    pub fn file(&self) -> TextFile {
        TextFile::new(&self.origin, &self.text)
    }

    /// The side bets' paytable files, in the game's order.
    pub fn side_bet_files(&self) -> Vec<TextFile> {
        (self.side_bets.iter())
            .map(|t| TextFile::new(&t.origin, &t.text))
            .collect()
    }

    /// The side bet `name_or_file` names: one of the game's own (by its paytable's name), else a
    /// shipped paytable or a paytable file, refused unless the game's deck can pay it (the
    /// check a game file's `side_bets` get). The one home of `--bet` (`exact bonus`,
    /// `simulate`).
    pub fn bet(&self, name_or_file: &str) -> Result<Paytable, ConfigError> {
        if let Some(own) = self.side_bets.iter().find(|b| b.name == name_or_file) {
            return Ok(own.clone());
        }
        let table = Paytable::load(name_or_file)?;
        table.check_deck(self.deck.jokers(), self.deck.size())?;
        Ok(table)
    }

    /// The game with `extra` side bets after its own, as a run adds them (`simulate --bet`):
    /// each one the deck can pay, no two bets of one name (reports tell bets apart by name),
    /// at most [`MAX_SIDE_BETS`] in all.
    pub fn with_bets(mut self, extra: Vec<Paytable>) -> Result<GameRules, ConfigError> {
        let offered = self.side_bets.len();
        if offered + extra.len() > MAX_SIDE_BETS {
            return Err(ConfigError::file(
                &self.origin,
                format!(
                    "at most {MAX_SIDE_BETS} side bets a run: the game offers {offered} and {} \
                     more were added",
                    extra.len()
                ),
            ));
        }
        for bet in extra {
            bet.check_deck(self.deck.jokers(), self.deck.size())?;
            if let Some(twin) = self.side_bets.iter().find(|b| b.name == bet.name) {
                let message = match twin.text == bet.text {
                    true => format!("side bet '{}' is in the run twice", bet.name),
                    false => format!(
                        "side bets {} and {} are both named '{}': reports tell bets apart by name",
                        twin.origin, bet.origin, bet.name
                    ),
                };
                return Err(ConfigError::file(&bet.origin, message));
            }
            self.side_bets.push(bet);
        }
        Ok(self)
    }

    /// Validates a parsed game file with its side bets.
    fn build(
        file: GameFile,
        main_wager: MainWager,
        text: &str,
        origin: &str,
        side_bets: Vec<Paytable>,
    ) -> Result<GameRules, ConfigError> {
        check_name(origin, text, &file.name)?;
        let deck = match file.deck {
            52..=54 => Deck::with_jokers(file.deck as u8 - 52).expect("0..=2 jokers"),
            n => {
                return Err(ConfigError::at_key(
                    origin,
                    text,
                    &["deck"],
                    format!("deck = {n}: expected 52, 53 (one joker) or 54 (two jokers)"),
                ));
            }
        };
        if file.joker == JokerRule::Wild && file.five_aces == FiveAces::EqualRoyal {
            return Err(ConfigError::at_key(
                origin,
                text,
                &["five_aces"],
                "five_aces = \"equal_royal\" is defined only for joker = \"bug\"",
            ));
        }
        let _ = file.notes;
        // A bet the deck cannot pay: the game's side_bets line, then the paytable's (a chain).
        for (i, bet) in side_bets.iter().enumerate() {
            bet.check_deck(deck.jokers(), deck.size()).map_err(|e| {
                let listed = file.side_bets.get(i).unwrap_or(&bet.name);
                ConfigError::at_key(
                    origin,
                    text,
                    &["side_bets", &i.to_string()],
                    format!("side bet '{listed}': {e}"),
                )
            })?;
        }
        Ok(GameRules {
            name: file.name,
            source: file.source,
            origin: origin.to_string(),
            text: text.to_string(),
            deck,
            ranking: Ranking {
                joker: file.joker,
                five_aces: file.five_aces,
                wheel: file.wheel,
            },
            main_wager,
            side_bets,
        })
    }
}

/// A game file parsed, with its `[main_wager]` rules validated: an error is shown at the line of
/// the key at fault (the table's header when that key is not written).
fn parse_game(text: &str, origin: &str) -> Result<(GameFile, MainWager), ConfigError> {
    let mut file: GameFile = parse_toml(text, origin)?;
    let rules = std::mem::take(&mut file.main_wager);
    let main_wager = MainWager::try_from(rules).map_err(|(key, message)| {
        ConfigError::at_key(origin, text, &["main_wager", key], message)
    })?;
    Ok((file, main_wager))
}

/// Loads the side bets a game names: a path relative to the game file's directory when such a
/// file exists, else a path as given or a shipped paytable name. Two bets may not share a name.
/// An error names the game file and the line of `side_bets` (of the bet at fault).
fn load_side_bets(
    names: &[String],
    text: &str,
    game_origin: &str,
) -> Result<Vec<Paytable>, ConfigError> {
    if names.len() > MAX_SIDE_BETS {
        return Err(ConfigError::at_key(
            game_origin,
            text,
            &["side_bets"],
            format!("at most {MAX_SIDE_BETS} side bets, found {}", names.len()),
        ));
    }
    let base = std::path::Path::new(game_origin).parent();
    let mut bets: Vec<Paytable> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let index = i.to_string();
        let at = |message: String| {
            ConfigError::at_key(game_origin, text, &["side_bets", &index], message)
        };
        let relative = base.map(|b| b.join(name)).filter(|p| p.is_file());
        let target = relative.map_or(name.clone(), |p| p.to_string_lossy().into_owned());
        let bet = Paytable::load(&target).map_err(|e| at(format!("side bet '{name}': {e}")))?;
        if let Some(twin) = bets.iter().find(|b| b.name == bet.name) {
            return Err(at(match twin.origin == bet.origin {
                true => format!("side bet '{}' is listed twice", bet.name),
                false => format!(
                    "side bets {} and {} are both named '{}': reports tell bets apart by name",
                    twin.origin, bet.origin, bet.name
                ),
            }));
        }
        bets.push(bet);
    }
    Ok(bets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::LONGEST_NAME;

    #[test]
    fn every_shipped_game_loads() {
        for (name, _, _) in SHIPPED_GAMES {
            let game = GameRules::load(name).unwrap();
            assert!(!game.name.is_empty());
        }
        assert_eq!(GameRules::load("double-joker").unwrap().deck.jokers(), 2);
        assert_eq!(
            GameRules::load("jokers-wild").unwrap().ranking.joker,
            JokerRule::Wild
        );
    }

    #[test]
    fn unknown_key_names_file_line_and_column() {
        let err = GameRules::from_toml("name = \"x\"\ndeck = 53\njokr = \"bug\"\n", "g.toml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("g.toml:3:1:"), "{err}");
        assert!(err.contains("jokr"), "{err}");
    }

    #[test]
    fn bad_values_are_errors() {
        for bad in [
            "name = \"x\"\ndeck = 55\n",
            "name = \"x\"\ndeck = 53\njoker = \"crazy\"\n",
            "name = \"x\"\ndeck = 53\njoker = \"wild\"\nfive_aces = \"equal_royal\"\n",
            "deck = 53\n",
            "name = \"\"\ndeck = 53\n",
            "name = \" \\t \"\ndeck = 53\n",
        ] {
            assert!(GameRules::from_toml(bad, "g.toml").is_err(), "{bad}");
        }
        assert!(GameRules::load("no-such-game").is_err());
    }

    #[test]
    fn a_main_wager_rule_error_names_the_keys_line() {
        let game = |rule: &str| {
            let text = format!(
                "name = \"g\"\ndeck = 53\n[main_wager]\ncommission = \"percent_of_win\"\n{rule}\n"
            );
            GameRules::from_toml(&text, "g.toml")
                .unwrap_err()
                .to_string()
        };
        for rule in [
            "commission_percent = 0.001",
            "overqualifier = 7\ncommission_percent = 5",
            "overqualifier = 300\ncommission_percent = 5",
        ] {
            let error = game(rule);
            assert!(error.starts_with("g.toml:5:1:"), "{rule}: {error}");
        }
        let wide = game("overqualifier = 300\ncommission_percent = 5");
        assert!(wide.contains("expected a multiple from 1 to 4"), "{wide}");
        let deck = GameRules::from_toml("name = \"g\"\ndeck = 300\n", "g.toml").unwrap_err();
        assert!(
            deck.to_string().starts_with("g.toml:2:")
                && deck
                    .to_string()
                    .contains("expected 52, 53 (one joker) or 54"),
            "a deck out of range is refused in the key's words: {deck}"
        );
        let missing = game("");
        assert!(
            missing.starts_with("g.toml:4:1:")
                && missing.contains("commission_percent is required"),
            "a missing percent is shown at its commission's line: {missing}"
        );
    }

    #[test]
    fn a_side_bet_the_deck_cannot_pay_names_the_game_and_the_paytable() {
        let text = "name = \"g\"\ndeck = 53\nside_bets = [\"joker-bonus\"]\n";
        let error = GameRules::from_toml(text, "g.toml")
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("g.toml:3:"), "{error}");
        assert!(error.contains("side bet 'joker-bonus'"), "{error}");
        assert!(error.contains("joker-bonus.toml:"), "{error}");
        assert!(error.contains("needs 2 joker(s)"), "{error}");
    }

    #[test]
    fn a_blank_or_huge_name_is_refused_at_its_line() {
        let blank = GameRules::from_toml("deck = 53\nname = \"  \"\n", "g.toml").unwrap_err();
        assert!(
            blank.to_string().starts_with("g.toml:2:1: name is empty"),
            "{blank}"
        );
        let long = "N".repeat(LONGEST_NAME);
        assert!(GameRules::from_toml(&format!("name = \"{long}\"\ndeck = 53\n"), "g").is_ok());
        let huge = format!("name = \"{}\"\ndeck = 53\n", "N".repeat(100_000));
        let err = GameRules::from_toml(&huge, "g.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("100000 characters long") && err.len() < 200,
            "{err}"
        );
    }
}
