//! Validation and compilation of a [`WayFile`] into the form [`apply`](super::apply) runs.
//!
//! Invariants of a compiled [`CompiledWay`]: at least one rule; every rule has at least one
//! alternative; every bound is a valid number, rank or category with `min <= max`; the last rule
//! has no condition and an unconstrained alternative, so every hand is set by some rule. Errors
//! name the file, the line of the rule's `[[rule]]` header and the rule.

use super::features::{Feature, Kind};
use super::language::{
    AltFile, CondFile, HandFile, RangeFile, RuleFile, ScalarFile, WayFile, WhenFile,
};
use crate::eval::{Category, Value};
use crate::files::ConfigError;

/// One condition: the feature (read with or without jokers) lies in `min..=max`.
#[derive(Clone, Debug)]
pub struct Cond {
    pub feature: Feature,
    pub with_joker: bool,
    pub min: u8,
    pub max: u8,
    /// The condition as written, for `--explain`.
    pub label: String,
}

/// A conjunction of conditions and of `any` groups (each holds when one of its members does).
#[derive(Clone, Debug, Default)]
pub struct When {
    pub conds: Vec<Cond>,
    pub any: Vec<When>,
}

/// Which group a front pair must come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairSel {
    None,
    /// The rank held by a rank feature (`high_pair`, `trips_rank`, ...).
    Group(Feature),
    /// A literal rank.
    Rank(u8),
}

/// Where the joker must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JokerPlace {
    Anywhere,
    Front,
    Back,
}

/// One objective to maximise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    Front,
    Back,
    FrontRanks,
}

/// A compiled alternative.
#[derive(Clone, Debug)]
pub struct Alt {
    pub back: (u32, u32),
    pub front: (u32, u32),
    pub pair: PairSel,
    pub top: (u8, u8),
    pub second: (u8, u8),
    pub joker: JokerPlace,
    pub objectives: Vec<Objective>,
    pub only_if_better: bool,
}

impl Alt {
    /// Whether the alternative constrains nothing (every legal split satisfies it).
    pub fn is_unconstrained(&self) -> bool {
        self.back == FULL_RANGE
            && self.front == FULL_RANGE
            && self.pair == PairSel::None
            && self.top == (0, 12)
            && self.second == (0, 12)
            && self.joker == JokerPlace::Anywhere
            && !self.only_if_better
    }
}

/// A lint finding a rule may accept, written in its `allow` list with the reason in `because`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Finding {
    /// No hand of the deck meets the rule's conditions.
    NeverFires,
    /// Earlier rules set every hand the rule's conditions meet.
    Shadowed,
    /// Some hands meet the conditions but no candidate split satisfies any alternative.
    FallsThrough,
    /// An alternative that no hand reaching the rule satisfies.
    AlternativeUnsatisfiable,
    /// An alternative that never sets a hand: the alternatives before it take every hand it fits.
    AlternativeShadowed,
}

impl Finding {
    /// Every finding, in report order.
    pub const ALL: [Finding; 5] = [
        Finding::NeverFires,
        Finding::Shadowed,
        Finding::FallsThrough,
        Finding::AlternativeUnsatisfiable,
        Finding::AlternativeShadowed,
    ];

    /// The finding's name in an `allow` list.
    pub fn key(self) -> &'static str {
        match self {
            Finding::NeverFires => "never_fires",
            Finding::Shadowed => "shadowed",
            Finding::FallsThrough => "falls_through",
            Finding::AlternativeUnsatisfiable => "alternative_unsatisfiable",
            Finding::AlternativeShadowed => "alternative_shadowed",
        }
    }

    /// The finding named `key`.
    pub fn from_key(key: &str) -> Option<Finding> {
        Finding::ALL.into_iter().find(|f| f.key() == key)
    }
}

/// Where a rule's parts are written in its file (1-based lines).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleLines {
    /// The `[[rule]]` header (1 where unknown).
    pub header: usize,
    /// The `when` key, else the header.
    pub when: usize,
    /// The `set` key, else the header.
    pub set: usize,
}

/// A compiled rule.
#[derive(Clone, Debug)]
pub struct Rule {
    pub name: String,
    /// Line of the rule in its file (1 where unknown): its `[[rule]]` header.
    pub line: usize,
    pub lines: RuleLines,
    pub when: When,
    pub alts: Vec<Alt>,
    /// Lint findings the file accepts for this rule, and why.
    pub allow: Vec<Finding>,
    pub because: String,
}

impl Rule {
    /// Whether the rule sets every hand: no condition, an unconstrained alternative.
    pub fn is_catch_all(&self) -> bool {
        self.when.conds.is_empty()
            && self.when.any.is_empty()
            && self.alts.iter().any(Alt::is_unconstrained)
    }
}

/// A compiled house way.
#[derive(Clone, Debug)]
pub struct CompiledWay {
    pub rules: Vec<Rule>,
}

const FULL_RANGE: (u32, u32) = (0, u32::MAX);

/// Lines of the `[[rule]]` headers of `text`, in order.
pub fn rule_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("[[rule]]"))
        .map(|(i, _)| i + 1)
        .collect()
}

/// The rule (number and name as written) whose block holds `line`, for parse errors.
pub fn rule_at_line(text: &str, line: usize) -> Option<String> {
    let headers = rule_lines(text);
    let index = headers.iter().rposition(|&h| h <= line)?;
    let end = headers.get(index + 1).copied().unwrap_or(usize::MAX);
    let name = text
        .lines()
        .enumerate()
        .skip(headers[index])
        .take_while(|(i, _)| i + 1 < end)
        .find_map(|(_, l)| {
            let rest = l.trim_start().strip_prefix("name")?.trim_start();
            let value = rest.strip_prefix('=')?.trim();
            Some(value.trim_matches('"').to_string())
        });
    Some(match name {
        Some(n) => format!("rule {} '{n}'", index + 1),
        None => format!("rule {}", index + 1),
    })
}

/// The line of `key = ...` inside the rule block that starts at line `header` (1-based), if
/// written there on a line of its own.
fn key_line(text: &str, header: usize, key: &str) -> Option<usize> {
    let block = text.lines().enumerate().skip(header);
    for (i, line) in block {
        let trimmed = line.trim_start();
        if trimmed.starts_with("[[") {
            return None;
        }
        let rest = trimmed.strip_prefix(key).map(str::trim_start);
        if rest.is_some_and(|r| r.starts_with('=')) {
            return Some(i + 1);
        }
    }
    None
}

/// Where rule `index`'s parts are written.
fn rule_lines_of(text: &str, headers: &[usize], index: usize) -> RuleLines {
    let header = headers.get(index).copied().unwrap_or(1);
    let find = |key| key_line(text, header, key).unwrap_or(header);
    RuleLines {
        header,
        when: find("when"),
        set: find("set"),
    }
}

/// Compiles a parsed file; `text` is its source, for line numbers.
pub fn compile(file: &WayFile, text: &str, origin: &str) -> Result<CompiledWay, ConfigError> {
    if file.rule.is_empty() {
        return Err(ConfigError::at_key(
            origin,
            text,
            &["rule"],
            "no rules: a house way needs at least one [[rule]]",
        ));
    }
    let headers = rule_lines(text);
    let rules = (file.rule.iter().enumerate())
        .map(|(i, r)| compile_rule(r, i, rule_lines_of(text, &headers, i), origin))
        .collect::<Result<Vec<_>, _>>()?;
    check_catch_all(&rules, origin)?;
    Ok(CompiledWay { rules })
}

/// An error at `line` naming rule `index` (0-based) of `origin`.
pub fn rule_error(
    origin: &str,
    line: usize,
    index: usize,
    name: &str,
    message: &str,
) -> ConfigError {
    ConfigError::At {
        origin: origin.to_string(),
        line,
        column: 1,
        message: format!("rule {} '{name}': {message}", index + 1),
    }
}

fn compile_rule(
    r: &RuleFile,
    index: usize,
    lines: RuleLines,
    origin: &str,
) -> Result<Rule, ConfigError> {
    let at =
        |line: usize| move |message: String| rule_error(origin, line, index, &r.name, &message);
    if r.set.is_empty() {
        return Err(at(lines.set)("`set` has no alternatives".into()));
    }
    let when = compile_when(&r.when).map_err(at(lines.when))?;
    let alts = r.set.iter().map(compile_alt).collect::<Result<Vec<_>, _>>();
    let alts = alts.map_err(at(lines.set))?;
    let (allow, because) = allowances(r).map_err(at(lines.header))?;
    Ok(Rule {
        name: r.name.clone(),
        line: lines.header,
        lines,
        when,
        alts,
        allow,
        because,
    })
}

/// The findings a rule accepts, and why: `allow` and `because` come together.
fn allowances(r: &RuleFile) -> Result<(Vec<Finding>, String), String> {
    let because = r.because.as_deref().map(str::trim).unwrap_or_default();
    match (r.allow.is_empty(), because.is_empty()) {
        (true, true) => return Ok((Vec::new(), String::new())),
        (false, true) => {
            return Err("`allow` needs `because`: say why the published text wants this".into());
        }
        (true, false) => return Err("`because` without `allow`: nothing is allowed".into()),
        (false, false) => {}
    }
    let mut allow = Vec::new();
    for key in &r.allow {
        let finding = Finding::from_key(key).ok_or_else(|| {
            let names: Vec<&str> = Finding::ALL.iter().map(|f| f.key()).collect();
            format!(
                "allow: unknown finding '{key}' (expected {})",
                names.join(", ")
            )
        })?;
        if allow.contains(&finding) {
            return Err(format!("allow: '{key}' listed twice"));
        }
        allow.push(finding);
    }
    Ok((allow, because.to_string()))
}

/// The last rule must set every hand.
fn check_catch_all(rules: &[Rule], origin: &str) -> Result<(), ConfigError> {
    let last = rules.last().expect("checked non-empty");
    if last.is_catch_all() {
        return Ok(());
    }
    Err(ConfigError::At {
        origin: origin.to_string(),
        line: last.line,
        column: 1,
        message: format!(
            "rule {} '{}': the last rule must cover every hand: give it no `when` and an \
             alternative without constraints (e.g. set = [ {{ maximize = [\"front\"] }} ])",
            rules.len(),
            last.name
        ),
    })
}

fn compile_when(w: &WhenFile) -> Result<When, String> {
    let conds = (w.conds.iter())
        .map(|(feature, cond)| compile_cond(*feature, cond))
        .collect::<Result<_, _>>()?;
    let any = match &w.any {
        Some(list) if list.is_empty() => return Err("`any` is empty".into()),
        Some(list) => list.iter().map(compile_when).collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    Ok(When { conds, any })
}

fn compile_cond(feature: Feature, cond: &CondFile) -> Result<Cond, String> {
    let (name, kind) = (feature.key(), feature.kind());
    let (min, max, with_joker) = bounds(cond, kind).map_err(|e| format!("{name}: {e}"))?;
    if min > max {
        return Err(format!("{name}: contradictory bounds (min above max)"));
    }
    Ok(Cond {
        feature,
        with_joker,
        min,
        max,
        label: format!("{name} = {}", show_cond(cond)),
    })
}

fn show_cond(cond: &CondFile) -> String {
    let scalar = |s: &ScalarFile| match s {
        ScalarFile::Bool(b) => b.to_string(),
        ScalarFile::Int(n) => n.to_string(),
        ScalarFile::Text(t) => format!("\"{t}\""),
    };
    match cond {
        CondFile::Bool(b) => b.to_string(),
        CondFile::Int(n) => n.to_string(),
        CondFile::Text(t) => format!("\"{t}\""),
        CondFile::Range(r) => {
            let mut parts = Vec::new();
            for (k, v) in [("min", &r.min), ("max", &r.max), ("is", &r.is)] {
                if let Some(v) = v {
                    parts.push(format!("{k} = {}", scalar(v)));
                }
            }
            if !r.joker {
                parts.push("joker = false".into());
            }
            format!("{{ {} }}", parts.join(", "))
        }
    }
}

/// Inclusive bounds and the joker reading of one condition.
fn bounds(cond: &CondFile, kind: Kind) -> Result<(u8, u8, bool), String> {
    let exact = |s: ScalarFile| scalar(&s, kind).map(|v| (v, v, true));
    match cond {
        CondFile::Bool(b) => exact(ScalarFile::Bool(*b)),
        CondFile::Int(n) => exact(ScalarFile::Int(*n)),
        CondFile::Text(t) => exact(ScalarFile::Text(t.clone())),
        CondFile::Range(r) => range_bounds(r, kind),
    }
}

fn range_bounds(r: &RangeFile, kind: Kind) -> Result<(u8, u8, bool), String> {
    let top = match kind {
        Kind::Count => 7,
        Kind::Rank => 12,
        Kind::Flag => 1,
        Kind::Category => Category::FiveOfAKind as u8,
    };
    let get =
        |s: &Option<ScalarFile>, default: u8| s.as_ref().map_or(Ok(default), |s| scalar(s, kind));
    if r.is.is_some() && (r.min.is_some() || r.max.is_some()) {
        return Err("give `is` or `min`/`max`, not both".into());
    }
    if r.is.is_none() && r.min.is_none() && r.max.is_none() {
        return Err("a range needs `is`, `min` or `max`".into());
    }
    let (min, max) = match &r.is {
        Some(_) => {
            let v = get(&r.is, 0)?;
            (v, v)
        }
        None => (get(&r.min, 0)?, get(&r.max, top)?),
    };
    Ok((min, max, r.joker))
}

/// One bound of a feature of the given kind.
fn scalar(s: &ScalarFile, kind: Kind) -> Result<u8, String> {
    match (s, kind) {
        (ScalarFile::Bool(b), Kind::Flag) => Ok(*b as u8),
        (ScalarFile::Int(n), Kind::Count) if (0..=7).contains(n) => Ok(*n as u8),
        (ScalarFile::Int(n), Kind::Count) => Err(format!("count {n} out of range 0..=7")),
        (ScalarFile::Text(t), Kind::Rank) => parse_rank(t),
        (ScalarFile::Int(n), Kind::Rank) if (2..=10).contains(n) => Ok(*n as u8 - 2),
        (ScalarFile::Text(t), Kind::Category) => parse_category(t).map(|c| c as u8),
        (_, Kind::Flag) => Err("expected true or false".into()),
        (_, Kind::Count) => Err("expected a whole number".into()),
        (_, Kind::Rank) => {
            Err("expected a rank: \"2\"..\"9\", \"T\", \"J\", \"Q\", \"K\", \"A\"".into())
        }
        (_, Kind::Category) => Err(format!("expected a category ({CATEGORY_NAMES})")),
    }
}

const CATEGORY_NAMES: &str = "high_card, pair, two_pair, three_of_a_kind, straight, flush, \
     full_house, four_of_a_kind, straight_flush, royal_flush, five_aces";

/// A rank name (`2`-`9`, `T` or `10`, `J`, `Q`, `K`, `A`) to 0..=12.
pub fn parse_rank(text: &str) -> Result<u8, String> {
    let t = text.trim().to_ascii_uppercase();
    let index = match t.as_str() {
        "10" => Some(8),
        s if s.len() == 1 => "23456789TJQKA".find(s),
        _ => None,
    };
    index
        .map(|i| i as u8)
        .ok_or_else(|| format!("unknown rank '{text}' (expected 2-9, T or 10, J, Q, K, A)"))
}

/// A category name to its [`Category`].
pub fn parse_category(text: &str) -> Result<Category, String> {
    use Category::*;
    Ok(match text {
        "high_card" => HighCard,
        "pair" | "one_pair" => OnePair,
        "two_pair" => TwoPair,
        "three_of_a_kind" | "trips" => ThreeOfAKind,
        "straight" => Straight,
        "flush" => Flush,
        "full_house" => FullHouse,
        "four_of_a_kind" | "quads" => FourOfAKind,
        "straight_flush" => StraightFlush,
        "royal_flush" => RoyalFlush,
        "five_aces" | "five_of_a_kind" => FiveOfAKind,
        other => {
            return Err(format!(
                "unknown category '{other}' (expected {CATEGORY_NAMES})"
            ));
        }
    })
}

/// Inclusive value bounds from a hand's `min`/`max` categories.
fn category_bounds(hand: &HandFile, which: &str) -> Result<(u32, u32), String> {
    let lo = match &hand.min {
        Some(c) => {
            Value::new(
                parse_category(c).map_err(|e| format!("{which}.min: {e}"))?,
                [0; 5],
            )
            .0
        }
        None => 0,
    };
    let hi = match &hand.max {
        Some(c) => {
            let cat = parse_category(c).map_err(|e| format!("{which}.max: {e}"))?;
            Value::new(cat, [15; 5]).0
        }
        None => u32::MAX,
    };
    if lo > hi {
        return Err(format!("{which}: contradictory bounds (min above max)"));
    }
    Ok((lo, hi))
}

fn compile_alt(a: &AltFile) -> Result<Alt, String> {
    if a.back.pair.is_some() || a.back.top.is_some() || a.back.second.is_some() {
        return Err("`pair`, `top` and `second` apply to the front only".into());
    }
    let rank_range = |c: &Option<CondFile>, what: &str| -> Result<(u8, u8), String> {
        match c {
            None => Ok((0, 12)),
            Some(c) => match bounds(c, Kind::Rank).map_err(|e| format!("front.{what}: {e}"))? {
                (lo, hi, _) if lo > hi => Err(format!(
                    "front.{what}: contradictory bounds (min above max)"
                )),
                (lo, hi, _) => Ok((lo, hi)),
            },
        }
    };
    Ok(Alt {
        back: category_bounds(&a.back, "back")?,
        front: category_bounds(&a.front, "front")?,
        pair: pair_sel(a.front.pair.as_deref())?,
        top: rank_range(&a.front.top, "top")?,
        second: rank_range(&a.front.second, "second")?,
        joker: match a.joker.as_deref() {
            None => JokerPlace::Anywhere,
            Some("front") => JokerPlace::Front,
            Some("back") => JokerPlace::Back,
            Some(o) => return Err(format!("joker = \"{o}\": expected \"front\" or \"back\"")),
        },
        objectives: objectives(&a.maximize)?,
        only_if_better: match a.only_if_better_than.as_deref() {
            None => false,
            Some("next") => true,
            Some(o) => return Err(format!("only_if_better_than = \"{o}\": expected \"next\"")),
        },
    })
}

fn pair_sel(text: Option<&str>) -> Result<PairSel, String> {
    Ok(match text {
        None => PairSel::None,
        Some("high_pair") => PairSel::Group(Feature::HighPair),
        Some("low_pair") => PairSel::Group(Feature::LowPair),
        Some("third_pair") => PairSel::Group(Feature::ThirdPair),
        Some("trips") | Some("from_trips") => PairSel::Group(Feature::TripsRank),
        Some("quads") | Some("from_quads") => PairSel::Group(Feature::QuadsRank),
        Some(rank) => PairSel::Rank(parse_rank(rank).map_err(|e| {
            format!("front.pair: {e}; or a group: high_pair, low_pair, third_pair, trips, quads")
        })?),
    })
}

/// The objectives as written, with `front` and `back` appended where missing.
fn objectives(names: &[String]) -> Result<Vec<Objective>, String> {
    let mut out = Vec::new();
    for n in names {
        let o = match n.as_str() {
            "front" => Objective::Front,
            "back" => Objective::Back,
            "front_ranks" => Objective::FrontRanks,
            other => {
                return Err(format!(
                    "maximize: unknown objective '{other}' (expected front, back, front_ranks)"
                ));
            }
        };
        if out.contains(&o) {
            return Err(format!("maximize: '{n}' listed twice"));
        }
        out.push(o);
    }
    for o in [Objective::Front, Objective::Back] {
        if !out.contains(&o) {
            out.push(o);
        }
    }
    Ok(out)
}
