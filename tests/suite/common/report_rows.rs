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
/// probability and return as written, its 1 in X to the cent.
pub fn shows_returns_row(rows: &[Vec<String>], header: &[String], row: &[String]) -> bool {
    let get = |c: &str| {
        if header.iter().any(|h| h == c) {
            field(header, row, c)
        } else {
            ""
        }
    };
    // An exact main wager's rows have no label: the report shows the event.
    let label = match (header.iter().any(|h| h == "label"), get("event").trim()) {
        (true, _) => get("label"),
        (false, "total") => "Total",
        (false, event) => event,
    };
    let count = if get("combinations").is_empty() {
        get("count")
    } else {
        get("combinations")
    };
    let one_in: Option<f64> = get("one_in").parse().ok();
    rows.iter().any(|r| {
        r.len() == 6
            && r[0] == label
            && (get("event") == "total" || shown(&r[1]) == get("pays").parse().ok())
            && shown(&r[2]) == count.parse().ok()
            && r[3] == get("probability")
            && one_in.is_none_or(|x| shown(&r[4]).is_some_and(|s| (s - x).abs() <= 0.0051))
            && r[5] == get("return")
    })
}
