//! A document as one self-contained HTML page: inline CSS, figures as inline SVG, no script and
//! no external resource of any kind, so the file alone can be archived, mailed or printed.
//!
//! Invariants: every text is escaped ([`escape`]); a text's backtick spans (`like this`) are
//! code, as a Markdown reader shows the same text in `report.md`, so the two documents agree; the
//! SVG of a figure is inlined as drawn (it is made by [`super::svg`], which escapes its own texts);
//! every element is closed, so the page is also well-formed XML (the tests parse it, figures
//! included, with an XML parser).
//! Preformatted text (command lines, files) wraps at the page's width rather than scrolling
//! sideways, so a printed page shows all of it (`tests/suite/report_browser.rs` checks it in
//! Chromium).

use std::fmt::Write as _;

use super::{Align, Block, Document, Inline, Table};

/// The page's style sheet.
const STYLE: &str = "
body { font-family: 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif; color: #1b1f24;
       max-width: 1180px; margin: 2em auto; padding: 0 1.5em; line-height: 1.45; font-size: 15px; }
h1 { font-size: 1.9em; margin-bottom: 0.2em; }
h2 { font-size: 1.45em; border-bottom: 2px solid #d0d7de; padding-bottom: 0.2em; margin-top: 2.2em; }
h3 { font-size: 1.2em; margin-top: 1.8em; }
h4 { font-size: 1.05em; margin-top: 1.4em; color: #333; }
p, li { max-width: 60em; }
code { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.88em;
       background: #f3f4f6; padding: 0.05em 0.3em; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; padding: 0.8em; overflow-x: auto;
      font-size: 0.85em; line-height: 1.35; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; }
.table-wrap { overflow-x: auto; margin: 0.8em 0 1.2em; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #d0d7de; padding: 0.3em 0.6em; vertical-align: top; }
th { background: #eef1f4; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:nth-child(even) { background: #f8f9fa; }
tr.total td { font-weight: bold; border-top: 2px solid #8c959f; background: #eef1f4; }
figure { margin: 1em 0 1.6em; }
figure svg { max-width: 100%; height: auto; border: 1px solid #e1e4e8; background: #fff; }
figcaption { font-size: 0.88em; color: #444; margin-top: 0.3em; max-width: 60em; }
details { margin: 0.6em 0 1em; }
summary { cursor: pointer; color: #0b57d0; }
a { color: #0b57d0; }
@media print { body { max-width: none; } details { display: block; }
  details::details-content { content-visibility: visible; display: block; }
  summary { color: #1b1f24; font-weight: bold; }
  .table-wrap { overflow: visible; }
  table { font-size: 0.8em; }
  td, th, td.num, th.num { white-space: normal; overflow-wrap: anywhere; } }
";

/// The document as an HTML page.
pub fn render(doc: &Document) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n",
        title = escape(&doc.title)
    );
    blocks(&mut out, &doc.blocks);
    out.push_str("</body>\n</html>\n");
    out
}

fn blocks(out: &mut String, list: &[Block]) {
    for block in list {
        one_block(out, block);
    }
}

fn one_block(out: &mut String, block: &Block) {
    match block {
        Block::Heading { level, text, id } => {
            let _ = writeln!(
                out,
                "<h{level} id=\"{}\">{}</h{level}>",
                escape(id),
                escape(text)
            );
        }
        Block::Paragraph(runs) => {
            let _ = writeln!(out, "<p>{}</p>", inline(runs));
        }
        Block::Bullets(items) => {
            out.push_str("<ul>\n");
            for item in items {
                let _ = writeln!(out, "<li>{}</li>", inline(item));
            }
            out.push_str("</ul>\n");
        }
        Block::Table(table) => table_html(out, table),
        Block::Code { language, text } => {
            let _ = writeln!(
                out,
                "<pre><code class=\"language-{}\">{}</code></pre>",
                escape(language),
                escape(text.trim_end())
            );
        }
        Block::Data(d) => one_block(out, &d.link()),
        Block::Figure(f) => {
            let _ = writeln!(
                out,
                "<figure>\n{}\n<figcaption>{}</figcaption>\n</figure>",
                f.svg.trim_end(),
                escape(&f.caption)
            );
        }
        Block::Details {
            summary,
            blocks: inner,
        } => {
            let _ = writeln!(out, "<details><summary>{}</summary>", escape(summary));
            blocks(out, inner);
            out.push_str("</details>\n");
        }
    }
}

fn inline(runs: &[Inline]) -> String {
    runs.iter()
        .map(|run| match run {
            Inline::Text(t) => prose(t),
            Inline::Strong(t) => format!("<strong>{}</strong>", escape(t)),
            Inline::Code(t) => format!("<code>{}</code>", escape(t)),
            Inline::Link { text, target } => {
                format!("<a href=\"{}\">{}</a>", escape(target), escape(text))
            }
        })
        .collect()
}

fn table_html(out: &mut String, table: &Table) {
    let class = |a: Align| match a {
        Align::Left => "",
        Align::Right => " class=\"num\"",
    };
    out.push_str("<div class=\"table-wrap\"><table>\n<thead><tr>");
    for (h, &a) in table.header.iter().zip(&table.align) {
        let _ = write!(out, "<th{}>{}</th>", class(a), escape(h));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let last = table.rows.len().saturating_sub(1);
    for (i, row) in table.rows.iter().enumerate() {
        let total = table.total && i == last;
        out.push_str(if total {
            "<tr class=\"total\">"
        } else {
            "<tr>"
        });
        for (c, &a) in row.iter().zip(&table.align) {
            let _ = write!(out, "<td{}>{}</td>", class(a), prose(c));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n");
}

/// Text escaped, its backtick spans as `<code>`, paired from the left (a last backtick without
/// a pair stays as written).
fn prose(text: &str) -> String {
    let mut parts: Vec<String> = text.split('`').map(String::from).collect();
    if parts.len().is_multiple_of(2) {
        let last = parts.pop().expect("two parts or more");
        let before = parts.pop().expect("two parts or more");
        parts.push(format!("{before}`{last}"));
    }
    (parts.iter().enumerate())
        .map(|(i, part)| match i % 2 {
            0 => escape(part),
            _ => format!("<code>{}</code>", escape(part)),
        })
        .collect()
}

/// Text with `&`, `<`, `>` and `"` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::text;
    use super::*;

    #[test]
    fn pages_escape_text_and_link_nothing_outside() {
        let mut doc = Document {
            title: "A <b> & c".into(),
            ..Document::default()
        };
        doc.paragraph(vec![text("x < y")]);
        let mut t = Table::new(&["a", "n"]);
        t.row(vec!["Tom's \"best\"".into(), "1,000".into()]);
        doc.push(Block::Table(t));
        let html = render(&doc);
        assert!(html.contains("<title>A &lt;b&gt; &amp; c</title>"));
        assert!(html.contains("<p>x &lt; y</p>"));
        assert!(html.contains("<td>Tom's &quot;best&quot;</td><td class=\"num\">1,000</td>"));
        let mut code = Document::default();
        code.say("run `paigow self-test` on <it>; an odd ` stays");
        code.say("`a` and `b`");
        let html = render(&code);
        assert!(
            html.contains("<p>run <code>paigow self-test</code> on &lt;it&gt;; an odd ` stays</p>")
        );
        assert!(
            html.contains("<p><code>a</code> and <code>b</code></p>"),
            "{html}"
        );
        for outside in ["http:", "https:", "src=", "<link", "<script"] {
            assert!(!html.contains(outside), "{outside}");
        }
    }
}
