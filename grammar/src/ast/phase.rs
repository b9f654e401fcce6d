//! The `phase` item (issue 13): a phase before play whose decisions are
//! placements from the hand.

use super::{Cond, Ident, Span, Spanned, Zone};

/// `phase NAME { … }`: a phase of the game before play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Phase {
    /// Its name (`placement`, `opening`).
    pub name: Ident,
    /// Its rules, in the order written.
    pub rules: Vec<Spanned<PhaseRule>>,
    /// The whole item.
    pub span: Span,
}

/// One rule of a phase.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PhaseRule {
    /// `place from hand`: the phase's decisions are placements from the mover's hand.
    PlaceFromHand,
    /// `order { King on … Pawn coloured like a2 … }`: each player places in this order.
    Order(Vec<Spanned<OrderEntry>>),
    /// `Bishop on different colours`: a player's pieces of this kind stand on different colours.
    DifferentColours(Ident),
    /// `placed piece attacks no enemy and is not attacked`.
    PlacedSafe,
    /// `castling King on e1 with Rook on a1 h1`: placing the king and a partner
    /// there gives that side's castling right (squares as the first player's).
    Castling {
        /// The castling king.
        king: Ident,
        /// Its square.
        king_on: Ident,
        /// The partner.
        rook: Ident,
        /// The partner's squares.
        rook_on: Vec<Ident>,
    },
    /// `until hands empty`: the phase ends when both hands are empty.
    UntilHandsEmpty,
    /// `only if COND`: a placement is legal only if the condition holds after
    /// it (the placing player is the subject and the mover).
    OnlyIf(Cond),
}

/// One entry of a placement order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrderEntry {
    /// The piece placed.
    pub piece: Ident,
    /// `on ZONE`: the cells it may be placed on (relative to the player).
    pub zone: Option<Zone>,
    /// `coloured like a2`: it goes on a cell of this square's colour (mirrored for the second player).
    pub like: Option<Ident>,
}
