//! The end of every subcommand's `--help`: two or three worked examples, the shipped games,
//! house ways and paytables the command accepts, and the files it writes.
//!
//! Each subcommand keeps its text in one place, a [`Help`] const next to its arguments struct,
//! given to clap as `after_long_help`. The lists of shipped names are generated from the shipped
//! tables themselves ([`SHIPPED_GAMES`], [`SHIPPED_WAYS`], [`SHIPPED_PAYTABLES`],
//! [`BUILT_INS`]), never kept by hand. A unit test parses every example command line, so the
//! examples cannot rot.

use crate::game::SHIPPED_GAMES;
use crate::game::paytable::SHIPPED_PAYTABLES;
use crate::strategy::resolve::BUILT_INS;
use crate::strategy::way::SHIPPED_WAYS;

/// What a subcommand's `--help` ends with.
pub struct Help {
    /// Worked examples: what it does, in words, and the command line.
    pub examples: &'static [(&'static str, &'static str)],
    /// The shipped names it accepts.
    pub accepts: &'static [Accepts],
    /// The files it writes (or that it writes none), in words.
    pub writes: &'static str,
}

/// A kind of shipped input a command accepts by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepts {
    /// `--game`: the shipped games (or a game TOML file).
    Games,
    /// `table --game`: the shipped games the table deals (even money: no commission or
    /// overqualifier), or a game TOML file.
    TableGames,
    /// Player and dealer strategies: the shipped house ways and the built-ins.
    Ways,
    /// House ways (no built-ins listed): `check-way`, `diff-ways`.
    HouseWays,
    /// The ways that set a hand from the player's seven cards alone (house ways and the
    /// built-ins but `exposed`): `exact bonus --player-way`.
    OwnCardWays,
    /// The ways a dealer sets by without seeing any hand (house ways, max-back, max-front):
    /// `exact prices --dealer-way`.
    DealerWays,
    /// Side-bet paytables: `exact bonus --bet`.
    Paytables,
}

/// The shipped names of a table of shipped files, comma-separated.
fn names(shipped: &[(&str, &str, &str)]) -> String {
    let names: Vec<&str> = shipped.iter().map(|(name, _, _)| *name).collect();
    names.join(", ")
}

/// The shipped games, for option help: `standard, double-joker, ...`.
pub fn shipped_games() -> String {
    names(SHIPPED_GAMES)
}

/// The shipped games the table can deal (`engine::table::check_game`).
pub fn table_games() -> Vec<&'static str> {
    let fits = |name: &str| {
        crate::game::GameRules::load(name)
            .is_ok_and(|game| crate::engine::table::check_game(&game).is_ok())
    };
    (SHIPPED_GAMES.iter().map(|(name, _, _)| *name))
        .filter(|name| fits(name))
        .collect()
}

/// The `--game` option's help, its list of games generated.
pub fn game_option() -> String {
    format!("A shipped game ({}) or a game TOML file.", shipped_games())
}

impl Accepts {
    fn line(self) -> String {
        match self {
            Accepts::Games => format!("  games (--game): {}, or a game TOML file", shipped_games()),
            Accepts::TableGames => format!(
                "  games (--game): {}, or a game TOML file with neither commission nor \
                 overqualifier (the table pays even money; a card room collects a fee instead)",
                table_games().join(", ")
            ),
            Accepts::Ways => {
                let shipped = |b: &&str| SHIPPED_WAYS.iter().any(|(name, _, _)| name == b);
                let others: Vec<&str> = BUILT_INS.iter().filter(|b| !shipped(b)).copied().collect();
                format!(
                    "  ways: {}, a house-way TOML file, or a built-in: {}",
                    names(SHIPPED_WAYS),
                    others.join(", ")
                )
            }
            Accepts::HouseWays => format!(
                "  house ways: {}, or a house-way TOML file",
                names(SHIPPED_WAYS)
            ),
            Accepts::OwnCardWays => {
                let own: Vec<&str> = (BUILT_INS.iter().copied())
                    .filter(|b| !b.starts_with("exposed"))
                    .collect();
                format!(
                    "  player ways (--player-way): {}, a house-way TOML file, or a built-in \
                     that sets from the player's own cards: {}",
                    names(SHIPPED_WAYS),
                    own.join(", ")
                )
            }
            Accepts::DealerWays => format!(
                "  dealer ways (--dealer-way): {}, a house-way TOML file, max-back or max-front",
                names(SHIPPED_WAYS)
            ),
            Accepts::Paytables => format!(
                "  side bets (--bet): {}, or a paytable TOML file",
                names(SHIPPED_PAYTABLES)
            ),
        }
    }
}

impl Help {
    /// The text after the options in `--help`.
    pub fn render(&self) -> String {
        let mut text = String::from("Examples:\n");
        for (what, command) in self.examples {
            text += &format!("  # {what}\n  {command}\n\n");
        }
        if !self.accepts.is_empty() {
            text += "Accepts:\n";
            for accepts in self.accepts {
                text += &wrap(&accepts.line(), "    ");
                text += "\n";
            }
            text += "\n";
        }
        text += "Writes:\n";
        text += &wrap(&format!("  {}", self.writes), "  ");
        text
    }

    /// The example command lines, each split into words as a shell would (quotes removed; a
    /// redirection or pipe ends the command).
    pub fn example_words(&self) -> Vec<Vec<String>> {
        (self.examples.iter())
            .map(|(_, command)| shell_words(command))
            .collect()
    }
}

/// The widest line of the text, in characters (the help's `max_term_width`, less a margin).
const WIDTH: usize = 96;

/// `line` wrapped at word breaks to [`WIDTH`], its continuation lines indented by `indent`.
fn wrap(line: &str, indent: &str) -> String {
    let lead = line.len() - line.trim_start().len();
    let mut out = line[..lead].to_string();
    let mut width = lead;
    for (i, word) in line.split_whitespace().enumerate() {
        let len = word.chars().count();
        if i > 0 && width + 1 + len > WIDTH {
            out += "\n";
            out += indent;
            width = indent.len();
        } else if i > 0 {
            out += " ";
            width += 1;
        }
        out += word;
        width += len;
    }
    out
}

/// Splits a simple shell command line into words: single and double quotes group, `\` at a
/// line end continues it, and `<`, `>` or `|` ends the command.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '\\') if chars.peek() == Some(&'\n') => {
                chars.next();
            }
            (None, '<' | '>' | '|') => break,
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_group_quotes_and_stop_at_redirections() {
        assert_eq!(
            shell_words("paigow table --seats \"D,100,-\" --bank 300 < x | y"),
            ["paigow", "table", "--seats", "D,100,-", "--bank", "300"]
        );
        assert_eq!(shell_words("a 'b c'  d"), ["a", "b c", "d"]);
    }

    #[test]
    fn long_lines_wrap_at_word_breaks() {
        let line = format!("  {}", "word ".repeat(40));
        let wrapped = wrap(&line, "    ");
        assert!(wrapped.lines().all(|l| l.len() <= WIDTH), "{wrapped}");
        assert!(wrapped.lines().skip(1).all(|l| l.starts_with("    word")));
        assert_eq!(wrapped.split_whitespace().count(), 40);
    }

    #[test]
    fn table_games_are_the_shipped_games_the_table_deals() {
        let games = table_games();
        assert!(games.contains(&"california"), "{games:?}");
        assert!(!games.contains(&"standard"), "a commission: {games:?}");
        assert!(
            !games.contains(&"double-joker"),
            "an overqualifier: {games:?}"
        );
    }

    #[test]
    fn lists_are_generated_from_the_shipped_tables() {
        let text = Help {
            examples: &[],
            accepts: &[Accepts::Games, Accepts::Ways, Accepts::Paytables],
            writes: "nothing",
        }
        .render();
        for (name, _, _) in SHIPPED_GAMES
            .iter()
            .chain(SHIPPED_WAYS)
            .chain(SHIPPED_PAYTABLES)
        {
            assert!(text.contains(name), "{name} missing from {text}");
        }
        for name in BUILT_INS {
            assert!(text.contains(name), "{name} missing from {text}");
        }
    }
}
