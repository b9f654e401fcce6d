//! Doc comments in the model (`##` lines above an item, LANGUAGE §2): the
//! author's words, with the item each documents.

use rulebook_grammar::ast::Span;

/// The documentation of one item, as written above it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ItemDoc {
    /// The item it documents.
    pub item: ItemRef,
    /// The text: the `##` and one space after it stripped from each line, lines joined with `\n`.
    pub text: String,
    /// Where the comment was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// An item of a rules file, by its keyword and (where items of a kind are
/// told apart by name) its name, as [`crate::model::Settles`] names items.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ItemRef {
    /// `variant "…"`.
    Variant,
    /// `extends "…"`.
    Extends,
    /// `board { … }`.
    Board,
    /// `players { … }`.
    Players,
    /// `piece NAME …`.
    Piece(String),
    /// `promotion { … }`.
    Promotion,
    /// `castling … { … }`.
    Castling,
    /// `setup "…"`.
    Setup,
    /// `end { … }`.
    End,
    /// `hand { … }` (captures to hand and drops).
    Hand,
    /// `ruling "NAME" { … }`.
    Ruling(String),
    /// `without …`, by what it removes as written (`piece Knight`, `claim x`, `castling`).
    Without(String),
    /// `claim NAME: …`.
    Claim(String),
    /// `hidden { … }`.
    Hidden,
    /// `letters NAME { … }`.
    Letters(String),
    /// `die NAME …`.
    Die(String),
    /// `spread { … }`.
    Spread,
    /// `entangle { … }`.
    Entangle,
    /// `tunnel { … }`.
    Tunnel,
    /// `slide { … }`.
    Slide,
    /// `observe { … }`.
    Observe,
    /// The `explosion` item.
    Explosion,
    /// `phase NAME { … }`.
    Phase(String),
    /// `rule "NAME" { … }`.
    Rule(String),
    /// `example "NAME" { … }`.
    Example(String),
}

impl std::fmt::Display for ItemRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ItemRef::Variant => write!(f, "variant"),
            ItemRef::Extends => write!(f, "extends"),
            ItemRef::Board => write!(f, "board"),
            ItemRef::Players => write!(f, "players"),
            ItemRef::Piece(n) => write!(f, "piece {n}"),
            ItemRef::Promotion => write!(f, "promotion"),
            ItemRef::Castling => write!(f, "castling"),
            ItemRef::Setup => write!(f, "setup"),
            ItemRef::End => write!(f, "end"),
            ItemRef::Hand => write!(f, "hand"),
            ItemRef::Ruling(n) => write!(f, "ruling \"{n}\""),
            ItemRef::Without(w) => write!(f, "without {w}"),
            ItemRef::Claim(n) => write!(f, "claim {n}"),
            ItemRef::Hidden => write!(f, "hidden"),
            ItemRef::Letters(n) => write!(f, "letters {n}"),
            ItemRef::Die(n) => write!(f, "die {n}"),
            ItemRef::Spread => write!(f, "spread"),
            ItemRef::Entangle => write!(f, "entangle"),
            ItemRef::Tunnel => write!(f, "tunnel"),
            ItemRef::Slide => write!(f, "slide"),
            ItemRef::Observe => write!(f, "observe"),
            ItemRef::Explosion => write!(f, "explosion"),
            ItemRef::Phase(n) => write!(f, "phase {n}"),
            ItemRef::Rule(n) => write!(f, "rule \"{n}\""),
            ItemRef::Example(n) => write!(f, "example \"{n}\""),
        }
    }
}
