//! Game records: a PGN-like text that says which rules were played, from
//! where, and every move with its chance outcome, so that the game replays
//! exactly.
//!
//! ```text
//! [Event "?"]
//! [Site "?"]
//! [Date "????.??.??"]
//! [Round "?"]
//! [White "?"]
//! [Black "rulebook (random moves)"]
//! [Result "*"]
//! [Variant "Nebelschach"]
//! [Rules "rules/nebelschach.rules"]
//! [RulesHash "sha256:3f7a…"]
//! [Seed "42"]
//! [Letters "de"]
//!
//! 1. h4D e6S 2. De4 h6B *
//! ```
//!
//! Tags come first, one `[Name "value"]` each (`\"` and `\\` escape a quote
//! and a backslash in a value). A written record starts with PGN's seven-tag
//! roster, in its order: `Event`, `Site`, `Date`, `Round`, `White`, `Black`
//! (`?` and `????.??.??` where unknown) and `Result`, so that PGN tools read
//! it; the reader needs none of them. Then `Variant`, `Rules` (the rules file's path as
//! given when the game was played), `RulesHash` (`sha256:` and the SHA-256, in
//! hex, of the texts of the rules file and every file it extends, in the
//! order they are loaded: the file itself first), `Seed` (of the random
//! number generator), `Letters` (the letter set the moves are written in:
//! `en` for the FEN letters; records written before it was always written
//! lack it, and mean the FEN letters), `SetUp` and `FEN` (only when the game
//! did not start from the setup). `Result` is `1-0`, `0-1`, `1/2-1/2`, or `*`
//! for a game that did not end. Other tags are kept and ignored.
//!
//! The movetext follows: move numbers (`1.`, `1...`), the moves in the
//! variant's SAN-style notation (spread actions and their outcomes included:
//! `Nf3&h3`, `Nf3xe5/blue`, `Re7^e4/through`), and the result again at the
//! end. Comments in braces `{…}` or after `;`, and numeric annotation glyphs
//! (`$1`), are skipped; variations in parentheses are not supported. Lines
//! are wrapped at 80 columns when written.
//!
//! [`Record::parse`] keeps the byte span of every tag, value and move, so
//! that a replay can point its diagnostics at them.

use crate::model::Color;
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;

/// Diagnostic code: a tag is not written `[Name "value"]`.
pub const MALFORMED_TAG: &str = "E0510";
/// Diagnostic code: a tag is given twice.
pub const DUPLICATE_TAG: &str = "E0511";
/// Diagnostic code: a tag's value cannot be used (a `Result` that is not a
/// result, a `Seed` that is not a whole number).
pub const BAD_TAG_VALUE: &str = "E0512";
/// Diagnostic code: malformed movetext (an unclosed comment, a variation, a
/// tag after the moves, text after the result).
pub const MALFORMED_MOVES: &str = "E0513";
/// Diagnostic code: the result at the end of the moves is not the `Result` tag's.
pub const RESULT_DISAGREES: &str = "E0514";

/// The column movetext lines are wrapped at.
pub const LINE_WIDTH: usize = 80;

/// How a game ended, as a record writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`: the first player (white) won.
    WhiteWins,
    /// `0-1`: the second player (black) won.
    BlackWins,
    /// `1/2-1/2`: drawn.
    Draw,
    /// `*`: the game did not end (or its end is unknown).
    Unfinished,
}

impl GameResult {
    /// The record's text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Reads a result written as [`GameResult::as_str`] writes it.
    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }

    /// The result in which player `color` wins.
    pub fn win_for(color: Color) -> GameResult {
        if color == 0 {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        }
    }
}

/// One move as written in a record: its number, who made it, its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The full-move number (1 for the first move of each side).
    pub number: u32,
    /// The player whose ply it belongs to (who made it, or, for an
    /// obligation met within a ply, the ply's mover).
    pub side: Color,
    /// The move's text (SAN-style, fully specified).
    pub text: String,
}

impl RecordedMove {
    /// The move with its number: `1. e4` for the first player, `1... e5` for the second.
    pub fn numbered(&self) -> String {
        if self.side == 0 {
            format!("{}. {}", self.number, self.text)
        } else {
            format!("{}... {}", self.number, self.text)
        }
    }
}

/// The players and the occasion, as PGN's seven-tag roster gives them
/// (the roster's seventh tag, `Result`, is [`Header::result`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roster {
    /// `Event`: the name of the tournament or match (`?`: unknown).
    pub event: String,
    /// `Site`: where it was played (`?`: unknown).
    pub site: String,
    /// `Date`: `YYYY.MM.DD`, with `?` for unknown digits.
    pub date: String,
    /// `Round` (`?`: unknown).
    pub round: String,
    /// `White`: the first player (`?`: unknown).
    pub white: String,
    /// `Black`: the second player (`?`: unknown).
    pub black: String,
}

impl Default for Roster {
    /// Everything unknown: `?`, and the date `????.??.??`.
    fn default() -> Roster {
        let unknown = || "?".to_string();
        Roster { event: unknown(), site: unknown(), date: "????.??.??".to_string(), round: unknown(), white: unknown(), black: unknown() }
    }
}

/// What a record says before its moves (its tags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The seven-tag roster but `Result`.
    pub roster: Roster,
    /// The variant's name (`Variant`).
    pub variant: String,
    /// The rules file's path as given (`Rules`).
    pub rules: String,
    /// `sha256:…` of the rules files (`RulesHash`).
    pub rules_hash: Option<String>,
    /// The random number generator's seed (`Seed`).
    pub seed: Option<u64>,
    /// The letter set the moves are written in (`Letters`, `en` for the FEN
    /// letters; `None`: no tag, which a reader takes for the FEN letters).
    pub letters: Option<String>,
    /// The start position when it is not the setup (`FEN`).
    pub fen: Option<String>,
    /// How the game ended (`Result`).
    pub result: GameResult,
}

/// A tag's value with `"` and `\` escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a record: the header's tags, a blank line, then the moves and the
/// result wrapped at [`LINE_WIDTH`] columns.
pub fn write(header: &Header, moves: &[RecordedMove]) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    let roster = &header.roster;
    tag("Event", &roster.event);
    tag("Site", &roster.site);
    tag("Date", &roster.date);
    tag("Round", &roster.round);
    tag("White", &roster.white);
    tag("Black", &roster.black);
    tag("Result", header.result.as_str());
    tag("Variant", &header.variant);
    tag("Rules", &header.rules);
    if let Some(hash) = &header.rules_hash {
        tag("RulesHash", hash);
    }
    if let Some(seed) = header.seed {
        tag("Seed", &seed.to_string());
    }
    if let Some(letters) = &header.letters {
        tag("Letters", letters);
    }
    if let Some(fen) = &header.fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    out.push('\n');
    out.push_str(&movetext(moves, header.result));
    out
}

/// The movetext of `moves` followed by `result`, wrapped at [`LINE_WIDTH`]
/// columns (a move number stays with its move), each line ending in a newline.
pub fn movetext(moves: &[RecordedMove], result: GameResult) -> String {
    let mut units: Vec<String> = moves
        .iter()
        .enumerate()
        // A decision of the same ply or of the second player continues the
        // numbered unit; a ply of the first player opens one.
        .map(|(i, m)| if i == 0 || (m.side == 0 && moves[i - 1].side != 0) { m.numbered() } else { m.text.clone() })
        .collect();
    units.push(result.as_str().to_string());
    let mut out = String::new();
    let mut line = String::new();
    for unit in units {
        if line.is_empty() {
            line = unit;
        } else if line.chars().count() + 1 + unit.chars().count() <= LINE_WIDTH {
            line.push(' ');
            line.push_str(&unit);
        } else {
            out.push_str(&line);
            out.push('\n');
            line = unit;
        }
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A tag of a parsed record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// Its name (`Rules`).
    pub name: String,
    /// Its value, unescaped.
    pub value: String,
    /// The whole tag, `[` to `]`.
    pub span: Span,
    /// The value between the quotes (as written, escapes included).
    pub value_span: Span,
}

impl Tag {
    /// Where to point at the value: the value, or the whole tag when the value is empty.
    pub fn value_or_tag_span(&self) -> Span {
        if self.value_span.start < self.value_span.end {
            self.value_span
        } else {
            self.span
        }
    }
}

/// A move of a parsed record: its text (without a move number) and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    /// The move as written (`Bxe6[R]+`).
    pub text: String,
    /// Its bytes in the record.
    pub span: Span,
}

/// A parsed record: tags, moves and the result at the end, with spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The tags in the order written.
    pub tags: Vec<Tag>,
    /// The moves in the order written.
    pub moves: Vec<MoveToken>,
    /// The result written after the moves, if any.
    pub terminator: Option<(GameResult, Span)>,
}

/// Where the line containing byte `i` ends (the `\n`, or the end of the text).
fn line_end(text: &str, i: usize) -> usize {
    text[i..].find('\n').map_or(text.len(), |n| i + n)
}

/// `i` with trailing spaces, tabs and a carriage return before it skipped back.
fn trim_back(bytes: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && matches!(bytes[end - 1], b' ' | b'\t' | b'\r') {
        end -= 1;
    }
    end
}

/// What went wrong in a tag: the label.
enum TagError {
    NoName,
    NoQuote,
    Unclosed,
    NoBracket,
}

/// Reads the tag starting at the `[` at `start` of `text`. Returns the tag
/// and where reading goes on.
fn parse_tag(text: &str, start: usize) -> Result<(Tag, usize), TagError> {
    let bytes = text.as_bytes();
    let end = line_end(text, start);
    let skip_blank = |mut j: usize| {
        while j < end && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        j
    };
    let name_start = skip_blank(start + 1);
    let mut j = name_start;
    while j < end && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
        j += 1;
    }
    if j == name_start {
        return Err(TagError::NoName);
    }
    let name = text[name_start..j].to_string();
    j = skip_blank(j);
    if j >= end || bytes[j] != b'"' {
        return Err(TagError::NoQuote);
    }
    let value_start = j + 1;
    let mut value = String::new();
    let mut chars = text[value_start..end].char_indices();
    let value_end = loop {
        match chars.next() {
            None => return Err(TagError::Unclosed),
            Some((k, '"')) => break value_start + k,
            Some((_, '\\')) => match chars.next() {
                Some((_, c @ ('"' | '\\'))) => value.push(c),
                Some((_, c)) => {
                    value.push('\\');
                    value.push(c);
                }
                None => return Err(TagError::Unclosed),
            },
            Some((_, c)) => value.push(c),
        }
    };
    j = skip_blank(value_end + 1);
    if j >= end || bytes[j] != b']' {
        return Err(TagError::NoBracket);
    }
    let tag = Tag { name, value, span: Span::new(start, j + 1), value_span: Span::new(value_start, value_end) };
    Ok((tag, j + 1))
}

impl Record {
    /// Parses the record `text`; `name` labels the diagnostics (the file's
    /// path). Every syntax error found is reported, with the tags' values
    /// checked (`Result`, `Seed`) and the final result compared with the
    /// `Result` tag.
    pub fn parse(name: &str, text: &str) -> Result<Record, Vec<Diagnostic>> {
        let bytes = text.as_bytes();
        let mut diags: Vec<Diagnostic> = Vec::new();
        let mut record = Record { tags: Vec::new(), moves: Vec::new(), terminator: None };
        let mut in_moves = false;
        let mut after_result_reported = false;
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let at_line_start = i == 0 || bytes[i - 1] == b'\n';
            match c {
                b'%' if at_line_start => i = line_end(text, i),
                b';' => i = line_end(text, i),
                b'{' => match text[i..].find('}') {
                    Some(n) => i += n + 1,
                    None => {
                        diags.push(
                            Diagnostic::error(MALFORMED_MOVES, name, Span::new(i, i + 1), "a comment is not closed", "this `{` has no `}`")
                                .with_help("close the comment with `}`"),
                        );
                        break;
                    }
                },
                b'}' => {
                    // A `}` that closes nothing: report it and read on past it.
                    diags.push(
                        Diagnostic::error(MALFORMED_MOVES, name, Span::new(i, i + 1), "a comment closed that was not opened", "this `}` has no `{`")
                            .with_help("open the comment with `{`, or remove the `}`"),
                    );
                    i += 1;
                }
                b'[' if !in_moves => {
                    match parse_tag(text, i) {
                        Ok((tag, next)) => {
                            record.tags.push(tag);
                            i = next;
                        }
                        Err(e) => {
                            let end = line_end(text, i);
                            let label = match e {
                                TagError::NoName => "the tag has no name",
                                TagError::NoQuote => "the value is not in double quotes",
                                TagError::Unclosed => "the value's closing `\"` is missing",
                                TagError::NoBracket => "the closing `]` is missing",
                            };
                            diags.push(
                                Diagnostic::error(MALFORMED_TAG, name, Span::new(i, trim_back(bytes, i, end).max(i + 1)), "malformed tag", label)
                                    .with_help("write each tag as [Name \"value\"] on a line of its own, before the moves"),
                            );
                            i = end;
                        }
                    }
                }
                b'[' => {
                    let end = trim_back(bytes, i, line_end(text, i)).max(i + 1);
                    diags.push(
                        Diagnostic::error(MALFORMED_MOVES, name, Span::new(i, end), "a tag after the moves", "tags must come before the moves")
                            .with_help("move the tag up to the others"),
                    );
                    i = line_end(text, i);
                }
                b'(' | b')' => {
                    // Skip the whole variation, nested ones included.
                    let start = i;
                    let mut depth = 0i32;
                    while i < bytes.len() {
                        match bytes[i] {
                            b'(' => depth += 1,
                            b')' => depth -= 1,
                            _ => {}
                        }
                        i += 1;
                        if depth <= 0 {
                            break;
                        }
                    }
                    diags.push(
                        Diagnostic::error(MALFORMED_MOVES, name, Span::new(start, i), "variations are not supported", "a variation")
                            .with_help("a record holds one line of play: remove the text in parentheses"),
                    );
                }
                b'$' => {
                    i += 1;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                _ => {
                    in_moves = true;
                    let start = i;
                    while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'{' | b'}' | b';' | b'(' | b')') {
                        i += 1;
                    }
                    let token = &text[start..i];
                    if record.terminator.is_some() {
                        if !after_result_reported {
                            after_result_reported = true;
                            diags.push(
                                Diagnostic::error(MALFORMED_MOVES, name, Span::new(start, i), "text after the result", "the record ended before this")
                                    .with_help("the result (1-0, 0-1, 1/2-1/2 or *) comes last"),
                            );
                        }
                        continue;
                    }
                    if let Some(result) = GameResult::parse(token) {
                        record.terminator = Some((result, Span::new(start, i)));
                        continue;
                    }
                    // A move number in front: `12.`, `12...`, `12.e4`; lone dots (`...`).
                    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                    let rest = if token[digits..].starts_with('.') { token[digits..].trim_start_matches('.') } else { token };
                    if rest.is_empty() {
                        continue;
                    }
                    record.moves.push(MoveToken { text: rest.to_string(), span: Span::new(i - rest.len(), i) });
                }
            }
        }
        record.check_tags(name, &mut diags);
        diags.sort_by_key(|d| d.span.start);
        if diags.is_empty() {
            Ok(record)
        } else {
            Err(diags)
        }
    }

    /// Checks tags given twice and the values of `Result` and `Seed`, and the
    /// final result against the `Result` tag.
    fn check_tags(&self, name: &str, diags: &mut Vec<Diagnostic>) {
        for (i, tag) in self.tags.iter().enumerate() {
            if let Some(first) = self.tags[..i].iter().find(|t| t.name == tag.name) {
                diags.push(
                    Diagnostic::error(DUPLICATE_TAG, name, tag.span, format!("the tag `{}` is given twice", tag.name), "given again here")
                        .with_note(first.span, "first given here")
                        .with_help("keep one of them"),
                );
            }
        }
        if let Some(tag) = self.tag("Result") {
            if GameResult::parse(&tag.value).is_none() {
                diags.push(
                    Diagnostic::error(BAD_TAG_VALUE, name, tag.value_or_tag_span(), format!("`{}` is not a result", tag.value), "not a result")
                        .with_help("a result is 1-0 (white won), 0-1 (black won), 1/2-1/2 (drawn) or * (not ended)"),
                );
            }
        }
        if let Some(tag) = self.tag("Seed") {
            if tag.value.parse::<u64>().is_err() {
                diags.push(
                    Diagnostic::error(BAD_TAG_VALUE, name, tag.value_or_tag_span(), format!("`{}` is not a seed", tag.value), "not a whole number")
                        .with_help(format!("a seed is a whole number from 0 to {}", u64::MAX)),
                );
            }
        }
        if let (Some(tag), Some((end, span))) = (self.tag("Result"), self.terminator) {
            if let Some(said) = GameResult::parse(&tag.value) {
                if said != end {
                    diags.push(
                        Diagnostic::error(
                            RESULT_DISAGREES,
                            name,
                            span,
                            format!("the moves end with `{}` but the Result tag says `{}`", end.as_str(), said.as_str()),
                            "the result after the moves",
                        )
                        .with_note(tag.value_or_tag_span(), "the Result tag")
                        .with_help("make the two agree"),
                    );
                }
            }
        }
    }

    /// The first tag called `name` (tag names are case-sensitive).
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// The `Seed` tag's value, if it is there and a whole number.
    pub fn seed(&self) -> Option<u64> {
        self.tag("Seed").and_then(|t| t.value.parse().ok())
    }

    /// The result the record states, with where it says so: the `Result`
    /// tag's value, else the result after the moves. `None` when it states none.
    pub fn result(&self) -> Option<(GameResult, Span)> {
        match self.tag("Result") {
            Some(tag) => GameResult::parse(&tag.value).map(|r| (r, tag.value_or_tag_span())),
            None => self.terminator,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            roster: Roster::default(),
            variant: "Chess".into(),
            rules: "rules/chess.rules".into(),
            rules_hash: Some("sha256:00".into()),
            seed: Some(7),
            letters: None,
            fen: None,
            result: GameResult::Unfinished,
        }
    }

    fn moves(texts: &[&str]) -> Vec<RecordedMove> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| RecordedMove { number: 1 + i as u32 / 2, side: (i % 2) as Color, text: t.to_string() })
            .collect()
    }

    #[test]
    fn a_written_record_parses_back() {
        let text = write(&header(), &moves(&["e4", "e5", "Nf3"]));
        assert_eq!(
            text,
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\
             [Variant \"Chess\"]\n[Rules \"rules/chess.rules\"]\n[RulesHash \"sha256:00\"]\n[Seed \"7\"]\n\n1. e4 e5 2. Nf3 *\n"
        );
        let record = Record::parse("g.pgn", &text).expect("parses");
        let texts: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["e4", "e5", "Nf3"]);
        assert_eq!(record.seed(), Some(7));
        assert_eq!(record.tag("Rules").map(|t| t.value.as_str()), Some("rules/chess.rules"));
        assert_eq!(record.result().map(|r| r.0), Some(GameResult::Unfinished));
        // Spans point at the text.
        for m in &record.moves {
            assert_eq!(&text[m.span.start..m.span.end], m.text);
        }
        let rules = record.tag("Rules").expect("rules tag");
        assert_eq!(&text[rules.value_span.start..rules.value_span.end], "rules/chess.rules");
    }

    #[test]
    fn values_are_escaped_and_unescaped() {
        let mut h = header();
        h.rules = "dir \"x\"\\y.rules".into();
        let text = write(&h, &[]);
        assert!(text.contains(r#"[Rules "dir \"x\"\\y.rules"]"#), "{text}");
        let record = Record::parse("g.pgn", &text).expect("parses");
        assert_eq!(record.tag("Rules").map(|t| t.value.as_str()), Some("dir \"x\"\\y.rules"));
    }

    #[test]
    fn long_movetext_wraps_at_80_columns() {
        let texts: Vec<String> = (0..60).map(|i| if i % 2 == 0 { "Nf3".to_string() } else { "Nf6".to_string() }).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let text = movetext(&moves(&refs), GameResult::Draw);
        assert!(text.lines().count() > 1);
        for line in text.lines() {
            assert!(line.chars().count() <= LINE_WIDTH, "{line}");
            assert!(!line.ends_with('.'), "a number is kept with its move: {line}");
        }
        assert!(text.ends_with("1/2-1/2\n"));
    }

    #[test]
    fn black_to_move_first_numbers_with_dots() {
        let m = vec![
            RecordedMove { number: 5, side: 1, text: "e5".into() },
            RecordedMove { number: 6, side: 0, text: "Nf3".into() },
        ];
        assert_eq!(movetext(&m, GameResult::Unfinished), "5... e5 6. Nf3 *\n");
    }

    #[test]
    fn numbers_comments_and_glyphs_are_skipped() {
        let text = "[Result \"1-0\"]\n1.e4 {best by test} e5 $1 2... Nf3 ; a comment\n3. Bxe6[R]+ 1-0\n";
        let record = Record::parse("g.pgn", text).expect("parses");
        let texts: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["e4", "e5", "Nf3", "Bxe6[R]+"]);
        assert_eq!(record.terminator.map(|t| t.0), Some(GameResult::WhiteWins));
    }

    fn codes(text: &str) -> Vec<&'static str> {
        match Record::parse("g.pgn", text) {
            Ok(_) => Vec::new(),
            Err(d) => d.iter().map(|d| d.code).collect(),
        }
    }

    #[test]
    fn malformed_records_are_diagnostics() {
        assert_eq!(codes("[Rules rules/chess.rules]\n"), [MALFORMED_TAG]);
        assert_eq!(codes("[Rules \"rules/chess.rules]\n"), [MALFORMED_TAG]);
        assert_eq!(codes("[Rules \"x\"\n"), [MALFORMED_TAG]);
        assert_eq!(codes("[ \"x\"]\n"), [MALFORMED_TAG]);
        assert_eq!(codes("[Seed \"1\"]\n[Seed \"2\"]\n"), [DUPLICATE_TAG]);
        assert_eq!(codes("[Seed \"-1\"]\n"), [BAD_TAG_VALUE]);
        assert_eq!(codes("[Result \"2-0\"]\n"), [BAD_TAG_VALUE]);
        assert_eq!(codes("e4 {open\n"), [MALFORMED_MOVES]);
        assert_eq!(codes("e4 (d4 d5) e5\n"), [MALFORMED_MOVES]);
        assert_eq!(codes("e4 [Seed \"1\"]\n"), [MALFORMED_MOVES]);
        assert_eq!(codes("e4 * e5 Nf3\n"), [MALFORMED_MOVES]);
        assert_eq!(codes("[Result \"1-0\"]\ne4 0-1\n"), [RESULT_DISAGREES]);
        assert_eq!(codes(""), Vec::<&str>::new());
        // Nothing panics on odd bytes.
        for text in ["[", "[\"", "[A \"\\", "{", "(", ")", "$", "1.", "…[é \"ü\"]", "[A \"é\\\"] x"] {
            let _ = Record::parse("g.pgn", text);
        }
    }

    #[test]
    fn spread_moves_and_outcomes_are_single_moves() {
        let text = "1. Nf3&h3 e5&e7 2. Nf3xe5/blue Rd7xd4/6/2 3. O-O-O&f7 Kf7&O-O-O 4. Be2&c4~d5 Re7^e4/through+ 1/2-1/2";
        let record = Record::parse("g.pgn", text).expect("parses");
        let texts: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(
            texts,
            ["Nf3&h3", "e5&e7", "Nf3xe5/blue", "Rd7xd4/6/2", "O-O-O&f7", "Kf7&O-O-O", "Be2&c4~d5", "Re7^e4/through+"]
        );
        assert_eq!(record.terminator.map(|t| t.0), Some(GameResult::Draw));
    }

    /// Parses `text` on a thread and fails when it takes more than a few
    /// seconds (a reader that loops for ever would hang the test instead).
    fn parses_in_time(text: &str) -> Result<Record, Vec<Diagnostic>> {
        let (tx, rx) = std::sync::mpsc::channel();
        let owned = text.to_string();
        std::thread::spawn(move || {
            let _ = tx.send(Record::parse("g.pgn", &owned));
        });
        rx.recv_timeout(std::time::Duration::from_secs(5))
            .unwrap_or_else(|_| panic!("parsing {text:?} did not end"))
    }

    #[test]
    fn a_closing_brace_without_an_opening_one_is_an_error_not_a_hang() {
        // Issue 12, defect 1: `1. e4 }` made replay spin for ever.
        let diags = parses_in_time("1. e4 }\n").expect_err("a stray `}` is malformed");
        assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), [MALFORMED_MOVES]);
        // It points at the `}` (byte 6).
        assert_eq!((diags[0].span.start, diags[0].span.end), (6, 7));
        for text in ["}", "}}", "e4}", "[Result \"*\"]\n}\n*", "1. e4 {c} } e5 *"] {
            assert!(parses_in_time(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn every_short_text_of_special_characters_parses_in_time() {
        // Every string of up to three characters over the reader's special
        // characters (and a letter, a digit, a space, a newline) ends.
        let alphabet = ['{', '}', '(', ')', '[', ']', ';', '%', '$', '"', '\\', '.', '*', 'e', '1', ' ', '\n', '\u{b}', 'é'];
        let mut texts = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> =
                texts.iter().flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}"))).collect();
            texts.extend(longer.into_iter().filter(|t| t.chars().count() == 3 || t.chars().count() <= 2));
            texts.sort();
            texts.dedup();
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let all = texts.clone();
        std::thread::spawn(move || {
            for t in &all {
                let _ = Record::parse("g.pgn", t);
            }
            let _ = tx.send(());
        });
        rx.recv_timeout(std::time::Duration::from_secs(30)).expect("every text parses in time");
        assert!(texts.len() > 6000, "{}", texts.len());
    }

    #[test]
    fn castling_with_zeros_is_a_move_not_a_number() {
        let record = Record::parse("g.pgn", "1. 0-0 O-O-O *").expect("parses");
        let texts: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["0-0", "O-O-O"]);
    }
}
