//! A [`Book`] as Markdown (with its diagrams as SVG files beside it) or as
//! one static HTML page (inline CSS and SVG, no network): the page's
//! structure is a minijinja template, the blocks are Markdown, and the HTML
//! is the Markdown converted by pulldown-cmark.

use crate::book::Book;
use crate::describe::Block;
use minijinja::syntax::SyntaxConfig;
use minijinja::value::Serde;
use minijinja::{context, Environment, Value};
use serde::Serialize;
use std::collections::BTreeMap;

/// The Markdown template of a rulebook.
const MARKDOWN: &str = include_str!("../templates/rulebook.md.j2");
/// The HTML page around the converted Markdown.
const HTML: &str = include_str!("../templates/rulebook.html.j2");

/// What can go wrong rendering (a template error: a bug of this crate).
pub use minijinja::Error;

/// The diagrams of a rulebook, by name (`setup`, a piece's name), as SVG.
pub type Diagrams = BTreeMap<String, String>;

/// Where the diagrams go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// Beside the Markdown file, as `NAME.svg`, linked.
    Files,
    /// Inline in the HTML page.
    Inline,
}

/// A section as the template sees it: its blocks already Markdown.
#[derive(Serialize)]
struct SectionView<'a> {
    title: &'a str,
    source: &'a Option<crate::describe::Source>,
    docs: &'a [String],
    blocks: Vec<String>,
    diagram: Option<String>,
}

#[derive(Serialize)]
struct ChapterView<'a> {
    title: &'a str,
    sections: Vec<SectionView<'a>>,
}

/// The file name of a diagram (`Queen` → `queen.svg`).
pub fn diagram_file(name: &str) -> String {
    let slug: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    format!("{slug}.svg")
}

/// The Markdown of `book`; its diagrams are linked as [`diagram_file`]s.
pub fn markdown(book: &Book, diagrams: &Diagrams) -> Result<String, minijinja::Error> {
    render_markdown(book, diagrams, Target::Files)
}

/// The HTML page of `book`, diagrams inline.
pub fn html(book: &Book, diagrams: &Diagrams) -> Result<String, minijinja::Error> {
    let text = render_markdown(book, diagrams, Target::Inline)?;
    let mut options = pulldown_cmark::Options::empty();
    options.insert(pulldown_cmark::Options::ENABLE_TABLES);
    let parser = pulldown_cmark::Parser::new_ext(&text, options);
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, with_heading_ids(parser).into_iter());
    let contents: Vec<(String, String)> = book.chapters.iter().map(|c| (slug(&c.title), c.title.clone())).collect();
    let mut env = Environment::new();
    env.add_template("page", HTML)?;
    env.get_template("page")?.render(context! { title => book.name.clone(), body => body, contents => contents })
}

fn render_markdown(book: &Book, diagrams: &Diagrams, target: Target) -> Result<String, minijinja::Error> {
    let mut env = Environment::new();
    env.set_syntax(SyntaxConfig::builder().trim_blocks(true).build()?);
    env.add_template("rulebook", MARKDOWN)?;
    let drawn = diagrams.clone();
    env.add_function("diagram", move |name: String, caption: String| -> String {
        match (drawn.get(&name), target) {
            (None, _) => String::new(),
            (Some(_), Target::Files) => format!("![{caption}]({})", diagram_file(&name)),
            (Some(svg), Target::Inline) => format!("<figure>{}<figcaption>{caption}</figcaption></figure>\n", svg.trim()),
        }
    });
    let chapters: Vec<ChapterView> = book
        .chapters
        .iter()
        .map(|c| ChapterView {
            title: &c.title,
            sections: c
                .sections
                .iter()
                .map(|s| SectionView {
                    title: &s.title,
                    source: &s.source,
                    docs: &s.docs,
                    blocks: s.blocks.iter().map(block).collect(),
                    diagram: s.diagram.clone().filter(|d| diagrams.contains_key(d)),
                })
                .collect(),
        })
        .collect();
    let text = env.get_template("rulebook")?.render(context! { book => Value::from(Serde(book)), chapters => Value::from(Serde(&chapters)) })?;
    Ok(tidy(&text))
}

/// One block as Markdown.
fn block(b: &Block) -> String {
    match b {
        Block::Paragraph(text) => text.clone(),
        Block::List(items) => items.iter().map(|i| format!("- {i}")).collect::<Vec<_>>().join("\n"),
        Block::Table { head, rows } => {
            let cell = |c: &String| c.replace('|', "\\|").replace('\n', " ");
            let mut out = format!("| {} |\n|{}|", head.iter().map(cell).collect::<Vec<_>>().join(" | "), vec!["---"; head.len()].join("|"));
            for r in rows {
                out.push_str(&format!("\n| {} |", r.iter().map(cell).collect::<Vec<_>>().join(" | ")));
            }
            out
        }
        Block::Quote(text) => format!("> “{}”", text.replace('\n', " ")),
    }
}

/// Collapses runs of blank lines, and ends with one newline.
fn tidy(text: &str) -> String {
    let mut out = String::new();
    let mut blank = 0;
    for line in text.lines() {
        if line.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.trim().to_string() + "\n"
}

/// The events of `parser` with an `id` on every heading: the slug of its
/// text (the first of equal slugs as is, the next with `-2`, `-3` …), so
/// the page's contents can link them.
fn with_heading_ids<'a>(parser: pulldown_cmark::Parser<'a>) -> Vec<pulldown_cmark::Event<'a>> {
    use pulldown_cmark::{Event, Tag, TagEnd};
    let mut out = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<(usize, String)> = None;
    for event in parser {
        match &event {
            Event::Start(Tag::Heading { .. }) => {
                heading = Some((out.len(), String::new()));
                out.push(event);
            }
            Event::Text(t) | Event::Code(t) if heading.is_some() => {
                if let Some((_, text)) = &mut heading {
                    text.push_str(t);
                }
                out.push(event);
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((at, text)) = heading.take() {
                    let base = slug(&text);
                    let n = seen.entry(base.clone()).or_insert(0);
                    *n += 1;
                    let id = if *n == 1 { base } else { format!("{base}-{n}") };
                    if let Event::Start(Tag::Heading { id: slot, .. }) = &mut out[at] {
                        *slot = Some(id.into());
                    }
                }
                out.push(event);
            }
            _ => out.push(event),
        }
    }
    out
}

/// A heading's anchor: lower-case letters and digits, words joined by `-`.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}
