//! Edits of a house way's file, for `sweep-way`: one value of a rule's `when` or `set` replaced
//! (a bound, a count, a whole condition, an alternative), or the rule moved, each edit giving the
//! whole text of a new file, which is then loaded like any other.
//!
//! The grammar of one `--vary` (the `KEY=VALUES` form of `exact bonus --vary` and `table
//! --vary`, its key a path into the file):
//!
//! ```text
//! VARY   = RULE "." FIELD "=" VALUES
//! RULE   = "rule[" N "]"  |  "rule[\"" NAME "\"]"
//! FIELD  = "position"  |  ("when" | "set") STEP*        STEP = "." KEY  |  "[" N "]"
//! VALUES = LOW ".." HIGH  |  VALUE (";" VALUE)*
//! ```
//!
//! - Rules and a `set`'s alternatives count from 1, as `check-way` and `set --explain` number
//!   them; a rule may instead be named by its name, or by the start of exactly one rule's name.
//! - `position`: the rule taken out and put back at place M (1 to the number of rules), the
//!   others keeping their order.
//! - A path must name a value the file holds (a key written in the rule, an alternative it has):
//!   anything else is refused, naming the rule and what it holds there.
//! - `LOW..HIGH` runs over ranks (`2..A`, in rank order), categories (`pair..straight`) or whole
//!   numbers, whichever both ends are; it replaces a rank, category or number.
//! - A `VALUE` is a TOML value (`"Q"`, `{ min = "Q" }`, `[{ front = { pair = "low_pair" } }]`,
//!   `true`, `3`); where the value replaced is a text (a rank, a category) it may be written bare
//!   (`Q`). `;` separates values outside quotes and brackets.
//!
//! Invariants: each variant is the file with exactly one edit, written in the language's layout
//! (the file's top-level keys, then one `[[rule]]` block a rule, its `when` and `set` inline);
//! nothing here judges whether a variant is a valid house way: the caller loads each with
//! [`super::HouseWay::from_toml`], which validates it. The unedited file written this way loads
//! to a way that sets every hand as the original does (a key's order inside a table is not kept,
//! and no rule reads it).

use super::features::CATEGORY_NAMES;
use toml::{Table, Value};

use super::compile::{parse_category, parse_rank};

/// Ranks in order, as the language writes them.
const RANKS: &str = "23456789TJQKA";

/// One step of a path inside a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    /// An array index, from 0 (written from 1).
    Index(usize),
}

/// What a sweep edits.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    /// The value at `path` inside rule `rule` (from 0).
    Field { rule: usize, path: Vec<Step> },
    /// The place of rule `rule` (from 0).
    Position { rule: usize },
}

/// One `--vary`: what it edits and the values it takes, checked against the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The path as written (`rule[10].when.high_pair.min`).
    pub path: String,
    /// The rule edited, from 0.
    pub rule: usize,
    target: Target,
    /// Each value: as the label shows it, and as it goes into the file.
    values: Vec<(String, Value)>,
}

/// A file with one edit.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// The edit, `PATH=VALUE`.
    pub edit: String,
    /// The value alone, as a plot's axis shows it.
    pub parameter: String,
    /// The whole file's text.
    pub text: String,
}

impl Sweep {
    /// Parses `vary` against the file `text` (a house way's TOML). Every error names what is at
    /// fault: the rule, the key, the value.
    pub fn parse(vary: &str, text: &str) -> Result<Sweep, String> {
        let file: Table = text
            .parse()
            .map_err(|e| format!("the house way is not TOML: {e}"))?;
        let Some(at) = find_top(vary, '=') else {
            return Err(
                "expected PATH=VALUES, such as rule[10].when.high_pair.min=2..A".to_string(),
            );
        };
        let (path, values) = (vary[..at].trim(), vary[at + 1..].trim());
        let rules = rules(&file)?;
        let (rule, steps) = parse_path(path, rules)?;
        let rule_table = &rules[rule];
        let target = match steps.as_slice() {
            [Step::Key(k)] if k == "position" => Target::Position { rule },
            [Step::Key(k), ..] if k == "when" || k == "set" => Target::Field { rule, path: steps },
            _ => {
                return Err(format!(
                    "'{path}': a path goes on with .when, .set or .position after the rule"
                ));
            }
        };
        let values = match &target {
            Target::Position { .. } => positions(values, rules.len())?,
            Target::Field { path: steps, .. } => {
                let old = lookup(rule_table, steps, rule)?;
                field_values(values, old)?
            }
        };
        if values.is_empty() {
            return Err(format!("'{vary}': no value to try"));
        }
        Ok(Sweep {
            path: path.to_string(),
            rule,
            target,
            values,
        })
    }

    /// Every variant of the file `text`, one a value, in the order written.
    pub fn variants(&self, text: &str) -> Result<Vec<Variant>, String> {
        let file: Table = text
            .parse()
            .map_err(|e| format!("the house way is not TOML: {e}"))?;
        (self.values.iter())
            .map(|(shown, value)| {
                let mut edited = file.clone();
                self.apply(&mut edited, value)?;
                Ok(Variant {
                    edit: format!("{}={shown}", self.path),
                    parameter: shown.clone(),
                    text: render(&edited),
                })
            })
            .collect()
    }

    /// Puts `value` where the sweep edits `file`.
    fn apply(&self, file: &mut Table, value: &Value) -> Result<(), String> {
        let rules = (file.get_mut("rule"))
            .and_then(Value::as_array_mut)
            .ok_or("the house way has no rules")?;
        match &self.target {
            Target::Position { rule } => {
                let to = value.as_integer().ok_or("a position is a whole number")? as usize;
                let moved = rules.remove(*rule);
                rules.insert(to - 1, moved);
            }
            Target::Field { rule, path } => {
                let mut at = &mut rules[*rule];
                for step in path {
                    at = match step {
                        Step::Key(k) => at.get_mut(k.as_str()),
                        Step::Index(i) => at.get_mut(*i),
                    }
                    .ok_or("a path checked when parsed")?;
                }
                *at = value.clone();
            }
        }
        Ok(())
    }
}

/// The file's rules.
fn rules(file: &Table) -> Result<&[Value], String> {
    (file.get("rule"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| "the house way has no [[rule]]".to_string())
}

/// A rule's name, from its table.
fn rule_name(rule: &Value) -> &str {
    (rule.get("name")).and_then(Value::as_str).unwrap_or("")
}

/// How a rule is named in errors: `rule 10 'two pair, ...'`.
fn rule_words(rules: &[Value], rule: usize) -> String {
    format!("rule {} '{}'", rule + 1, rule_name(&rules[rule]))
}

/// The byte offset of the first `c` of `text` outside quotes, brackets and braces.
fn find_top(text: &str, c: char) -> Option<usize> {
    top_level(text).find(|&(_, ch)| ch == c).map(|(i, _)| i)
}

/// The characters of `text` outside quotes, brackets and braces, with their byte offsets.
fn top_level(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    text.char_indices().filter(move |&(_, ch)| {
        if let Some(q) = quote {
            match ch {
                '\\' if q == '"' && !escaped => escaped = true,
                _ if ch == q && !escaped => quote = None,
                _ => escaped = false,
            }
            return false;
        }
        match ch {
            '"' | '\'' => quote = Some(ch),
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            _ => return depth == 0,
        }
        false
    })
}

/// The byte offset of the first `]` of `text` outside quotes.
fn closing_bracket(text: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, ch) in text.char_indices() {
        match (quote, ch) {
            (Some(q), _) if ch == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(ch),
            (None, ']') => return Some(i),
            (None, _) => {}
        }
    }
    None
}

/// `text` cut at each `;` outside quotes, brackets and braces, each piece trimmed.
fn split_values(text: &str) -> Vec<&str> {
    let mut cuts: Vec<usize> = top_level(text)
        .filter(|&(_, ch)| ch == ';')
        .map(|(i, _)| i)
        .collect();
    cuts.push(text.len());
    let mut start = 0;
    (cuts.into_iter())
        .map(|end| {
            let piece = text[start..end].trim();
            start = end + 1;
            piece
        })
        .collect()
}

/// The rule a path starts with (from 0), and the steps after it.
fn parse_path(path: &str, rules: &[Value]) -> Result<(usize, Vec<Step>), String> {
    let Some(rest) = path.strip_prefix("rule[") else {
        return Err(format!(
            "'{path}': a path starts with rule[N] (N from 1, as check-way numbers rules) or \
             rule[\"NAME\"]"
        ));
    };
    let close = closing_bracket(rest).ok_or_else(|| format!("'{path}': rule[ is not closed"))?;
    let rule = select_rule(rest[..close].trim(), rules)?;
    let steps = parse_steps(&rest[close + 1..], path)?;
    Ok((rule, steps))
}

/// The rule `selector` names: a number from 1, or a quoted name or the start of one name.
fn select_rule(selector: &str, rules: &[Value]) -> Result<usize, String> {
    let count = rules.len();
    if let Ok(n) = selector.parse::<usize>() {
        return match (1..=count).contains(&n) {
            true => Ok(n - 1),
            false => Err(format!(
                "there is no rule {n}: the way has rules 1 to {count}"
            )),
        };
    }
    let quoted = ['"', '\''].iter().find_map(|&q| {
        (selector.strip_prefix(q))
            .and_then(|s| s.strip_suffix(q))
            .filter(|_| selector.len() >= 2)
    });
    let Some(name) = quoted else {
        return Err(format!(
            "rule[{selector}]: name a rule by its number (1 to {count}) or its name in quotes"
        ));
    };
    let named: Vec<usize> = (0..count)
        .filter(|&i| rule_name(&rules[i]) == name)
        .collect();
    match named.as_slice() {
        [one] => return Ok(*one),
        [] => {}
        many => {
            let numbers: Vec<String> = many.iter().map(|i| (i + 1).to_string()).collect();
            return Err(format!(
                "'{name}' is the name of {} rules ({}): name one by its number",
                many.len(),
                numbers.join(", ")
            ));
        }
    }
    let starting: Vec<usize> = (0..count)
        .filter(|&i| rule_name(&rules[i]).starts_with(name))
        .collect();
    match starting.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "no rule is named '{name}' or has a name starting so; the rules: {}",
            (0..count)
                .map(|i| rule_words(rules, i))
                .collect::<Vec<_>>()
                .join("; ")
        )),
        many => Err(format!(
            "'{name}' starts the names of {} rules ({}): name one",
            many.len(),
            many.iter()
                .map(|&i| rule_words(rules, i))
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
}

/// The steps after the rule: `.key` and `[N]` (N from 1).
fn parse_steps(mut rest: &str, path: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = (after.find(['.', '[']))
                .unwrap_or(after.len())
                .min(after.len());
            let key = &after[..end];
            let plain = |c: char| c.is_ascii_alphanumeric() || c == '_';
            if key.is_empty() || !key.chars().all(plain) {
                return Err(format!("'{path}': '.{key}' is not a key"));
            }
            steps.push(Step::Key(key.to_string()));
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = (after.find(']')).ok_or_else(|| format!("'{path}': [ is not closed"))?;
            let n: usize = (after[..end].trim().parse().ok())
                .filter(|&n| n >= 1)
                .ok_or_else(|| {
                    format!(
                        "'{path}': [{}] is not an index (whole numbers from 1)",
                        &after[..end]
                    )
                })?;
            steps.push(Step::Index(n - 1));
            rest = &after[end + 1..];
        } else {
            return Err(format!("'{path}': expected .KEY or [N] at '{rest}'"));
        }
    }
    if steps.is_empty() {
        return Err(format!(
            "'{path}': say what of the rule to vary (.when..., .set... or .position)"
        ));
    }
    Ok(steps)
}

/// The value at `steps` inside `rule`, or an error naming where the path leaves the file.
fn lookup<'a>(rule: &'a Value, steps: &[Step], index: usize) -> Result<&'a Value, String> {
    let mut at = rule;
    let mut walked = String::new();
    let whose = || format!("rule {} '{}'", index + 1, rule_name(rule));
    for step in steps {
        let next = match step {
            Step::Key(k) => at.get(k.as_str()),
            Step::Index(i) => at.get(*i),
        };
        let shown = match step {
            Step::Key(k) if walked.is_empty() => k.clone(),
            Step::Key(k) => format!(".{k}"),
            Step::Index(i) => format!("[{}]", i + 1),
        };
        let Some(next) = next else {
            let holds = match at {
                Value::Table(t) => format!(
                    "its {} holds: {}",
                    or_rule(&walked),
                    t.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
                Value::Array(a) => format!("its {} has {} item(s)", or_rule(&walked), a.len()),
                other => format!("its {} is the value {other}", or_rule(&walked)),
            };
            return Err(format!("{} has no {walked}{shown} ({holds})", whose()));
        };
        walked.push_str(&shown);
        at = next;
    }
    Ok(at)
}

fn or_rule(walked: &str) -> String {
    match walked {
        "" => "table".to_string(),
        w => format!("`{w}`"),
    }
}

/// The positions `text` gives (a range or a list of whole numbers from 1 to `count`).
fn positions(text: &str, count: usize) -> Result<Vec<(String, Value)>, String> {
    let numbers: Vec<i64> = match range_ends(text) {
        Some((a, b)) => {
            let (a, b) = (whole(a)?, whole(b)?);
            (a..=b).collect()
        }
        None => (split_values(text).into_iter())
            .map(whole)
            .collect::<Result<_, _>>()?,
    };
    if numbers.is_empty() {
        return Err(format!("the range {text} is empty"));
    }
    match numbers.iter().find(|&&n| n < 1 || n as usize > count) {
        Some(n) => Err(format!(
            "position {n}: a rule moves to a place from 1 to {count} (the way's rules)"
        )),
        None => Ok((numbers.into_iter())
            .map(|n| (n.to_string(), Value::Integer(n)))
            .collect()),
    }
}

fn whole(text: &str) -> Result<i64, String> {
    (text.trim().parse()).map_err(|_| format!("'{}' is not a whole number", text.trim()))
}

/// `LOW..HIGH` cut in two, where `text` is a range (not a quoted or bracketed value).
fn range_ends(text: &str) -> Option<(&str, &str)> {
    let bare = !text.starts_with(['"', '\'', '[', '{']) && find_top(text, ';').is_none();
    text.split_once("..").filter(|_| bare)
}

/// The values `text` gives, to replace `old`.
fn field_values(text: &str, old: &Value) -> Result<Vec<(String, Value)>, String> {
    if let Some((a, b)) = range_ends(text) {
        return range(a.trim(), b.trim(), old);
    }
    split_values(text)
        .into_iter()
        .map(|item| one_value(item, old))
        .collect()
}

/// The values from `a` to `b`: ranks, categories or whole numbers.
fn range(a: &str, b: &str, old: &Value) -> Result<Vec<(String, Value)>, String> {
    let empty = |lo: &str, hi: &str| format!("the range {lo}..{hi} is empty ({lo} is above {hi})");
    let text = |s: &str| (s.to_string(), Value::String(s.to_string()));
    match old {
        Value::Integer(_) => {
            let (lo, hi) = (whole(a)?, whole(b)?);
            if lo > hi {
                return Err(empty(a, b));
            }
            Ok((lo..=hi)
                .map(|n| (n.to_string(), Value::Integer(n)))
                .collect())
        }
        Value::String(_) => {
            if let (Ok(lo), Ok(hi)) = (parse_rank(a), parse_rank(b)) {
                if lo > hi {
                    return Err(empty(a, b));
                }
                let ranks = &RANKS[lo as usize..=hi as usize];
                return Ok(ranks.chars().map(|r| text(&r.to_string())).collect());
            }
            if let (Ok(lo), Ok(hi)) = (parse_category(a), parse_category(b)) {
                if lo > hi {
                    return Err(empty(a, b));
                }
                let within = |c: &str| parse_category(c).is_ok_and(|c| (lo..=hi).contains(&c));
                let names = CATEGORY_NAMES.iter().copied().filter(|c| within(c));
                return Ok(names.map(text).collect());
            }
            Err(format!(
                "{a}..{b} is not a range of ranks (2..A) or of categories (pair..straight)"
            ))
        }
        other => Err(format!(
            "{a}..{b}: a range replaces a rank, a category or a number, not the value {other}: \
             list the values, separated by ';'"
        )),
    }
}

/// One value to replace `old`: a TOML value, or bare text where `old` is text.
fn one_value(item: &str, old: &Value) -> Result<(String, Value), String> {
    if item.is_empty() {
        return Err("an empty value (two ';' in a row, or one at the end?)".to_string());
    }
    let parsed = (format!("v = {item}").parse::<Table>())
        .ok()
        .and_then(|mut t| t.remove("v"));
    let bare = !item.starts_with(['"', '\'', '[', '{']);
    let value = match (parsed, old) {
        (Some(Value::String(s)), _) => Value::String(s),
        (_, Value::String(_)) if bare => Value::String(item.to_string()),
        (Some(v), _) => v,
        (None, _) => {
            return Err(format!(
                "'{item}' is not a TOML value (a table is written {{ min = \"Q\" }}, a list \
                 [ ... ])"
            ));
        }
    };
    let shown = match &value {
        Value::String(s) => s.clone(),
        _ => item.to_string(),
    };
    Ok((shown, value))
}

/// The file in the language's layout: the top-level keys, then each rule as a `[[rule]]` block,
/// its values inline (`name`, `when`, `set`, `allow`, `because` first, in that order).
pub fn render(file: &Table) -> String {
    let mut top = file.clone();
    let rules = top.remove("rule");
    let mut text = toml::to_string(&top).unwrap_or_default();
    let order = ["name", "when", "set", "allow", "because"];
    for rule in rules
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        text.push_str("\n[[rule]]\n");
        let Some(table) = rule.as_table() else {
            continue;
        };
        let rest = table.keys().filter(|k| !order.contains(&k.as_str()));
        for key in order.iter().copied().chain(rest.map(String::as_str)) {
            if let Some(value) = table.get(key) {
                text.push_str(&format!("{key} = {value}\n"));
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::way::{HouseWay, SHIPPED_WAYS};

    fn foxwoods() -> &'static str {
        SHIPPED_WAYS[0].2
    }

    fn edits(vary: &str) -> Vec<String> {
        let sweep = Sweep::parse(vary, foxwoods()).unwrap();
        (sweep.variants(foxwoods()).unwrap().into_iter())
            .map(|v| v.edit)
            .collect()
    }

    /// Every shipped way, written in this layout, compiles to the same rules, named alike.
    #[test]
    fn every_shipped_way_round_trips() {
        for (name, origin, text) in SHIPPED_WAYS {
            let file: Table = text.parse().unwrap();
            let again = render(&file);
            let way = HouseWay::from_toml(&again, origin).unwrap_or_else(|e| panic!("{name}: {e}"));
            let shipped = HouseWay::load(name).unwrap();
            assert_eq!(way.compiled.rules.len(), shipped.compiled.rules.len());
            for (a, b) in way.compiled.rules.iter().zip(&shipped.compiled.rules) {
                assert_eq!(a.name, b.name, "{name}");
                assert_eq!(format!("{:?}", a.alts), format!("{:?}", b.alts), "{name}");
                let conds = |r: &crate::strategy::way::compile::Rule| {
                    let mut c: Vec<String> =
                        r.when.conds.iter().map(|c| format!("{c:?}")).collect();
                    c.sort();
                    (c, format!("{:?}", r.when.any))
                };
                assert_eq!(conds(a), conds(b), "{name}");
            }
        }
    }

    #[test]
    fn a_rank_range_runs_in_rank_order() {
        let got = edits("rule[10].when.high_pair.min=9..K");
        let want: Vec<String> = ["9", "T", "J", "Q", "K"]
            .iter()
            .map(|r| format!("rule[10].when.high_pair.min={r}"))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn an_edit_changes_that_value_only() {
        let sweep = Sweep::parse("rule[10].when.high_pair.min=Q", foxwoods()).unwrap();
        let variant = &sweep.variants(foxwoods()).unwrap()[0];
        let edited: Table = variant.text.parse().unwrap();
        let mut original: Table = foxwoods().parse().unwrap();
        let rule = &mut original["rule"].as_array_mut().unwrap()[9];
        rule["when"]["high_pair"]["min"] = Value::String("Q".into());
        assert_eq!(edited, original);
    }

    #[test]
    fn a_rule_is_named_by_number_or_name() {
        let by_name = r#"rule["two pair, big pair jacks"].when.high_pair.min=Q"#;
        let a = Sweep::parse(by_name, foxwoods()).unwrap();
        let b = Sweep::parse("rule[10].when.high_pair.min=Q", foxwoods()).unwrap();
        assert_eq!(
            (a.rule, &a.target, &a.values),
            (b.rule, &b.target, &b.values)
        );
        let err = Sweep::parse(r#"rule["two pair"].when.pairs=1"#, foxwoods()).unwrap_err();
        assert!(err.contains("starts the names of 3 rules"), "{err}");
        // Two rules of one name: refused, not the first taken silently.
        let twice = foxwoods().replacen(
            "name = \"two pair, big pair jacks",
            "name = \"dup\"\n# was: two pair, big pair jacks",
            1,
        );
        let twice = twice.replacen(
            "name = \"two pair, big pair 7s",
            "name = \"dup\"\n# was: 7s",
            1,
        );
        let err = Sweep::parse(r#"rule["dup"].position=1"#, &twice).unwrap_err();
        assert!(
            err.contains("'dup' is the name of 2 rules (10, 11)"),
            "{err}"
        );
    }

    #[test]
    fn a_move_keeps_the_other_rules_in_order() {
        let sweep = Sweep::parse("rule[10].position=12", foxwoods()).unwrap();
        let text = &sweep.variants(foxwoods()).unwrap()[0].text;
        let names = |t: &str| -> Vec<String> {
            let file: Table = t.parse().unwrap();
            (file["rule"].as_array().unwrap().iter())
                .map(|r| rule_name(r).to_string())
                .collect()
        };
        let mut want = names(foxwoods());
        let moved = want.remove(9);
        want.insert(11, moved);
        assert_eq!(names(text), want);
    }

    #[test]
    fn an_alternative_is_replaced_by_a_toml_table() {
        let vary = r#"rule[11].set[1]={ front = { pair = "low_pair" }, maximize = ["back"] }; { back = { min = "two_pair" }, maximize = ["front"] }"#;
        let sweep = Sweep::parse(vary, foxwoods()).unwrap();
        let variants = sweep.variants(foxwoods()).unwrap();
        assert_eq!(variants.len(), 2);
        let file: Table = variants[1].text.parse().unwrap();
        let alt = &file["rule"][10]["set"][0];
        assert_eq!(alt["back"]["min"].as_str(), Some("two_pair"));
        assert_eq!(
            file["rule"][10]["set"][1]["front"]["pair"].as_str(),
            Some("low_pair")
        );
    }

    #[test]
    fn what_the_file_does_not_hold_is_refused_by_name() {
        let cases = [
            (
                "rule[40].when.pairs=1",
                "there is no rule 40: the way has rules 1 to 18",
            ),
            (
                "rule[10].when.high_pair.max=Q",
                "rule 10 'two pair, big pair jacks to aces: small pair in front' has no \
                 when.high_pair.max (its `when.high_pair` holds: min)",
            ),
            (
                "rule[10].when.trips=0",
                "has no when.trips (its `when` holds: high_pair, pairs)",
            ),
            (
                "rule[10].set[2]={}",
                "has no set[2] (its `set` has 1 item(s))",
            ),
            (
                "rule[10].name=x",
                "a path goes on with .when, .set or .position",
            ),
            (
                "rule[10].position=0..3",
                "position 0: a rule moves to a place from 1 to 18",
            ),
            (
                "rule[10].when.high_pair.min=K..J",
                "the range K..J is empty",
            ),
            ("rule[10].when.pairs=2..x", "'x' is not a whole number"),
            (
                "rule[\"nothing like it\"].when.pairs=1",
                "no rule is named 'nothing like it'",
            ),
            ("rule[10].when.high_pair.min", "expected PATH=VALUES"),
        ];
        for (vary, want) in cases {
            let err = Sweep::parse(vary, foxwoods()).unwrap_err();
            assert!(err.contains(want), "{vary}: {err}");
        }
    }
}
