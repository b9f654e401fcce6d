//! The editor's queries on the salsa database: what a file says (its
//! definitions) and what is wrong with it right now (the quick diagnostics).
//! Both are tracked, so an edit re-runs them only for the files it reaches.

use crate::db::{chain, compile, parse, Db, SourceFile};
use rulebook_grammar::ast::{self, Item, Span};
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::Variant;

/// What a name defined in a rules file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// `variant "…"`.
    Variant,
    /// `extends "…"`.
    Extends,
    /// A block without a name of its own (`board`, `players`, `end`, …).
    Block,
    /// `piece Name L { … }`.
    Piece,
    /// A direction word declared under `players` (`forward`).
    Direction,
    /// `die d6 1..6`.
    Die,
    /// `letters de { … }`.
    Letters,
    /// `phase opening { … }`.
    Phase,
    /// `rule "…" { … }`.
    Rule,
    /// `ruling "…" { … }`.
    Ruling,
    /// `claim name: …`.
    Claim,
    /// `example "…" { … }`.
    Example,
}

impl SymbolKind {
    /// Can the name be used elsewhere in the rules (so that references,
    /// rename and completion apply)? Strings (rules, rulings, examples) are not names.
    pub fn is_name(self) -> bool {
        matches!(self, SymbolKind::Piece | SymbolKind::Direction | SymbolKind::Die | SymbolKind::Letters | SymbolKind::Phase | SymbolKind::Claim)
    }

    /// The word for it in hover and completion details.
    pub fn word(self) -> &'static str {
        match self {
            SymbolKind::Variant => "variant",
            SymbolKind::Extends => "extends",
            SymbolKind::Block => "block",
            SymbolKind::Piece => "piece",
            SymbolKind::Direction => "direction",
            SymbolKind::Die => "die",
            SymbolKind::Letters => "letter set",
            SymbolKind::Phase => "phase",
            SymbolKind::Rule => "rule",
            SymbolKind::Ruling => "ruling",
            SymbolKind::Claim => "claim",
            SymbolKind::Example => "example",
        }
    }
}

/// One definition of a file: an item, or a name an item declares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    /// The name as written (for strings, without the quotes).
    pub name: String,
    /// What it is.
    pub kind: SymbolKind,
    /// Where the name stands.
    pub name_span: Span,
    /// The whole item (or declaration).
    pub span: Span,
}

/// The tree of `file`'s items that parse, while others have syntax errors
/// (those left out): what the editor works on as the author types. `None`
/// when not even that parses.
#[salsa::tracked(returns(ref))]
pub fn partial_tree(db: &dyn Db, file: SourceFile) -> Option<ast::File> {
    if let Ok(tree) = parse(db, file) {
        return Some(tree.clone());
    }
    rulebook_grammar::parse_partial(&file.name(db), file.text(db)).0
}

/// The definitions of `file`, in file order (of the items that parse).
#[salsa::tracked(returns(ref))]
pub fn symbols(db: &dyn Db, file: SourceFile) -> Vec<Symbol> {
    let Some(tree) = partial_tree(db, file) else { return Vec::new() };
    let mut out = Vec::new();
    let mut push = |name: &str, kind, name_span: Span, span: Span| out.push(Symbol { name: name.to_string(), kind, name_span, span });
    for item in &tree.items {
        match item {
            Item::Variant(s) => push(&s.node, SymbolKind::Variant, s.span, s.span),
            Item::Extends(s) => push(&s.node, SymbolKind::Extends, s.span, s.span),
            Item::Board(b) => push("board", SymbolKind::Block, b.span, b.span),
            Item::Players(p) => {
                push("players", SymbolKind::Block, p.span, p.span);
                for d in p.players.iter().flat_map(|p| &p.directions) {
                    push(&d.word.node, SymbolKind::Direction, d.word.span, d.span);
                }
            }
            Item::Piece(p) => push(&p.name.node, SymbolKind::Piece, p.name.span, p.span),
            Item::Promotion(p) => push("promotion", SymbolKind::Block, p.span, p.span),
            Item::Castling(c) => push("castling", SymbolKind::Block, c.span, c.span),
            Item::Setup(s) => push("setup", SymbolKind::Block, s.span, s.span),
            Item::End(e) => push("end", SymbolKind::Block, e.span, e.span),
            Item::Hand(h) => push("hand", SymbolKind::Block, h.span, h.span),
            Item::Phase(p) => push(&p.name.node, SymbolKind::Phase, p.name.span, p.span),
            Item::Ruling(r) => push(&r.name.node, SymbolKind::Ruling, r.name.span, r.span),
            Item::Without(w) => push("without", SymbolKind::Block, w.span, w.span),
            Item::Claim(c) => push(&c.name.node, SymbolKind::Claim, c.name.span, c.span),
            Item::Hidden(h) => push("hidden", SymbolKind::Block, h.span, h.span),
            Item::Letters(l) => push(&l.name.node, SymbolKind::Letters, l.name.span, l.span),
            Item::Die(d) => push(&d.name.node, SymbolKind::Die, d.name.span, d.span),
            Item::Spread(s) => push("spread", SymbolKind::Block, s.span, s.span),
            Item::Entangle(e) => push("entangle", SymbolKind::Block, e.span, e.span),
            Item::Tunnel(t) => push("tunnel", SymbolKind::Block, t.span, t.span),
            Item::Slide(s) => push("slide", SymbolKind::Block, s.span, s.span),
            Item::Observe(o) => push("observe", SymbolKind::Block, o.span, o.span),
            Item::Explosion(e) => push("explosion", SymbolKind::Block, e.span, e.span),
            Item::Rule(r) => push(&r.name.node, SymbolKind::Rule, r.name.span, r.span),
            Item::Example(e) => push(&e.name.node, SymbolKind::Example, e.name.span, e.span),
        }
    }
    out
}

/// The diagnostics an edit should show at once: the syntax errors, else
/// the semantic ones (lowering the `extends` chain), else the setup's quick
/// checks of `rulebook check` (`E0190`, `E0191`). Milliseconds; the
/// verifier runs on save ([`super::verify`]).
#[salsa::tracked(returns(ref))]
pub fn quick_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    match compile(db, file) {
        Err(diags) => diags.clone(),
        Ok(game) => {
            let files = chain(db, file);
            let v = Variant::new(game.clone());
            crate::commands::check::check_setup(db, &files, &v).0
        }
    }
}

/// The `extends` item of `tree` whose path string contains `offset`.
pub fn extends_at(tree: &ast::File, offset: usize) -> Option<&ast::Spanned<String>> {
    tree.items.iter().find_map(|i| match i {
        Item::Extends(s) if s.span.start <= offset && offset <= s.span.end => Some(s),
        _ => None,
    })
}

/// The zones written in `tree` (in movement parts, promotions, hand rules
/// and claims), for hover.
pub fn zones(tree: &ast::File) -> Vec<&ast::Zone> {
    use ast::{ClaimBody, HandRule, Modifier, PieceItem};
    let mut out: Vec<&ast::Zone> = Vec::new();
    for item in &tree.items {
        match item {
            Item::Piece(p) => {
                for part in p.body.iter().filter_map(|b| match b {
                    PieceItem::Part(part) => Some(part),
                    _ => None,
                }) {
                    for m in &part.modifiers {
                        match &m.node {
                            Modifier::From(z) | Modifier::Within(z) => out.push(z),
                            _ => {}
                        }
                    }
                }
            }
            Item::Promotion(p) => {
                out.extend(p.rules.iter().map(|r| &r.zone));
                out.extend(p.moves.iter().filter_map(|m| m.zone.as_ref()));
            }
            Item::Hand(h) => {
                for r in &h.rules {
                    match &r.node {
                        HandRule::Gate { only, except, .. } => out.extend(only.iter().chain(except)),
                        HandRule::Drop { only, except, first_filling, .. } => out.extend(only.iter().chain(except).chain(first_filling)),
                        _ => {}
                    }
                }
            }
            Item::Claim(c) => match &c.body.node {
                ClaimBody::NeverOn { zone, .. } | ClaimBody::HiddenArrivals { zone, .. } => out.push(zone),
                _ => {}
            },
            _ => {}
        }
    }
    out
}
