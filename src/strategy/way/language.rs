//! The house-way file as written: serde structs that mirror the TOML one to one.
//!
//! Invariant: every struct denies unknown fields, so a misspelt key is a parse error with its
//! file, line and column. Nothing here is validated beyond TOML types; `compile` checks ranks,
//! categories, feature names and ranges and names the rule at fault.

use serde::Deserialize;

/// A whole house-way file.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct WayFile {
    /// Display name.
    pub name: String,
    /// Where the text of this house way comes from.
    pub source: String,
    /// Gaps in the published text and how this file fills them.
    #[serde(default)]
    pub notes: String,
    /// The ordered rules; the first whose `when` matches and one of whose alternatives some
    /// candidate split satisfies sets the hand.
    #[serde(default)]
    pub rule: Vec<RuleFile>,
}

/// One rule: a name, a condition on the hand, and the alternatives.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct RuleFile {
    pub name: String,
    /// Conditions on hand features, all of which must hold; absent means "every hand".
    #[serde(default)]
    pub when: WhenFile,
    /// Alternatives, tried in order.
    pub set: Vec<AltFile>,
}

/// Conditions on hand features (see `features`). Each is a number, rank, category or boolean,
/// or a table `{ min, max, joker }`; `any` holds alternatives of which one must hold.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct WhenFile {
    pub pairs: Option<CondFile>,
    pub trips: Option<CondFile>,
    pub quads: Option<CondFile>,
    pub high_pair: Option<CondFile>,
    pub low_pair: Option<CondFile>,
    pub third_pair: Option<CondFile>,
    pub trips_rank: Option<CondFile>,
    pub quads_rank: Option<CondFile>,
    pub five_aces: Option<CondFile>,
    pub joker: Option<CondFile>,
    pub jokers: Option<CondFile>,
    pub ace_single: Option<CondFile>,
    pub highest_single: Option<CondFile>,
    pub straight: Option<CondFile>,
    pub straight6: Option<CondFile>,
    pub straight7: Option<CondFile>,
    pub flush: Option<CondFile>,
    pub flush6: Option<CondFile>,
    pub flush7: Option<CondFile>,
    pub straight_flush: Option<CondFile>,
    pub straight_flush6: Option<CondFile>,
    pub straight_flush7: Option<CondFile>,
    pub straight_or_flush: Option<CondFile>,
    pub best_five: Option<CondFile>,
    pub any: Option<Vec<WhenFile>>,
}

/// One condition value.
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum CondFile {
    Bool(bool),
    Int(i64),
    Text(String),
    Range(RangeFile),
}

/// A range condition; `joker = false` reads the feature with the jokers taken out of the hand.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
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
#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
pub enum ScalarFile {
    Bool(bool),
    Int(i64),
    Text(String),
}

/// One alternative of a rule's `set`.
#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
