//! The `slide` item (issue 13): levels that slide out of the shaft during play.

use super::{Ident, Span, Spanned};

/// `slide { levels I III V VII along rank  out at most 7  swing 1 row per ply  overshoot 1 less each pass }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Slide {
    /// The statements in order.
    pub rules: Vec<Spanned<SlideRule>>,
    /// The whole item.
    pub span: Span,
}

/// A statement of a `slide` item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SlideRule {
    /// `levels I III V VII along rank`: these levels (labels of the stacking
    /// axis) slide along this axis.
    Levels {
        /// The level labels.
        levels: Vec<Ident>,
        /// The axis they slide along.
        axis: Ident,
    },
    /// `out at most 7`: the most rows a level may be pulled out.
    OutAtMost(Spanned<u32>),
    /// `swing 1 row per ply`: rows a pulled-out level moves back per complete ply.
    Swing(Spanned<u32>),
    /// `compass "Ost" "West" along file`: the words for moving along the
    /// axis towards its first label and towards its last, in the notation
    /// of activations.
    Compass {
        /// Towards the axis's first label.
        first: Spanned<String>,
        /// Towards its last label.
        last: Spanned<String>,
        /// The axis.
        axis: Ident,
    },
    /// `overshoot 1 less each pass` / `overshoot 1 less once`.
    Overshoot {
        /// Rows less than the extreme before, per overshoot.
        less: Spanned<u32>,
        /// `once`: only one overshoot.
        once: bool,
    },
}
