//! Geometry that changes during play (`slide { … }`): levels of a stacked
//! board that can be pulled out of the shaft along an axis of their own and
//! then swing back to rest, one row per ply. The state of the levels during
//! play is a [`crate::engine::frame::Frame`]; this is the rule.

use rulebook_grammar::ast::Span;

/// The `slide` item: which levels slide, along which axis, how far, and how
/// a pulled-out level swings back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlideRules {
    /// The stacking axis (the axis the level labels belong to), as an index into the geometry's axes.
    pub stack_axis: usize,
    /// Per level (coordinate on the stacking axis): the axis it slides along,
    /// or `None` for a level that never moves.
    pub axes: Vec<Option<usize>>,
    /// `out at most N`: the most rows a level may be pulled out (at least one
    /// row always stays in the shaft).
    pub out_max: u8,
    /// How a pulled-out level swings back to rest.
    pub swing: SwingRule,
    /// Per axis of the board: the words for moving along it towards its
    /// first label and towards its last (`compass "Ost" "West" along file`),
    /// written in activations (`A-IV-7-Ost`); `None`: the end labels.
    pub compass: Vec<Option<(String, String)>>,
    /// Where the item was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// `swing N row per ply, overshoot K less each pass` (or `… once`).
///
/// A level pulled out by `r` rows moves `rows` rows per complete ply back
/// towards rest; on reaching rest it overshoots to the other side, `shrink`
/// rows less far than the extreme it came from, and comes back again; and so
/// on until an overshoot would be no row at all, or (with `once`) after the
/// first overshoot has come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwingRule {
    /// Rows a swinging level moves per complete ply (at least 1).
    pub rows: u8,
    /// Each overshoot reaches this many rows less than the extreme before it.
    pub shrink: u8,
    /// `once`: the level overshoots at most once, then comes to rest.
    pub once: bool,
}

impl SlideRules {
    /// Does level `level` (a coordinate on the stacking axis) slide?
    pub fn slides(&self, level: usize) -> bool {
        self.axes.get(level).is_some_and(|a| a.is_some())
    }
}
