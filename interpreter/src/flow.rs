//! The flow layer (issue 13): whose decision it is, which actions it may
//! take, plies of several decisions (obligations), phases before play
//! (placement), the work at the end of a ply, legality of a whole ply, and
//! perft over complete plies.
//!
//! A game without `phase` items and a position without obligations never
//! enter it: `Position::flow` is `None`, [`Variant::actions`] is the legal
//! moves and [`Variant::apply`] is `play` followed by the end-of-ply work
//! (which is nothing in a classical game). In a game whose rules oblige, a
//! node between plies with no level swinging needs the flow layer only for
//! the moves after which a rule fires ([`Variant::ply_starts`]); perft
//! counts the others on the engine's fast path ([`Variant::needs_flow`] is
//! the one test of whether a node needs it).
//!
//! - [`action`]: [`Action`], the decisions beyond a piece move;
//! - [`state`]: [`Flow`], the phase and the queue of obligations a position carries;
//! - [`phase`]: the placement phase's actions and transitions;
//! - [`oblige`]: obligations that `rule` items queue (`then owner must …`);
//! - [`out_of_play`]: pieces out of play (`exile`, `return exiled piece`);
//! - [`ply`]: actions at a decision node (with the positions after them), the
//!   moves that start a longer ply, applying one, the end of a ply;
//! - [`count`]: counting the complete plies from a node without keeping their ends;
//! - [`perft`]: counting complete plies or single decisions;
//! - [`text`]: the position text's `phase=` and `oblige=` keys;
//! - [`trace`]: what the layer did after a decision, for the checker.

pub mod action;
pub mod count;
pub mod oblige;
pub mod out_of_play;
pub mod perft;
pub mod phase;
pub mod ply;
pub mod state;
pub mod text;
pub mod trace;

pub use action::Action;
pub use out_of_play::OutOfPlay;
pub use state::{ActionKind, Flow, Obligation};
pub use trace::FlowEvent;
