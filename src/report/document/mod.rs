//! A report as a document: headings, paragraphs, tables, lists, code, figures, notes. Built once
//! by [`crate::report::compose`] and written two ways, as Markdown ([`markdown`]) and as one
//! self-contained HTML page ([`html`]), so the two always say the same thing; [`svg`] draws the
//! figures.
//!
//! Invariants: a document holds only text (numbers already formatted), so both renderers print
//! the same figures; every figure has a unique file name (its SVG is written beside the Markdown
//! and inlined into the HTML); renderers escape every text they print.

pub mod html;
pub mod markdown;
pub mod svg;

/// A run of inline text.
#[derive(Clone, Debug, PartialEq)]
pub enum Inline {
    Text(String),
    Strong(String),
    Code(String),
    /// A link to an anchor of this document (`#id`) or a relative file.
    Link {
        text: String,
        target: String,
    },
}

/// A paragraph's inline runs.
pub type Text = Vec<Inline>;

/// Plain text.
pub fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

/// Bold text.
pub fn strong(s: impl Into<String>) -> Inline {
    Inline::Strong(s.into())
}

/// Code.
pub fn code(s: impl Into<String>) -> Inline {
    Inline::Code(s.into())
}

/// How a table column is aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table: header, alignment per column, rows of cells; the last row is a total when `total`.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub align: Vec<Align>,
    pub rows: Vec<Vec<String>>,
    pub total: bool,
}

impl Table {
    /// A table with these columns, the first left-aligned and the others right-aligned.
    pub fn new(header: &[&str]) -> Table {
        let align = (0..header.len())
            .map(|i| if i == 0 { Align::Left } else { Align::Right })
            .collect();
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            align,
            rows: Vec::new(),
            total: false,
        }
    }

    /// The same table with columns `columns` left-aligned.
    pub fn left(mut self, columns: &[usize]) -> Table {
        for &c in columns {
            self.align[c] = Align::Left;
        }
        self
    }

    /// Adds a row (as many cells as columns).
    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.header.len(), "{cells:?}");
        self.rows.push(cells);
    }
}

/// A figure: an SVG drawing, the file it is written to (beside the Markdown), a caption.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub file: String,
    pub svg: String,
    pub caption: String,
}

/// The folder, beside the Markdown, that holds the CSV files behind the report's own tables.
pub const TABLES_DIR: &str = "tables";

/// The values behind a table the report derives (a bet mix, the chances after N hands, ...),
/// unformatted, written as a CSV file under [`TABLES_DIR`] and linked from where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct DataFile {
    pub file: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl DataFile {
    /// An empty file `file` (a name from [`slug`]s, ending `.csv`) with these columns.
    pub fn new(file: String, header: &[&str]) -> DataFile {
        DataFile {
            file,
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (as many cells as columns).
    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.header.len(), "{cells:?}");
        self.rows.push(cells);
    }

    /// The file as CSV text.
    pub fn csv(&self) -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        for record in std::iter::once(&self.header).chain(&self.rows) {
            // Writing into memory cannot fail.
            let _ = writer.write_record(record);
        }
        String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// The paragraph that links it.
    pub fn link(&self) -> Block {
        let path = format!("{TABLES_DIR}/{}", self.file);
        Block::Paragraph(vec![
            text("The values behind this table: "),
            Inline::Link {
                text: path.clone(),
                target: path,
            },
            text("."),
        ])
    }
}

/// One block of a document.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A heading of level 1 to 4 with its anchor id.
    Heading {
        level: u8,
        text: String,
        id: String,
    },
    Paragraph(Text),
    Bullets(Vec<Text>),
    Table(Table),
    /// Preformatted text in a language (`toml`, `sh`, or empty).
    Code {
        language: String,
        text: String,
    },
    Figure(Figure),
    /// A CSV file of values behind a table, shown as a link to it.
    Data(DataFile),
    /// Text a reader may open: a summary line, then blocks.
    Details {
        summary: String,
        blocks: Vec<Block>,
    },
}

/// A whole document: its title and blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Document {
    pub title: String,
    pub blocks: Vec<Block>,
}

impl Document {
    /// Adds a heading whose id is made from its text (unique within the document).
    pub fn heading(&mut self, level: u8, text: &str) -> String {
        let base = slug(text);
        let taken = |id: &str| {
            self.blocks
                .iter()
                .any(|b| matches!(b, Block::Heading { id: other, .. } if other == id))
        };
        let mut id = base.clone();
        let mut n = 2;
        while taken(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        self.blocks.push(Block::Heading {
            level,
            text: text.to_string(),
            id: id.clone(),
        });
        id
    }

    /// Adds a paragraph.
    pub fn paragraph(&mut self, runs: Text) {
        self.blocks.push(Block::Paragraph(runs));
    }

    /// Adds a paragraph of plain text.
    pub fn say(&mut self, words: impl Into<String>) {
        self.paragraph(vec![text(words)]);
    }

    /// Adds a block.
    pub fn push(&mut self, block: Block) {
        self.blocks.push(block);
    }

    /// Every data file, in order.
    pub fn data_files(&self) -> Vec<&DataFile> {
        fn walk<'a>(blocks: &'a [Block], out: &mut Vec<&'a DataFile>) {
            for b in blocks {
                match b {
                    Block::Data(d) => out.push(d),
                    Block::Details { blocks, .. } => walk(blocks, out),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.blocks, &mut out);
        out
    }

    /// Every figure, in order.
    pub fn figures(&self) -> Vec<&Figure> {
        fn walk<'a>(blocks: &'a [Block], out: &mut Vec<&'a Figure>) {
            for b in blocks {
                match b {
                    Block::Figure(f) => out.push(f),
                    Block::Details { blocks, .. } => walk(blocks, out),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.blocks, &mut out);
        out
    }
}

/// The longest slug, in bytes: a plot's file name holds two (a wager's and a run's), and a file
/// name may have at most 255 bytes.
const LONGEST_SLUG: usize = 80;

/// An anchor id (and plot file name part) from text: lower-case letters and digits, words joined
/// by `-`; a longer one is cut, with 12 hex digits of the text's SHA-256 to tell cut ones apart.
pub fn slug(text: &str) -> String {
    let whole = full_slug(text);
    if whole.len() <= LONGEST_SLUG {
        return whole;
    }
    let hash = crate::files::sha256_hex(text.as_bytes());
    let kept = whole[..LONGEST_SLUG - 13].trim_end_matches('-');
    format!("{kept}-{}", &hash[..12])
}

fn full_slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let trimmed = out.trim_end_matches('-');
    if trimmed.is_empty() {
        "section".to_string()
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_unique_slugs() {
        let mut doc = Document::default();
        assert_eq!(
            doc.heading(2, "Side bet: Big Hand Bonus"),
            "side-bet-big-hand-bonus"
        );
        assert_eq!(
            doc.heading(2, "Side bet: Big Hand Bonus"),
            "side-bet-big-hand-bonus-2"
        );
        assert_eq!(slug("!!"), "section");
        let long = slug(&"B".repeat(250));
        assert!(
            long.len() <= LONGEST_SLUG && long.starts_with("bbbb"),
            "{long}"
        );
        assert_ne!(long, slug(&"B".repeat(251)));
        assert_eq!(slug("Emperor's Challenge (7)"), "emperor-s-challenge-7");
    }
}
