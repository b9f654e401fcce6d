//! The parser: pest grammar (`grammar/rules.pest`) → [`ast::File`].
//!
//! [`parse`] runs the pest parser, then walks the pairs into the syntax tree.
//! A pest error is turned into a [`Diagnostic`] by the sibling module
//! `errors`, which has human wording for every grammar rule.
//!
//! Nothing here panics on any input: the tree walk never unwraps, and a shape it
//! does not expect (a bug in the grammar or here) becomes an `E0000` diagnostic.

// `Result<_, Diagnostic>` is the crate's contract; a parse fails once, so the
// size of the error value does not matter.
#![allow(clippy::result_large_err)]

use pest::iterators::Pair;
use pest::Parser;

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::errors;
use crate::docs;

/// The pest parser generated from `grammar/rules.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "../rules.pest"]
pub(crate) struct RulesParser;

type Res<T> = Result<T, Diagnostic>;

/// Parses the text of one `.rules` file into its syntax tree.
///
/// `file` is only the name shown in a diagnostic (a path, or a pseudo-name).
/// On the first problem it returns one [`Diagnostic`] with one of these codes:
///
/// | code | meaning |
/// |---|---|
/// | `E0001` | syntax error: an unexpected token (the label says what was expected) |
/// | `E0002` | a string is not closed on its line, or has an unknown escape |
/// | `E0003` | a number does not fit (`max`, `exactly`, counts: `u32`; vector steps: `i32`) |
/// | `E0004` | a `ruling` lacks its `quote` or `reading`, or repeats a field |
/// | `E0005` | a doc comment (`##` lines) is not directly above an item |
/// | `E0006` | an `example` has no expectation (`moves …`, `result …`), or repeats a field |
/// | `E0000` | internal error (a bug in this crate, never expected) |
///
/// Spans are byte offsets into `source`. The function never panics.
pub fn parse(file: &str, source: &str) -> Result<File, Diagnostic> {
    let mut pairs = match RulesParser::parse(Rule::file, source) {
        Ok(pairs) => pairs,
        Err(err) => return Err(errors::syntax_error(file, source, &err)),
    };
    let builder = Builder { file };
    let (mut tree, starts) = match pairs.next() {
        Some(pair) => builder.file(pair)?,
        None => return Err(builder.internal(Span::new(0, 0), "no parse tree")),
    };
    tree.docs = docs::attach(file, source, &starts)?;
    Ok(tree)
}

/// The words that begin a top-level item.
const ITEM_KEYWORDS: &[&str] = &[
    "variant", "extends", "board", "players", "piece", "promotion", "castling", "setup", "end",
    "hand", "ruling", "without", "claim", "hidden", "letters", "die", "spread", "entangle",
    "tunnel", "phase", "slide", "rule", "observe", "example",
];

/// Most syntax errors reported for one file.
const MAX_SYNTAX_ERRORS: usize = 20;

/// Parses like [`parse`] but reports every syntax error it can find, not just
/// the first: after an error, the top-level item that contains it is skipped
/// up to the next line that starts (in column 1) with an item keyword, and
/// parsing starts again. Spans stay offsets into `source`.
pub fn parse_all(file: &str, source: &str) -> Result<File, Vec<Diagnostic>> {
    match parse_partial(file, source) {
        (Some(tree), diags) if diags.is_empty() => Ok(tree),
        (_, diags) => Err(diags),
    }
}

/// [`parse_all`]'s partial result, for an editor: every syntax error found,
/// and the tree of the items that parse (the items with errors left out),
/// when what is left parses. Spans stay offsets into `source`.
pub fn parse_partial(file: &str, source: &str) -> (Option<File>, Vec<Diagnostic>) {
    let mut text = source.to_string();
    let mut diags: Vec<Diagnostic> = Vec::new();
    loop {
        match parse(file, &text) {
            Ok(tree) => return (Some(tree), diags),
            Err(d) => {
                let at = d.span.start.min(text.len());
                let repeated = diags.last().is_some_and(|p| p.span == d.span);
                if !repeated {
                    diags.push(d);
                }
                // Blank the failing item (keeping byte offsets and line breaks).
                let (start, end) = item_around(&text, at);
                if repeated || start >= end || diags.len() >= MAX_SYNTAX_ERRORS {
                    return (None, diags);
                }
                let blanked: String = text[start..end]
                    .chars()
                    .map(|c| if c == '\n' { c } else { ' ' })
                    .collect();
                // Multi-byte characters become one space each: pad to keep offsets.
                let pad = (end - start).saturating_sub(blanked.len());
                text.replace_range(start..end, &(blanked + &" ".repeat(pad)));
            }
        }
    }
}

/// The byte range of the top-level item around `at`: from the start of the
/// last line at or before `at` that begins with an item keyword, to the start of
/// the next such line after `at` (or the end of the text). An error exactly at
/// the start of an item (an unclosed block before it) belongs to the item before.
fn item_around(text: &str, at: usize) -> (usize, usize) {
    let starts_item = |line: &str| {
        let word: String = line.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        ITEM_KEYWORDS.contains(&word.as_str())
    };
    let mut start = 0;
    let mut end = text.len();
    let mut offset = 0;
    // Where the run of `##` lines just above the current line began (they
    // are the doc comment of the item below them, and go with it).
    let mut docs_from: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        if starts_item(line) {
            if offset < at || (offset == 0 && at == 0) {
                start = docs_from.unwrap_or(offset);
            } else {
                end = docs_from.unwrap_or(offset);
                break;
            }
        }
        if line.starts_with("##") {
            docs_from.get_or_insert(offset);
        } else {
            docs_from = None;
        }
        offset += line.len();
    }
    (start, end)
}

/// Turns pest pairs into syntax tree nodes.
struct Builder<'f> {
    file: &'f str,
}

/// The span of a pair, without the whitespace and comments pest includes at
/// the end of a rule that ends in `x*` or `x?` matching nothing: every token is
/// a named rule, so a rule ends where its last token ends.
fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    let end = match pair.clone().into_inner().last() {
        Some(last) => span_of(&last).end,
        None => s.end(),
    };
    Span::new(s.start(), end)
}

fn ident(pair: &Pair<'_, Rule>) -> Ident {
    Spanned::new(pair.as_str().to_string(), span_of(pair))
}

fn first_inner(pair: Pair<'_, Rule>) -> Option<Pair<'_, Rule>> {
    pair.into_inner().next()
}

impl Builder<'_> {
    /// A diagnostic for a parse tree this code does not expect (a bug, not a user error).
    fn internal(&self, span: Span, what: &str) -> Diagnostic {
        Diagnostic::error(
            "E0000",
            self.file,
            span,
            format!("internal parser error: {what}"),
            "the parser stopped here",
        )
        .with_help("this is a bug in rulebook-grammar; please report it together with this file")
    }

    fn need<T>(&self, value: Option<T>, span: Span, what: &str) -> Res<T> {
        value.ok_or_else(|| self.internal(span, what))
    }

    /// The file's tree (without its doc comments) and where each item starts.
    fn file(&self, pair: Pair<'_, Rule>) -> Res<(File, Vec<usize>)> {
        let span = span_of(&pair);
        let mut items = Vec::new();
        let mut starts = Vec::new();
        for child in pair.into_inner() {
            if child.as_rule() == Rule::item {
                starts.push(child.as_span().start());
                items.push(self.item(child)?);
            }
        }
        Ok((File { items, docs: Vec::new(), span }, starts))
    }

    fn item(&self, pair: Pair<'_, Rule>) -> Res<Item> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty item")?;
        Ok(match inner.as_rule() {
            Rule::variant_item => Item::Variant(self.string_child(inner)?),
            Rule::extends_item => Item::Extends(self.string_child(inner)?),
            Rule::setup_item => Item::Setup(self.string_child(inner)?),
            Rule::board_block => Item::Board(self.board(inner)?),
            Rule::players_block => Item::Players(self.players(inner)?),
            Rule::piece_def => Item::Piece(self.piece(inner)?),
            Rule::promotion_block => Item::Promotion(self.promotion(inner)?),
            Rule::castling_block => Item::Castling(self.castling(inner)?),
            Rule::end_block => Item::End(self.end(inner)?),
            Rule::hand_block => Item::Hand(self.hand(inner)?),
            Rule::ruling_block => Item::Ruling(self.ruling(inner)?),
            Rule::without_item => Item::Without(self.without(inner)?),
            Rule::claim_item => Item::Claim(self.claim(inner)?),
            Rule::hidden_block => Item::Hidden(self.hidden(inner)?),
            Rule::letters_block => Item::Letters(self.letters(inner)?),
            Rule::die_item => Item::Die(self.die(inner)?),
            Rule::spread_block => Item::Spread(self.spread(inner)?),
            Rule::entangle_block => Item::Entangle(self.entangle(inner)?),
            Rule::tunnel_block => Item::Tunnel(self.tunnel(inner)?),
            Rule::slide_block => Item::Slide(self.slide(inner)?),
            Rule::observe_block => Item::Observe(self.observe(inner)?),
            Rule::explosion_block => Item::Explosion(self.explosion(inner)?),
            Rule::rule_block => Item::Rule(self.rule_def(inner)?),
            Rule::phase_block => Item::Phase(self.phase(inner)?),
            Rule::example_block => Item::Example(self.example(inner)?),
            _ => return Err(self.internal(span, "unknown item")),
        })
    }

    // ------------------------------------------------------------ tokens

    /// The first `string` child of `pair`.
    fn string_child(&self, pair: Pair<'_, Rule>) -> Res<Spanned<String>> {
        let span = span_of(&pair);
        let s = pair.into_inner().find(|p| p.as_rule() == Rule::string);
        self.string(self.need(s, span, "missing string")?)
    }

    /// A string literal: the value unescaped, the span covering the quotes.
    fn string(&self, pair: Pair<'_, Rule>) -> Res<Spanned<String>> {
        let span = span_of(&pair);
        let raw = pair
            .into_inner()
            .find(|p| p.as_rule() == Rule::string_inner)
            .map(|p| p.as_str())
            .unwrap_or("");
        let mut value = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                // The grammar admits only `\"` and `\\`.
                if let Some(escaped) = chars.next() {
                    value.push(escaped);
                }
            } else {
                value.push(c);
            }
        }
        Ok(Spanned::new(value, span))
    }

    /// A non-negative count (`max 2`, `draw on repetition 3`).
    fn number(&self, pair: &Pair<'_, Rule>) -> Res<Spanned<u32>> {
        let span = span_of(pair);
        match pair.as_str().parse::<u32>() {
            Ok(n) => Ok(Spanned::new(n, span)),
            Err(_) => Err(errors::number_too_large(
                self.file,
                span,
                pair.as_str(),
                "a count here is at most 4294967295",
            )),
        }
    }

    /// One component of a vector.
    fn integer(&self, pair: &Pair<'_, Rule>) -> Res<i32> {
        pair.as_str().parse::<i32>().map_err(|_| {
            errors::number_too_large(
                self.file,
                span_of(pair),
                pair.as_str(),
                "a vector component is between -2147483648 and 2147483647",
            )
        })
    }

    // ------------------------------------------------------------ board

    fn board(&self, pair: Pair<'_, Rule>) -> Res<Board> {
        let span = span_of(&pair);
        let mut axes = Vec::new();
        let mut holes = Vec::new();
        for item in pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::board_item)
        {
            let item_span = span_of(&item);
            let line = self.need(first_inner(item), item_span, "empty board line")?;
            match line.as_rule() {
                Rule::axis_line => axes.push(self.axis(line)?),
                Rule::holes_line => holes.extend(
                    line.into_inner()
                        .filter(|p| p.as_rule() == Rule::square)
                        .map(|p| ident(&p)),
                ),
                _ => return Err(self.internal(item_span, "unknown board line")),
            }
        }
        Ok(Board { axes, holes, span })
    }

    fn axis(&self, pair: Pair<'_, Rule>) -> Res<Axis> {
        let span = span_of(&pair);
        let mut name = None;
        let mut labels = Vec::new();
        for child in pair.into_inner() {
            let keyword_axis = |word: &str| Some(Spanned::new(word.to_string(), span_of(&child)));
            match child.as_rule() {
                Rule::kw_files => name = keyword_axis("file"),
                Rule::kw_ranks => name = keyword_axis("rank"),
                Rule::kw_levels => name = keyword_axis("level"),
                Rule::name => name = Some(ident(&child)),
                Rule::label_entry => labels.push(self.label_entry(child)?),
                _ => {}
            }
        }
        let name = self.need(name, span, "axis without a name")?;
        Ok(Axis { name, labels, span })
    }

    fn label_entry(&self, pair: Pair<'_, Rule>) -> Res<Label> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty label")?;
        match inner.as_rule() {
            Rule::label => Ok(Label::Single(ident(&inner))),
            Rule::label_range => {
                let mut ends = inner.into_inner().filter(|p| p.as_rule() == Rule::label);
                let low = self.need(ends.next(), span, "range without start")?;
                let high = self.need(ends.next(), span, "range without end")?;
                Ok(Label::Range(ident(&low), ident(&high)))
            }
            _ => Err(self.internal(span, "unknown label")),
        }
    }

    // ------------------------------------------------------------ players

    fn players(&self, pair: Pair<'_, Rule>) -> Res<Players> {
        let span = span_of(&pair);
        let mut players = Vec::new();
        for def in pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::player_def)
        {
            let def_span = span_of(&def);
            let mut name = None;
            let mut directions = Vec::new();
            let mut no_royal = None;
            let mut all_royal = None;
            let mut wall = None;
            for child in def.into_inner() {
                match child.as_rule() {
                    Rule::name => name = Some(ident(&child)),
                    Rule::direction_decl => directions.push(self.direction_decl(child)?),
                    Rule::player_no_royal => no_royal = Some(span_of(&child)),
                    Rule::player_all_royal => all_royal = Some(span_of(&child)),
                    Rule::player_wall => {
                        let s = span_of(&child);
                        let shoots = child.into_inner().any(|c| c.as_rule() == Rule::wall_shoots);
                        wall = Some(Spanned::new(if shoots { WallRule::ShootsFromMoved } else { WallRule::MovesAnywhere }, s));
                    }
                    _ => {}
                }
            }
            let name = self.need(name, def_span, "player without a name")?;
            players.push(PlayerDef {
                name,
                directions,
                no_royal,
                all_royal,
                wall,
                span: def_span,
            });
        }
        Ok(Players { players, span })
    }

    fn direction_decl(&self, pair: Pair<'_, Rule>) -> Res<DirectionDecl> {
        let span = span_of(&pair);
        let mut word = None;
        let mut positive = None;
        let mut axis = None;
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::direction => word = Some(ident(&child)),
                Rule::sign => positive = Some(child.as_str() == "+"),
                Rule::axis_name => axis = Some(ident(&child)),
                _ => {}
            }
        }
        Ok(DirectionDecl {
            word: self.need(word, span, "direction without a word")?,
            positive: self.need(positive, span, "direction without a sign")?,
            axis: self.need(axis, span, "direction without an axis")?,
            span,
        })
    }

    // ------------------------------------------------------------ pieces

    fn piece(&self, pair: Pair<'_, Rule>) -> Res<PieceDef> {
        let span = span_of(&pair);
        let mut name = None;
        let mut letter = None;
        let mut body = Vec::new();
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::name => name = Some(ident(&child)),
                Rule::piece_letter => letter = Some(ident(&child)),
                Rule::piece_item => {
                    let item_span = span_of(&child);
                    let inner = self.need(first_inner(child), item_span, "empty piece item")?;
                    body.push(match inner.as_rule() {
                        Rule::kw_royal => PieceItem::Royal(item_span),
                        Rule::piece_pass => PieceItem::Pass(item_span, inner.into_inner().any(|c| c.as_rule() == Rule::pass_stuck)),
                        Rule::piece_converts => {
                            let around = inner.into_inner().find(|c| c.as_rule() == Rule::converts_around);
                            let conversion = match around {
                                Some(a) => {
                                    let n = a.into_inner().find(|c| c.as_rule() == Rule::number);
                                    Conversion::Around(self.number(&self.need(n, item_span, "missing distance")?)?.node)
                                }
                                None => Conversion::Enclosed,
                            };
                            PieceItem::Converts(item_span, conversion)
                        }
                        Rule::move_part => PieceItem::Part(self.move_part(inner)?),
                        _ => return Err(self.internal(item_span, "unknown piece item")),
                    });
                }
                _ => {}
            }
        }
        Ok(PieceDef {
            name: self.need(name, span, "piece without a name")?,
            letter: self.need(letter, span, "piece without a letter")?,
            body,
            span,
        })
    }

    fn move_part(&self, pair: Pair<'_, Rule>) -> Res<MovePart> {
        let span = span_of(&pair);
        let mut mode = None;
        let mut kind = None;
        let mut atom = None;
        let mut modifiers = Vec::new();
        for child in pair.into_inner() {
            let child_span = span_of(&child);
            match child.as_rule() {
                Rule::part_mode => {
                    let m = match first_inner(child).map(|p| p.as_rule()) {
                        Some(Rule::kw_move) => Mode::Move,
                        Some(Rule::kw_quiet) => Mode::Quiet,
                        Some(Rule::kw_capture) => Mode::Capture,
                        _ => return Err(self.internal(child_span, "unknown mode")),
                    };
                    mode = Some(Spanned::new(m, child_span));
                }
                Rule::part_kind => {
                    let k = match first_inner(child).map(|p| p.as_rule()) {
                        Some(Rule::kw_ride) => PatternKind::Ride,
                        Some(Rule::kw_hop) => PatternKind::Hop,
                        _ => return Err(self.internal(child_span, "unknown pattern kind")),
                    };
                    kind = Some(Spanned::new(k, child_span));
                }
                Rule::atom => atom = Some(self.atom(child)?),
                Rule::modifier => modifiers.push(self.modifier(child)?),
                _ => {}
            }
        }
        let mode = self.need(mode, span, "part without a mode")?;
        let atom = self.need(atom, span, "part without an atom")?;
        // A leap is written as nothing: its span is the atom's.
        let kind = kind.unwrap_or(Spanned::new(PatternKind::Leap, atom.span));
        Ok(MovePart {
            mode,
            kind,
            atom,
            modifiers,
            span,
        })
    }

    fn atom(&self, pair: Pair<'_, Rule>) -> Res<Spanned<Atom>> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty atom")?;
        match inner.as_rule() {
            Rule::betza_letter => Ok(Spanned::new(Atom::Letter(inner.as_str().to_string()), span)),
            Rule::vector => {
                let mut components = Vec::new();
                for c in inner.into_inner().filter(|p| p.as_rule() == Rule::integer) {
                    components.push(self.integer(&c)?);
                }
                Ok(Spanned::new(Atom::Vector(components), span))
            }
            _ => Err(self.internal(span, "unknown atom")),
        }
    }

    fn modifier(&self, pair: Pair<'_, Rule>) -> Res<Spanned<Modifier>> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty modifier")?;
        let number_in = |p: Pair<'_, Rule>| -> Res<u32> {
            let n = p.into_inner().find(|c| c.as_rule() == Rule::number);
            Ok(self.number(&self.need(n, span, "missing number")?)?.node)
        };
        let modifier = match inner.as_rule() {
            Rule::mod_max => Modifier::Max(number_in(inner)?),
            Rule::mod_exactly => Modifier::Exactly(number_in(inner)?),
            Rule::mod_from => {
                let z = inner.into_inner().find(|c| c.as_rule() == Rule::zone);
                Modifier::From(self.zone(self.need(z, span, "missing zone")?)?)
            }
            Rule::mod_sets_ep => Modifier::SetsEnPassant,
            Rule::mod_takes_ep => Modifier::TakesEnPassant,
            Rule::mod_via => Modifier::ViaStep,
            Rule::mod_lame => Modifier::Lame,
            Rule::mod_not_over => {
                let n = inner.into_inner().find(|c| c.as_rule() == Rule::name);
                Modifier::NotOver(ident(&self.need(n, span, "missing piece")?))
            }
            Rule::mod_if => {
                let whens: Vec<Rule> = inner.into_inner().filter(|c| c.as_rule() == Rule::mod_when).filter_map(|c| first_inner(c).map(|w| w.as_rule())).collect();
                Modifier::When { unmoved: whens.contains(&Rule::word_unmoved), not_in_check: whens.contains(&Rule::mod_unchecked) }
            }
            Rule::mod_within => {
                let z = inner.into_inner().find(|p| p.as_rule() == Rule::zone);
                Modifier::Within(self.zone(self.need(z, span, "missing zone")?)?)
            }
            Rule::mod_mirror => Modifier::Mirror(
                inner
                    .into_inner()
                    .filter(|c| c.as_rule() == Rule::axis_name)
                    .map(|c| ident(&c))
                    .collect(),
            ),
            Rule::direction => Modifier::Direction(inner.as_str().to_string()),
            _ => return Err(self.internal(span, "unknown modifier")),
        };
        Ok(Spanned::new(modifier, span))
    }

    // ------------------------------------------------------------ zones

    fn zone(&self, pair: Pair<'_, Rule>) -> Res<Zone> {
        let span = span_of(&pair);
        let mut any_of = Vec::new();
        for conj in pair.into_inner().filter(|p| p.as_rule() == Rule::zone_conj) {
            let conj_span = span_of(&conj);
            let mut all_of = Vec::new();
            for atom in conj.into_inner().filter(|p| p.as_rule() == Rule::zone_atom) {
                all_of.push(self.zone_atom(atom)?);
            }
            any_of.push(ZoneConj {
                all_of,
                span: conj_span,
            });
        }
        Ok(Zone { any_of, span })
    }

    fn zone_atom(&self, pair: Pair<'_, Rule>) -> Res<ZoneAtom> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty zone constraint")?;
        match inner.as_rule() {
            Rule::start_atom => Ok(ZoneAtom::Start(span)),
            Rule::square_atom => {
                let sq = inner.into_inner().find(|p| p.as_rule() == Rule::square);
                Ok(ZoneAtom::Square(ident(&self.need(
                    sq,
                    span,
                    "missing square",
                )?)))
            }
            Rule::coord_atom => {
                let mut axis = None;
                let mut label = None;
                let mut to = None;
                for c in inner.into_inner() {
                    match c.as_rule() {
                        Rule::axis_name => axis = Some(ident(&c)),
                        Rule::label if label.is_none() => label = Some(ident(&c)),
                        Rule::label => to = Some(ident(&c)),
                        _ => {}
                    }
                }
                Ok(ZoneAtom::Coord {
                    axis: self.need(axis, span, "missing axis")?,
                    label: self.need(label, span, "missing label")?,
                    to,
                })
            }
            _ => Err(self.internal(span, "unknown zone constraint")),
        }
    }

    // ------------------------------------------------------------ promotion, castling

    fn promotion(&self, pair: Pair<'_, Rule>) -> Res<Promotion> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        let mut moves = Vec::new();
        for rule in pair.into_inner() {
            if rule.as_rule() == Rule::promotion_move {
                moves.push(self.promotion_move(rule)?);
                continue;
            }
            if rule.as_rule() != Rule::promotion_rule {
                continue;
            }
            let rule_span = span_of(&rule);
            let mut piece = None;
            let mut zone = None;
            let mut targets = Vec::new();
            let mut from_too = false;
            let mut capturing = false;
            for c in rule.into_inner() {
                match c.as_rule() {
                    Rule::name if piece.is_none() => piece = Some(ident(&c)),
                    Rule::name => targets.push(ident(&c)),
                    Rule::zone => zone = Some(self.zone(c)?),
                    Rule::promotion_from => from_too = true,
                    Rule::promotion_capturing => capturing = true,
                    _ => {}
                }
            }
            rules.push(PromotionRule {
                piece: self.need(piece, rule_span, "promotion without a piece")?,
                zone: self.need(zone, rule_span, "promotion without a zone")?,
                from_too,
                capturing,
                targets,
                span: rule_span,
            });
        }
        Ok(Promotion { rules, moves, span })
    }

    /// `Pawn on ZONE becomes Fers in place …` (see [`PromotionMove`]).
    fn promotion_move(&self, pair: Pair<'_, Rule>) -> Res<PromotionMove> {
        let span = span_of(&pair);
        let mut piece = None;
        let mut zone = None;
        let mut targets = Vec::new();
        let (mut quiet_move, mut guard, mut no_check, mut no_attack) = (false, None, false, false);
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::name if piece.is_none() => piece = Some(ident(&c)),
                Rule::name => targets.push(ident(&c)),
                Rule::zone => zone = Some(self.zone(c)?),
                Rule::move_quiet_too => quiet_move = true,
                Rule::move_guard => {
                    let cond = c.into_inner().find(|p| p.as_rule() == Rule::cond);
                    guard = Some(self.cond(self.need(cond, span, "`if` without a condition")?)?);
                }
                Rule::move_no_check => no_check = true,
                Rule::move_no_attack => no_attack = true,
                _ => {}
            }
        }
        Ok(PromotionMove { piece: self.need(piece, span, "promotion without a piece")?, zone, targets, quiet_move, guard, no_check, no_attack, span })
    }

    fn castling(&self, pair: Pair<'_, Rule>) -> Res<Castling> {
        let span = span_of(&pair);
        let mut names = Vec::new();
        let mut sides = Vec::new();
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::name => names.push(ident(&c)),
                Rule::castling_side => {
                    let side_span = span_of(&c);
                    let mut name = None;
                    let mut squares = Vec::new();
                    let mut rook_from = None;
                    for s in c.into_inner() {
                        match s.as_rule() {
                            Rule::name => name = Some(ident(&s)),
                            Rule::square => squares.push(ident(&s)),
                            Rule::castling_from => rook_from = s.into_inner().find(|q| q.as_rule() == Rule::square).map(|q| ident(&q)),
                            _ => {}
                        }
                    }
                    let mut squares = squares.into_iter();
                    sides.push(CastlingSide {
                        name: self.need(name, side_span, "side without a name")?,
                        king_to: self.need(
                            squares.next(),
                            side_span,
                            "side without king square",
                        )?,
                        rook_to: self.need(
                            squares.next(),
                            side_span,
                            "side without rook square",
                        )?,
                        rook_from,
                        span: side_span,
                    });
                }
                _ => {}
            }
        }
        let mut names = names.into_iter();
        Ok(Castling {
            king: self.need(names.next(), span, "castling without a king")?,
            rook: self.need(names.next(), span, "castling without a rook")?,
            more_partners: names.collect(),
            sides,
            span,
        })
    }

    // ------------------------------------------------------------ end, hand

    fn end(&self, pair: Pair<'_, Rule>) -> Res<End> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::end_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty end rule")?;
            let end_rule = match inner.as_rule() {
                Rule::checkmate_rule => EndRule::Checkmate(self.outcome_in(inner)?),
                Rule::stalemate_rule => EndRule::Stalemate(self.outcome_in(inner)?),
                Rule::fifty_rule => {
                    let mut moves = None;
                    let mut piece = None;
                    let mut reveal = None;
                    for c in inner.into_inner() {
                        match c.as_rule() {
                            Rule::number => moves = Some(self.number(&c)?),
                            Rule::name => piece = Some(ident(&c)),
                            Rule::fifty_reveal => reveal = Some(span_of(&c)),
                            _ => {}
                        }
                    }
                    EndRule::FiftyMove {
                        moves: self.need(moves, rule_span, "missing move count")?,
                        piece: self.need(piece, rule_span, "missing piece")?,
                        reveal,
                    }
                }
                Rule::repetition_rule => {
                    let n = inner.into_inner().find(|c| c.as_rule() == Rule::number);
                    EndRule::Repetition(self.number(&self.need(
                        n,
                        rule_span,
                        "missing count",
                    )?)?)
                }
                Rule::priority_rule => self.priority(inner)?,
                _ => return Err(self.internal(rule_span, "unknown end rule")),
            };
            rules.push(Spanned::new(end_rule, rule_span));
        }
        Ok(End { rules, span })
    }

    /// `priority A over B, C`: the first condition and the ones after `over`.
    fn priority(&self, pair: Pair<'_, Rule>) -> Res<EndRule> {
        let span = span_of(&pair);
        let mut conditions = Vec::new();
        for c in pair
            .into_inner()
            .filter(|c| c.as_rule() == Rule::end_condition)
        {
            conditions.push(self.end_condition(c)?);
        }
        let mut conditions = conditions.into_iter();
        let higher = self.need(conditions.next(), span, "priority without a condition")?;
        let lower: Vec<_> = conditions.collect();
        if lower.is_empty() {
            return Err(self.internal(span, "priority without `over`"));
        }
        Ok(EndRule::Priority { higher, lower })
    }

    fn end_condition(&self, pair: Pair<'_, Rule>) -> Res<Spanned<EndCondition>> {
        let span = span_of(&pair);
        let condition = match first_inner(pair).map(|p| p.as_rule()) {
            Some(Rule::kw_checkmate) => EndCondition::Checkmate,
            Some(Rule::kw_stalemate) => EndCondition::Stalemate,
            Some(Rule::kw_move_limit) => EndCondition::MoveLimit,
            Some(Rule::kw_repetition) => EndCondition::Repetition,
            _ => return Err(self.internal(span, "unknown end condition")),
        };
        Ok(Spanned::new(condition, span))
    }

    fn outcome_in(&self, pair: Pair<'_, Rule>) -> Res<Spanned<Outcome>> {
        let span = span_of(&pair);
        let o = pair.into_inner().find(|c| c.as_rule() == Rule::outcome);
        let o = self.need(o, span, "missing outcome")?;
        let o_span = span_of(&o);
        let outcome = match first_inner(o).map(|p| p.as_rule()) {
            Some(Rule::kw_win) => Outcome::Win,
            Some(Rule::kw_lose) => Outcome::Lose,
            Some(Rule::kw_draw) => Outcome::Draw,
            _ => return Err(self.internal(o_span, "unknown outcome")),
        };
        Ok(Spanned::new(outcome, o_span))
    }

    fn hand(&self, pair: Pair<'_, Rule>) -> Res<Hand> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::hand_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty hand rule")?;
            let hand_rule = match inner.as_rule() {
                Rule::capture_to_hand => HandRule::CaptureToHand,
                Rule::demote_rule => {
                    let n = inner.into_inner().find(|c| c.as_rule() == Rule::name);
                    HandRule::DemotePromoted(ident(&self.need(n, rule_span, "missing piece")?))
                }
                Rule::drop_rule => self.drop_rule(inner)?,
                Rule::gate_rule => match self.drop_rule(inner)? {
                    // The same piece and zone words as a drop, no limits.
                    HandRule::Drop { piece, only, except, .. } => HandRule::Gate { piece, only, except },
                    _ => return Err(self.internal(rule_span, "unknown gate rule")),
                },
                _ => return Err(self.internal(rule_span, "unknown hand rule")),
            };
            rules.push(Spanned::new(hand_rule, rule_span));
        }
        Ok(Hand { rules, span })
    }

    fn drop_rule(&self, pair: Pair<'_, Rule>) -> Res<HandRule> {
        let mut piece = None;
        let mut only = None;
        let mut except = None;
        let mut per_line = None;
        let mut no_mate = None;
        let mut also_promoted = None;
        let mut compulsory = None;
        let (mut unlimited, mut next_to_own, mut enclosing, mut first_filling) = (None, None, None, None);
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::name => piece = Some(ident(&c)),
                Rule::drop_per_line => {
                    let c_span = span_of(&c);
                    let mut n = None;
                    let mut axis = None;
                    for p in c.into_inner() {
                        match p.as_rule() {
                            Rule::number => n = Some(self.number(&p)?),
                            Rule::axis_name => axis = Some(ident(&p)),
                            _ => {}
                        }
                    }
                    per_line = Some((self.need(n, c_span, "missing count")?, self.need(axis, c_span, "missing axis")?));
                }
                Rule::drop_no_mate => no_mate = Some(span_of(&c)),
                Rule::drop_promoted => also_promoted = Some(span_of(&c)),
                Rule::drop_compulsory => compulsory = Some(span_of(&c)),
                Rule::drop_unlimited => unlimited = Some(span_of(&c)),
                Rule::drop_next_to => next_to_own = Some(span_of(&c)),
                Rule::drop_enclosing => enclosing = Some(span_of(&c)),
                Rule::drop_first_filling => {
                    let c_span = span_of(&c);
                    let z = c.into_inner().find(|p| p.as_rule() == Rule::zone);
                    first_filling = Some(self.zone(self.need(z, c_span, "missing zone")?)?);
                }
                Rule::drop_where => {
                    let w_span = span_of(&c);
                    let w = self.need(first_inner(c), w_span, "empty drop zone")?;
                    let rule = w.as_rule();
                    let zone = w.into_inner().find(|z| z.as_rule() == Rule::zone);
                    match rule {
                        Rule::drop_on_empty => {}
                        Rule::drop_on => {
                            only = Some(self.zone(self.need(zone, w_span, "missing zone")?)?)
                        }
                        Rule::drop_not_on => {
                            except = Some(self.zone(self.need(zone, w_span, "missing zone")?)?)
                        }
                        _ => return Err(self.internal(w_span, "unknown drop zone")),
                    }
                }
                _ => {}
            }
        }
        Ok(HandRule::Drop {
            piece,
            only,
            except,
            per_line,
            no_mate,
            also_promoted,
            compulsory,
            unlimited,
            next_to_own,
            enclosing,
            first_filling,
        })
    }

    // ------------------------------------------------------------ ruling, without

    fn ruling(&self, pair: Pair<'_, Rule>) -> Res<Ruling> {
        let span = span_of(&pair);
        let mut name = None;
        let mut source: Option<(Span, Spanned<String>)> = None;
        let mut quote: Option<(Span, Spanned<String>)> = None;
        let mut reading: Option<(Span, Spanned<String>)> = None;
        let mut settles: Vec<Spanned<Settled>> = Vec::new();
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::string => name = Some(self.string(c)?),
                Rule::ruling_field if c.clone().into_inner().any(|f| f.as_rule() == Rule::ruling_settles) => {
                    let field = c.into_inner().find(|f| f.as_rule() == Rule::ruling_settles);
                    for target in field.into_iter().flat_map(|f| f.into_inner()).filter(|t| t.as_rule() == Rule::settled) {
                        settles.push(self.settled(target)?);
                    }
                }
                Rule::ruling_field => {
                    let field_span = span_of(&c);
                    let mut keyword = None;
                    let mut value = None;
                    for f in c.into_inner() {
                        match f.as_rule() {
                            Rule::string => value = Some(self.string(f)?),
                            rule => keyword = Some((rule, span_of(&f), f.as_str())),
                        }
                    }
                    let (rule, kw_span, word) =
                        self.need(keyword, field_span, "field without keyword")?;
                    let value = self.need(value, field_span, "field without a string")?;
                    let slot = match rule {
                        Rule::kw_source => &mut source,
                        Rule::kw_quote => &mut quote,
                        Rule::kw_reading => &mut reading,
                        _ => return Err(self.internal(field_span, "unknown ruling field")),
                    };
                    if let Some((first, _)) = slot {
                        return Err(errors::duplicate_ruling_field(
                            self.file, kw_span, *first, word,
                        ));
                    }
                    *slot = Some((kw_span, value));
                }
                _ => {}
            }
        }
        let name = self.need(name, span, "ruling without a name")?;
        let missing = |field: &str| errors::missing_ruling_field(self.file, name.span, span, field);
        let quote = quote.ok_or_else(|| missing("quote"))?.1;
        let reading = reading.ok_or_else(|| missing("reading"))?.1;
        Ok(Ruling {
            name,
            source: source.map(|s| s.1),
            quote,
            reading,
            settles,
            span,
        })
    }

    /// One target of `settles`.
    fn settled(&self, pair: Pair<'_, Rule>) -> Res<Spanned<Settled>> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty settles target")?;
        let value = match inner.as_rule() {
            Rule::settled_rule => {
                let s = inner.into_inner().find(|c| c.as_rule() == Rule::string);
                Settled::Rule(self.string(self.need(s, span, "rule without a name")?)?.node)
            }
            Rule::settled_piece | Rule::settled_phase => {
                let piece = inner.as_rule() == Rule::settled_piece;
                let n = inner.into_inner().find(|c| c.as_rule() == Rule::name);
                let n = self.need(n, span, "settles target without a name")?.as_str().to_string();
                if piece {
                    Settled::Piece(n)
                } else {
                    Settled::Phase(n)
                }
            }
            Rule::settled_item => Settled::Item(inner.as_str().trim().to_string()),
            Rule::settled_finding => Settled::Finding(inner.as_str().to_string()),
            _ => return Err(self.internal(span, "unknown settles target")),
        };
        Ok(Spanned::new(value, span))
    }

    fn without(&self, pair: Pair<'_, Rule>) -> Res<Spanned<Without>> {
        let span = span_of(&pair);
        let what = pair
            .into_inner()
            .find(|c| c.as_rule() == Rule::without_what);
        let what = self.need(what, span, "missing without target")?;
        let inner = self.need(first_inner(what), span, "empty without target")?;
        let without = match inner.as_rule() {
            Rule::without_piece => {
                let n = inner.into_inner().find(|c| c.as_rule() == Rule::name);
                Without::Piece(ident(&self.need(n, span, "missing piece")?))
            }
            Rule::without_claim => {
                let n = inner.into_inner().find(|c| c.as_rule() == Rule::name);
                Without::Claim(ident(&self.need(n, span, "missing claim name")?))
            }
            Rule::kw_castling => Without::Castling,
            Rule::kw_promotion => Without::Promotion,
            Rule::kw_hand => Without::Hand,
            Rule::kw_hidden => Without::Hidden,
            Rule::kw_spread => Without::Spread,
            Rule::kw_entangle => Without::Entangle,
            Rule::kw_tunnel => Without::Tunnel,
            Rule::word_explosion => Without::Explosion,
            _ => return Err(self.internal(span, "unknown without target")),
        };
        Ok(Spanned::new(without, span))
    }

    // ------------------------------------------------------------ claim

    fn claim(&self, pair: Pair<'_, Rule>) -> Res<Claim> {
        let span = span_of(&pair);
        let mut name = None;
        let mut body = None;
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::name => name = Some(ident(&c)),
                Rule::claim_body => body = Some(self.claim_body(c)?),
                _ => {}
            }
        }
        Ok(Claim {
            name: self.need(name, span, "claim without a name")?,
            body: self.need(body, span, "claim without a body")?,
            span,
        })
    }

    fn claim_body(&self, pair: Pair<'_, Rule>) -> Res<Spanned<ClaimBody>> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty claim body")?;
        let rule = inner.as_rule();
        let mut names = Vec::new();
        let mut zone = None;
        let mut count = None;
        let mut at_rest = false;
        for c in inner.into_inner() {
            match c.as_rule() {
                Rule::name => names.push(ident(&c)),
                Rule::claim_at_rest => at_rest = true,
                Rule::zone => zone = Some(self.zone(c)?),
                Rule::number => count = Some(self.number(&c)?),
                _ => {}
            }
        }
        let mut names = names.into_iter();
        let mut piece = || self.need(names.next(), span, "claim without a piece");
        let body = match rule {
            Rule::claim_keeps_colour => ClaimBody::KeepsColour { piece: piece()?, at_rest },
            Rule::claim_never_adjacent => ClaimBody::NeverAdjacent {
                piece: piece()?,
                other: piece()?,
            },
            Rule::claim_never_on => ClaimBody::NeverOn {
                piece: piece()?,
                zone: self.need(zone, span, "claim without a zone")?,
            },
            Rule::claim_directions => ClaimBody::Directions {
                piece: piece()?,
                count: self.need(count, span, "claim without a count")?,
            },
            Rule::claim_at_most => ClaimBody::AtMost {
                count: self.need(count, span, "claim without a count")?,
                piece: piece()?,
            },
            Rule::claim_hidden => {
                let pieces: Vec<Ident> = names.collect();
                if pieces.is_empty() {
                    return Err(self.internal(span, "claim without a piece"));
                }
                ClaimBody::HiddenArrivals {
                    zone: self.need(zone, span, "claim without a zone")?,
                    pieces,
                }
            }
            Rule::claim_spread => ClaimBody::SpreadAtMost {
                squares: self.need(count, span, "claim without a bound")?,
            },
            Rule::claim_groups => ClaimBody::GroupsAtMost {
                groups: self.need(count, span, "claim without a bound")?,
            },
            _ => return Err(self.internal(span, "unknown claim")),
        };
        Ok(Spanned::new(body, span))
    }

    // ------------------------------------------------------------ hidden, letters

    fn hidden(&self, pair: Pair<'_, Rule>) -> Res<Hidden> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::hidden_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty hidden rule")?;
            let hidden_rule = match inner.as_rule() {
                Rule::hidden_pieces => HiddenRule::Pieces(
                    inner
                        .into_inner()
                        .filter(|c| c.as_rule() == Rule::name)
                        .map(|c| ident(&c))
                        .collect(),
                ),
                Rule::hidden_seen => {
                    let who = inner.into_inner().find(|c| c.as_rule() == Rule::seen_by);
                    let who = self.need(who, rule_span, "missing who sees")?;
                    let who_span = span_of(&who);
                    let seen_by = match first_inner(who).map(|p| p.as_rule()) {
                        Some(Rule::kw_capturer) => SeenBy::Capturer,
                        Some(Rule::kw_both) => SeenBy::Both,
                        Some(Rule::kw_nobody) => SeenBy::Nobody,
                        _ => return Err(self.internal(who_span, "unknown `seen by`")),
                    };
                    HiddenRule::CapturedSeenBy(Spanned::new(seen_by, who_span))
                }
                _ => return Err(self.internal(rule_span, "unknown hidden rule")),
            };
            rules.push(Spanned::new(hidden_rule, rule_span));
        }
        Ok(Hidden { rules, span })
    }

    fn letters(&self, pair: Pair<'_, Rule>) -> Res<LetterSetDef> {
        let span = span_of(&pair);
        let mut name = None;
        let mut letters = Vec::new();
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::name => name = Some(ident(&c)),
                Rule::letter_pair => {
                    let pair_span = span_of(&c);
                    let mut piece = None;
                    let mut letter = None;
                    for p in c.into_inner() {
                        match p.as_rule() {
                            Rule::name => piece = Some(ident(&p)),
                            Rule::piece_letter => letter = Some(ident(&p)),
                            _ => {}
                        }
                    }
                    letters.push(LetterPair {
                        piece: self.need(piece, pair_span, "letter without a piece")?,
                        letter: self.need(letter, pair_span, "piece without a letter")?,
                        span: pair_span,
                    });
                }
                _ => {}
            }
        }
        Ok(LetterSetDef {
            name: self.need(name, span, "letter set without a name")?,
            letters,
            span,
        })
    }

    // ------------------------------------------------------------ dice, spread, entangle, tunnel

    fn die(&self, pair: Pair<'_, Rule>) -> Res<DieDef> {
        let span = span_of(&pair);
        let mut name = None;
        let mut numbers = Vec::new();
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::name => name = Some(ident(&c)),
                Rule::number => numbers.push(self.number(&c)?),
                _ => {}
            }
        }
        let mut numbers = numbers.into_iter();
        Ok(DieDef {
            name: self.need(name, span, "die without a name")?,
            low: self.need(numbers.next(), span, "die without faces")?,
            high: self.need(numbers.next(), span, "die without a last face")?,
            span,
        })
    }

    /// A list of faces: single numbers and ranges.
    fn faces(&self, pair: Pair<'_, Rule>) -> Res<Vec<Faces>> {
        let mut out = Vec::new();
        for entry in pair.into_inner().filter(|p| p.as_rule() == Rule::face_entry) {
            let entry_span = span_of(&entry);
            let inner = self.need(first_inner(entry), entry_span, "empty face")?;
            match inner.as_rule() {
                Rule::number => out.push(Faces::One(self.number(&inner)?)),
                Rule::face_range => {
                    let mut ends = inner.into_inner().filter(|p| p.as_rule() == Rule::number);
                    let low = self.need(ends.next(), entry_span, "range without start")?;
                    let high = self.need(ends.next(), entry_span, "range without end")?;
                    out.push(Faces::Range(self.number(&low)?, self.number(&high)?));
                }
                _ => return Err(self.internal(entry_span, "unknown face")),
            }
        }
        Ok(out)
    }

    /// `roll d6 { red 2 4 6  blue 1 3 5 }` or `roll d6 { through 6  bounce 1..5 }`.
    fn roll(&self, pair: Pair<'_, Rule>) -> Res<Roll> {
        let span = span_of(&pair);
        let mut die = None;
        let mut sides = Vec::new();
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::name => die = Some(ident(&c)),
                Rule::colour_faces | Rule::tunnel_faces => {
                    let side_span = span_of(&c);
                    let mut outcome = None;
                    let mut faces = None;
                    for p in c.into_inner() {
                        match p.as_rule() {
                            Rule::colour | Rule::tunnel_outcome => {
                                let o_span = span_of(&p);
                                let o = match first_inner(p).map(|k| k.as_rule()) {
                                    Some(Rule::kw_red) => RollOutcome::Red,
                                    Some(Rule::kw_blue) => RollOutcome::Blue,
                                    Some(Rule::kw_through) => RollOutcome::Through,
                                    Some(Rule::kw_bounce) => RollOutcome::Bounce,
                                    _ => return Err(self.internal(o_span, "unknown roll outcome")),
                                };
                                outcome = Some(Spanned::new(o, o_span));
                            }
                            Rule::faces => faces = Some(self.faces(p)?),
                            _ => {}
                        }
                    }
                    sides.push(RollSide {
                        outcome: self.need(outcome, side_span, "faces without an outcome")?,
                        faces: self.need(faces, side_span, "outcome without faces")?,
                        span: side_span,
                    });
                }
                _ => {}
            }
        }
        Ok(Roll {
            die: self.need(die, span, "roll without a die")?,
            sides,
            span,
        })
    }

    fn spread(&self, pair: Pair<'_, Rule>) -> Res<Spread> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::spread_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty spread rule")?;
            let spread_rule = match inner.as_rule() {
                Rule::spread_squares => {
                    let n = inner.into_inner().find(|c| c.as_rule() == Rule::number);
                    SpreadRule::SquaresAtMost(self.number(&self.need(n, rule_span, "missing count")?)?)
                }
                Rule::spread_weight => {
                    let mut name = None;
                    let mut roll = None;
                    for c in inner.into_inner() {
                        match c.as_rule() {
                            Rule::name => name = Some(ident(&c)),
                            Rule::colour_roll => roll = Some(self.roll(c)?),
                            _ => {}
                        }
                    }
                    SpreadRule::Weight(WeightDef {
                        name: self.need(name, rule_span, "weight without a name")?,
                        roll: self.need(roll, rule_span, "weight without a roll")?,
                    })
                }
                Rule::spread_red => {
                    let mut forward = None;
                    let mut kinds = Vec::new();
                    for c in inner.into_inner() {
                        match c.as_rule() {
                            Rule::word_forward => forward = Some(span_of(&c)),
                            Rule::name => kinds.push(ident(&c)),
                            _ => {}
                        }
                    }
                    SpreadRule::RedForward {
                        forward: self.need(forward, rule_span, "`red` without `forward`")?,
                        kinds,
                    }
                }
                Rule::spread_castling => SpreadRule::CastlingSplits,
                _ => return Err(self.internal(rule_span, "unknown spread rule")),
            };
            rules.push(Spanned::new(spread_rule, rule_span));
        }
        Ok(Spread { rules, span })
    }

    fn entangle(&self, pair: Pair<'_, Rule>) -> Res<Entangle> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::entangle_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty entangle rule")?;
            let entangle_rule = match inner.as_rule() {
                Rule::entangle_groups => {
                    let mut labels = Vec::new();
                    for c in inner.into_inner().filter(|c| c.as_rule() == Rule::string) {
                        labels.push(self.string(c)?);
                    }
                    EntangleRule::Groups(labels)
                }
                _ => return Err(self.internal(rule_span, "unknown entangle rule")),
            };
            rules.push(Spanned::new(entangle_rule, rule_span));
        }
        Ok(Entangle { rules, span })
    }

    fn tunnel(&self, pair: Pair<'_, Rule>) -> Res<Tunnel> {
        let span = span_of(&pair);
        let mut rules = Vec::new();
        for rule in pair.into_inner().filter(|p| p.as_rule() == Rule::tunnel_rule) {
            let rule_span = span_of(&rule);
            let inner = self.need(first_inner(rule), rule_span, "empty tunnel rule")?;
            let tunnel_rule = match inner.as_rule() {
                Rule::tunnel_roll => TunnelRule::Roll(self.roll(inner)?),
                _ => return Err(self.internal(rule_span, "unknown tunnel rule")),
            };
            rules.push(Spanned::new(tunnel_rule, rule_span));
        }
        Ok(Tunnel { rules, span })
    }
}

mod phase;
mod observe;
mod explosion;
mod slide;
mod rule;
mod example;

#[cfg(test)]
mod tests;
