//! Phases before play (`phase NAME { … }`, issue 13): the model. How they run
//! is in [`crate::flow`].

use crate::model::geometry::Cell;
use crate::model::KindId;
use rulebook_grammar::ast::Span;

/// A phase before play. Phases run in the order written; play follows the last.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Phase {
    /// Its name (`placement`), as in the position text's `phase=` key.
    pub name: String,
    /// How pieces are placed from the hand in this phase.
    pub placement: Placement,
    /// Where it was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// Placement from the hand (`place from hand`). While a player's hand holds
/// pieces, that player's decisions are placements (drops onto the cells the
/// `hand` item allows, narrowed by this phase); when none is legal, or the
/// hand is empty, the player moves as in play. The phase ends when both
/// hands are empty.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Placement {
    /// `order { … }`: each player places these kinds in this order (empty: any
    /// kind in hand, in any order). The entry due is the one after the
    /// pieces already placed: the order's length minus the hand's size.
    pub order: Vec<OrderEntry>,
    /// `PIECE on different colours`: a placement of another kind must leave
    /// room for these pieces on cells of each colour, and one of these kinds
    /// may not go on a colour where the player already has as many of it as
    /// its share (half, rounded up).
    pub different_colours: Vec<KindId>,
    /// `placed piece attacks no enemy and is not attacked`.
    pub safe: bool,
    /// `castling King on e1 with Rook on a1 h1`.
    pub castling: Option<PlacedCastling>,
    /// `only if COND`: conditions that must hold after a placement (the
    /// placing player is the subject and the mover).
    pub only_if: Vec<crate::model::cond::Cond>,
}

/// One entry of a placement order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrderEntry {
    /// The kind placed.
    pub kind: KindId,
    /// `on ZONE`: the cells allowed, per player (`None`: the hand's cells).
    pub cells: Option<[Vec<Cell>; 2]>,
    /// `coloured like SQUARE`: the colour (0 or 1) the cell must have, per
    /// player (the square mirrored for the second player).
    pub colour: Option<[u8; 2]>,
}

/// Castling rights gained by placement: when a player's castling king stands
/// on `king_on` and a partner on one of `rook_on` (after either is placed),
/// the player gains the castling right towards that partner.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlacedCastling {
    /// The king's cell, per player.
    pub king_on: [Cell; 2],
    /// The partner's cells, per player.
    pub rook_on: [Vec<Cell>; 2],
}
