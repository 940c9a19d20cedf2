//! The figures that README.md and `docs/**/*.md` quote from committed report files, read back
//! from those files: a regenerated report that changes a quoted figure fails here until the text
//! is corrected, and so does a figure edited by hand. No engine runs; the suite reads text only.
//!
//! A quoted figure is marked by an HTML comment right after it, on the same line (Markdown shows
//! nothing of it):
//!
//! ```text
//! player EV −2.721126%<!-- fig: reports/exact/standard-foxwoods-vs-foxwoods-main/summary.csv wager="main wager" column=player_ev -->
//! ```
//!
//! The marker is `<!-- fig: PATH TERM... -->`: PATH relative to the repository root (inside it),
//! each TERM `KEY=VALUE` (KEY and VALUE bare, or in double quotes when they hold spaces or `=`).
//! - A `.csv` PATH: `column=NAME` names the cell read; every other term selects the rows whose
//!   column KEY holds exactly VALUE, and exactly one row must be left. `sum=NAME` in place of
//!   `column=NAME` quotes the sum of that column over the selected rows (at least one; whole
//!   numbers only), a total of a log that grows by rows (`reports/longrun/`).
//! - A `.json` PATH: `field=A.B.C`, the value at that path (a number indexes an array).
//! - Either: `negated=true` quotes the value with its sign turned (a file's "A less B" quoted
//!   as "B beats A by").
//!
//! The figure is the run of characters right before the marker made of digits, signs (`+`, `-`,
//! `−`), `,`, `.`, `/` and `%`. It matches its source value when:
//! - it holds a `/`: the source is the same fraction, as text (`−` read as `-`);
//! - otherwise the source is a number, times 100 when the figure ends in `%`; `,` separators are
//!   ignored; the signs agree (no sign is positive); and the figure is the value rounded to the
//!   figure's decimals (within half a unit of its last digit), or, when both are whole numbers,
//!   the same digits.
//!
//! Markers inside fenced code blocks are not read (a page may show the grammar there).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const OPEN: &str = "<!-- fig:";
const CLOSE: &str = "-->";

/// README.md and every Markdown file under `docs/`, relative to the repository root.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    markdown_under(&root(), Path::new("docs"), &mut files);
    files
}

fn markdown_under(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(root.join(dir)) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| dir.join(e.unwrap().file_name())).collect();
    paths.sort();
    for path in paths {
        if root.join(&path).is_dir() {
            markdown_under(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// One marked figure: where it is, the text quoted, and the marker's source.
#[derive(Debug)]
struct Marked {
    line: usize,
    quoted: String,
    path: String,
    terms: Vec<(String, String)>,
}

/// Every marked figure of a document's text, or the first malformed marker.
fn marked_figures(text: &str) -> Result<Vec<Marked>, String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        let mut before_len = 0;
        while let Some(start) = rest.find(OPEN) {
            let at = before_len + start;
            let after = &rest[start + OPEN.len()..];
            let end = after
                .find(CLOSE)
                .ok_or(format!("line {}: marker without '{CLOSE}'", index + 1))?;
            let (path, terms) =
                parse_marker(&after[..end]).map_err(|e| format!("line {}: {e}", index + 1))?;
            let quoted = figure_before(&line[..at]);
            if quoted.is_empty() {
                return Err(format!(
                    "line {}: a marker with no figure before it",
                    index + 1
                ));
            }
            out.push(Marked {
                line: index + 1,
                quoted,
                path,
                terms,
            });
            let consumed = start + OPEN.len() + end + CLOSE.len();
            before_len += consumed;
            rest = &rest[consumed..];
        }
    }
    Ok(out)
}

/// The figure that ends `text`: its last run of figure characters, without leading `,` or `.`.
fn figure_before(text: &str) -> String {
    let is_figure_char = |c: char| c.is_ascii_digit() || "+-−,./%".contains(c);
    let start = text
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_figure_char(c))
        .last()
        .map_or(text.len(), |(i, _)| i);
    text[start..].trim_start_matches([',', '.']).to_string()
}

/// A marker's PATH and its `KEY=VALUE` terms.
fn parse_marker(body: &str) -> Result<(String, Vec<(String, String)>), String> {
    let mut rest = body.trim();
    let path_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let path = rest[..path_end].to_string();
    if path.is_empty() || path.starts_with('/') || path.split('/').any(|p| p == "..") {
        return Err(format!("'{path}' is not a path inside the repository"));
    }
    rest = rest[path_end..].trim_start();
    let mut terms = Vec::new();
    while !rest.is_empty() {
        let (key, after) = word(rest, |c| c == '=')?;
        let after = after
            .strip_prefix('=')
            .filter(|_| !key.is_empty())
            .ok_or(format!("term '{rest}' is not KEY=VALUE"))?;
        let (value, next) = word(after, char::is_whitespace)?;
        terms.push((key, value));
        rest = next.trim_start();
    }
    Ok((path, terms))
}

/// A bare word up to `end` (or the end of the text), or a word in double quotes; and the rest.
fn word(text: &str, end: impl Fn(char) -> bool) -> Result<(String, &str), String> {
    if let Some(quoted) = text.strip_prefix('"') {
        let close = quoted
            .find('"')
            .ok_or(format!("'{text}' has an unclosed quote"))?;
        return Ok((quoted[..close].to_string(), &quoted[close + 1..]));
    }
    let stop = text
        .find(|c: char| end(c) || c.is_whitespace())
        .unwrap_or(text.len());
    Ok((text[..stop].to_string(), &text[stop..]))
}

/// The source value a marker names, as the file writes it (its sign turned by `negated=true`).
fn source_value(path: &str, terms: &[(String, String)]) -> Result<String, String> {
    let file = root().join(path);
    let text = fs::read_to_string(&file).map_err(|e| format!("cannot read {path}: {e}"))?;
    let negated = terms.iter().any(|(k, v)| k == "negated" && v == "true");
    let terms: Vec<(String, String)> = terms
        .iter()
        .filter(|(k, _)| k != "negated")
        .cloned()
        .collect();
    let value = if path.ends_with(".csv") {
        csv_cell(&text, &terms)
    } else if path.ends_with(".json") {
        json_field(&text, &terms)
    } else {
        Err(format!("{path}: a source is a .csv or .json file"))
    }?;
    Ok(if negated { negate(&value) } else { value })
}

/// A number written as text, its sign turned.
fn negate(value: &str) -> String {
    match value.strip_prefix('-') {
        Some(positive) => positive.to_string(),
        None => format!("-{}", value.trim_start_matches('+')),
    }
}

fn csv_cell(text: &str, terms: &[(String, String)]) -> Result<String, String> {
    let is_wanted = |k: &str| k == "column" || k == "sum";
    let wanted = terms
        .iter()
        .filter(|(k, _)| is_wanted(k))
        .collect::<Vec<_>>();
    let [(how, column)] = wanted[..] else {
        return Err("a CSV marker names exactly one column=NAME or sum=NAME".into());
    };
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().map_err(|e| e.to_string())?.clone();
    let index_of = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or(format!("no column '{name}'"))
    };
    let wanted = index_of(column)?;
    let filters = terms
        .iter()
        .filter(|(k, _)| !is_wanted(k))
        .map(|(k, v)| index_of(k).map(|i| (i, v.as_str())))
        .collect::<Result<Vec<_>, _>>()?;
    let mut found = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| e.to_string())?;
        if filters.iter().all(|&(i, v)| record.get(i) == Some(v)) {
            found.push(record.get(wanted).unwrap_or("").to_string());
        }
    }
    match (how.as_str(), found.len()) {
        ("sum", 0) => Err(format!("no row matches {filters:?}")),
        ("sum", _) => whole_sum(&found).map(|sum| sum.to_string()),
        (_, 1) => Ok(found.pop().unwrap()),
        (_, n) => Err(format!("{n} rows match {filters:?}, not one")),
    }
}

/// The sum of cells that are each a whole number.
fn whole_sum(cells: &[String]) -> Result<i128, String> {
    cells.iter().try_fold(0i128, |sum, cell| {
        let value: i128 = cell
            .parse()
            .map_err(|_| format!("'{cell}' is not a whole number to sum"))?;
        Ok(sum + value)
    })
}

fn json_field(text: &str, terms: &[(String, String)]) -> Result<String, String> {
    let [(key, field)] = terms else {
        return Err("a JSON marker has exactly one term, field=A.B.C".into());
    };
    if key != "field" {
        return Err(format!("a JSON marker's term is field=..., not {key}="));
    }
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut value = &json;
    for part in field.split('.') {
        value = match part.parse::<usize>() {
            Ok(i) => value.get(i),
            Err(_) => value.get(part),
        }
        .ok_or(format!("no field '{field}'"))?;
    }
    Ok(match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

/// Whether the quoted figure is the source value as the text formats it; `Err` says why not.
fn agrees(quoted: &str, source: &str) -> Result<(), String> {
    let quoted = quoted.replace('−', "-");
    if quoted.contains('/') {
        return if quoted.trim_start_matches('+') == source {
            Ok(())
        } else {
            Err("a different fraction".into())
        };
    }
    let percent = quoted.ends_with('%');
    let digits = quoted.trim_end_matches('%').replace(',', "");
    let figure: f64 = digits
        .parse()
        .map_err(|_| format!("'{quoted}' is not a number"))?;
    let value: f64 = source
        .parse()
        .map_err(|_| format!("the source '{source}' is not a number"))?;
    let value = if percent { value * 100.0 } else { value };
    let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len());
    let whole = |s: &str| {
        !s.is_empty()
            && s.trim_start_matches(['-', '+'])
                .bytes()
                .all(|b| b.is_ascii_digit())
    };
    if !percent && whole(&digits) && whole(source) {
        let strip = |s: &str| s.trim_start_matches('+').to_string();
        return if strip(&digits) == strip(source) {
            Ok(())
        } else {
            Err("different digits".into())
        };
    }
    if (figure < 0.0) != (value < 0.0) && figure != 0.0 {
        return Err("the other sign".into());
    }
    let half_unit = 0.5 * 10f64.powi(-(decimals as i32));
    if (figure - value).abs() <= half_unit * (1.0 + 1e-9) {
        Ok(())
    } else {
        Err(format!(
            "{value:.prec$}{} rounded to the text's decimals",
            if percent { "%" } else { "" },
            prec = decimals
        ))
    }
}

/// Every disagreement in one document, as `FILE:LINE: ...` lines; and how many figures it marks.
fn check_document(name: &str, text: &str) -> (usize, Vec<String>) {
    let figures = match marked_figures(text) {
        Ok(figures) => figures,
        Err(e) => return (0, vec![format!("{name}: {e}")]),
    };
    let mut failures = Vec::new();
    for figure in &figures {
        let terms = figure
            .terms
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        let verdict = source_value(&figure.path, &figure.terms).and_then(|source| {
            agrees(&figure.quoted, &source)
                .map_err(|why| format!("the source holds {source} ({why})"))
        });
        if let Err(why) = verdict {
            failures.push(format!(
                "{name}:{}: quotes '{}' from {} {terms}: {why}",
                figure.line, figure.quoted, figure.path
            ));
        }
    }
    (figures.len(), failures)
}

#[test]
fn every_marked_figure_matches_its_source() {
    let mut failures = Vec::new();
    let mut counts = String::new();
    let mut total = 0;
    for doc in documents() {
        let text = fs::read_to_string(root().join(&doc)).unwrap();
        let name = doc.display().to_string();
        let (count, mut found) = check_document(&name, &text);
        total += count;
        let _ = write!(counts, " {name} {count};");
        failures.append(&mut found);
    }
    assert!(
        failures.is_empty(),
        "{} quoted figures disagree with their sources:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(total > 0, "no marked figure found:{counts}");
}

/// The README's headline table quotes committed reports only: each of its rows marks a figure.
#[test]
fn every_headline_row_marks_a_figure() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let table = readme
        .split("## Headline figures")
        .nth(1)
        .expect("README has a 'Headline figures' section");
    let rows: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .collect();
    assert!(!rows.is_empty(), "the headline table has no rows");
    for row in rows {
        assert!(
            row.contains(OPEN) || row.contains("exact counts") || row.contains("report.html"),
            "headline row without a marked figure: {row}"
        );
    }
}

const SUMMARY: &str = "reports/exact/standard-foxwoods-vs-foxwoods-main/summary.csv";

/// The checker itself: a figure altered in the text is caught, and the failure names the file,
/// the line, the quoted text and the source's value.
#[test]
fn an_altered_figure_fails_naming_file_line_quote_and_source() {
    let good = format!(
        "intro\nEV −2.721126%<!-- fig: {SUMMARY} wager=\"main wager\" column=player_ev --> and \
         8,250,459,031,214,400<!-- fig: {SUMMARY} wager=\"main wager\" column=combinations -->\n"
    );
    assert_eq!(check_document("good.md", &good), (2, vec![]));
    for (from, to) in [
        ("−2.721126%", "−2.721127%"),
        ("−2.721126%", "+2.721126%"),
        ("−2.721126%", "−2.72114%"),
        ("8,250,459,031,214,400", "8,250,459,031,214,401"),
    ] {
        let bad = good.replacen(from, to, 1);
        let (_, failures) = check_document("bad.md", &bad);
        assert_eq!(failures.len(), 1, "{to}: {failures:?}");
        let failure = &failures[0];
        assert!(
            failure.starts_with("bad.md:2: quotes '")
                && failure.contains(to)
                && (failure.contains("-0.0272112617") || failure.contains("8250459031214400")),
            "{failure}"
        );
    }
}

#[test]
fn figures_fractions_separators_and_json_fields() {
    assert!(agrees("−2.7138%", "-0.0271377850").is_ok());
    assert!(agrees("−2.714%", "-0.0271377850").is_ok());
    assert!(agrees("2.7138%", "-0.0271377850").is_err());
    assert!(agrees("8.1979", "8.1978711837").is_ok());
    assert!(agrees("8.1978", "8.1978711837").is_err());
    assert!(agrees("+1.17", "1.1713073295441732").is_ok());
    assert!(agrees("177,100,560", "177100560").is_ok());
    assert!(agrees("11,138,119,692,139,440", "11138119692139441").is_err());
    assert!(
        agrees(
            "−1122527000970863/41252295156072000",
            "-1122527000970863/41252295156072000"
        )
        .is_ok()
    );
    assert!(
        agrees(
            "−1122527000970863/41252295156072001",
            "-1122527000970863/41252295156072000"
        )
        .is_err()
    );
    assert_eq!(figure_before("EV (−2.7138%"), "−2.7138%");
    assert_eq!(figure_before("hands, 3.1250%"), "3.1250%");
    assert_eq!(figure_before("ends here."), "");
    let json = r#"{"exact_main": {"standard_errors": 1.1713, "list": [5, 6]}}"#;
    let field = |f: &str| json_field(json, &[("field".into(), f.into())]);
    assert_eq!(field("exact_main.standard_errors").unwrap(), "1.1713");
    assert_eq!(field("exact_main.list.1").unwrap(), "6");
    assert!(field("exact_main.missing").is_err());
    let ambiguous = [("column".into(), "player_ev".into())];
    let csv = "wager,player_ev\na,1\nb,2\n";
    assert!(csv_cell(csv, &ambiguous).unwrap_err().contains("2 rows"));
    let terms = [
        ("wager".into(), "b".into()),
        ("column".into(), "player_ev".into()),
    ];
    assert_eq!(csv_cell(csv, &terms).unwrap(), "2");
    let sum = |terms: &[(&str, &str)]| {
        let terms: Vec<(String, String)> = (terms.iter())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        csv_cell("build,games,seconds\nx,5,1.5\ny,7,2\nx,11,3\n", &terms)
    };
    assert_eq!(sum(&[("sum", "games")]).unwrap(), "23");
    assert_eq!(sum(&[("build", "x"), ("sum", "games")]).unwrap(), "16");
    assert!(sum(&[("build", "z"), ("sum", "games")]).is_err());
    assert!(sum(&[("sum", "seconds")]).unwrap_err().contains("'1.5'"));
    assert!(sum(&[("sum", "games"), ("column", "games")]).is_err());
    assert_eq!(negate("-0.0017383700"), "0.0017383700");
    assert_eq!(negate("0.5"), "-0.5");
    assert!(parse_marker("../x.csv column=a").is_err());
    assert!(parse_marker("x.csv wager=\"main wager").is_err());
    assert!(parse_marker("x.csv =a").is_err());
    assert!(parse_marker("x.csv wager").is_err());
    let (_, terms) = parse_marker(r#"x.csv "rule of a"="1: x = y" column=gap"#).unwrap();
    assert_eq!(terms[0], ("rule of a".to_string(), "1: x = y".to_string()));
    assert_eq!(terms[1], ("column".to_string(), "gap".to_string()));
    assert!(
        marked_figures("```\nx 1<!-- fig: nowhere.csv -->\n```\n")
            .unwrap()
            .is_empty()
    );
    assert!(marked_figures("no figure<!-- fig: x.csv column=a -->").is_err());
}
