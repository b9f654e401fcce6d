//! Doc comments: `##` lines directly above an item are that item's
//! documentation (LANGUAGE §2).
//!
//! The grammar skips them like any `#` comment; this module reads them from
//! the source text after the parse and attaches each block of consecutive
//! `##` lines to the item that starts on the next line. A block that is not
//! directly above an item (a blank line or an ordinary comment between, the
//! inside of a block, the end of the file) is `E0005`. A line starting with
//! `###` is an ordinary comment (a rule drawn with `#`s is not documentation).

use crate::ast::{DocComment, Span};
use crate::diagnostic::Diagnostic;
use crate::errors;

/// A block of `##` lines being read.
struct Block {
    span: Span,
    lines: Vec<String>,
}

/// What stands after a block that documents nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detached {
    /// The file ends after it.
    EndOfFile,
    /// A blank line follows it.
    BlankLine,
    /// The next line does not start an item (it is inside a block, or an ordinary comment).
    NotAnItem,
}

/// The text of a doc line (`## text` → `text`), or `None` for any other line.
fn doc_text(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("##")?;
    if rest.starts_with('#') {
        return None;
    }
    Some(rest.strip_prefix(' ').unwrap_or(rest))
}

/// The doc comments of `source`, each attached to the item that starts right
/// below it; `starts` holds each item's first byte, in order.
pub(crate) fn attach(file: &str, source: &str, starts: &[usize]) -> Result<Vec<DocComment>, Diagnostic> {
    let mut docs = Vec::new();
    let mut block: Option<Block> = None;
    let mut offset = 0;
    for raw in source.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start_matches([' ', '\t', '\u{FEFF}']);
        let first = offset + (line.len() - trimmed.len());
        if let Some(text) = doc_text(trimmed) {
            let end = offset + line.len();
            match &mut block {
                Some(b) => {
                    b.span.end = end;
                    b.lines.push(text.to_string());
                }
                None => block = Some(Block { span: Span::new(first, end), lines: vec![text.to_string()] }),
            }
        } else if let Some(b) = block.take() {
            match starts.binary_search(&first) {
                Ok(item) if !trimmed.is_empty() => docs.push(DocComment { item, text: b.lines.join("\n"), span: b.span }),
                _ => {
                    let why = if trimmed.is_empty() { Detached::BlankLine } else { Detached::NotAnItem };
                    return Err(errors::detached_doc(file, b.span, why));
                }
            }
        }
        offset += raw.len();
    }
    match block {
        Some(b) => Err(errors::detached_doc(file, b.span, Detached::EndOfFile)),
        None => Ok(docs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(src: &str, starts: &[usize]) -> Result<Vec<(usize, String)>, Detached> {
        attach("t.rules", src, starts).map(|d| d.into_iter().map(|d| (d.item, d.text)).collect()).map_err(|d| {
            assert_eq!(d.code, "E0005");
            if d.label.contains("end of the file") {
                Detached::EndOfFile
            } else if d.label.contains("blank line") {
                Detached::BlankLine
            } else {
                Detached::NotAnItem
            }
        })
    }

    #[test]
    fn a_block_documents_the_item_below_it() {
        let src = "## The board.\n##\n##  Two axes.\nboard { }\n# plain\nsetup \"x\"\n";
        assert_eq!(docs(src, &[31, 49]), Ok(vec![(0, "The board.\n\n Two axes.".to_string())]));
    }

    #[test]
    fn indented_items_and_crlf_lines_are_documented() {
        let src = "## a\r\n  board { }\r\n";
        assert_eq!(docs(src, &[8]), Ok(vec![(0, "a".to_string())]));
    }

    #[test]
    fn triple_hashes_are_ordinary_comments() {
        assert_eq!(docs("### rule\nboard { }\n", &[9]), Ok(vec![]));
        assert_eq!(docs("x ## not at the start\n", &[0]), Ok(vec![]));
    }

    #[test]
    fn detached_blocks_are_errors() {
        assert_eq!(docs("board { }\n## trailing\n", &[0]), Err(Detached::EndOfFile));
        assert_eq!(docs("## gap\n\nboard { }\n", &[8]), Err(Detached::BlankLine));
        assert_eq!(docs("## x\n# plain\nboard { }\n", &[13]), Err(Detached::NotAnItem));
        assert_eq!(docs("piece K K {\n  ## inside\n  royal\n}\n", &[0]), Err(Detached::NotAnItem));
    }
}
