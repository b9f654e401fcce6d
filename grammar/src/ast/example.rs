//! The `example` item (issue 16): a worked example of the rules, checked like
//! a doctest (`rulebook doc` draws it, `cargo test` runs it).

use super::{Ident, Span, Spanned};

/// `example "NAME" { position "FEN"  letters de  play "e4 e5"  moves count 29 }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Example {
    /// The example's name.
    pub name: Spanned<String>,
    /// `position "FEN"`: where it starts (the setup when absent).
    pub position: Option<Spanned<String>>,
    /// `letters NAME`: the letter set its move texts are written in (any set when absent).
    pub letters: Option<Ident>,
    /// `play "…"`: a line of moves played from the position before the expectation is checked.
    pub play: Option<Spanned<String>>,
    /// What must hold after the line (exactly one; the span covers the field).
    pub expect: Spanned<Expect>,
    /// The whole item.
    pub span: Span,
}

/// The expectation of an example.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expect {
    /// `moves "a3 a4 …"`: the legal decisions are exactly these (SAN, any order).
    Moves(Spanned<String>),
    /// `moves include "…"`: each of these is a legal decision (others may be too).
    Includes(Spanned<String>),
    /// `moves count 20`: the number of legal decisions.
    Count(Spanned<u32>),
    /// `result …`: how the game stands after the line.
    Result(ExampleResult),
}

/// `result ongoing`, `result checkmate, black wins`, `result stalemate, draw`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExampleResult {
    /// `ongoing`: the game is not over.
    Ongoing,
    /// The game is over by `end`, won by `winner` (`None`: drawn).
    Over {
        /// How it ended.
        end: Spanned<ExampleEnd>,
        /// `NAME wins`: the player's name; `draw`: `None`.
        winner: Option<Ident>,
    },
}

/// How an example's game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExampleEnd {
    /// `checkmate`.
    Checkmate,
    /// `stalemate`.
    Stalemate,
    /// `move-limit`: the `draw after N moves …` rule.
    MoveLimit,
    /// `repetition`: the `draw on repetition N` rule.
    Repetition,
    /// `rule "NAME"`: a `rule` item ended it.
    Rule(Spanned<String>),
}
