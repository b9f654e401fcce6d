//! Perft suites: the line format used across the ecosystem (python-chess,
//! shakmaty, Stockfish tests)
//!
//! ```text
//! # comment
//! id startpos
//! epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -
//! perft 1 20
//! perft 2 400
//! ```
//!
//! and the one-line form `FEN ;D1 20 ;D2 400`. Every problem is a
//! [`Diagnostic`] with a byte span into the suite file, so the report shows
//! the offending line; all of them are collected, not just the first.
//!

/// The deepest perft a suite may ask for.
pub const MAX_DEPTH: u32 = 40;

use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;

/// One position of a suite and the counts expected below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The `id` given, or `#N` for the N-th position of the suite.
    pub id: String,
    /// The FEN as written.
    pub fen: String,
    /// Byte offset of the FEN in the suite file.
    pub fen_offset: usize,
    /// The expected counts.
    pub checks: Vec<Check>,
}

/// One `perft DEPTH NODES` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// The depth.
    pub depth: u32,
    /// The expected number of leaves.
    pub expected: u64,
    /// Where it was written.
    pub span: Span,
}

/// What the suite lines say, a word at a time.
struct Line<'a> {
    text: &'a str,
    offset: usize,
}

impl<'a> Line<'a> {
    /// The words of the line with their offsets in the file.
    fn words(&self) -> Vec<(usize, &'a str)> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in self.text.char_indices() {
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    out.push((self.offset + s, &self.text[s..i]));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push((self.offset + s, &self.text[s..]));
        }
        out
    }

    /// The span of the whole line (at least one byte, for the report).
    fn span(&self) -> Span {
        Span::new(self.offset, self.offset + self.text.len().max(1))
    }
}

/// The help of an unknown line: the whole format.
const FORMAT_HELP: &str =
    "suite lines are `id NAME`, `epd FEN` and `perft DEPTH NODES`, or `FEN ;D1 20 ;D2 400`; `#` starts a comment";
/// The help of a bad `perft` line.
const PERFT_HELP: &str = "write `perft DEPTH NODES`, e.g. `perft 3 8902`";
/// The help of a bad `;D` entry.
const SEMICOLON_HELP: &str = "write the counts after the FEN as `;D1 20 ;D2 400`";

// Codes, shared with `rulebook_interpreter::text::epd` where the meaning is the same.
/// `epd` without a FEN.
const NO_FEN: &str = "E0501";
/// `perft` before any position.
const PERFT_FIRST: &str = "E0502";
/// A malformed count: `perft` line or `;D` entry.
const BAD_COUNT: &str = "E0503";
/// A line that starts with an unknown word.
const UNKNOWN_LINE: &str = "E0504";
/// `id` without a name.
const NO_ID: &str = "E0505";
/// A position without counts (a warning).
const NO_COUNTS: &str = "E0506";
/// A suite without positions.
const EMPTY_SUITE: &str = "E0507";

/// An error about a malformed line.
fn malformed(
    code: &'static str,
    file: &str,
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
    help: &str,
) -> Diagnostic {
    Diagnostic::error(code, file, span, message, label).with_help(help)
}

/// Cuts a `#` comment (at the start of a line or after a space) off `text`.
fn strip_comment(text: &str) -> &str {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()) {
            return &text[..i];
        }
    }
    text
}

/// Parses a depth and a count, checking both.
fn depth_and_count(
    file: &str,
    depth: (usize, &str),
    count: (usize, &str),
    help: &str,
) -> Result<(u32, u64), Diagnostic> {
    let word_span = |(at, w): (usize, &str)| Span::new(at, at + w.len());
    let d: u32 = depth.1.parse().map_err(|_| {
        malformed(
            BAD_COUNT,
            file,
            word_span(depth),
            format!("`{}` is not a depth", depth.1),
            "expected a whole number of plies",
            help,
        )
    })?;
    if d > MAX_DEPTH {
        return Err(malformed(
            BAD_COUNT,
            file,
            word_span(depth),
            format!("depth {d} is too deep"),
            format!("at most {MAX_DEPTH}"),
            help,
        ));
    }
    let n: u64 = count.1.parse().map_err(|_| {
        malformed(
            BAD_COUNT,
            file,
            word_span(count),
            format!("`{}` is not a node count", count.1),
            "expected a whole number",
            help,
        )
    })?;
    Ok((d, n))
}

/// Parses the suite `text` of the file `name`. Returns the positions read and
/// the problems found (errors for malformed lines, warnings for positions
/// without counts); the caller should not run a suite with errors.
pub fn parse(name: &str, text: &str) -> (Vec<Case>, Vec<Diagnostic>) {
    let mut cases: Vec<Case> = Vec::new();
    let mut diags = Vec::new();
    let mut pending_id: Option<String> = None;
    // Where the current position's `epd` line is, to warn if no `perft` line
    // follows it (well-formed or not: a malformed one is reported already).
    let mut current_line: Option<Span> = None;
    let mut offset = 0;
    let finish = |current_line: Option<Span>, diags: &mut Vec<Diagnostic>| {
        if let Some(span) = current_line {
            diags.push(
                Diagnostic::error(
                    NO_COUNTS,
                    name,
                    span,
                    "this position has no counts",
                    "no `perft` line follows",
                )
                .warning()
                .with_help("add lines `perft DEPTH NODES` after it"),
            );
        }
    };
    for raw in text.split('\n') {
        let line_offset = offset;
        offset += raw.len() + 1;
        let content = strip_comment(raw.strip_suffix('\r').unwrap_or(raw));
        let line = Line {
            text: content,
            offset: line_offset,
        };
        let words = line.words();
        let Some(&(kw_at, keyword)) = words.first() else {
            continue;
        };
        let kw_span = Span::new(kw_at, kw_at + keyword.len());
        match keyword {
            "id" => {
                let rest = content[kw_at - line_offset + 2..].trim();
                if rest.is_empty() {
                    diags.push(malformed(
                        NO_ID,
                        name,
                        kw_span,
                        "`id` without a name",
                        "expected a name after `id`",
                        "write `id NAME`, e.g. `id kiwipete`",
                    ));
                    continue;
                }
                pending_id = Some(rest.trim_matches('"').to_string());
            }
            "epd" | "fen" => {
                let after = &content[kw_at - line_offset + keyword.len()..];
                let fen = after.trim();
                if fen.is_empty() {
                    diags.push(malformed(
                        NO_FEN,
                        name,
                        kw_span,
                        "`epd` without a position",
                        "expected a FEN after `epd`",
                        "write `epd FEN`, then the counts as `perft DEPTH NODES` lines",
                    ));
                    continue;
                }
                finish(current_line, &mut diags);
                let fen_offset = kw_at + keyword.len() + (after.len() - after.trim_start().len());
                let id = pending_id
                    .take()
                    .unwrap_or_else(|| format!("#{}", cases.len() + 1));
                cases.push(Case {
                    id,
                    fen: fen.to_string(),
                    fen_offset,
                    checks: Vec::new(),
                });
                current_line = Some(line.span());
            }
            "perft" => {
                current_line = None;
                let Some(case) = cases.last_mut() else {
                    diags.push(malformed(
                        PERFT_FIRST,
                        name,
                        line.span(),
                        "`perft` before any position",
                        "no `epd` line above",
                        "put the position first: `epd FEN`, then its `perft DEPTH NODES` lines",
                    ));
                    continue;
                };
                match words.as_slice() {
                    [_, d, n] => match depth_and_count(name, *d, *n, PERFT_HELP) {
                        Ok((depth, expected)) => {
                            let span = Span::new(kw_at, n.0 + n.1.len());
                            case.checks.push(Check {
                                depth,
                                expected,
                                span,
                            });
                        }
                        Err(e) => diags.push(e),
                    },
                    [_] | [_, _] => {
                        let end = line_offset + content.trim_end().len();
                        diags.push(malformed(
                            BAD_COUNT,
                            name,
                            Span::new(end, end + 1),
                            "`perft` needs a depth and a node count",
                            "expected `perft DEPTH NODES`",
                            PERFT_HELP,
                        ));
                    }
                    [_, _, _, extra, ..] => {
                        let end = line_offset + content.trim_end().len();
                        diags.push(malformed(
                            BAD_COUNT,
                            name,
                            Span::new(extra.0, end),
                            "unexpected text after the node count",
                            "nothing may follow",
                            PERFT_HELP,
                        ));
                    }
                    [] => {}
                }
            }
            _ if content.contains(';') => {
                // `FEN ;D1 20 ;D2 400`
                finish(current_line, &mut diags);
                current_line = None;
                let mut parts = content.split(';');
                let fen_part = parts.next().unwrap_or("");
                let fen = fen_part.trim();
                let fen_offset = line_offset + (fen_part.len() - fen_part.trim_start().len());
                let id = pending_id
                    .take()
                    .unwrap_or_else(|| format!("#{}", cases.len() + 1));
                let mut case = Case {
                    id,
                    fen: fen.to_string(),
                    fen_offset,
                    checks: Vec::new(),
                };
                let mut at = line_offset + fen_part.len() + 1;
                for part in parts {
                    let sub = Line {
                        text: part,
                        offset: at,
                    };
                    at += part.len() + 1;
                    let words = sub.words();
                    match words.as_slice() {
                        [] => {}
                        [(d_at, d), n]
                            if (d.starts_with('D') || d.starts_with('d'))
                                && d[1..].starts_with(|c: char| c.is_ascii_digit()) =>
                        {
                            match depth_and_count(name, (d_at + 1, &d[1..]), *n, SEMICOLON_HELP) {
                                Ok((depth, expected)) => {
                                    let span = Span::new(*d_at, n.0 + n.1.len());
                                    case.checks.push(Check {
                                        depth,
                                        expected,
                                        span,
                                    });
                                }
                                Err(e) => diags.push(e),
                            }
                        }
                        _ => {
                            let first = words.first().map_or(sub.offset, |w| w.0);
                            let end = sub.offset + part.trim_end().len();
                            diags.push(malformed(
                                BAD_COUNT,
                                name,
                                Span::new(first, end),
                                "expected a count like `D3 8902`",
                                "not `D<depth> <nodes>`",
                                SEMICOLON_HELP,
                            ));
                        }
                    }
                }
                if case.checks.is_empty() {
                    diags.push(
                        Diagnostic::error(
                            NO_COUNTS,
                            name,
                            line.span(),
                            "this position has no counts",
                            "no `;D<depth> <nodes>` here",
                        )
                        .warning(),
                    );
                }
                cases.push(case);
            }
            other => {
                diags.push(malformed(
                    UNKNOWN_LINE,
                    name,
                    kw_span,
                    format!("unknown line `{other}`"),
                    "expected `id`, `epd` or `perft`",
                    FORMAT_HELP,
                ));
            }
        }
    }
    finish(current_line, &mut diags);
    if cases.is_empty() && diags.is_empty() {
        diags.push(
            Diagnostic::error(
                EMPTY_SUITE,
                name,
                Span::new(0, text.len().min(1)),
                "the suite has no positions",
                "nothing to run",
            )
            .with_help("add a position: `epd FEN` followed by lines `perft DEPTH NODES`"),
        );
    }
    (cases, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_line_format() {
        let text = "# suite\nid startpos\nepd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nperft 1 20 # one\r\nperft 2 400\n\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\n";
        let (cases, diags) = parse("s.epd", text);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].id, "startpos");
        assert_eq!(
            &text[cases[0].fen_offset..cases[0].fen_offset + cases[0].fen.len()],
            cases[0].fen
        );
        assert_eq!(
            cases[0]
                .checks
                .iter()
                .map(|c| (c.depth, c.expected))
                .collect::<Vec<_>>(),
            [(1, 20), (2, 400)]
        );
        assert_eq!(cases[1].id, "#2");
        assert_eq!(
            &text[cases[0].checks[0].span.start..cases[0].checks[0].span.end],
            "perft 1 20"
        );
    }

    #[test]
    fn reads_the_semicolon_format() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n";
        let (cases, diags) = parse("s.epd", text);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            cases[0].fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(cases[0].fen_offset, 0);
        assert_eq!(
            cases[0]
                .checks
                .iter()
                .map(|c| (c.depth, c.expected))
                .collect::<Vec<_>>(),
            [(1, 20), (2, 400)]
        );
        assert_eq!(
            &text[cases[0].checks[1].span.start..cases[0].checks[1].span.end],
            "D2 400"
        );
    }

    #[test]
    fn malformed_lines_point_at_themselves() {
        let text =
            "perft 1 20\nepd 8/8 w\nperft x 20\nperft 1\nperf 2 400\nperft 1 2 3\nid\nperft 99 1\n";
        let (_, diags) = parse("s.epd", text);
        let at: Vec<&str> = diags
            .iter()
            .map(|d| &text[d.span.start..d.span.end.min(text.len())])
            .collect();
        assert_eq!(diags.len(), 7, "{diags:?}");
        let codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            ["E0502", "E0503", "E0503", "E0504", "E0503", "E0505", "E0503"]
        );
        assert_eq!(at, ["perft 1 20", "x", "\n", "perf", "3", "id", "99"]);
    }

    #[test]
    fn positions_without_counts_are_warnings() {
        let (cases, diags) = parse(
            "s.epd",
            "epd 8/8/8/8/8/8/8/K6k w - -\nepd 8/8/8/8/8/8/8/K6k b - -\nperft 1 3\n",
        );
        assert_eq!(cases.len(), 2);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].severity, rulebook_grammar::Severity::Warning);
        let (_, diags) = parse("s.epd", "# nothing\n");
        assert_eq!(diags[0].code, "E0507");
    }
}
