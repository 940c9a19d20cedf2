//! What a run is, as data: the command, the exact text of every input file, the strategies by
//! name with the files they were read from, and the command's options. Enough to rebuild the
//! run's configuration with no other file (what `merge` and `--resume` do, possibly on another
//! machine), and to digest it.
//!
//! Invariants: a spec is built once, from the files as read, before a run starts; every engine
//! builds its configuration from a spec alone (`from_spec`), so a fresh run and a merge of its
//! shards see the same configuration; the digest covers every field (and the deals and chunk
//! size), so two runs with the same digest deal and tally the same way.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::run::Plan;
use crate::files::{ConfigError, TextFile, sha256_hex};
use crate::game::GameRules;
use crate::game::paytable::Paytable;
use crate::strategy::resolve::{Resolved, resolve_stored, sources};

/// A strategy as the run names it: its role ("player way", "dealer way", "compared way", ...),
/// its name as given, and the house-way file it was read from (none for a built-in).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategySpec {
    pub role: String,
    pub name: String,
    pub sources: Vec<TextFile>,
}

impl StrategySpec {
    /// The spec of a resolved strategy in `role`: its name as given and the files it was read
    /// from.
    pub fn of(role: &str, way: &Resolved) -> StrategySpec {
        StrategySpec {
            role: role.to_string(),
            name: way.label.clone(),
            sources: way.sources.clone(),
        }
    }
}

/// A run described by its inputs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// The command that runs it ("simulate", "compare", "table").
    pub command: String,
    pub game: TextFile,
    /// The game's side-bet paytables, in the game's order.
    pub side_bets: Vec<TextFile>,
    pub strategies: Vec<StrategySpec>,
    /// The command's own options, as text.
    pub options: BTreeMap<String, String>,
    /// Paytables the run reads beyond the game's own (`exact bonus --bet FILE`, the bets
    /// `simulate --bet` adds); absent from the JSON when empty, so a spec without them digests
    /// as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paytables: Vec<TextFile>,
}

impl RunSpec {
    /// A spec of `command` on `game`, with no strategies or options yet.
    pub fn new(command: &str, game: &GameRules) -> RunSpec {
        RunSpec {
            command: command.to_string(),
            game: game.file(),
            side_bets: game.side_bet_files(),
            strategies: Vec::new(),
            options: BTreeMap::new(),
            paytables: Vec::new(),
        }
    }

    /// Adds the strategy `name` in `role`, with the house-way file it reads.
    pub fn with_strategy(mut self, role: &str, name: &str) -> Result<RunSpec, ConfigError> {
        self.strategies.push(StrategySpec {
            role: role.to_string(),
            name: name.to_string(),
            sources: sources(name)?,
        });
        Ok(self)
    }

    /// Sets an option.
    pub fn with_option(mut self, key: &str, value: impl ToString) -> RunSpec {
        self.options.insert(key.to_string(), value.to_string());
        self
    }

    /// The game, rebuilt from the stored texts.
    pub fn game(&self) -> Result<GameRules, ConfigError> {
        GameRules::from_texts(&self.game, &self.side_bets)
    }

    /// Adds paytables the run reads beyond the game's own (`--bet`), by their exact texts.
    pub fn with_paytables(mut self, tables: &[Paytable]) -> RunSpec {
        (self.paytables).extend(tables.iter().map(|t| TextFile::new(&t.origin, &t.text)));
        self
    }

    /// The game as a run that adds side bets plays it (`simulate --bet`): the game rebuilt from
    /// the stored texts with [`RunSpec::paytables`] settled after its own bets, so that a merge
    /// or a resumed run, rebuilt from the spec alone, settles the same bets.
    pub fn game_with_paytables(&self) -> Result<GameRules, ConfigError> {
        let extra = (self.paytables.iter())
            .map(|t| Paytable::from_toml(&t.text, &t.origin))
            .collect::<Result<Vec<_>, _>>()?;
        self.game()?.with_bets(extra)
    }

    /// The strategies in `role`, in order, rebuilt from their stored files.
    pub fn strategies(&self, role: &str, game: &GameRules) -> Result<Vec<Resolved>, ConfigError> {
        (self.strategies.iter())
            .filter(|s| s.role == role)
            .map(|s| resolve_stored(&s.name, game, &s.sources))
            .collect()
    }

    /// The one strategy in `role`.
    pub fn strategy(&self, role: &str, game: &GameRules) -> Result<Resolved, ConfigError> {
        let mut found = self.strategies(role, game)?;
        match found.len() {
            1 => Ok(found.remove(0)),
            n => Err(self.error(format!("{n} strategies in role '{role}', expected one"))),
        }
    }

    /// The option `key`.
    pub fn option(&self, key: &str) -> Result<&str, ConfigError> {
        (self.options.get(key))
            .map(String::as_str)
            .ok_or_else(|| self.error(format!("no option '{key}'")))
    }

    /// The option `key`, parsed.
    pub fn parsed<T: std::str::FromStr>(&self, key: &str) -> Result<T, ConfigError> {
        let text = self.option(key)?;
        (text.parse()).map_err(|_| self.error(format!("option {key} = '{text}' is not valid")))
    }

    /// SHA-256 (hex) of the spec with the seed, deals and chunk size of `plan` and the tool's
    /// `version`: every field of a run's identity (each is also compared apart, so that a
    /// mismatch can be named).
    pub fn digest(&self, plan: &Plan, version: &str) -> String {
        let identity = (self, plan.seed, plan.deals, plan.chunk_size, version);
        let text = serde_json::to_string(&identity).expect("a spec serialises");
        sha256_hex(text.as_bytes())
    }

    fn error(&self, message: String) -> ConfigError {
        ConfigError::file(&format!("{} run", self.command), message)
    }
}
