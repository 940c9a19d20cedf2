//! House ways: how a casino sets a 7-card hand, written as TOML rules (see
//! `docs/reference/house-way-language.md`).
//!
//! A file is parsed with serde ([`language`]), compiled ([`compile`]) and validated
//! ([`validate`]) into a [`HouseWay`], which sets hands with no string work and no allocation
//! ([`apply`]). Invariants of a loaded `HouseWay`: it has at least one rule, every rule has at
//! least one alternative, the last rule sets every hand, every `when` is met by some hand of some
//! deck and no alternative asks for what no split can be; only legal splits are ever candidates,
//! so it never fouls and always answers; the answer is a function of the hand alone
//! (deterministic). Errors name the file, the line and the rule. [`lint`] then decides, exactly
//! over every hand of a game's deck ([`shapes`]), where rules never fire, are shadowed or fall
//! through.
//!
//! Shipped ways are embedded (so names work from any directory) and are the same files as
//! `strategies/*.toml`.

pub mod apply;
pub mod compile;
pub mod edit;
pub mod features;
pub mod language;
pub mod lint;
pub mod shapes;
pub mod validate;

use crate::cards::Card;
use crate::eval::split::SplitValues;
use crate::files::{ConfigError, TextFile, check_name, parse_toml, read_named};
use crate::game::wager::DealerSetting;
use crate::strategy::Strategy;

pub use apply::HandView;
pub use compile::CompiledWay;

/// Shipped house ways: (name, origin, TOML text).
pub const SHIPPED_WAYS: &[(&str, &str, &str)] = &[
    (
        "foxwoods",
        "strategies/foxwoods.toml",
        include_str!("../../../strategies/foxwoods.toml"),
    ),
    (
        "ballys-ac",
        "strategies/ballys-ac.toml",
        include_str!("../../../strategies/ballys-ac.toml"),
    ),
    (
        "canterbury-park",
        "strategies/canterbury-park.toml",
        include_str!("../../../strategies/canterbury-park.toml"),
    ),
    (
        "double-joker-dealer",
        "strategies/double-joker-dealer.toml",
        include_str!("../../../strategies/double-joker-dealer.toml"),
    ),
    (
        "mgm-grand",
        "strategies/mgm-grand.toml",
        include_str!("../../../strategies/mgm-grand.toml"),
    ),
    (
        "harrahs-reno",
        "strategies/harrahs-reno.toml",
        include_str!("../../../strategies/harrahs-reno.toml"),
    ),
    (
        "gold-star-school",
        "strategies/gold-star-school.toml",
        include_str!("../../../strategies/gold-star-school.toml"),
    ),
    (
        "frixo-summary",
        "strategies/frixo-summary.toml",
        include_str!("../../../strategies/frixo-summary.toml"),
    ),
    (
        "max-back",
        "strategies/max-back.toml",
        include_str!("../../../strategies/max-back.toml"),
    ),
    (
        "max-front",
        "strategies/max-front.toml",
        include_str!("../../../strategies/max-front.toml"),
    ),
];

/// A validated, compiled house way.
#[derive(Clone, Debug)]
pub struct HouseWay {
    /// Display name.
    pub name: String,
    /// Where the house way's text comes from.
    pub source: String,
    /// Where this file was read from (a path, or `strategies/NAME.toml` when shipped).
    pub origin: String,
    /// The exact text read, for manifests.
    pub text: String,
    /// The game the file says it is written for (`game = "..."`), if it says.
    pub game: Option<String>,
    /// The compiled rules.
    pub compiled: CompiledWay,
}

/// What a house way did with one hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The chosen split (0..21, legal).
    pub split: usize,
    /// Index of the rule that chose it.
    pub rule: usize,
}

impl HouseWay {
    /// Loads a shipped way by name, or a TOML file by path.
    pub fn load(name_or_path: &str) -> Result<HouseWay, ConfigError> {
        let (text, origin) = read_named(name_or_path, SHIPPED_WAYS, "house way")?;
        HouseWay::from_toml(&text, &origin)
    }

    /// Parses, validates and compiles a house way. A shipped way's exact text is known valid
    /// (validated by a unit test, not on every start-up: see [`validate`]).
    pub fn from_toml(text: &str, origin: &str) -> Result<HouseWay, ConfigError> {
        let file: language::WayFile = parse_toml(text, origin).map_err(|e| name_rule(e, text))?;
        check_name(origin, text, &file.name)?;
        let compiled = compile::compile(&file, text, origin)?;
        if !is_shipped_text(text) {
            validate::validate(&compiled, origin)?;
        }
        Ok(HouseWay {
            name: file.name,
            source: file.source,
            origin: origin.to_string(),
            text: text.to_string(),
            game: file.game,
            compiled,
        })
    }

    /// The file this way was read from.
    pub fn file(&self) -> TextFile {
        TextFile::new(&self.origin, &self.text)
    }

    /// Sets `hand` (sorted by card index) among its legal splits.
    #[inline]
    pub fn set(&self, hand: &[Card; 7], splits: &SplitValues) -> Setting {
        let view = HandView::new(hand, splits);
        let (split, rule) = apply::choose(&self.compiled, &view, view.legal_mask());
        Setting { split, rule }
    }

    /// Sets `hand` among the legal splits in `allowed` (a bit mask; must share a legal split).
    pub fn set_within(&self, hand: &[Card; 7], splits: &SplitValues, allowed: u32) -> Setting {
        let view = HandView::new(hand, splits);
        let candidates = match view.legal_mask() & allowed {
            0 => view.legal_mask(),
            m => m,
        };
        let (split, rule) = apply::choose(&self.compiled, &view, candidates);
        Setting { split, rule }
    }

    /// The name of rule `index`.
    pub fn rule_name(&self, index: usize) -> &str {
        &self.compiled.rules[index].name
    }

    /// Every rule tried on `hand` and why it did or did not apply.
    pub fn explain(&self, hand: &[Card; 7], splits: &SplitValues) -> Vec<String> {
        let view = HandView::new(hand, splits);
        apply::explain(&self.compiled, &view, view.legal_mask())
    }
}

/// Adds the rule (number and name) to a parse error inside a `[[rule]]` block.
fn name_rule(e: ConfigError, text: &str) -> ConfigError {
    match e {
        ConfigError::At {
            origin,
            line,
            column,
            message,
        } => {
            let message = match compile::rule_at_line(text, line) {
                Some(rule) => format!("in {rule}: {message}"),
                None => message,
            };
            ConfigError::At {
                origin,
                line,
                column,
                message,
            }
        }
        other => other,
    }
}

impl Strategy for HouseWay {
    fn name(&self) -> &str {
        &self.name
    }
    fn choose(&self, hand: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        self.set(hand, splits).split
    }
}

/// Whether `text` is a shipped way's text, byte for byte.
fn is_shipped_text(text: &str) -> bool {
    SHIPPED_WAYS.iter().any(|(_, _, shipped)| *shipped == text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`HouseWay::from_toml`] skips for the shipped texts: each one compiles and validates.
    #[test]
    fn every_shipped_way_validates() {
        for (name, origin, text) in SHIPPED_WAYS {
            let file: language::WayFile = parse_toml(text, origin).unwrap();
            let compiled = compile::compile(&file, text, origin).unwrap();
            validate::validate(&compiled, origin).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    /// Bounds on the front's cards with min above max are refused at load, as `when` and `back`
    /// bounds are (once such a rule loaded and always fell through; only check-way warned).
    #[test]
    fn contradictory_front_card_bounds_are_refused() {
        for bound in [
            "top = { min = \"A\", max = \"2\" }",
            "second = { min = \"K\", max = \"3\" }",
        ] {
            let text = format!(
                "name = \"w\"\nsource = \"s\"\n[[rule]]\nname = \"r\"\nwhen = {{ pairs = 2 }}\n\
                 set = [ {{ front = {{ {bound} }} }} ]\n[[rule]]\nname = \"rest\"\nset = [ {{}} ]\n"
            );
            let error = HouseWay::from_toml(&text, "w.toml")
                .unwrap_err()
                .to_string();
            assert!(error.contains("contradictory bounds"), "{bound}: {error}");
        }
    }

    /// A shipped way's text with one more rule is no longer a shipped text: it is validated.
    #[test]
    fn an_edited_shipped_way_is_validated() {
        let (_, origin, text) = SHIPPED_WAYS[0];
        let rule = "[[rule]]\nname = \"four pairs\"\nwhen = { pairs = 4 }\nset = [ {} ]\n\n";
        let at = text.find("[[rule]]").unwrap();
        let edited = format!("{}{rule}{}", &text[..at], &text[at..]);
        let error = HouseWay::from_toml(&edited, origin)
            .unwrap_err()
            .to_string();
        assert!(error.contains("pairs is 0 to 3"), "{error}");
        assert!(HouseWay::from_toml(text, origin).is_ok());
    }
}
