//! The formatter behind `rulebook fmt`: the canonical layout of a `.rules` file.
//!
//! It works line by line and never joins or splits lines: it only rewrites the
//! whitespace around the tokens of each line. A token here is a run of
//! characters other than space and tab outside strings and comments; a string
//! (`"…"`, one line, with the escapes `\"` and `\\`) is part of its token; a
//! comment runs from `#` outside a string to the end of the line. Two tokens
//! written without space between them (`rank:`, `(1,1,0)`, `a..h`) stay joined:
//! the formatter never adds whitespace where there was none, never removes all
//! of it where there was some, and never changes a byte inside a string or a
//! comment, so the grammar reads the same tokens before and after (whitespace
//! and line breaks mean nothing to it, LANGUAGE §2).
//!
//! # The rules
//!
//! When the file parses (the usual case):
//!
//! 1. **Indentation**: two spaces per open `{` (braces outside strings and
//!    comments); a line whose code starts with `}` is dedented by one level per
//!    leading `}`. A comment-only line (`#` or `##`) is indented like a statement
//!    of the block it stands in.
//! 2. **Continuation lines**: a line that does not begin a statement (an item at
//!    the top level, a statement of a block, or a `then` clause of a `rule`) —
//!    the second and later lines of a statement written over several lines —
//!    is indented two more spaces than its block (`then owner must relocate … ,`
//!    followed by `    placed piece …`, whatever the nesting of the continued
//!    expression). The parse tree says where statements begin.
//! 3. **Spaces between tokens**: a run of spaces and tabs between two tokens
//!    becomes one space, or two where the author wrote two or more. Two spaces
//!    are the house style's separator between statements written on one line
//!    (`{ royal  move W  move F }`, `{ files a..h  ranks 1..8 }`) and its mark
//!    of alignment (`weight coin  roll d4`); the formatter keeps that choice
//!    but not the width of a wider gap, which it cannot tell from noise.
//! 4. **Keys**: consecutive lines of one indentation that begin a statement
//!    with a ruling field (`source`, `quote`, `reading`, `settles`) or a label
//!    ending in `:` (`short:`/`long:`, `white:`/`black:`, `checkmate:`) are a
//!    run, and the second token of each starts at one column: the run's
//!    longest key plus one space (`source  "…"`, `quote   "…"`, `reading "…"`;
//!    `long:  king`).
//! 5. **Trailing comments**: consecutive lines that each have code and a
//!    trailing comment are a run (a blank line, a comment-only line or a line
//!    without a trailing comment ends it). A comment keeps the distance from
//!    its code that the author gave it (at least one space), and the comments
//!    of a run are pushed right to one column: the furthest of them. So a run
//!    aligned by hand stays as it is, however far from its code, and a
//!    misaligned one is aligned.
//! 6. **Lines**: no trailing whitespace; at most one blank line in a row, none at
//!    the start or the end; lines end with `\n` (a `\r\n` becomes `\n`), and
//!    the file ends with exactly one. Tabs are whitespace like spaces.
//!
//! When the file does not parse, the statements are unknown (and so are
//! continuation lines), so only rule 6 applies and every line keeps its
//! indentation and inner spacing (a tab in the indentation becomes two spaces,
//! any other tab outside strings and comments one): a broken file is left as its author wrote it,
//! so that its diagnostics stay where they were, and formats fully once it
//! parses. [`format_source`] says which of the two happened.
//!
//! A file with a carriage return that does not end a line (`\r` without `\n`)
//! is refused with `E0007`: the grammar ends a comment there, an editor may not,
//! and no layout is safe for both readings.
//!
//! The result is idempotent (formatting it again changes nothing) and parses to
//! the same tree; `interpreter/tests/format.rs` checks both on every file in
//! `rules/` and `examples/`.
//!
//! ```
//! let messy = "piece King K {\n      royal    move W   # the king\n   move F\t\n}\n\n\n";
//! let tidy = rulebook_grammar::format::format(messy).unwrap();
//! assert_eq!(tidy, "piece King K {\n  royal  move W   # the king\n  move F\n}\n");
//! ```

use std::collections::HashSet;

use pest::iterators::Pair;
use pest::Parser;

use crate::ast::Span;
use crate::diagnostic::Diagnostic;
use crate::parser::{RulesParser, Rule};

/// The formatted text of a file, and how much of the layout could be made canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formatted {
    /// The formatted text.
    pub text: String,
    /// `None` when every rule applied; the parse error when the file does not
    /// parse and only the line rules (trailing whitespace, blank lines, the
    /// final newline) did.
    pub unparsed: Option<Diagnostic>,
}

/// Formats the text of a `.rules` file (the module documentation gives the rules).
///
/// A file that does not parse is formatted with the line rules only; use
/// [`format_source`] to learn whether that happened. The only error is `E0007`
/// (a carriage return that does not end a line).
pub fn format(source: &str) -> Result<String, Diagnostic> {
    format_source("<source>", source).map(|f| f.text)
}

/// Formats like [`format`], naming `file` in diagnostics and telling whether
/// the file parsed (see [`Formatted::unparsed`]).
pub fn format_source(file: &str, source: &str) -> Result<Formatted, Diagnostic> {
    if let Some(at) = lone_carriage_return(source) {
        return Err(Diagnostic::error(
            "E0007",
            file,
            Span::new(at, at + 1),
            "a carriage return that does not end a line",
            "`\\r` without `\\n` after it",
        )
        .with_help("the formatter refuses this file: end lines with `\\n` or `\\r\\n`"));
    }
    let lines = split_lines(source);
    match crate::parser::parse(file, source) {
        Ok(_) => {
            let starts = statement_starts(source);
            Ok(Formatted { text: layout(&lines, &starts), unparsed: None })
        }
        Err(diag) => Ok(Formatted { text: tidy_lines(&lines), unparsed: Some(diag) }),
    }
}

/// The offset of the first `\r` not followed by `\n`, if any.
fn lone_carriage_return(source: &str) -> Option<usize> {
    let bytes = source.as_bytes();
    (0..bytes.len()).find(|&i| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
}

/// One line of the source, cut into tokens.
#[derive(Debug)]
struct Line<'a> {
    /// The line as written, without its line ending.
    raw: &'a str,
    /// The tokens outside comments: byte offset in the source and text.
    tokens: Vec<(usize, &'a str)>,
    /// The comment, from its `#` to the end of the line (trailing whitespace removed).
    comment: Option<&'a str>,
    /// Where the comment starts in `raw`.
    comment_at: usize,
    /// The byte offset of the line in the source.
    base: usize,
}

impl Line<'_> {
    /// A line with nothing but whitespace.
    fn is_blank(&self) -> bool {
        self.tokens.is_empty() && self.comment.is_none()
    }
}

/// Whitespace between tokens: what the grammar skips on a line.
fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\u{FEFF}'
}

/// Splits the source into lines (at `\n`, dropping a `\r` before it) and each
/// line into tokens and its comment.
fn split_lines(source: &str) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for piece in source.split('\n') {
        let raw = piece.strip_suffix('\r').unwrap_or(piece);
        lines.push(tokenize(raw, offset));
        offset += piece.len() + 1;
    }
    lines
}

/// Cuts one line (starting at byte `base` of the source) into tokens and comment.
fn tokenize(raw: &str, base: usize) -> Line<'_> {
    let mut tokens = Vec::new();
    let mut comment = None;
    let mut comment_at = raw.len();
    let mut start: Option<usize> = None;
    let mut in_string = false;
    let mut chars = raw.char_indices();
    while let Some((i, c)) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '#' {
            if let Some(s) = start.take() {
                tokens.push((base + s, &raw[s..i]));
            }
            comment = Some(raw[i..].trim_end_matches(is_space));
            comment_at = i;
            break;
        }
        if is_space(c) {
            if let Some(s) = start.take() {
                tokens.push((base + s, &raw[s..i]));
            }
            continue;
        }
        if start.is_none() {
            start = Some(i);
        }
        if c == '"' {
            in_string = true;
        }
    }
    if let Some(s) = start {
        tokens.push((base + s, &raw[s..]));
    }
    Line { raw, tokens, comment, comment_at, base }
}

/// The byte offsets where statements begin: every item, every statement of a
/// block (the children of a rule between its `{` and `}`), and every `then`.
fn statement_starts(source: &str) -> HashSet<usize> {
    let mut starts = HashSet::new();
    if let Ok(pairs) = RulesParser::parse(Rule::file, source) {
        for pair in pairs {
            collect_starts(pair, &mut starts);
        }
    }
    starts
}

/// Adds the statement starts found in `pair` and below it.
fn collect_starts(pair: Pair<'_, Rule>, starts: &mut HashSet<usize>) {
    let rule = pair.as_rule();
    if rule == Rule::kw_then {
        starts.insert(pair.as_span().start());
    }
    let children: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
    let mut inside_block = false;
    for child in &children {
        match child.as_rule() {
            Rule::lbrace => inside_block = true,
            Rule::rbrace => inside_block = false,
            Rule::item if rule == Rule::file => {
                starts.insert(child.as_span().start());
            }
            Rule::EOI => {}
            _ if inside_block => {
                starts.insert(child.as_span().start());
            }
            _ => {}
        }
    }
    for child in children {
        collect_starts(child, starts);
    }
}

/// A line's code, before alignment: its indentation and the tokens with the
/// spaces to put before each (the first's is unused).
struct Laid<'a> {
    /// The indentation in spaces (rules 1 and 2).
    indent: usize,
    /// Each token with the number of spaces before it (rule 3; rule 4 widens the second's).
    tokens: Vec<(&'a str, usize)>,
    /// The comment, `#` included.
    comment: Option<&'a str>,
    /// The spaces written between the code and the comment.
    comment_gap: usize,
    /// Whether the line begins a statement (not a continuation, not `}`).
    key_candidate: bool,
}

impl Laid<'_> {
    /// The width of the code (indentation included) in characters.
    fn width(&self) -> usize {
        self.indent
            + self.tokens.iter().enumerate().map(|(i, (t, gap))| t.chars().count() + if i == 0 { 0 } else { *gap }).sum::<usize>()
    }
}

/// The ruling fields aligned like labels.
const KEY_WORDS: &[&str] = &["source", "quote", "reading", "settles"];

/// Whether a token is a key (rule 4): a ruling field or a label ending in `:`.
fn is_key(token: &str) -> bool {
    KEY_WORDS.contains(&token)
        || (token.len() > 1
            && token.ends_with(':')
            && token[..token.len() - 1].chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
}

/// The full layout (rules 1 to 6) of a file that parses.
fn layout(lines: &[Line<'_>], starts: &HashSet<usize>) -> String {
    // Rules 1 to 3: indentation and spaces between tokens.
    let mut depth: usize = 0;
    let mut laid: Vec<Option<Laid<'_>>> = Vec::with_capacity(lines.len());
    for line in lines {
        if line.is_blank() {
            laid.push(None);
            continue;
        }
        let mut closes = 0;
        'outer: for (_, token) in &line.tokens {
            for c in token.chars() {
                if c == '}' {
                    closes += 1;
                } else {
                    break 'outer;
                }
            }
        }
        let first = line.tokens.first();
        let begins_statement = first.is_some_and(|(offset, _)| starts.contains(offset));
        let continuation = first.is_some() && closes == 0 && !begins_statement;
        let indent = 2 * depth.saturating_sub(closes) + if continuation { 2 } else { 0 };
        let mut tokens = Vec::with_capacity(line.tokens.len());
        for (i, (offset, token)) in line.tokens.iter().enumerate() {
            let gap = match i.checked_sub(1).map(|j| line.tokens[j]) {
                Some((before, text)) => line.raw[before - line.base + text.len()..offset - line.base].chars().count().min(2),
                None => 0,
            };
            tokens.push((*token, gap));
        }
        for (_, token) in &line.tokens {
            let (opens, shuts) = braces(token);
            depth = (depth + opens).saturating_sub(shuts);
        }
        let comment_gap = match line.tokens.last() {
            Some((offset, token)) if line.comment.is_some() => {
                line.raw[offset - line.base + token.len()..line.comment_at].chars().count()
            }
            _ => 0,
        };
        laid.push(Some(Laid { indent, tokens, comment: line.comment, comment_gap, key_candidate: begins_statement }));
    }

    // Rule 4: keys.
    let mut i = 0;
    while i < laid.len() {
        let run_end = run(&laid, i, |a, b| {
            let keyed = |l: &Laid<'_>| l.key_candidate && l.tokens.len() > 1 && is_key(l.tokens[0].0);
            keyed(a) && b.is_none_or(|b| keyed(b) && b.indent == a.indent)
        });
        if run_end > i {
            let width = laid[i..run_end].iter().flatten().map(|l| l.tokens[0].0.chars().count()).max().unwrap_or(0);
            for l in laid[i..run_end].iter_mut().flatten() {
                l.tokens[1].1 = width + 1 - l.tokens[0].0.chars().count();
            }
            i = run_end;
        } else {
            i += 1;
        }
    }

    // Rule 5: trailing comments, then the text (rule 6).
    let mut columns = vec![0; laid.len()];
    let mut i = 0;
    while i < laid.len() {
        let trailing = |l: &Laid<'_>| !l.tokens.is_empty() && l.comment.is_some();
        let run_end = run(&laid, i, |a, b| trailing(a) && b.is_none_or(trailing));
        if run_end > i {
            let column = laid[i..run_end].iter().flatten().map(|l| l.width() + l.comment_gap.max(1)).max().unwrap_or(0);
            columns[i..run_end].iter_mut().for_each(|c| *c = column);
            i = run_end;
        } else {
            i += 1;
        }
    }
    let mut out: Vec<String> = Vec::with_capacity(laid.len());
    for (l, column) in laid.iter().zip(columns) {
        let Some(l) = l else {
            out.push(String::new());
            continue;
        };
        let mut text = " ".repeat(l.indent);
        for (i, (token, gap)) in l.tokens.iter().enumerate() {
            if i > 0 {
                text.extend(std::iter::repeat_n(' ', *gap));
            }
            text.push_str(token);
        }
        if let Some(comment) = l.comment {
            if !l.tokens.is_empty() {
                let width = text.chars().count();
                text.extend(std::iter::repeat_n(' ', column.saturating_sub(width).max(1)));
            }
            text.push_str(comment);
        }
        out.push(text);
    }
    join(out)
}

/// The end of the run that starts at `i`: the lines from `i` while `link(line,
/// next line)` holds, where the next line is `None` past the end or at a blank
/// line (which ends every run). `i` itself when line `i` cannot start one.
fn run<'a>(laid: &[Option<Laid<'a>>], i: usize, link: impl Fn(&Laid<'a>, Option<&Laid<'a>>) -> bool) -> usize {
    let Some(Some(first)) = laid.get(i) else { return i };
    if !link(first, None) {
        return i;
    }
    let mut end = i + 1;
    while let Some(Some(next)) = laid.get(end) {
        let Some(Some(prev)) = laid.get(end - 1) else { break };
        if !link(prev, Some(next)) {
            break;
        }
        end += 1;
    }
    end
}

/// The `{` and `}` of a token, outside its strings.
fn braces(token: &str) -> (usize, usize) {
    let (mut opens, mut shuts, mut in_string, mut escaped) = (0, 0, false, false);
    for c in token.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => opens += 1,
            '}' => shuts += 1,
            _ => {}
        }
    }
    (opens, shuts)
}

/// The line rules only (rule 6), for a file that does not parse: each line as
/// written without trailing whitespace, a tab in its indentation two spaces
/// and a tab between tokens one space.
fn tidy_lines(lines: &[Line<'_>]) -> String {
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if line.is_blank() {
            out.push(String::new());
            continue;
        }
        let base = line.base;
        let mut text = String::with_capacity(line.raw.len());
        let mut at = 0;
        for (offset, token) in &line.tokens {
            let gap = &line.raw[at..offset - base];
            for c in gap.chars() {
                match c {
                    '\t' if at == 0 => text.push_str("  "),
                    '\t' => text.push(' '),
                    c => text.push(c),
                }
            }
            text.push_str(token);
            at = offset - base + token.len();
        }
        if let Some(comment) = line.comment {
            let gap = &line.raw[at..line.comment_at];
            text.extend(gap.chars().map(|c| if c == '\t' { ' ' } else { c }));
            text.push_str(comment);
        }
        out.push(text);
    }
    join(out)
}

/// Joins lines (empty for blank) with `\n`: at most one blank line in a row,
/// none at the start or the end, one `\n` at the end (none for an empty file).
fn join(lines: Vec<String>) -> String {
    let mut out = String::new();
    let mut blank_pending = false;
    for line in lines {
        if line.is_empty() {
            blank_pending = !out.is_empty();
            continue;
        }
        if blank_pending {
            out.push('\n');
            blank_pending = false;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Formats `source`, which must parse, and checks that the result does too.
    fn fmt(source: &str) -> String {
        let formatted = format_source("t.rules", source).expect("formatting refused");
        assert!(formatted.unparsed.is_none(), "the input should parse: {:?}", formatted.unparsed);
        formatted.text
    }

    #[test]
    fn indents_two_spaces_per_brace_and_dedents_closing_lines() {
        let input = "board {\nfiles a b\n        ranks 1 2\n    }\npiece King K {\n\troyal\n move W\n}\n";
        let expected = "board {\n  files a b\n  ranks 1 2\n}\npiece King K {\n  royal\n  move W\n}\n";
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn nested_blocks_indent_further() {
        let input = "phase opening {\nplace from hand\norder {\nKing\nQueen\n}\n}\n";
        let expected = "phase opening {\n  place from hand\n  order {\n    King\n    Queen\n  }\n}\n";
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn comment_lines_take_the_indentation_of_their_block() {
        let input = "  # top\npiece King K {\n# inside\n      ## not a doc comment here, an ordinary one\n  royal\n}\n";
        // `##` inside a block is E0005, so keep to ordinary comments there.
        let input = input.replace("## not a doc comment here, an ordinary one", "# an ordinary one");
        let expected = "# top\npiece King K {\n  # inside\n  # an ordinary one\n  royal\n}\n";
        assert_eq!(fmt(&input), expected);
    }

    #[test]
    fn continuation_lines_are_indented_two_more() {
        let input = "rule \"r\" {\non ply-end\nif own has only King\n        or own has only King Bishop\nthen draw\n}\n";
        let expected = "rule \"r\" {\n  on ply-end\n  if own has only King\n    or own has only King Bishop\n  then draw\n}\n";
        assert_eq!(fmt(input), expected);
        // A promotion's target list on its own line, and a top-level item over two lines.
        let input = "promotion {\n  Pawn on rank 8\nto Queen Rook\n}\nclaim c:\nno Pawn on rank 1\n";
        let expected = "promotion {\n  Pawn on rank 8\n    to Queen Rook\n}\nclaim c:\n  no Pawn on rank 1\n";
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn every_then_clause_begins_a_line_of_its_own_level() {
        let input = concat!(
            "rule \"g\" {\n",
            "  on ply-end\n",
            "  if line 3 own Pawn along file rank\n",
            "  then owner must relocate inner pieces to another rank,\n",
            "placed piece attacks no enemy and is not attacked\n",
            "      then owner must activate\n",
            "}\n",
        );
        let expected = concat!(
            "rule \"g\" {\n",
            "  on ply-end\n",
            "  if line 3 own Pawn along file rank\n",
            "  then owner must relocate inner pieces to another rank,\n",
            "    placed piece attacks no enemy and is not attacked\n",
            "  then owner must activate\n",
            "}\n",
        );
        // The grammar may reject this rule's meaning but not its syntax.
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn one_space_between_tokens_or_two_where_two_or_more_were_written() {
        let input = "piece King K   {   royal  move W    move\tF }\nboard { files a..h ranks 1..8 }\n";
        let expected = "piece King K  {  royal  move W  move F }\nboard { files a..h ranks 1..8 }\n";
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn never_adds_or_removes_the_only_space() {
        let input = "piece Q Q {\n  move (1,0,0)  move ride (1,1,0)\n}\nplayers {\n  white:forward +rank\n  black: forward -rank\n}\n";
        // `white:forward` is one token (no space written), so it is not a key and gets none.
        let expected = "piece Q Q {\n  move (1,0,0)  move ride (1,1,0)\n}\nplayers {\n  white:forward +rank\n  black: forward -rank\n}\n";
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn strings_are_kept_byte_for_byte() {
        let input = "variant   \"Two  spaces \\\"  and # no comment\"\nsetup \"8/8/8/8/8/8/8/K6k  w - - 0 1\"   # after\n";
        let expected = "variant  \"Two  spaces \\\"  and # no comment\"\nsetup \"8/8/8/8/8/8/8/K6k  w - - 0 1\"   # after\n";
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn keys_of_a_ruling_are_aligned() {
        let input = concat!(
            "ruling \"r\" {\n",
            "  source \"S\"\n",
            "  quote \"Q\"\n",
            "  reading    \"R\"\n",
            "}\n",
        );
        let expected = concat!(
            "ruling \"r\" {\n",
            "  source  \"S\"\n",
            "  quote   \"Q\"\n",
            "  reading \"R\"\n",
            "}\n",
        );
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn labels_are_aligned_within_a_run_only() {
        let input = concat!(
            "castling King with Rook {\n",
            "  short: king to g1, rook to f1\n",
            "  long: king to c1, rook to d1\n",
            "}\n",
            "end {\n",
            "  checkmate:    lose\n",
            "  draw on repetition 3\n",
            "  stalemate: draw\n",
            "}\n",
        );
        let expected = concat!(
            "castling King with Rook {\n",
            "  short: king to g1, rook to f1\n",
            "  long:  king to c1, rook to d1\n",
            "}\n",
            "end {\n",
            "  checkmate: lose\n",
            "  draw on repetition 3\n",
            "  stalemate: draw\n",
            "}\n",
        );
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn trailing_comments_of_a_run_share_the_furthest_column() {
        let input = concat!(
            "piece Pawn P {\n",
            "  quiet W forward # a\n",
            "  quiet ride W forward exactly 2 from rank 2 sets en-passant  # b\n",
            "  capture F forward takes en-passant   # c\n",
            "}\n",
        );
        let expected = concat!(
            "piece Pawn P {\n",
            "  quiet W forward                                             # a\n",
            "  quiet ride W forward exactly 2 from rank 2 sets en-passant  # b\n",
            "  capture F forward takes en-passant                          # c\n",
            "}\n",
        );
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn a_hand_aligned_run_stays_and_a_line_without_comment_ends_a_run() {
        let input = concat!(
            "piece King K {\n",
            "  royal          # far away\n",
            "  move W\n",
            "  move F # near\n",
            "}\n",
        );
        assert_eq!(fmt(input), input);
    }

    #[test]
    fn a_comment_moves_with_its_code_when_the_code_is_reindented() {
        let input = "piece King K {\n        royal  # two spaces after the code\n}\n";
        let expected = "piece King K {\n  royal  # two spaces after the code\n}\n";
        assert_eq!(fmt(input), expected);
        // And no space at all before `#` becomes one.
        assert_eq!(fmt("piece King K {\n  royal# tight\n}\n"), "piece King K {\n  royal # tight\n}\n");
    }

    #[test]
    fn comment_text_is_never_touched() {
        let input = "#   spaced    out\t\n## doc   text \"quoted\n piece King K { royal }   #  two  spaces\n";
        let expected = "#   spaced    out\n## doc   text \"quoted\npiece King K { royal }   #  two  spaces\n";
        assert_eq!(fmt(input), expected);
    }

    #[test]
    fn blank_lines_trailing_whitespace_and_the_final_newline() {
        let input = "\n\n\nvariant \"V\"   \n\n\n\nsetup \"x\"\t\n\n";
        assert_eq!(fmt(input), "variant \"V\"\n\nsetup \"x\"\n");
        assert_eq!(fmt("variant \"V\""), "variant \"V\"\n");
        assert_eq!(fmt("variant \"V\"\r\n\r\nsetup \"x\"\r\n"), "variant \"V\"\n\nsetup \"x\"\n");
        assert_eq!(fmt(""), "");
        assert_eq!(fmt("\n\n  \n"), "");
    }

    #[test]
    fn a_file_that_does_not_parse_keeps_its_layout() {
        let input = "piece King {   \n      royal   move W\t\n\n\n\n\tmove F\n}";
        let formatted = format_source("broken.rules", input).unwrap();
        assert_eq!(formatted.unparsed.as_ref().map(|d| d.code), Some("E0001"));
        assert_eq!(formatted.text, "piece King {\n      royal   move W\n\n  move F\n}\n");
    }

    #[test]
    fn a_lone_carriage_return_is_refused() {
        let err = format("variant \"V\" # a\rsetup \"x\"\n").unwrap_err();
        assert_eq!(err.code, "E0007");
        assert_eq!(err.span, Span::new(15, 16));
    }

    #[test]
    fn formatting_is_idempotent_on_the_examples_above() {
        for input in [
            "piece King K   {   royal  move W    move\tF }\n",
            "rule \"r\" {\non ply-end\nif own has only King\n        or own has only King Bishop # x\nthen draw  # y\n}\n",
            "ruling \"r\" {\n source \"S\"\n quote \"Q\" # q\n reading \"R\"\n}\n",
        ] {
            let once = fmt(input);
            assert_eq!(fmt(&once), once, "input: {input:?}");
        }
    }
}
