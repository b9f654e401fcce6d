//! Between the protocol's coordinates and ours: LSP positions are lines and
//! UTF-16 code units, spans are byte offsets; documents are `file:` URIs,
//! the database's inputs are paths. Also the identifier tokens of a rules
//! file (outside strings and comments), which navigation works on.

use lsp_types::{Position, Range, Uri};
use rulebook_grammar::ast::Span;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The byte offset at which each line of a text starts.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The protocol position of byte `offset` of `text` (clamped to the text,
    /// and back to a character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.starts[line];
        let character = text[start..offset].encode_utf16().count();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of protocol position `pos` in `text` (a position past
    /// the end of its line is the line's end; past the last line, the text's end).
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else { return text.len() };
        let end = self.starts.get(pos.line as usize + 1).map_or(text.len(), |&e| e);
        let line = &text[start..end];
        let mut units = 0u32;
        for (i, ch) in line.char_indices() {
            if units >= pos.character || ch == '\n' {
                return start + i;
            }
            units += ch.len_utf16() as u32;
        }
        end
    }

    /// The protocol range of `span` in `text`.
    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(self.position(text, span.start), self.position(text, span.end.max(span.start)))
    }
}

/// `path` made absolute against the current directory (the form URIs need;
/// diagnostics name files by the path they were reached by).
pub fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf())
    }
}

/// The path of a `file:` URI (percent-decoded); `None` for other schemes.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file:///path` (empty authority) or `file://localhost/path`.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(b) = hex {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// The `file:` URI of an absolute `path` (characters outside the unreserved
/// set and `/` percent-encoded).
pub fn uri_of(path: &Path) -> Option<Uri> {
    let text = path.to_str()?;
    let mut s = String::from("file://");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).ok()
}

/// An identifier of a rules file: a word outside strings and comments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The word.
    pub text: &'a str,
    /// Where it stands.
    pub span: Span,
}

/// The identifiers of `source` (words that start with a letter or `_`),
/// outside strings (`"…"`, one line, `\"` escapes) and comments (`#` to
/// the end of the line).
pub fn identifiers(source: &str) -> Vec<Token<'_>> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if b == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if b.is_ascii_alphabetic() || b == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'-') {
                i += 1;
            }
            // A word may not end in `-` (`en-passant` is one word, `a -b` two).
            let mut end = i;
            while end > start + 1 && bytes[end - 1] == b'-' {
                end -= 1;
            }
            out.push(Token { text: &source[start..end], span: Span::new(start, end) });
        } else if b.is_ascii_digit() {
            // `1..6`, `e4`: digits and what follows them are not names.
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The identifier of `source` at byte `offset` (touching it from either side).
pub fn identifier_at(source: &str, offset: usize) -> Option<Token<'_>> {
    identifiers(source).into_iter().find(|t| t.span.start <= offset && offset <= t.span.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\n\u{e9}x\u{1F600}y\n";
        let idx = LineIndex::new(text);
        // `y` is after é (1 unit, 2 bytes), x, and 😀 (2 units, 4 bytes).
        let y = text.find('y').expect("y");
        assert_eq!(idx.position(text, y), Position::new(1, 4));
        assert_eq!(idx.offset(text, Position::new(1, 4)), y);
        assert_eq!(idx.offset(text, Position::new(0, 99)), 2);
        assert_eq!(idx.offset(text, Position::new(9, 0)), text.len());
    }

    #[test]
    fn uris_round_trip() {
        let path = Path::new("/tmp/my rules/chess.rules");
        let uri = uri_of(path).expect("uri");
        assert_eq!(uri.as_str(), "file:///tmp/my%20rules/chess.rules");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
    }

    #[test]
    fn identifiers_skip_strings_comments_and_numbers() {
        let src = "piece Pawn P { # a Pawn\n  quiet W forward from rank 2 sets en-passant }\nsetup \"Pawn\"";
        let words: Vec<&str> = identifiers(src).iter().map(|t| t.text).collect();
        assert_eq!(words, ["piece", "Pawn", "P", "quiet", "W", "forward", "from", "rank", "sets", "en-passant", "setup"]);
    }
}
