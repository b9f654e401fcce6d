//! Perft suites in the usual EPD format shared by python-chess, shakmaty and
//! Stockfish's tests:
//!
//! ```text
//! id kiwipete
//! epd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -
//! perft 1 48
//! perft 2 2039
//! ```
//!
//! Blank lines and `#` comments are ignored. Spans point into the suite's text.

use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;

/// One position of a suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The `id` given (or `#N` by position).
    pub id: String,
    /// The FEN (counters optional).
    pub fen: String,
    /// Byte offset of the FEN in the suite text (for FEN diagnostics).
    pub fen_offset: usize,
    /// `(depth, expected nodes)` in the order given.
    pub counts: Vec<(u32, u64)>,
}

/// Parses a suite; `name` labels diagnostics.
pub fn parse_suite(name: &str, text: &str) -> Result<Vec<SuiteEntry>, Diagnostic> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut pending_id: Option<String> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim_start();
        let indent = content.len() - trimmed.len();
        let at = start + indent;
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (keyword, rest) = trimmed.split_once(char::is_whitespace).unwrap_or((trimmed, ""));
        let rest_at = at + keyword.len() + (trimmed.len() - keyword.len() - rest.trim_start().len()).min(trimmed.len() - keyword.len());
        let rest = rest.trim();
        match keyword {
            "id" => pending_id = Some(rest.to_string()),
            "epd" | "fen" => {
                if rest.is_empty() {
                    return Err(Diagnostic::error("E0501", name, Span::new(at, at + trimmed.len()), "`epd` without a position", "expected a FEN after `epd`")
                        .with_help("write `epd <FEN>`"));
                }
                let id = pending_id.take().unwrap_or_else(|| format!("#{}", entries.len() + 1));
                entries.push(SuiteEntry { id, fen: rest.to_string(), fen_offset: rest_at, counts: Vec::new() });
            }
            "perft" => {
                let span = Span::new(at, at + trimmed.len());
                let Some(entry) = entries.last_mut() else {
                    return Err(Diagnostic::error("E0502", name, span, "`perft` before any position", "no `epd` line above")
                        .with_help("a suite lists `epd <FEN>` and then its `perft <depth> <nodes>` lines"));
                };
                let mut parts = rest.split_whitespace();
                let depth = parts.next().and_then(|d| d.parse::<u32>().ok());
                let nodes = parts.next().and_then(|n| n.parse::<u64>().ok());
                match (depth, nodes, parts.next()) {
                    (Some(d), Some(n), None) => entry.counts.push((d, n)),
                    _ => {
                        return Err(Diagnostic::error("E0503", name, span, "malformed `perft` line", "expected `perft <depth> <nodes>`")
                            .with_help("both numbers are non-negative integers, e.g. `perft 3 8902`"))
                    }
                }
            }
            other => {
                return Err(Diagnostic::error("E0504", name, Span::new(at, at + other.len()), format!("unknown suite keyword `{other}`"), "not `id`, `epd` or `perft`")
                    .with_help("suite lines start with `id`, `epd` or `perft`; comments start with `#`"))
            }
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ids_fens_and_counts() {
        let text = "# c\nid a\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\n\nepd x y\nperft 2 9\n";
        let s = parse_suite("t", text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].id, "a");
        assert_eq!(s[0].counts, vec![(1, 3)]);
        assert_eq!(&text[s[0].fen_offset..s[0].fen_offset + s[0].fen.len()], s[0].fen);
        assert_eq!(s[1].id, "#2");
    }

    #[test]
    fn reports_malformed_lines_with_spans() {
        let text = "epd 8/8 w\nperft x 3\n";
        let d = parse_suite("t", text).unwrap_err();
        assert_eq!(d.code, "E0503");
        assert_eq!(&text[d.span.start..d.span.end], "perft x 3");
        let d = parse_suite("t", "perft 1 2\n").unwrap_err();
        assert_eq!(d.code, "E0502");
    }
}
