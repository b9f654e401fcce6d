//! Syntax errors in human words.
//!
//! pest reports a failed parse as a byte position and the list of grammar rules
//! it tried there ("positives"). This module turns that into a [`Diagnostic`]:
//!
//! * the token found at the position (`foo`, `{`, end of file) is the label's span;
//! * where the parser was (piece body, castling block, top level …) comes from a
//!   light scan of the text before the position: the items do not nest, so the
//!   last item keyword at brace depth 0 and an unclosed `{` say it all;
//! * every rule has a description ([`describe`]), so the label reads "expected a
//!   movement part (`move`, `quiet`, `capture`) or `royal`", never rule names;
//! * the help line is specific to what was expected (a zone, a vector, a string
//!   …) or else says what the surrounding block holds, and suggests a keyword
//!   when the found word is a near miss (`pieces` → `piece`).

use pest::error::{Error, ErrorVariant, InputLocation};

use crate::ast::Span;
use crate::diagnostic::Diagnostic;
use crate::parser::Rule;

/// The keywords that start a top-level item.
const TOP_LEVEL: &[&str] = &[
    "variant",
    "extends",
    "board",
    "players",
    "piece",
    "promotion",
    "castling",
    "setup",
    "end",
    "hand",
    "ruling",
    "without",
    "claim",
    "hidden",
    "letters",
    "die",
    "spread",
    "entangle",
    "tunnel",
    "phase",
    "slide",
    "rule",
    "example",
];

/// Every reserved word of the language.
const KEYWORDS: &[&str] = &[
    "start",
    "variant",
    "extends",
    "board",
    "players",
    "piece",
    "promotion",
    "castling",
    "setup",
    "end",
    "hand",
    "ruling",
    "without",
    "files",
    "ranks",
    "levels",
    "axis",
    "holes",
    "royal",
    "move",
    "quiet",
    "capture",
    "ride",
    "hop",
    "max",
    "exactly",
    "from",
    "sets",
    "takes",
    "en-passant",
    "mirror",
    "square",
    "and",
    "or",
    "on",
    "to",
    "with",
    "king",
    "rook",
    "checkmate",
    "stalemate",
    "win",
    "lose",
    "draw",
    "after",
    "moves",
    "repetition",
    "demote",
    "promoted",
    "drop",
    "any",
    "empty",
    "not",
    "source",
    "quote",
    "reading",
    "settles",
    "claim",
    "keep",
    "colour",
    "no",
    "next",
    "enemy",
    "at",
    "most",
    "priority",
    "over",
    "move-limit",
    "hidden",
    "pieces",
    "captured",
    "seen",
    "by",
    "capturer",
    "both",
    "nobody",
    "letters",
    "reveal",
    "only",
    "onto",
    "die",
    "spread",
    "squares",
    "weight",
    "roll",
    "red",
    "rest",
    "blue",
    "splits",
    "entangle",
    "entangled",
    "groups",
    "tunnel",
    "through",
    "bounce",
    "phase",
    "place",
    "placed",
    "order",
    "coloured",
    "colours",
    "like",
    "different",
    "directions",
    "attacks",
    "attacked",
    "is",
    "until",
    "hands",
    "slide",
    "along",
    "swing",
    "overshoot",
    "rule",
    "ply-end",
    "offer",
    "if",
    "then",
    "forbid",
    "must",
    "relocate",
    "inner",
    "another",
    "activate",
    "activated",
    "may",
    "exile",
    "exiled",
    "except",
    "missed",
    "return",
    "ends",
    "which",
    "wins",
    "loses",
    "line",
    "fewer",
    "more",
    "than",
    "least",
    "some",
    "every",
    "distance",
    "in",
    "check",
    "has",
    "can",
    "own",
    "owner",
    "mover",
    "opponent",
];

/// Builds the diagnostic for a failed pest parse of `source`.
pub(crate) fn syntax_error(file: &str, source: &str, err: &Error<Rule>) -> Diagnostic {
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((start, _)) => start,
    };
    let pos = floor_char_boundary(source, pos);
    let positives: Vec<Rule> = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut seen = Vec::new();
            for rule in positives {
                if !seen.contains(rule) {
                    seen.push(*rule);
                }
            }
            seen
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let found = Found::at(source, pos);
    let ctx = Context::scan(source, pos);

    if positives.contains(&Rule::string_end) {
        return string_error(file, source, pos, &ctx);
    }

    let top_level = positives.is_empty()
        || positives
            .iter()
            .any(|r| matches!(r, Rule::item | Rule::EOI));
    let place = if top_level {
        Place::TopLevel
    } else {
        ctx.place()
    };

    // A top-level keyword (or the end of the file) where a block statement or
    // its `}` was expected: the block was not closed.
    if let (Place::Body(kw), Some(open)) = (place, ctx.open_brace) {
        let starts_item = found
            .word
            .as_deref()
            .is_some_and(|w| TOP_LEVEL.contains(&w));
        if positives.contains(&Rule::rbrace) && (found.eof || starts_item) {
            let body = body_name(kw);
            let label = if found.eof {
                format!("the file ends inside the {body}")
            } else {
                format!("the {body} must be closed before this item")
            };
            return Diagnostic::error(
                "E0001",
                file,
                found.span,
                format!("missing `}}`: the {body} is not closed"),
                label,
            )
            .with_note(open, format!("the {body} opens here"))
            .with_help(format!("add `}}` after the last statement of the {body}"));
        }
    }

    let expected = expected_list(&positives);
    let arguments = !positives.is_empty() && positives.iter().all(|r| is_argument(*r));
    let message = format!("unexpected {} {}", found.describe(), place.phrase());
    let mut notes = Vec::new();

    // The statement before stops short at the end of its line, and the found
    // token starts the next one: point at where the missing part belongs.
    let cut_short = ctx.prev_token.filter(|prev| {
        arguments
            && !found.eof
            && source
                .get(prev.end..pos)
                .is_some_and(|gap| gap.contains('\n'))
            && found.starts_statement(source)
    });
    let label = if let Some(prev) = cut_short {
        notes.push((prev, format!("expected {expected} after this")));
        "unexpected here".to_string()
    } else {
        match ctx.prev_word {
            Some(prev) if arguments && KEYWORDS.contains(&prev) => {
                format!("expected {expected} after `{prev}`")
            }
            _ => format!("expected {expected}"),
        }
    };

    // A misspelt keyword may have been taken as a name or direction word, so
    // that the error only shows at the token after it (`cpature F`).
    let mut help = suggestion(found.word.as_deref(), &positives);
    if help.is_none() {
        if let (Some(word), Some(span)) = (ctx.prev_word, ctx.prev_word_span) {
            if !KEYWORDS.contains(&word) {
                help = suggestion(Some(word), &positives);
                if help.is_some() {
                    let note = if positives.contains(&Rule::modifier) {
                        format!("`{word}` is not a keyword, so it is read as a direction word")
                    } else {
                        format!("`{word}` is not a keyword")
                    };
                    notes.push((span, note));
                }
            }
        }
    }
    let help = help
        .or_else(|| specific_help(&positives, &ctx, place))
        .or_else(|| found.word.as_deref().filter(|w| !w.is_ascii()).map(|_| {
            "names, labels and keywords are written in ASCII letters, digits and `_`; other text belongs in comments and strings".to_string()
        }))
        .unwrap_or_else(|| place.help().to_string());
    let mut diag = Diagnostic::error("E0001", file, found.span, message, label).with_help(help);
    for (span, note) in notes {
        diag = diag.with_note(span, note);
    }
    diag
}

/// `E0002`: a string not closed on its line, or with an unknown escape.
fn string_error(file: &str, source: &str, pos: usize, ctx: &Context<'_>) -> Diagnostic {
    let open = ctx.open_quote.unwrap_or(pos);
    if source[pos..].starts_with('\\') {
        let end = next_char_end(source, next_char_end(source, pos));
        let escape = &source[pos..end];
        return Diagnostic::error(
            "E0002",
            file,
            Span::new(pos, end),
            format!("unknown escape `{escape}` in a string"),
            "not an escape",
        )
        .with_help("the only escapes are `\\\"` for a quote and `\\\\` for a backslash");
    }
    Diagnostic::error(
        "E0002",
        file,
        Span::new(open, pos),
        "unterminated string",
        "this string is not closed before the end of the line",
    )
    .with_help(
        "close the string with `\"` on the same line; write a quote inside a string as `\\\"`",
    )
}

/// `E0003`: a number that does not fit its type.
pub(crate) fn number_too_large(file: &str, span: Span, text: &str, limit: &str) -> Diagnostic {
    Diagnostic::error(
        "E0003",
        file,
        span,
        format!("number too large: `{text}`"),
        "this number does not fit",
    )
    .with_help(limit.to_string())
}

/// `E0004`: a ruling field written twice.
pub(crate) fn duplicate_ruling_field(
    file: &str,
    span: Span,
    first: Span,
    word: &str,
) -> Diagnostic {
    Diagnostic::error(
        "E0004",
        file,
        span,
        format!("`{word}` given twice in one ruling"),
        "second one here",
    )
    .with_note(first, "first one here")
    .with_help(format!(
        "a ruling has one `{word}`; merge the two or remove one"
    ))
}

/// `E0004`: a ruling without its `quote` or `reading`.
pub(crate) fn missing_ruling_field(file: &str, name: Span, block: Span, field: &str) -> Diagnostic {
    Diagnostic::error("E0004", file, name, format!("this ruling has no `{field}`"), format!("`{field}` missing in this ruling"))
        .with_note(Span::new(block.end.saturating_sub(1), block.end), format!("add `{field} \"…\"` before this `}}`"))
        .with_help("a ruling is written `ruling \"name\" { source \"…\" quote \"…\" reading \"…\" }`; `source` may be left out")
}

/// `E0005`: a doc comment that is not directly above an item.
pub(crate) fn detached_doc(file: &str, span: Span, why: crate::docs::Detached) -> Diagnostic {
    use crate::docs::Detached;
    let label = match why {
        Detached::EndOfFile => "nothing follows it: the end of the file",
        Detached::BlankLine => "a blank line separates it from what follows",
        Detached::NotAnItem => "the next line does not start an item",
    };
    Diagnostic::error("E0005", file, span, "this doc comment documents nothing", label).with_help(
        "`##` lines document the item on the very next line (a top-level item such as `piece`, `setup` or `example`); \
         move them there, or write `#` for an ordinary comment",
    )
}

/// `E0006`: an example without an expectation.
pub(crate) fn missing_expectation(file: &str, name: Span, block: Span) -> Diagnostic {
    Diagnostic::error("E0006", file, name, "this example expects nothing", "no `moves` or `result` in this example")
        .with_note(Span::new(block.end.saturating_sub(1), block.end), "add the expectation before this `}`")
        .with_help("an example states one expectation: `moves \"SAN …\"` (exactly these legal moves), `moves include \"SAN …\"`, `moves count N`, or `result ongoing` / `result checkmate, white wins` / `result stalemate, draw`")
}

/// `E0006`: an example field (or a second expectation) given twice.
pub(crate) fn duplicate_example_field(file: &str, span: Span, first: Span, what: &str) -> Diagnostic {
    Diagnostic::error("E0006", file, span, format!("{what} given twice in one example"), "second one here")
        .with_note(first, "first one here")
        .with_help("an example has at most one `position`, `letters` and `play`, and exactly one expectation; write a second `example` for another expectation")
}

// ---------------------------------------------------------------- the found token

/// The token at the error position, as shown to the user.
struct Found {
    span: Span,
    /// The word at the position, if it is one.
    word: Option<String>,
    /// A short excerpt of what is there (without backticks).
    text: String,
    eof: bool,
}

impl Found {
    fn at(source: &str, pos: usize) -> Found {
        let rest = &source[pos..];
        let Some(c) = rest.chars().next() else {
            return Found {
                span: Span::new(pos, pos),
                word: None,
                text: String::new(),
                eof: true,
            };
        };
        let is_word = |c: char| c.is_alphanumeric() || c == '_';
        if is_word(c) {
            let mut len = 0;
            for (i, ch) in rest.char_indices() {
                if is_word(ch) || (ch == '-' && i > 0 && rest[i + 1..].starts_with(is_word)) {
                    len = i + ch.len_utf8();
                } else {
                    break;
                }
            }
            let word = rest[..len].to_string();
            return Found {
                span: Span::new(pos, pos + len),
                text: word.clone(),
                word: Some(word),
                eof: false,
            };
        }
        if c == '"' {
            let line_end = rest.find(['\n', '\r']).unwrap_or(rest.len());
            let mut len = line_end;
            let mut escaped = false;
            for (i, ch) in rest[..line_end].char_indices().skip(1) {
                match ch {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        len = i + 1;
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let text = &rest[..len];
            let shown = if text.chars().count() > 24 {
                format!("{}…\"", text.chars().take(20).collect::<String>())
            } else {
                text.to_string()
            };
            return Found {
                span: Span::new(pos, pos + len),
                word: None,
                text: shown,
                eof: false,
            };
        }
        let len = c.len_utf8();
        Found {
            span: Span::new(pos, pos + len),
            word: None,
            text: c.to_string(),
            eof: false,
        }
    }

    /// Whether the token looks like the start of a statement: a keyword, a `}`,
    /// or a name followed by `:` (a player or castling side).
    fn starts_statement(&self, source: &str) -> bool {
        match &self.word {
            Some(word) => {
                KEYWORDS.contains(&word.as_str())
                    || source
                        .get(self.span.end..)
                        .is_some_and(|rest| rest.trim_start().starts_with(':'))
            }
            None => self.text == "}",
        }
    }

    fn describe(&self) -> String {
        if self.eof {
            "end of file".to_string()
        } else if self.text == "\n" || self.text == "\r" {
            "end of line".to_string()
        } else if self.word.is_none() && self.text.starts_with('"') {
            format!("string {}", self.text)
        } else {
            format!("`{}`", self.text)
        }
    }
}

// ---------------------------------------------------------------- where the parser was

/// What the text before the error position says about where we are.
#[derive(Default)]
struct Context<'s> {
    /// The keyword of the top-level item being parsed (the last one at depth 0).
    item: Option<&'s str>,
    /// The `{` of the block we are in, if any.
    open_brace: Option<Span>,
    /// The last word before the position, unless a string, bracket or other
    /// token (but `:` and `,`) came after it.
    prev_word: Option<&'s str>,
    /// Where that word is.
    prev_word_span: Option<Span>,
    /// The last token of any kind (word, string, punctuation) before the position.
    prev_token: Option<Span>,
    /// The `"` of a string still open at the position.
    open_quote: Option<usize>,
    /// The `{` of every block open at the position, outermost first (a
    /// `roll { … }` inside a `spread` or `tunnel` block is the only nesting).
    braces: Vec<Span>,
    /// In a claim: the first word after its `:` (which form of claim it is).
    claim_form: Option<&'s str>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Place<'s> {
    TopLevel,
    /// Inside the `{ … }` of the item with this keyword.
    Body(&'s str),
    /// In the header of the item with this keyword (before its `{`, or a one-line item).
    Header(&'s str),
}

impl<'s> Context<'s> {
    fn scan(source: &'s str, end: usize) -> Context<'s> {
        let mut ctx = Context::default();
        let bytes = source.as_bytes();
        let end = end.min(bytes.len());
        let mut depth = 0usize;
        let mut i = 0;
        while i < end {
            match bytes[i] {
                b'#' => {
                    while i < end && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'"' => {
                    let start = i;
                    i += 1;
                    let mut closed = false;
                    while i < end && bytes[i] != b'\n' && bytes[i] != b'\r' {
                        if bytes[i] == b'\\' {
                            i += 2;
                            continue;
                        }
                        if bytes[i] == b'"' {
                            closed = true;
                            i += 1;
                            break;
                        }
                        i += 1;
                    }
                    ctx.open_quote = if closed { None } else { Some(start) };
                    ctx.prev_token = Some(Span::new(start, i.min(end)));
                    ctx.prev_word = None;
                    continue;
                }
                b'{' => {
                    depth += 1;
                    ctx.braces.push(Span::new(i, i + 1));
                    ctx.open_brace = Some(Span::new(i, i + 1));
                    ctx.prev_token = Some(Span::new(i, i + 1));
                    ctx.prev_word = None;
                    i += 1;
                }
                b'}' => {
                    depth = depth.saturating_sub(1);
                    ctx.braces.pop();
                    ctx.open_brace = ctx.braces.last().copied();
                    if depth == 0 {
                        ctx.open_brace = None;
                        ctx.item = None;
                    }
                    ctx.prev_token = Some(Span::new(i, i + 1));
                    ctx.prev_word = None;
                    i += 1;
                }
                b if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 => {
                    let start = i;
                    while i < end
                        && (bytes[i].is_ascii_alphanumeric()
                            || bytes[i] == b'_'
                            || bytes[i] >= 0x80
                            || (bytes[i] == b'-' && i > start))
                    {
                        i += 1;
                    }
                    let word = source.get(start..i).unwrap_or("");
                    let after_without =
                        ctx.item == Some("without") && ctx.prev_word == Some("without");
                    // `claim NAME: hidden moves onto …` and `claim NAME: spread
                    // pieces …` are claim bodies, not blocks.
                    let after_colon = ctx
                        .prev_token
                        .is_some_and(|t| source.get(t.start..t.end) == Some(":"));
                    if after_colon && ctx.item == Some("claim") {
                        ctx.claim_form = Some(word);
                    }
                    let claim_body = after_colon && matches!(word, "hidden" | "spread");
                    if depth == 0 && TOP_LEVEL.contains(&word) && !after_without && !claim_body {
                        ctx.item = Some(word);
                        ctx.claim_form = None;
                    }
                    ctx.prev_word = Some(word);
                    ctx.prev_word_span = Some(Span::new(start, i));
                    ctx.prev_token = Some(Span::new(start, i));
                }
                b if b.is_ascii_whitespace() => i += 1,
                b => {
                    ctx.prev_token = Some(Span::new(i, i + 1));
                    if b != b':' && b != b',' {
                        ctx.prev_word = None;
                    }
                    i += 1;
                }
            }
        }
        ctx
    }

    fn place(&self) -> Place<'s> {
        if self.braces.len() >= 2 {
            return match self.item {
                Some("tunnel") => Place::Body("tunnel roll"),
                Some("phase") => Place::Body("phase order"),
                _ => Place::Body("spread roll"),
            };
        }
        match (self.item, self.open_brace) {
            (Some(kw), Some(_)) => Place::Body(kw),
            (Some(kw), None) => Place::Header(kw),
            (None, _) => Place::TopLevel,
        }
    }
}

fn body_name(kw: &str) -> &'static str {
    match kw {
        "board" => "board block",
        "players" => "players block",
        "piece" => "piece body",
        "promotion" => "promotion block",
        "castling" => "castling block",
        "end" => "end block",
        "hand" => "hand block",
        "ruling" => "ruling body",
        "hidden" => "hidden block",
        "letters" => "letter set",
        "spread" => "spread block",
        "entangle" => "entangle block",
        "tunnel" => "tunnel block",
        "rule" => "rule body",
        "slide" => "slide item",
        "phase" => "phase block",
        "example" => "example",
        "phase order" => "placement order",
        "spread roll" | "tunnel roll" => "roll block",
        _ => "block",
    }
}

impl Place<'_> {
    fn phrase(self) -> String {
        match self {
            Place::TopLevel => "at top level".to_string(),
            Place::Body(kw) => format!("in {}", body_name(kw)),
            Place::Header(kw @ ("variant" | "extends" | "setup" | "without")) => {
                format!("after `{kw}`")
            }
            Place::Header(kw @ ("piece" | "castling" | "ruling" | "letters")) => format!("in {kw} header"),
            Place::Header("claim") => "in claim".to_string(),
            Place::Header("die") => "in die declaration".to_string(),
            Place::Header(kw) => format!("after `{kw}`"),
        }
    }

    fn help(self) -> &'static str {
        match self {
            Place::TopLevel => "a rules file is a list of items, each starting with a keyword: `variant`, `extends`, `board`, `players`, `piece`, `promotion`, `castling`, `setup`, `end`, `hand`, `hidden`, `letters`, `die`, `spread`, `entangle`, `tunnel`, `phase`, `slide`, `observe`, `ruling`, `claim`, `without` or `example`",
            Place::Body("board") => "a board block holds lines such as `files a..h`, `ranks 1..8`, `levels A..E`, `axis NAME LABELS` and `holes e4 d5`",
            Place::Body("players") => "each player is written `white: forward +rank`, more directions after commas: `white: forward +rank, up +level`",
            Place::Body("piece") => "a piece body holds `royal` and movement parts such as `move ride W` or `capture F forward takes en-passant`",
            Place::Body("promotion") => "a promotion rule is written `Pawn on rank 8 to Queen Rook Bishop Knight`",
            Place::Body("castling") => "a castling side is written `short: king to g1, rook to f1`",
            Place::Body("end") => "end rules are `checkmate: lose`, `stalemate: draw`, `draw after 50 moves without capture or Pawn move`, `draw on repetition 3` and `priority checkmate over move-limit, repetition`",
            Place::Body("hand") => "hand rules are `capture to hand`, `demote promoted to Pawn` and `drop PIECE on empty` (or `on ZONE`, `not on ZONE`; `any` for every piece)",
            Place::Body("hidden") => "a hidden block holds `pieces` and the kinds that stand face down, and optionally who sees a captured one: `hidden { pieces Queen Rook Bishop Knight Pawn  captured seen by capturer }` (or `both`, `nobody`)",
            Place::Body("letters") | Place::Header("letters") => "a letter set is written `letters NAME { PIECE LETTER … }`, e.g. `letters de { King K  Queen D  Rook T }`",
            Place::Header("hidden") => "face-down pieces are written `hidden { pieces Queen Rook Bishop Knight Pawn }`",
            Place::Body("spread") => "a spread block holds `squares at most 2`, weights such as `weight equal roll d6 { red 2 4 6  blue 1 3 5 }`, `red forward PIECE …` and `castling splits`",
            Place::Header("spread") => "spread pieces are written `spread { squares at most 2  weight equal roll d6 { red 2 4 6  blue 1 3 5 } }`",
            Place::Body("spread roll") => "a weight's roll gives the faces that mean red and those that mean blue: `roll d6 { red 2 4 6  blue 1 3 5 }`; faces are numbers or ranges such as `1..4`",
            Place::Body("tunnel roll") => "a tunnel's roll gives the faces on which the piece passes and those on which it bounces: `roll d6 { through 6  bounce 1..5 }`; faces are numbers or ranges such as `1..5`",
            Place::Body("entangle") | Place::Header("entangle") => "entanglement is written `entangle { groups \"/\" \"\\\\\" }`: the labels of the entangled groups, in double quotes",
            Place::Body("tunnel") | Place::Header("tunnel") => "tunnelling is written `tunnel { roll d6 { through 6  bounce 1..5 } }`",
            Place::Body("rule") | Place::Header("rule") => "a rule is written `rule \"name\" { on ply-end  if CONDITION  then PLAYER wins }` (or `loses`, `draw`, `PLAYER must relocate inner pieces to another AXIS`, `PLAYER must activate`), or `rule \"name\" { on offer  if CONDITION  then forbid moves after which CONDITION }`",
            Place::Header("die") => "a die is written `die NAME 1..N`, e.g. `die d6 1..6`: its faces 1 to N are equally likely",
            Place::Body("ruling") | Place::Header("ruling") => "a ruling is written `ruling \"name\" { source \"…\" quote \"…\" reading \"…\" }`; `source` may be left out",
            Place::Header("variant") => "`variant` takes the variant's name in double quotes: `variant \"Chess\"`",
            Place::Header("extends") => "`extends` takes the path of the rules file to inherit, in double quotes: `extends \"chess.rules\"`",
            Place::Header("setup") => "`setup` takes the start position as a FEN string in double quotes: `setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"`",
            Place::Header("without") => "write `without piece NAME`, `without claim NAME`, `without castling`, `without promotion`, `without hand`, `without hidden`, `without spread`, `without entangle` or `without tunnel`",
            Place::Header("claim") => "a claim is written `claim NAME: BODY`, the body one of `PIECE moves keep colour [at rest]`, `PIECE has N directions`, `no PIECE on ZONE`, `no PIECE next to enemy PIECE`, `at most N PIECE`, `hidden moves onto ZONE only by PIECE …`, `spread pieces on at most N squares` or `entangled groups at most N`",
            Place::Header("piece") => "a piece is written `piece NAME LETTER { … }`, e.g. `piece King K { royal move W move F }`",
            Place::Header("castling") => "castling is written `castling King with Rook { short: king to g1, rook to f1 }`",
            Place::Header("board") => "a board is written `board { files a..h ranks 1..8 }`",
            Place::Header("players") => "players are written `players { white: forward +rank  black: forward -rank }`",
            Place::Header("promotion") => "promotion is written `promotion { Pawn on rank 8 to Queen Rook Bishop Knight }`",
            Place::Header("end") => "the end rules are written `end { checkmate: lose  stalemate: draw }`",
            Place::Header("hand") => "the hand rules are written `hand { capture to hand  drop any on empty }`",
            Place::Body("phase") => "a phase holds `place from hand`, `order { PIECE on ZONE coloured like SQUARE … }`, `PIECE on different colours`, `placed piece attacks no enemy and is not attacked`, `castling KING on SQUARE with ROOK on SQUARE …`, `only if CONDITION` and `until hands empty`",
            Place::Body("phase order") => "a placement order lists the pieces in the order placed, each optionally with `on ZONE` and `coloured like SQUARE`: `order { King on square e1  Pawn coloured like a2 }`",
            Place::Header("phase") => "a phase is written `phase NAME { place from hand  until hands empty }`",
            Place::Body("slide") | Place::Header("slide") => "a slide item holds `levels LABEL … along AXIS`, `out at most N`, `swing N row per ply` and `overshoot N less each pass` (or `… once`), e.g. `slide { levels B along rank  out at most 3  swing 1 row per ply  overshoot 1 less each pass }`",
            Place::Body("example") | Place::Header("example") => "an example is written `example \"NAME\" { position \"FEN\"  play \"e4 e5\"  moves count 29 }`: `position`, `letters NAME` and `play` are optional; the expectation is `moves \"SAN …\"`, `moves include \"SAN …\"`, `moves count N` or `result …` (`ongoing`, `checkmate, white wins`, `stalemate, draw`)",
            Place::Header(_) | Place::Body(_) => "a block is written as its keyword followed by `{ … }`, e.g. `board { files a..h ranks 1..8 }`",
        }
    }
}

// ---------------------------------------------------------------- expectations

/// Human words for what a grammar rule matches, as used in "expected …".
fn describe(rule: Rule) -> &'static [&'static str] {
    use Rule::*;
    match rule {
        EOI => &["the end of the file"],
        file | item => &["a top-level item (`variant`, `board`, `piece`, `setup`, …)"],
        variant_item => &["`variant \"NAME\"`"],
        extends_item => &["`extends \"FILE\"`"],
        setup_item => &["`setup \"FEN\"`"],
        board_block => &["a board block"],
        board_item | axis_line => &["a board line (`files`, `ranks`, `levels`, `axis`, `holes`)"],
        label_entry | label_range => &["a coordinate label (`a`, `1`, or a range such as `a..h`)"],
        label => &["a coordinate label such as `a` or `1`"],
        holes_line => &["`holes` and squares"],
        players_block => &["a players block"],
        player_def => &["a player such as `white: forward +rank`"],
        direction_decl => &["a direction such as `forward +rank`"],
        sign => &["a sign (`+` or `-`) and an axis"],
        piece_def => &["a piece definition"],
        piece_item => &["a movement part (`move`, `quiet`, `capture`)", "`royal`"],
        move_part => &["a movement part (`move`, `quiet`, `capture`)"],
        part_mode => &["`move`", "`quiet`", "`capture`"],
        part_kind => &["`ride`", "`hop`"],
        atom => &["a step (a Betza letter such as `W`, or a vector such as `(1,2)`)"],
        vector => &["a vector such as `(1,2)`"],
        modifier => &["a modifier (a direction word, `max`, `exactly`, `from`, `sets en-passant`, `takes en-passant`, `mirror`)"],
        mod_max => &["`max N`"],
        mod_exactly => &["`exactly N`"],
        mod_from => &["`from ZONE`"],
        mod_sets_ep => &["`sets en-passant`"],
        mod_takes_ep => &["`takes en-passant`"],
        mod_mirror => &["`mirror AXIS`"],
        mod_via => &["`via step`"],
        mod_lame | word_lame => &["`lame`"],
        mod_within => &["`within ZONE`"],
        word_within => &["`within`"],
        word_via => &["`via`"],
        word_step => &["`step`"],
        zone | zone_conj | zone_atom | coord_atom => &["a zone (such as `rank 8`, `file a`, `square e4` or `start`)"],
        square_atom => &["`square` and a square"],
        start_atom => &["`start`"],
        promotion_block => &["a promotion block"],
        promotion_rule => &["a promotion rule such as `Pawn on rank 8 to Queen`"],
        promotion_from => &["`or from`"],
        promotion_capturing | word_capturing => &["`capturing`"],
        faces_through => &["`through pieces`"],
        effect_lose_right => &["`PIECES loses its first-move right`"],
        word_its | word_first_move | word_right => &["`its first-move right`"],
        piece_pass => &["`pass`"],
        pass_stuck => &["`only when no other move`"],
        piece_converts | converts_around | word_converts | word_enclosed => &["`converts around N` or `converts enclosed`"],
        word_other => &["`other`"],
        drop_unlimited | word_unlimited => &["`unlimited`"],
        drop_next_to => &["`next to own piece`"],
        drop_first_filling | word_first | word_filling => &["`first filling ZONE`"],
        drop_enclosing | word_enclosing => &["`enclosing`"],
        cond_full | word_full => &["`board full`"],
        player_wall => &["`then moves the wall anywhere` or `then shoots a wall from the moved piece`"],
        wall_moves | wall_shoots | word_the | word_wall | word_anywhere | word_shoots | word_moved => &["`moves the wall anywhere` or `shoots a wall from the moved piece`"],
        cond_passed | word_passed => &["`PLAYER passed`"],
        mod_not_over => &["`not over PIECE`"],
        mod_if => &["`if unmoved` or `if not in check`"],
        mod_when | word_unmoved | mod_unchecked => &["`unmoved` or `not in check`"],
        drop_compulsory => &["`compulsory`"],
        gate_rule => &["a gating rule such as `gate any on rank 1`"],
        word_gate => &["`gate`"],
        promotion_move => &["a promotion move such as `Pawn becomes Fers in place`"],
        move_quiet_too => &["`or with a quiet move`"],
        move_guard => &["`, if CONDITION`"],
        move_no_check => &["`, giving no check`"],
        move_no_attack => &["`, attacking no enemy piece`"],
        word_attacking => &["`attacking`"],
        word_becomes => &["`becomes`"],
        word_a => &["`a`"],
        word_giving => &["`giving`"],
        castling_block => &["a castling block"],
        castling_side => &["a castling side such as `short: king to g1, rook to f1`"],
        end_block => &["an end block"],
        end_rule => &["an end rule (`checkmate:`, `stalemate:`, `draw after …`, `draw on repetition …`, `priority …`)"],
        checkmate_rule => &["`checkmate: OUTCOME`"],
        stalemate_rule => &["`stalemate: OUTCOME`"],
        outcome => &["`win`", "`lose`", "`draw`"],
        fifty_rule => &["`draw after N moves without capture or PIECE move`"],
        fifty_reveal => &["`or reveal`"],
        repetition_rule => &["`draw on repetition N`"],
        priority_rule => &["`priority CONDITION over CONDITION`"],
        end_condition => &["an end condition (`checkmate`, `stalemate`, `move-limit`, `repetition`)"],
        claim_item => &["`claim NAME: …`"],
        claim_body => &["a claim (`PIECE moves keep colour [at rest]`, `PIECE has N directions`, `no PIECE on ZONE`, `no PIECE next to enemy PIECE`, `at most N PIECE`, `hidden moves onto ZONE only by PIECE …`, `spread pieces on at most N squares`, `entangled groups at most N`)"],
        claim_keeps_colour => &["`PIECE moves keep colour`"],
        claim_at_rest => &["`at rest`"],
        claim_directions => &["`PIECE has N directions`"],
        claim_never_adjacent => &["`no PIECE next to enemy PIECE`"],
        claim_never_on => &["`no PIECE on ZONE`"],
        claim_at_most => &["`at most N PIECE`"],
        claim_hidden => &["`hidden moves onto ZONE only by PIECE …`"],
        claim_spread => &["`spread pieces on at most N squares`"],
        claim_groups => &["`entangled groups at most N`"],
        die_item => &["`die NAME 1..N`"],
        faces | face_entry => &["a face (a number such as `6`, or a range such as `1..4`)"],
        face_range => &["a range of faces such as `1..4`"],
        spread_block => &["a spread block"],
        spread_rule => &["a spread statement (`squares at most 2`, `weight …`, `red forward …`, `castling splits`)"],
        spread_squares => &["`squares at most N`"],
        spread_weight => &["`weight NAME roll DIE { … }`"],
        colour_roll => &["`roll DIE { red … blue … }`"],
        colour_faces => &["`red FACES`", "`blue FACES`"],
        colour => &["`red`", "`blue`"],
        spread_red => &["`red forward PIECE …`"],
        word_forward => &["`forward`"],
        spread_castling => &["`castling splits`"],
        entangle_block => &["an entangle block"],
        entangle_rule | entangle_groups => &["`groups \"LABEL\" …`"],
        tunnel_block => &["a tunnel block"],
        tunnel_rule | tunnel_roll => &["`roll DIE { through … bounce … }`"],
        tunnel_faces => &["`through FACES`", "`bounce FACES`"],
        tunnel_outcome => &["`through`", "`bounce`"],
        hidden_block => &["a hidden block"],
        hidden_rule => &["`pieces PIECE …`", "`captured seen by …`"],
        hidden_pieces => &["`pieces PIECE …`"],
        hidden_seen => &["`captured seen by …`"],
        seen_by => &["`capturer`", "`both`", "`nobody`"],
        letters_block => &["a letter set"],
        letter_pair => &["a piece and its letter, such as `Queen D`"],
        without_claim => &["`claim NAME`"],
        hand_block => &["a hand block"],
        hand_rule => &["a hand rule (`capture to hand`, `demote promoted to …`, `drop …`)"],
        capture_to_hand => &["`capture to hand`"],
        demote_rule => &["`demote promoted to PIECE`"],
        drop_rule => &["`drop PIECE …`"],
        drop_where => &["`on empty`", "`on ZONE`", "`not on ZONE`"],
        drop_on_empty => &["`on empty`"],
        drop_on => &["`on ZONE`"],
        drop_not_on => &["`not on ZONE`"],
        drop_per_line => &["`at most N per AXIS`"],
        drop_limit => &["`at most N per AXIS`", "`no mate`", "`also promoted`"],
        drop_no_mate => &["`no mate`"],
        drop_promoted => &["`also promoted`"],
        word_also => &["`also`"],
        word_mate => &["`mate`"],
        ruling_block => &["a ruling"],
        ruling_field => &["`source`", "`quote`", "`reading`", "`settles`"],
        ruling_settles => &["`settles` and what the ruling decides"],
        settled | settled_item => &["what a ruling settles (`rule \"NAME\"`, `piece NAME`, `phase NAME`, `slide`, `setup`, `end`, `board`, `castling`, `promotion`, `hand`, `hidden`, `spread`, `tunnel`, `observe`, or a finding's code such as `C0236`)"],
        settled_finding => &["a finding's code (`C0236`)"],
        settled_rule => &["`rule \"NAME\"`"],
        settled_piece => &["`piece NAME`"],
        settled_phase => &["`phase NAME`"],
        without_item => &["`without …`"],
        without_what => &["`piece NAME`", "`claim NAME`", "`castling`", "`promotion`", "`hand`", "`hidden`", "`spread`", "`entangle`", "`tunnel`"],
        without_piece => &["`piece NAME`"],
        rule_block => &["a rule"],
        rule_trigger => &["`on ply-end`", "`on offer`"],
        rule_guard => &["`if CONDITION`"],
        rule_effect => &["`then …` (`PLAYER wins`, `PLAYER loses`, `draw`, `forbid moves after which …`, `PLAYER must …`, `PLAYER may …`)"],
        effect_forbid => &["`forbid moves after which CONDITION`"],
        effect_oblige | oblige_step => &[
            "`PLAYER must relocate inner pieces to another AXIS`",
            "`PLAYER must activate`",
            "`PLAYER may exile own and enemy piece from activated AXIS`",
            "`PLAYER may return exiled piece`",
        ],
        oblige_mode => &["`must`", "`may`"],
        oblige_relocate => &["`relocate inner pieces to another AXIS`", "`relocate PIECES from AXIS with COUNT PIECES to AXIS with COUNT PIECES`"],
        relocate_inner => &["`inner pieces to another AXIS`"],
        relocate_set => &["`PIECES from AXIS with COUNT PIECES to AXIS with COUNT PIECES`"],
        slice_count => &["`AXIS with COMPARISON PIECES` (such as `level with fewer than 2 black's pieces`)"],
        oblige_exile => &["`exile own and enemy piece from activated AXIS`"],
        exile_set => &["`own and enemy piece`", "`own piece`", "`enemy piece`"],
        exile_missed => &["`missed: enemy piece to owner`"],
        oblige_return => &["`return exiled piece`"],
        effect_result => &["`PLAYER wins`", "`PLAYER loses`", "`draw`"],
        cond | cond_conj | cond_lit | cond_atom => &["a condition (such as `own King on square e4`, `line 3 own Pawn along file`, `enemy in check`)"],
        cond_not => &["`not`"],
        cond_line => &["`line N PIECES along AXIS …`"],
        count_range => &["a count such as `3` or `3..4`"],
        cond_count => &["a count such as `fewer than 2 own pieces on some level`"],
        comparison | cmp_fewer | cmp_more | cmp_at_least | cmp_at_most | cmp_exactly => {
            &["a comparison (`fewer than N`, `more than N`, `at least N`, `at most N`, `exactly N`, `no`)"]
        }
        count_scope => &["`on some AXIS`, `on every AXIS` or `on ZONE`"],
        scope_some => &["`some AXIS`"],
        scope_every => &["`every AXIS`"],
        cond_distance => &["`distance PIECES to PIECES COMPARISON`"],
        cond_in_check => &["`PLAYER in check`"],
        cond_to_move => &["`PLAYER to move`"],
        cond_has_only => &["`PLAYER has only PIECE …`"],
        cond_can_move => &["`PIECES can move onto ZONE`"],
        cond_attacks => &["`PIECES attacks PIECES`"],
        cond_attacked => &["`PIECES attacked`"],
        cond_faces => &["`PIECES faces PIECES along AXIS`"],
        effect_only_capture => &["`PIECE may only capture`"],
        player_all_royal => &["`in check only when all royal pieces are attacked`"],
        word_when => &["`when`"],
        word_all => &["`all`"],
        only_checking | word_checking => &["`checking pieces`"],
        word_faces => &["`faces`"],
        cond_coloured => &["`PIECES coloured like SQUARE`"],
        cond_on => &["`PIECES on ZONE`"],
        cond_exiled => &["`exiled PIECES can return`", "`exiled PIECES can return onto PIECES`"],
        cond_phase_ends => &["`PHASE ends`"],
        piece_set => &["pieces such as `own Pawn`, `enemy pieces` or `white's King`"],
        party => &["`own`", "`enemy`", "a possessive such as `white's` or `mover's`"],
        possessive => &["a possessive such as `white's` or `mover's`"],
        apostrophe_s => &["`'s`"],
        player_ref => &["a player (`own`, `enemy`, `mover`, `opponent`, `owner` or a player's name)"],
        string | dquote => &["a string in double quotes"],
        string_inner => &["string text"],
        string_end => &["a closing `\"`"],
        name => &["a name"],
        axis_name => &["an axis name (`file`, `rank`, `level`, …)"],
        direction => &["a direction word such as `forward`"],
        piece_letter => &["the piece's letter (one letter, e.g. `K`, or `+` and a letter, e.g. `+P`)"],
        betza_letter => &["a Betza letter such as `W`"],
        square => &["a square such as `e4`"],
        number => &["a whole number"],
        integer => &["an integer"],
        lbrace => &["`{`"],
        rbrace => &["`}`"],
        lparen => &["`(`"],
        rparen => &["`)`"],
        comma => &["`,`"],
        colon => &["`:`"],
        dots => &["`..`"],
        kw_variant => &["`variant`"],
        kw_extends => &["`extends`"],
        kw_board => &["`board`"],
        kw_players => &["`players`"],
        kw_piece => &["`piece`"],
        kw_promotion => &["`promotion`"],
        kw_castling => &["`castling`"],
        kw_setup => &["`setup`"],
        kw_end => &["`end`"],
        kw_hand => &["`hand`"],
        kw_ruling => &["`ruling`"],
        kw_without => &["`without`"],
        kw_files => &["`files`"],
        kw_ranks => &["`ranks`"],
        kw_levels => &["`levels`"],
        kw_axis => &["`axis`"],
        kw_holes => &["`holes`"],
        kw_royal => &["`royal`"],
        kw_move => &["`move`"],
        kw_quiet => &["`quiet`"],
        kw_capture => &["`capture`"],
        kw_ride => &["`ride`"],
        kw_hop => &["`hop`"],
        kw_max => &["`max`"],
        kw_exactly => &["`exactly`"],
        kw_from => &["`from`"],
        kw_sets => &["`sets`"],
        kw_takes => &["`takes`"],
        kw_en_passant => &["`en-passant`"],
        kw_mirror => &["`mirror`"],
        kw_square => &["`square`"],
        kw_start => &["`start`"],
        kw_and => &["`and`"],
        kw_or => &["`or`"],
        kw_on => &["`on`"],
        kw_to => &["`to`"],
        kw_with => &["`with`"],
        kw_king => &["`king to SQUARE`"],
        kw_rook => &["`rook to SQUARE`"],
        kw_checkmate => &["`checkmate`"],
        kw_stalemate => &["`stalemate`"],
        kw_win => &["`win`"],
        kw_lose => &["`lose`"],
        kw_draw => &["`draw`"],
        kw_after => &["`after`"],
        kw_moves => &["`moves`"],
        kw_repetition => &["`repetition`"],
        kw_demote => &["`demote`"],
        kw_promoted => &["`promoted`"],
        kw_drop => &["`drop`"],
        kw_any => &["`any`"],
        kw_empty => &["`empty`"],
        kw_not => &["`not`"],
        kw_source => &["`source`"],
        kw_quote => &["`quote`"],
        kw_reading => &["`reading`"],
        kw_settles => &["`settles`"],
        kw_claim => &["`claim`"],
        kw_keep => &["`keep`"],
        kw_colour => &["`colour`"],
        kw_rest => &["`rest`"],
        kw_directions => &["`directions`"],
        kw_no => &["`no`"],
        kw_next => &["`next`"],
        kw_enemy => &["`enemy`"],
        kw_at => &["`at`"],
        kw_most => &["`most`"],
        kw_priority => &["`priority`"],
        kw_over => &["`over`"],
        kw_move_limit => &["`move-limit`"],
        kw_hidden => &["`hidden`"],
        kw_pieces => &["`pieces`"],
        kw_captured => &["`captured`"],
        kw_seen => &["`seen`"],
        kw_by => &["`by`"],
        kw_capturer => &["`capturer`"],
        kw_both => &["`both`"],
        kw_nobody => &["`nobody`"],
        kw_letters => &["`letters`"],
        kw_reveal => &["`reveal`"],
        kw_only => &["`only`"],
        kw_onto => &["`onto`"],
        kw_die => &["`die`"],
        kw_spread => &["`spread`"],
        kw_squares => &["`squares`"],
        kw_weight => &["`weight`"],
        kw_roll => &["`roll`"],
        kw_red => &["`red`"],
        kw_blue => &["`blue`"],
        kw_splits => &["`splits`"],
        kw_entangle => &["`entangle`"],
        kw_entangled => &["`entangled`"],
        kw_groups => &["`groups`"],
        kw_tunnel => &["`tunnel`"],
        observe_block => &["an observe item"],
        observe_rule => &["an observe statement (`slow PIECE to PIECE, …`, `displace by observers from departure`, `displace by observers from seen`)"],
        observe_slow => &["`slow PIECE to PIECE, …`"],
        slow_pair => &["`PIECE to PIECE`"],
        observe_displace => &["`displace by observers from departure`", "`displace by observers from seen`"],
        word_observe => &["`observe`"],
        word_slow => &["`slow`"],
        word_displace => &["`displace`"],
        word_observers => &["`observers`"],
        word_departure => &["`departure`"],
        explosion_block => &["an explosion item"],
        explosion_rule => &["an explosion statement (`around N`, `spares PIECE …`, `immune PIECE …`)"],
        explosion_around => &["`around N`"],
        explosion_spares => &["`spares PIECE …`"],
        explosion_immune => &["`immune PIECE …`"],
        explosion_kinds => &["a piece name"],
        explosion_kind => &["a piece name"],
        word_explosion => &["`explosion`"],
        effect_compel => &["`captures are compulsory`"],
        effect_no_capture => &["`PIECE may not capture PIECE`"],
        player_decl => &["a direction (`forward +rank`) or `no royal piece`"],
        player_no_royal => &["`no royal piece`"],
        castling_from => &["`rook from SQUARE`"],
        cond_checks_given => &["`PLAYER gave check N times`"],
        word_gave => &["`gave`"],
        word_times => &["`times`"],
        word_captures => &["`captures`"],
        word_are => &["`are`"],
        word_compulsory => &["`compulsory`"],
        word_around => &["`around`"],
        word_spares => &["`spares`"],
        word_immune => &["`immune`"],
        slide_block => &["a slide item"],
        slide_rule => &["a slide statement (`levels … along AXIS`, `out at most N`, `swing N row per ply`, `overshoot N less each pass`, `compass \"WORD\" \"WORD\" along AXIS`)"],
        slide_compass => &["`compass \"WORD\" \"WORD\" along AXIS`"],
        word_compass => &["`compass`"],
        slide_levels => &["`levels LABEL … along AXIS`"],
        slide_out => &["`out at most N`"],
        slide_swing => &["`swing N row per ply`"],
        slide_overshoot => &["`overshoot N less each pass`", "`overshoot N less once`"],
        overshoot_each => &["`each pass`"],
        word_out => &["`out`"],
        word_rows => &["`row`", "`rows`"],
        word_per => &["`per`"],
        word_ply => &["`ply`"],
        word_less => &["`less`"],
        word_each => &["`each`"],
        word_pass => &["`pass`"],
        word_once => &["`once`"],
        kw_slide => &["`slide`"],
        kw_along => &["`along`"],
        kw_swing => &["`swing`"],
        kw_overshoot => &["`overshoot`"],
        kw_rule => &["`rule`"],
        kw_ply_end => &["`ply-end`"],
        kw_offer => &["`offer`"],
        kw_if => &["`if`"],
        kw_then => &["`then`"],
        kw_forbid => &["`forbid`"],
        kw_must => &["`must`"],
        kw_relocate => &["`relocate`"],
        kw_inner => &["`inner`"],
        kw_another => &["`another`"],
        kw_activate => &["`activate`"],
        kw_activated => &["`activated`"],
        kw_may => &["`may`"],
        kw_exile => &["`exile`"],
        kw_exiled => &["`exiled`"],
        kw_except => &["`except`"],
        kw_missed => &["`missed`"],
        kw_return => &["`return`"],
        kw_ends => &["`ends`"],
        kw_which => &["`which`"],
        kw_wins => &["`wins`"],
        kw_loses => &["`loses`"],
        kw_line => &["`line`"],
        kw_fewer => &["`fewer`"],
        kw_more => &["`more`"],
        kw_than => &["`than`"],
        kw_least => &["`least`"],
        kw_some => &["`some`"],
        kw_every => &["`every`"],
        kw_distance => &["`distance`"],
        kw_in => &["`in`"],
        kw_check => &["`check`"],
        kw_has => &["`has`"],
        kw_can => &["`can`"],
        kw_own => &["`own`"],
        kw_owner => &["`owner`"],
        kw_mover => &["`mover`"],
        kw_opponent => &["`opponent`"],
        kw_through => &["`through`"],
        kw_bounce => &["`bounce`"],
        phase_block => &["a phase block"],
        phase_rule => &["a phase rule (`place from hand`, `order { … }`, `PIECE on different colours`, `placed piece …`, `castling …`, `until hands empty`)"],
        phase_place => &["`place from hand`"],
        phase_order => &["`order { PIECE … }`"],
        order_entry => &["a piece to place, such as `Pawn coloured like a2`"],
        order_zone => &["`on ZONE`"],
        order_colour => &["`coloured like SQUARE`"],
        phase_colours => &["`PIECE on different colours`"],
        phase_safe => &["`placed piece attacks no enemy and is not attacked`"],
        phase_castling => &["`castling KING on SQUARE with ROOK on SQUARE …`"],
        phase_until => &["`until hands empty`"],
        phase_only => &["`only if CONDITION`"],
        kw_phase => &["`phase`"],
        kw_place => &["`place`"],
        kw_placed => &["`placed`"],
        kw_order => &["`order`"],
        kw_coloured => &["`coloured`"],
        kw_colours => &["`colours`"],
        kw_like => &["`like`"],
        kw_different => &["`different`"],
        kw_attacks => &["`attacks`"],
        kw_attacked => &["`attacked`"],
        kw_is => &["`is`"],
        kw_until => &["`until`"],
        kw_hands => &["`hands`"],
        example_block => &["an example"],
        example_field => &["an example field (`position \"FEN\"`, `letters NAME`, `play \"MOVES\"`, `moves …`, `result …`)"],
        example_position => &["`position \"FEN\"`"],
        example_letters => &["`letters NAME`"],
        example_play => &["`play \"MOVES\"`"],
        example_moves => &["`moves \"SAN …\"`", "`moves include \"SAN …\"`", "`moves count N`"],
        moves_count => &["`count N`"],
        moves_include => &["`include \"SAN …\"`"],
        example_result => &["`result …`"],
        result_end => &["how the game ended (`checkmate`, `stalemate`, `move-limit`, `repetition`, `rule \"NAME\"`)", "`ongoing`"],
        result_rule => &["`rule \"NAME\"`"],
        result_verdict => &["`PLAYER wins`", "`draw`"],
        word_example => &["`example`"],
        word_position => &["`position`"],
        word_play => &["`play`"],
        word_count => &["`count`"],
        word_include => &["`include`"],
        word_result => &["`result`"],
        word_ongoing => &["`ongoing`"],
        // Silent rules: never reported by pest, listed to keep the match exhaustive.
        WHITESPACE | COMMENT | sep => &["a space"],
        ident_char | boundary => &["a letter or digit"],
        keyword | rule_keyword => &["a keyword"],
    }
}

/// Whether `rule` is an argument of the word before it (so the label may say "after `max`").
fn is_argument(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        number
            | integer
            | zone_atom
            | coord_atom
            | label
            | square
            | dquote
            | string
            | piece_letter
            | name
            | axis_name
            | atom
            | part_kind
            | betza_letter
            | vector
            | sign
            | outcome
            | drop_where
            | without_what
            | kw_en_passant
            | kw_to
            | kw_on
            | colon
            | lbrace
            | kw_with
            | kw_king
            | kw_rook
            | kw_after
            | kw_moves
            | kw_without
            | kw_capture
            | kw_move
            | kw_repetition
            | kw_promoted
            | kw_hand
            | kw_empty
            | label_entry
            | comma
            | rparen
            | kw_keep
            | kw_colour
            | kw_next
            | kw_enemy
            | kw_most
            | kw_over
            | end_condition
            | claim_body
            | seen_by
            | kw_seen
            | kw_by
            | kw_reveal
            | kw_onto
            | kw_only
            | kw_at
            | kw_pieces
            | kw_squares
            | kw_groups
            | kw_splits
            | kw_roll
            | faces
            | face_entry
            | word_forward
    )
}

/// "a, b or c" from the descriptions of `rules` (duplicates dropped, order kept).
fn expected_list(rules: &[Rule]) -> String {
    let mut words: Vec<&str> = Vec::new();
    let has_item = rules.contains(&Rule::item);
    let has_rook = rules.contains(&Rule::kw_rook);
    let has_face = rules.contains(&Rule::face_entry);
    for rule in rules {
        if has_item && *rule == Rule::EOI {
            continue; // "a top-level item" says it: the end of the file is fine too.
        }
        if has_rook && *rule == Rule::comma {
            continue; // the comma before `rook to` is optional.
        }
        if has_face && matches!(*rule, Rule::comma | Rule::dots) {
            continue; // after a face, "a face" says it: `,` and `..` are optional.
        }
        for word in describe(*rule) {
            if !words.contains(word) {
                words.push(word);
            }
        }
    }
    match words.as_slice() {
        [] => "something else".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// A help line for what was expected, when it says more than the block's help.
fn specific_help(rules: &[Rule], ctx: &Context<'_>, place: Place<'_>) -> Option<String> {
    use Rule::*;
    let has = |r: Rule| rules.contains(&r);
    let prev = ctx.prev_word;
    let in_claim = place == Place::Header("claim");
    let in_rule = matches!(place, Place::Body("rule"));
    let text = if in_rule && has(kw_in) && has(kw_to) && has(kw_has) {
        "after a player's name comes `in check`, `to move` or `has only …`; a player's pieces are written with `'s`: `white's King on rank 8`"
    } else if in_rule && (has(kw_wins) || has(kw_loses)) {
        "a result is written `PLAYER wins` or `PLAYER loses` (PLAYER: `owner`, `mover`, `opponent` or a player's name), or `draw`"
    } else if has(integer) || has(rparen) {
        "a vector lists integer steps, one per axis (file, rank, level, …), in parentheses: `(1,2)` or `(1,-1,0)`"
    } else if has(atom) || has(betza_letter) || has(vector) {
        "a movement part is MODE [ride|hop] STEP [MODIFIERS]; the step is a Betza letter (W F D N A H C Z G) or a vector such as `(1,2)`"
    } else if has(piece_letter) {
        "a piece is written `piece NAME LETTER { … }`: after the name comes the one letter that stands for it in FEN, e.g. `piece King K`"
    } else if has(zone_atom) || has(coord_atom) || (has(label) && place != Place::Body("board")) {
        "a zone is a coordinate such as `rank 2`, `file a` or `level E`, or `square e4`; combine them with `and` and `or`"
    } else if has(claim_body)
        || (in_claim
            && [kw_keep, kw_colour, kw_next, kw_enemy, kw_at, kw_most, kw_onto, kw_only, kw_pieces, kw_squares, kw_groups]
                .iter()
                .any(|r| has(*r)))
    {
        "a claim is written `claim NAME: BODY`, the body one of `PIECE moves keep colour [at rest]`, `PIECE has N directions`, `no PIECE on ZONE`, `no PIECE next to enemy PIECE`, `at most N PIECE`, `hidden moves onto ZONE only by PIECE …`, `spread pieces on at most N squares` or `entangled groups at most N`"
    } else if has(end_condition) || has(kw_over) {
        "a priority line names end conditions (`checkmate`, `stalemate`, `move-limit`, `repetition`): `priority checkmate over move-limit, repetition`"
    } else if matches!(place, Place::Body("spread roll" | "tunnel roll")) {
        // The roll block's own help says what its faces are.
        return None;
    } else if has(word_forward) {
        "`red forward PIECE …` names the kinds whose red half must stand in front, e.g. `red forward Pawn`"
    } else if has(number) {
        match (prev, place, ctx.claim_form) {
            (Some("max"), _, _) => "`max` takes the most steps a ride may go, e.g. `max 2`",
            (Some("exactly"), _, _) => "`exactly` takes the number of steps a ride goes, e.g. `exactly 2`",
            (Some("most"), Place::Body("spread"), _) => "`squares at most` takes the number of squares one piece may stand on: `squares at most 2`",
            (Some("most"), _, Some("spread")) => "the claim is written `spread pieces on at most N squares`, e.g. `spread pieces on at most 2 squares`",
            (Some("most"), _, Some("entangled")) => "the claim is written `entangled groups at most N`, e.g. `entangled groups at most 2`",
            (Some("most"), _, _) => "`at most` takes the largest number of pieces, then the piece: `at most 1 King`",
            (_, Place::Header("die"), _) => "a die is written `die NAME 1..N`, e.g. `die d6 1..6`: its faces 1 to N are equally likely",
            _ => "write a whole number, e.g. `3`",
        }
    } else if has(sign) {
        "a direction is declared as a word, a sign and an axis: `forward +rank`"
    } else if has(seen_by) || has(kw_seen) {
        "a captured face-down piece is `captured seen by capturer`, `captured seen by both` or `captured seen by nobody`"
    } else if has(outcome) {
        "the result is for the side to move: `win`, `lose` or `draw`"
    } else if has(drop_where) {
        "a drop rule ends with `on empty`, `on ZONE` or `not on ZONE`, e.g. `drop Pawn not on rank 1 or rank 8`"
    } else if has(kw_en_passant) {
        "write `sets en-passant` (the squares passed may be taken en passant) or `takes en-passant`"
    } else if has(axis_name) && prev == Some("mirror") {
        "`mirror` takes the axes to reflect across, e.g. `mirror file`"
    } else {
        return None;
    };
    Some(text.to_string())
}

/// The keywords that could start what `rule` matches (for "did you mean").
fn keywords_of(rule: Rule) -> &'static [&'static str] {
    use Rule::*;
    match rule {
        item => TOP_LEVEL,
        board_item => &["files", "ranks", "levels", "axis", "holes"],
        piece_item => &["royal", "move", "quiet", "capture"],
        part_mode => &["move", "quiet", "capture"],
        part_kind => &["ride", "hop"],
        modifier => &["max", "exactly", "from", "sets", "takes", "mirror"],
        end_rule => &["checkmate", "stalemate", "draw", "priority"],
        end_condition => &["checkmate", "stalemate", "move-limit", "repetition"],
        claim_body => &["no", "at", "hidden", "spread", "entangled"],
        spread_rule => &["squares", "weight", "red", "castling"],
        colour_faces | colour => &["red", "blue"],
        tunnel_faces | tunnel_outcome => &["through", "bounce"],
        entangle_rule => &["groups"],
        tunnel_rule => &["roll"],
        hidden_rule => &["pieces", "captured"],
        seen_by => &["capturer", "both", "nobody"],
        outcome => &["win", "lose", "draw"],
        hand_rule => &["capture", "demote", "drop"],
        ruling_field => &["source", "quote", "reading", "settles"],
        without_what => &["piece", "claim", "castling", "promotion", "hand", "hidden", "spread", "entangle", "tunnel"],
        drop_where => &["on", "not"],
        _ => {
            // Keywords are described as "`word`" or "`word …`".
            let d = describe(rule).first().copied().unwrap_or("");
            let word = d
                .strip_prefix('`')
                .and_then(|d| d.split(['`', ' ']).next())
                .unwrap_or("");
            KEYWORDS
                .iter()
                .position(|k| *k == word)
                .map(|i| &KEYWORDS[i..=i])
                .unwrap_or(&[])
        }
    }
}

/// "did you mean `piece`?" when the found word is one or two typos from an expected keyword.
fn suggestion(word: Option<&str>, rules: &[Rule]) -> Option<String> {
    let word = word?;
    if !word.is_ascii() {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let allowed = if lower.len() <= 4 { 1 } else { 2 };
    let mut best: Option<(usize, &str)> = None;
    for rule in rules {
        for kw in keywords_of(*rule) {
            let d = edit_distance(&lower, kw);
            if d <= allowed && d < kw.len() && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, kw));
            }
        }
    }
    best.map(|(_, kw)| format!("did you mean `{kw}`?"))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn floor_char_boundary(s: &str, mut pos: usize) -> usize {
    pos = pos.min(s.len());
    while !s.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

fn next_char_end(s: &str, pos: usize) -> usize {
    s[pos..].chars().next().map_or(pos, |c| pos + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_typos() {
        assert_eq!(edit_distance("pieces", "piece"), 1);
        assert_eq!(edit_distance("cpature", "capture"), 2);
        assert_eq!(edit_distance("x", "or"), 2);
    }

    /// The reserved words in three places agree: the `kw_*` rules, the grammar's
    /// `keyword` rule (names may not be one) and [`KEYWORDS`].
    #[test]
    fn keyword_lists_agree() {
        let kw_rules: Vec<&str> = Rule::all_rules()
            .iter()
            .filter(|r| format!("{r:?}").starts_with("kw_"))
            .map(|r| {
                describe(*r)[0]
                    .trim_matches('`')
                    .split(' ')
                    .next()
                    .unwrap_or("")
            })
            .collect();
        let mut a = kw_rules.clone();
        let mut b = KEYWORDS.to_vec();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        for kw in KEYWORDS {
            let src = format!("players {{ white: {kw} +rank }}");
            assert!(crate::parse("t", &src).is_err(), "{kw} accepted as a name");
            if !kw.contains('-') {
                let src = format!("players {{ white: {kw}x +rank, x{kw} -rank }}");
                assert!(crate::parse("t", &src).is_ok(), "{kw}x rejected");
            }
        }
    }

    #[test]
    fn found_token_spans_words_strings_and_eof() {
        let src = "ab-c x \"q\\\"r\" é";
        let f = Found::at(src, 0);
        assert_eq!(f.text, "ab-c");
        let f = Found::at(src, 7);
        assert_eq!(&src[f.span.start..f.span.end], "\"q\\\"r\"");
        let f = Found::at(src, 14);
        assert_eq!(f.text, "é");
        assert!(Found::at(src, src.len()).eof);
    }
}
