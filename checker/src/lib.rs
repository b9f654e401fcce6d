//! The rulebook verifier: checks a variant's model for consistency,
//! ambiguities, claims and well-formedness.
//!
//! * [`concrete`] evaluates claims on the interpreter's positions and moves.
//! * [`explore`] walks the game tree from the setup (bounded model checking,
//!   reachable wins, positions where the rules say nothing).

pub mod concrete;
pub mod explore;
pub mod encode;
pub mod templates;
pub mod prove;
