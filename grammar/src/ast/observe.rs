//! The `observe` item (issue 15): a moving piece seen by an enemy piece is
//! slowed down or displaced.

use super::{Ident, Span, Spanned};

/// `observe { slow Queen to Rook, Rook to Bishop  displace by observers from departure }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observe {
    /// The statements in order.
    pub rules: Vec<Spanned<ObserveRule>>,
    /// The whole item.
    pub span: Span,
}

/// A statement of an `observe` item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObserveRule {
    /// `slow Queen to Rook, Rook to Bishop`: a seen piece of the first kind
    /// may go on from where it was seen moving as the second.
    Slow(Vec<(Ident, Ident)>),
    /// `displace by observers from departure|seen`: a seen piece may go to a
    /// square as far (in king steps) from its departure square, or from the
    /// square where it was seen, as the number of enemy pieces that see it.
    Displace {
        /// `from seen` (`true`) or `from departure` (`false`).
        from_seen: bool,
    },
}
