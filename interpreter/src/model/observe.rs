//! Observation (`observe { … }`, issue 15): a moving piece that passes or
//! lands on a cell in the capturing range of an enemy piece is *seen* there,
//! and its move is replaced by the mover's choice of alternatives: going on
//! from that cell moving as another kind (`slow`), or going to a cell as far
//! from its departure (or from the seen cell) as the number of enemy pieces
//! that see it (`displace`). How moves are transformed is in
//! [`crate::engine::movegen::observe`].

use crate::model::KindId;
use rulebook_grammar::ast::Span;

/// The `observe` item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// Per kind: the kind a seen piece of it goes on moving as (`slow
    /// Queen to Rook`), if any.
    pub slow: Vec<Option<KindId>>,
    /// `displace by observers from …`: where the distance is counted from
    /// (`None`: no displacement).
    pub displace: Option<Anchor>,
    /// Where the item was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// Where a displacement's distance is counted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// `from departure`: the square the piece left.
    Departure,
    /// `from seen`: the square where it was seen.
    Seen,
}
