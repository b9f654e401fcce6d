//! The `explosion` item (issue 17): every capture explodes on its target
//! square.

use super::{Ident, Span, Spanned};

/// `explosion { around 1  spares Pawn  immune King }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Explosion {
    /// The statements in order.
    pub rules: Vec<Spanned<ExplosionRule>>,
    /// The whole item.
    pub span: Span,
}

/// A statement of an `explosion` item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExplosionRule {
    /// `around 1`: the pieces within this many king steps of the target go too.
    Around(Spanned<i64>),
    /// `spares Pawn`: kinds that survive an explosion around them (a
    /// capturing or captured piece of the kind still goes).
    Spares(Vec<Ident>),
    /// `immune King`: kinds no explosion removes, not even when they capture.
    Immune(Vec<Ident>),
}
