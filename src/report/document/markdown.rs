//! A document as Markdown (GitHub-flavoured): tables with aligned columns, figures as images of
//! their SVG files (written beside the Markdown, under `plots/`), details as HTML `<details>`.
//!
//! Invariant: table cells are escaped (`|` and line ends), so a cell never breaks its table.

use std::fmt::Write as _;

use super::{Align, Block, Document, Inline, Table};

/// The folder, beside the Markdown, that holds the figures' SVG files.
pub const PLOTS_DIR: &str = "plots";

/// The document as Markdown.
pub fn render(doc: &Document) -> String {
    let mut out = format!("# {}\n\n", doc.title);
    blocks(&mut out, &doc.blocks);
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

fn blocks(out: &mut String, list: &[Block]) {
    for block in list {
        one_block(out, block);
        out.push('\n');
    }
}

fn one_block(out: &mut String, block: &Block) {
    match block {
        Block::Heading { level, text, id } => {
            let _ = writeln!(out, "<a id=\"{id}\"></a>\n");
            let _ = writeln!(out, "{} {text}", "#".repeat(usize::from(*level)));
        }
        Block::Paragraph(runs) => {
            let _ = writeln!(out, "{}", inline(runs));
        }
        Block::Bullets(items) => {
            for item in items {
                let _ = writeln!(out, "- {}", inline(item));
            }
        }
        Block::Table(table) => table_text(out, table),
        Block::Code { language, text } => {
            let fence = if text.contains("```") { "~~~~" } else { "```" };
            let _ = writeln!(out, "{fence}{language}\n{}\n{fence}", text.trim_end());
        }
        Block::Data(d) => one_block(out, &d.link()),
        Block::Figure(f) => {
            let _ = writeln!(out, "![{}]({PLOTS_DIR}/{})\n", f.caption, f.file);
            let _ = writeln!(out, "*{}*", f.caption);
        }
        Block::Details {
            summary,
            blocks: inner,
        } => {
            let _ = writeln!(out, "<details><summary>{summary}</summary>\n");
            blocks(out, inner);
            let _ = writeln!(out, "</details>");
        }
    }
}

/// Inline runs as Markdown.
fn inline(runs: &[Inline]) -> String {
    runs.iter()
        .map(|run| match run {
            Inline::Text(t) => t.clone(),
            Inline::Strong(t) => format!("**{t}**"),
            Inline::Code(t) if t.contains('`') => format!("`` {t} ``"),
            Inline::Code(t) => format!("`{t}`"),
            Inline::Link { text, target } => format!("[{text}]({target})"),
        })
        .collect()
}

fn table_text(out: &mut String, table: &Table) {
    let cell = |c: &str| c.replace('|', "\\|").replace('\n', " ");
    let line = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
        format!("| {} |", cells.join(" | "))
    };
    let _ = writeln!(out, "{}", line(&table.header));
    let rule: Vec<&str> = (table.align.iter())
        .map(|a| match a {
            Align::Left => ":---",
            Align::Right => "---:",
        })
        .collect();
    let _ = writeln!(out, "| {} |", rule.join(" | "));
    let last = table.rows.len().saturating_sub(1);
    for (i, row) in table.rows.iter().enumerate() {
        if table.total && i == last {
            let bold: Vec<String> = (row.iter())
                .map(|c| {
                    if c.is_empty() {
                        c.clone()
                    } else {
                        format!("**{c}**")
                    }
                })
                .collect();
            let _ = writeln!(out, "{}", line(&bold));
        } else {
            let _ = writeln!(out, "{}", line(row));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Figure, text};
    use super::*;

    #[test]
    fn tables_escape_pipes_and_mark_the_total() {
        let mut doc = Document {
            title: "T".into(),
            ..Document::default()
        };
        doc.heading(2, "A b");
        let mut t = Table::new(&["event", "count"]);
        t.row(vec!["a|b".into(), "1".into()]);
        t.row(vec!["Total".into(), "2".into()]);
        t.total = true;
        doc.push(Block::Table(t));
        doc.paragraph(vec![text("x")]);
        doc.push(Block::Figure(Figure {
            file: "f.svg".into(),
            svg: "<svg/>".into(),
            caption: "cap".into(),
        }));
        let md = render(&doc);
        assert!(
            md.starts_with("# T\n\n<a id=\"a-b\"></a>\n\n## A b\n"),
            "{md}"
        );
        assert!(
            md.contains(
                "| event | count |\n| :--- | ---: |\n| a\\|b | 1 |\n| **Total** | **2** |\n"
            ),
            "{md}"
        );
        assert!(md.contains("![cap](plots/f.svg)"), "{md}");
    }
}
