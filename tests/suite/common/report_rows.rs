//! Reading what a run and its report hold, to compare them: a run's CSV files as rows, and the
//! Markdown and HTML tables of a report as rows of cells as shown.

use std::fs;
use std::path::Path;

/// A CSV file as rows of fields, the header first.
pub fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// The value of `column` in `row` of a CSV with `header`.
pub fn field<'a>(header: &[String], row: &'a [String], column: &str) -> &'a str {
    let i = header
        .iter()
        .position(|h| h == column)
        .unwrap_or_else(|| panic!("no {column}"));
    &row[i]
}

/// Every Markdown table row as cells (bold marks and escapes removed).
pub fn markdown_rows(md: &str) -> Vec<Vec<String>> {
    md.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| :---") && !l.starts_with("| ---"))
        .map(|l| {
            let inner = l
                .trim_start_matches("| ")
                .trim_end_matches(" |")
                .replace("\\|", "\u{1}");
            inner
                .split(" | ")
                .map(|c| c.replace("**", "").replace('\u{1}', "|"))
                .collect()
        })
        .collect()
}

/// Every Markdown table as its header and its rows of cells (as [`markdown_rows`] reads them).
pub fn markdown_tables(md: &str) -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let mut tables = Vec::new();
    let mut lines: Vec<&str> = Vec::new();
    for line in md.lines().chain([""]) {
        if line.starts_with('|') {
            lines.push(line);
        } else if !lines.is_empty() {
            let mut rows = markdown_rows(&lines.join("\n"));
            let header = rows.remove(0);
            tables.push((header, rows));
            lines.clear();
        }
    }
    tables
}

/// A fraction "N/D" or a whole number "N" as a float.
pub fn fraction_value(cell: &str) -> Option<f64> {
    let (n, d) = cell.split_once('/').unwrap_or((cell, "1"));
    Some(n.trim().parse::<f64>().ok()? / d.trim().parse::<f64>().ok()?)
}

/// Every HTML table row as cells, from the page parsed as XML.
pub fn html_rows(html: &str) -> Vec<Vec<String>> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(html, options)
        .expect("the page is well-formed XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("tr"))
        .map(|tr| {
            (tr.children().filter(|c| c.is_element()))
                .map(|c| {
                    (c.descendants().filter(|t| t.is_text()))
                        .filter_map(|t| t.text())
                        .collect::<String>()
                })
                .collect()
        })
        .collect()
}

/// A shown number as a float: separators, a percent sign and a `*` mark removed.
pub fn shown(cell: &str) -> Option<f64> {
    cell.replace([',', '%', '*', '+'], "").trim().parse().ok()
}

/// Whether some row shows the returns row `row` of `header`: its label, its pays, its count, its
/// probability and return as written, its 1 in X to the cent. An exact run's table row has two
/// more cells, the probability and the return as fractions (after the probability and last),
/// which this leaves out.
pub fn shows_returns_row(rows: &[Vec<String>], header: &[String], row: &[String]) -> bool {
    let get = |c: &str| {
        if header.iter().any(|h| h == c) {
            field(header, row, c)
        } else {
            ""
        }
    };
    // An exact main wager's rows have no label: the report shows the words the game gives
    // the event (`game::wager::return_rows`), as a simulation's table does.
    let labels: Vec<&str> = match (header.iter().any(|h| h == "label"), get("event")) {
        (true, _) => vec![get("label")],
        (false, "total") => vec!["Total"],
        (false, event) => main_wager_labels(event),
    };
    let count = if get("combinations").is_empty() {
        get("count")
    } else {
        get("combinations")
    };
    let one_in: Option<f64> = get("one_in").parse().ok();
    let decimals_only = |r: &Vec<String>| match r.len() {
        8 => Some([0, 1, 2, 3, 5, 6].map(|i| r[i].clone()).to_vec()),
        6 => Some(r.clone()),
        _ => None,
    };
    rows.iter().filter_map(decimals_only).any(|r| {
        labels.contains(&r[0].as_str())
            && (get("event") == "total" || shown(&r[1]) == get("pays").parse().ok())
            && shown(&r[2]) == count.parse().ok()
            && r[3] == get("probability")
            && one_in.is_none_or(|x| shown(&r[4]).is_some_and(|s| (s - x).abs() <= 0.0051))
            && r[5] == get("return")
    })
}

/// The words a game may give a main-wager event, whatever its rules (its qualification, an
/// overqualifier, how a tie on both hands settles).
fn main_wager_labels(event: &str) -> Vec<&'static str> {
    use paigow::game::settlement::{DoubleCopy, Settlement};
    use paigow::game::wager::{EVEN_MONEY, MainWager, Qualification, return_rows};
    let qualifications = [
        Qualification::Always,
        Qualification::Pair,
        Qualification::NotQueenHigh,
        Qualification::NotAceHigh,
        Qualification::NotNineHighFront,
    ];
    let mut labels = Vec::new();
    for qualification in qualifications {
        for double_copy in [DoubleCopy::Loss, DoubleCopy::Push] {
            let wager = MainWager {
                qualification,
                overqualifier: Some(3),
                double_copy,
                settlement: Settlement::new(double_copy),
                ..EVEN_MONEY
            };
            let found = return_rows(&wager).into_iter().filter(|r| r.event == event);
            labels.extend(found.map(|r| r.label));
        }
    }
    labels
}
