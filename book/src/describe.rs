//! Every item of the model in plain language. Each part of the model has its
//! module under `describe/`, which returns [`Section`]s; [`crate::book::build`] calls
//! them in the order of the generated rulebook and destructures the model
//! without `..`, so that a new field of `Game` does not compile until it has
//! its text.

use rulebook_interpreter::model::doc::ItemRef;
use serde::Serialize;

/// One part of a generated rulebook: a heading and its blocks of text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    /// The heading (`Movement`, `Promotion`, the piece's name…).
    pub title: String,
    /// The text, in order.
    pub blocks: Vec<Block>,
    /// Where in the rules files it is written (file, 1-based line), if one place.
    pub source: Option<Source>,
    /// The author's doc comments on the item (`##` lines), each a paragraph.
    pub docs: Vec<String>,
    /// The name of the diagram drawn with it (a piece's name), if any.
    pub diagram: Option<String>,
    /// The item of the rules file it describes, whose doc comments it shows.
    #[serde(skip)]
    pub item: Option<ItemRef>,
}

/// A place in a rules file, for a link from the rulebook to its source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The file, as the model names it.
    pub file: String,
    /// The 1-based line where the item starts (0 until [`Source::resolve`]).
    pub line: usize,
    /// The byte offset where the item starts.
    #[serde(skip)]
    pub offset: usize,
}

impl Source {
    /// Sets `line` from the text of the file.
    pub fn resolve(&mut self, text: &str) {
        self.line = text.get(..self.offset.min(text.len())).map_or(1, |s| s.matches('\n').count() + 1);
    }
}

/// A block of a section's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum Block {
    /// A paragraph of plain language (inline Markdown: `code`, *emphasis*).
    Paragraph(String),
    /// A list of items, each inline Markdown.
    List(Vec<String>),
    /// A table: its header cells and rows.
    Table {
        /// The header cells.
        head: Vec<String>,
        /// The rows, each as many cells as the header.
        rows: Vec<Vec<String>>,
    },
    /// A quotation from the rulebook the variant comes from.
    Quote(String),
}

impl Section {
    /// A section with a title and no text yet.
    pub fn new(title: impl Into<String>) -> Section {
        Section { title: title.into(), blocks: Vec::new(), source: None, docs: Vec::new(), diagram: None, item: None }
    }

    /// Adds a paragraph.
    pub fn paragraph(mut self, text: impl Into<String>) -> Section {
        self.blocks.push(Block::Paragraph(text.into()));
        self
    }

    /// Adds a list (nothing when `items` is empty).
    pub fn list(mut self, items: Vec<String>) -> Section {
        if !items.is_empty() {
            self.blocks.push(Block::List(items));
        }
        self
    }

    /// Adds a table.
    pub fn table(mut self, head: Vec<String>, rows: Vec<Vec<String>>) -> Section {
        self.blocks.push(Block::Table { head, rows });
        self
    }

    /// Adds a quotation.
    pub fn quote(mut self, text: impl Into<String>) -> Section {
        self.blocks.push(Block::Quote(text.into()));
        self
    }

    /// Names the diagram drawn with it.
    pub fn with_diagram(mut self, name: impl Into<String>) -> Section {
        self.diagram = Some(name.into());
        self
    }

    /// Sets where it is written: the byte `offset` in `file` (the line is
    /// resolved when the book is built, from the file's text).
    pub fn at(mut self, file: &str, offset: usize) -> Section {
        self.source = Some(Source { file: file.to_string(), line: 0, offset });
        self
    }

    /// Says which item of the rules file it describes (for its doc comments).
    pub fn describes(mut self, item: ItemRef) -> Section {
        self.item = Some(item);
        self
    }
}

pub mod castling;
pub mod chance;
pub mod claims;
pub mod cond;
pub mod end;
pub mod examples;
pub mod explosion;
pub mod hand;
pub mod observe;
pub mod phases;
pub mod pieces;
pub mod promotion;
pub mod rules;
pub mod rulings;
pub mod setup;
pub mod slide;
pub mod spread;
pub mod words;
