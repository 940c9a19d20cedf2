//! The house-way file as written: serde types that mirror the TOML one to one.
//!
//! Invariant: every table denies unknown keys, so a misspelt key is a parse error with its file,
//! line and column. The keys of a `when` table are the features' keys declared once in
//! [`super::features`] (plus `any`); an unknown one is refused with the list of valid keys. No
//! error message names a Rust type. Nothing here is validated beyond TOML types; `compile` checks
//! ranks, categories and ranges and `validate` checks that conditions can be met, naming the rule
//! at fault.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use super::features::{Feature, WHEN_KEYS};

/// A whole house-way file.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields, expecting = "a house-way file")]
pub struct WayFile {
    /// Display name.
    pub name: String,
    /// Where the text of this house way comes from.
    pub source: String,
    /// Gaps in the published text and how this file fills them.
    #[serde(default)]
    pub notes: String,
    /// The game this way is written for (a shipped game name or a game file): `check-way` lints
    /// against it unless told otherwise. Default: `standard`.
    #[serde(default)]
    pub game: Option<String>,
    /// The ordered rules; the first whose `when` matches and one of whose alternatives some
    /// candidate split satisfies sets the hand.
    #[serde(default)]
    pub rule: Vec<RuleFile>,
}

/// One rule: a name, a condition on the hand, the alternatives, and the lint findings the file
/// accepts with a reason.
#[derive(Deserialize, Debug, Clone)]
#[serde(
    deny_unknown_fields,
    expecting = "a rule table { name, when, set, allow, because }"
)]
pub struct RuleFile {
    pub name: String,
    /// Conditions on hand features, all of which must hold; absent means "every hand".
    #[serde(default)]
    pub when: WhenFile,
    /// Alternatives, tried in order.
    pub set: Vec<AltFile>,
    /// Lint findings accepted for this rule (`never_fires`, `shadowed`, `falls_through`,
    /// `alternative_unsatisfiable`, `alternative_shadowed`); needs `because`.
    #[serde(default)]
    pub allow: Vec<String>,
    /// Why the findings in `allow` are what the published text says.
    pub because: Option<String>,
}

/// Conditions on hand features (see `features`): each key a feature, its value a number, rank,
/// category or boolean, or a table `{ min, max, is, joker }`; `any` holds alternatives of which
/// one must hold. Conditions keep the order they are written in.
#[derive(Debug, Clone, Default)]
pub struct WhenFile {
    pub conds: Vec<(Feature, CondFile)>,
    pub any: Option<Vec<WhenFile>>,
}

/// A key of a `when` table.
enum WhenKey {
    Feature(Feature),
    Any,
}

impl<'de> Deserialize<'de> for WhenKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<WhenKey, D::Error> {
        let key = String::deserialize(deserializer)?;
        match key.as_str() {
            "any" => Ok(WhenKey::Any),
            other => Feature::from_key(other)
                .map(WhenKey::Feature)
                .ok_or_else(|| de::Error::unknown_field(other, WHEN_KEYS)),
        }
    }
}

impl<'de> Deserialize<'de> for WhenFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<WhenFile, D::Error> {
        deserializer.deserialize_map(WhenVisitor)
    }
}

struct WhenVisitor;

impl<'de> Visitor<'de> for WhenVisitor {
    type Value = WhenFile;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a table of conditions such as { pairs = 2, high_pair = { min = \"J\" } }")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WhenFile, A::Error> {
        let mut when = WhenFile::default();
        while let Some(key) = map.next_key::<WhenKey>()? {
            match key {
                WhenKey::Any => when.any = Some(map.next_value()?),
                WhenKey::Feature(feature) => when.conds.push((feature, map.next_value()?)),
            }
        }
        Ok(when)
    }
}

/// One condition value.
#[derive(Debug, Clone)]
pub enum CondFile {
    Bool(bool),
    Int(i64),
    Text(String),
    Range(RangeFile),
}

impl<'de> Deserialize<'de> for CondFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CondFile, D::Error> {
        deserializer.deserialize_any(CondVisitor)
    }
}

struct CondVisitor;

impl<'de> Visitor<'de> for CondVisitor {
    type Value = CondFile;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(
            "a number, a rank or category name, true or false, or a table { min, max, is, joker }",
        )
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<CondFile, E> {
        Ok(CondFile::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<CondFile, E> {
        Ok(CondFile::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<CondFile, E> {
        Ok(CondFile::Int(i64::try_from(v).unwrap_or(i64::MAX)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<CondFile, E> {
        Ok(CondFile::Text(v.to_string()))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CondFile, A::Error> {
        RangeFile::deserialize(de::value::MapAccessDeserializer::new(map)).map(CondFile::Range)
    }
}

/// A range condition; `joker = false` reads the feature with the jokers taken out of the hand.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields, expecting = "a table { min, max, is, joker }")]
pub struct RangeFile {
    pub min: Option<ScalarFile>,
    pub max: Option<ScalarFile>,
    pub is: Option<ScalarFile>,
    #[serde(default = "yes")]
    pub joker: bool,
}

fn yes() -> bool {
    true
}

/// A bound: a number, a rank or category name, or a boolean.
#[derive(Debug, Clone)]
pub enum ScalarFile {
    Bool(bool),
    Int(i64),
    Text(String),
}

impl<'de> Deserialize<'de> for ScalarFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ScalarFile, D::Error> {
        match CondFile::deserialize(deserializer)? {
            CondFile::Bool(b) => Ok(ScalarFile::Bool(b)),
            CondFile::Int(n) => Ok(ScalarFile::Int(n)),
            CondFile::Text(t) => Ok(ScalarFile::Text(t)),
            CondFile::Range(_) => Err(de::Error::custom(
                "expected a number, a rank or category name, or true or false, not a table",
            )),
        }
    }
}

/// One alternative of a rule's `set`.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "an alternative table { back, front, joker, maximize, only_if_better_than }"
)]
pub struct AltFile {
    #[serde(default)]
    pub back: HandFile,
    #[serde(default)]
    pub front: HandFile,
    /// `"front"` or `"back"`: where the joker (every joker) must be, if the hand has one.
    pub joker: Option<String>,
    /// Objectives, most important first; `front` and `back` are appended when missing.
    #[serde(default)]
    pub maximize: Vec<String>,
    /// `"next"`: take this alternative only if its front beats the front the rule's next
    /// satisfiable alternative would give.
    pub only_if_better_than: Option<String>,
}

/// Constraints on one of the two hands.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(
    deny_unknown_fields,
    expecting = "a hand table { min, max, pair, top, second }"
)]
pub struct HandFile {
    /// Lowest category allowed.
    pub min: Option<String>,
    /// Highest category allowed.
    pub max: Option<String>,
    /// Front only: the front is a pair of this group (`high_pair`, `low_pair`, `third_pair`,
    /// `trips`, `quads`) or of this rank (`"K"`).
    pub pair: Option<String>,
    /// Front only: rank of the front's higher card (a pair's rank for a pair).
    pub top: Option<CondFile>,
    /// Front only: rank of the front's lower card (a pair's rank for a pair).
    pub second: Option<CondFile>,
}
