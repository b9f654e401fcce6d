//! What the flow layer did after one decision, as data: which `oblige` rule
//! fired (and which other `ply-end` rules held at the same moment, so that
//! file order or the mover-first order decided between them), which
//! obligations were dropped because nothing could meet them, and whether
//! the ply ended. [`Variant::apply_traced`](crate::Variant::apply_traced)
//! fills it; the checker's walk reads it to find the places where the rules
//! do not decide (LANGUAGE §3.20, checker codes C0215–C0217).

use super::state::Obligation;
use crate::model::Color;

/// One thing the flow layer did after a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlowEvent {
    /// The `oblige` rule `rule` (index into `Game::rules`) held for
    /// `subject` and queued its steps. `also`: the other `ply-end` rules
    /// (`oblige` or ending the game), each with its subject, whose condition
    /// held at the same moment and which did not act first: the order of
    /// the file (and the mover before the other player) decided.
    Fired {
        /// The rule that acted.
        rule: usize,
        /// The player it was evaluated for.
        subject: Color,
        /// The other rules that held then, in file order.
        also: Vec<(usize, Color)>,
    },
    /// An obligation came due with no action to meet it, and was dropped
    /// (and counts as waived for the rest of the ply).
    Dropped(Obligation),
    /// The ply ended (the end-of-ply work ran).
    PlyEnd,
}
