#![warn(missing_docs)]
//! The interpreter, one folder per layer:
//!
//! - [`model`]: the semantic model of a variant, lowered from its syntax trees;
//! - [`engine`]: the model compiled for execution: tables, positions, legal
//!   moves, perft;
//! - [`text`]: FEN, move notation, perft suites and game records;
//! - [`play`]: a game in progress and each player's view of it.

// Diagnostics are returned by value (they are what users see); boxing them
// would only move the allocation.
#![allow(clippy::result_large_err)]

pub mod engine;
pub mod flow;
pub mod model;
pub mod play;
pub mod text;
#[cfg(test)]
mod test_support;

pub use engine::position::{Move, Position};
pub use engine::variant::{Status, Variant};
pub use model::Game;
