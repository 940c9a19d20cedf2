//! The sections of run kinds that have one table each: house-way comparisons (with a forest
//! plot of the paired differences), card-room table runs (every CSV file by its columns, so new
//! columns and files show without a change here), and 7-card category counts.

use super::format::{count, dash, number, percent, signed_percent};
use crate::report::document::svg::{ForestRow, forest};
use crate::report::document::{Block, Document, Figure, Table, slug, text};
use crate::report::runs::{CsvFile, RunDir};

/// A comparison run: its variants, its pairs and a forest plot of the pairs.
pub fn compare_section(doc: &mut Document, run: &RunDir) {
    let Some(file) = run.csv.get("compare.csv") else {
        doc.say(format!("{}: no compare.csv.", run.dir));
        return;
    };
    doc.heading(4, &format!("Comparison {}", run.dir));
    doc.say(format!(
        "{}; {} deals on common random numbers (every way plays the same deals), seed {}.",
        varied_ways(run),
        count(&run.fact("deals")),
        run.fact("seed")
    ));
    let mut variants = Table::new(&["way", "player EV", "95% interval", "house edge", "SD"]);
    for row in file.rows_with("kind", "variant") {
        let cell = |c: &str| file.get(row, c);
        variants.row(vec![
            arm_label(run, cell("a"), cell("side")),
            percent(cell("player_ev"), 4),
            format!(
                "{} to {}",
                percent(cell("ci95_low"), 4),
                percent(cell("ci95_high"), 4)
            ),
            percent(cell("house_edge"), 4),
            dash(cell("sd")),
        ]);
    }
    doc.push(Block::Table(variants));
    let header = [
        "a - b",
        "EV difference",
        "95% interval",
        "99% interval",
        "significant (95%)",
        "paired / independent SE",
        "hands set differently",
    ];
    let mut pairs = Table::new(&header);
    let mut rows = Vec::new();
    for row in file.rows_with("kind", "pair") {
        let cell = |c: &str| file.get(row, c);
        let label = format!(
            "{} - {}",
            arm_label(run, cell("a"), cell("side")),
            arm_label(run, cell("b"), cell("side"))
        );
        let (lo, hi) = (
            number(cell("diff_ci95_low")),
            number(cell("diff_ci95_high")),
        );
        let significant = match (lo, hi) {
            (Some(l), Some(h)) if l > 0.0 || h < 0.0 => "yes",
            (Some(_), Some(_)) => "no",
            _ => "-",
        };
        pairs.row(vec![
            label.clone(),
            signed_percent(cell("ev_difference"), 4),
            format!(
                "{} to {}",
                signed_percent(cell("diff_ci95_low"), 4),
                signed_percent(cell("diff_ci95_high"), 4)
            ),
            format!(
                "{} to {}",
                signed_percent(cell("diff_ci99_low"), 4),
                signed_percent(cell("diff_ci99_high"), 4)
            ),
            significant.to_string(),
            dash(cell("paired_to_independent")),
            percent(cell("set_differently"), 2),
        ]);
        if let Some(r) = forest_row(file, row, label) {
            rows.push(r);
        }
    }
    doc.push(Block::Table(pairs));
    if !rows.is_empty() {
        doc.push(Block::Figure(Figure {
            file: format!("forest-{}.svg", slug(&run.dir)),
            svg: forest("Paired EV differences between house ways", &rows, "EV difference (a - b) per unit bet"),
            caption: format!(
                "Each pair's EV difference (dark mark) with its paired 95% (thick) and 99% (thin, capped) intervals, \
                 written at the right as the difference [95% interval], from compare.csv of {}. \
                 An interval that does not cross zero ranks the two ways.",
                run.dir
            ),
        }));
    }
}

/// Which ways the comparison varied, on which side, against what.
fn varied_ways(run: &RunDir) -> String {
    let vary = run.fact("vary");
    let baseline = run.fact("baseline");
    let against = if baseline.is_empty() {
        String::new()
    } else {
        format!(", each against the baseline {baseline}")
    };
    match vary.as_str() {
        "all" => {
            format!("Every way played as the player's, as the dealer's and on both sides{against}")
        }
        "both" => format!("Ways varied on both sides (each way against itself){against}"),
        side => format!(
            "Ways varied: {side} (the {} fixed at {}){against}",
            if side == "dealer" {
                "player's way"
            } else {
                "dealer's way"
            },
            dash(&run.fact("fixed_way")),
        ),
    }
}

/// A compared way as the report names it: with its side (player, dealer, both) when the run
/// played each way on every side (`--vary all`), where the way alone is ambiguous.
fn arm_label(run: &RunDir, way: &str, side: &str) -> String {
    if run.fact("vary") == "all" && !side.is_empty() {
        format!("{way} ({side})")
    } else {
        way.to_string()
    }
}

/// A pair row as a forest-plot row.
fn forest_row(file: &CsvFile, row: &[String], label: String) -> Option<ForestRow> {
    let n = |c: &str| number(file.get(row, c));
    Some(ForestRow {
        label,
        estimate: n("ev_difference")?,
        ci95: (n("diff_ci95_low")?, n("diff_ci95_high")?),
        ci99: (n("diff_ci99_low")?, n("diff_ci99_high")?),
    })
}

/// A card-room table run: each CSV file, `summary.csv` turned on its side (one column per seat).
pub fn table_section(doc: &mut Document, run: &RunDir) {
    doc.heading(4, &format!("Table run {}", run.dir));
    let varied = match run.fact("vary") {
        vary if vary.is_empty() => String::new(),
        vary => format!(" Varied: {vary} (each variant sets that option; the rest are as above)."),
    };
    doc.say(format!(
        "Seats {}, bank {}, collection {}, bank collection {}, time collection {}, rotation {}, \
         player way {}, dealer way {}; {} rounds, seed {}.{varied}",
        dash(&run.fact("seats")),
        dash(&run.fact("bank")),
        dash(&run.fact("collection")),
        dash(&run.fact("bank_collection")),
        dash(&run.fact("time_collection")),
        dash(&run.fact("rotation")),
        dash(&run.fact("player_way")),
        dash(&run.fact("dealer_way")),
        count(&run.fact("deals")),
        run.fact("seed")
    ));
    for (name, file) in &run.csv {
        doc.paragraph(vec![text(format!("{name}:"))]);
        let table = if name == "summary.csv" {
            transposed(file)
        } else {
            as_is(file)
        };
        doc.push(Block::Table(table));
    }
}

/// A CSV file as a table, every column in its order; whole numbers grouped; columns of numbers
/// right-aligned, others left.
pub fn as_is(file: &CsvFile) -> Table {
    let header: Vec<&str> = file.header.iter().map(String::as_str).collect();
    let mut t = Table::new(&header);
    for row in &file.rows {
        t.row(row.iter().map(|c| cell(c)).collect());
    }
    align_by_content(t)
}

/// A CSV file turned on its side: a row per column, a column per row (named by its first cell).
fn transposed(file: &CsvFile) -> Table {
    let mut header = vec![file.header.first().cloned().unwrap_or_default()];
    header.extend(
        file.rows
            .iter()
            .map(|r| r.first().cloned().unwrap_or_default()),
    );
    let names: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut t = Table::new(&names);
    for (i, column) in file.header.iter().enumerate().skip(1) {
        let mut row = vec![column.clone()];
        row.extend(
            file.rows
                .iter()
                .map(|r| cell(r.get(i).map_or("", String::as_str))),
        );
        t.row(row);
    }
    t
}

/// The table with each column right-aligned when all its cells are numbers (or "-"), else left.
fn align_by_content(mut t: Table) -> Table {
    let numeric = |c: usize| {
        t.rows.iter().all(|r| {
            let v = r[c].replace(',', "");
            v == "-" || number(&v).is_some()
        })
    };
    let left: Vec<usize> = (0..t.header.len()).filter(|&c| !numeric(c)).collect();
    for c in 0..t.header.len() {
        t.align[c] = crate::report::document::Align::Right;
    }
    t.left(&left)
}

/// A cell: a whole number grouped, anything else as written.
fn cell(c: &str) -> String {
    if !c.is_empty()
        && c.trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit())
    {
        count(c)
    } else {
        dash(c)
    }
}

/// A categories run: the table of 7-card hands by best five-card category.
pub fn categories_section(doc: &mut Document, run: &RunDir) {
    let Some(file) = run.csv.get("categories.csv") else {
        return;
    };
    doc.heading(
        4,
        &format!("Every 7-card hand by its best five cards ({})", run.dir),
    );
    doc.say(format!("{} ({}).", dash(&run.fact("method")), run.dir));
    doc.say(
        "These are the ranking's categories, each hand counted once by its best five cards. A \
         side bet's lines count the paytable's own reading, which can differ: a hand that makes \
         both three of a kind and a straight is a straight here (the better five) but is paid as \
         three of a kind by a paytable that pays that line first, so a bet's line counts need not \
         equal these.",
    );
    let mut t = Table::new(&["category", "combinations", "probability"]);
    for row in &file.rows {
        let c = |name: &str| file.get(row, name);
        t.row(vec![
            c("category").to_string(),
            count(c("combinations")),
            dash(c("probability")),
        ]);
    }
    t.total = t.rows.last().is_some_and(|r| r[0] == "total");
    doc.push(Block::Table(t));
}
