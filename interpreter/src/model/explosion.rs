//! Explosions (`explosion { … }`, issue 17): every capture explodes on its
//! target square. The capturing piece and every piece within `radius` king
//! steps of the target are removed with the captured piece, except the kinds
//! the item spares (around the target only) and the immune kinds (never).
//! How a move explodes is in [`crate::engine::explosion`].

use crate::model::KindId;
use rulebook_grammar::ast::Span;

/// The `explosion` item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Explosion {
    /// `around N`: the largest king-step distance from the target square of
    /// a piece the explosion removes (1: the eight neighbours on a board).
    pub radius: u32,
    /// `spares …`: kinds that survive an explosion around them. A capturing
    /// or captured piece of such a kind is still removed.
    pub spares: Vec<KindId>,
    /// `immune …`: kinds no explosion removes, not even as the capturing piece.
    pub immune: Vec<KindId>,
    /// Where the item was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}
