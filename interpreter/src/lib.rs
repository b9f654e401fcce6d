#![warn(missing_docs)]
//! The interpreter: builds the semantic model of a variant from its syntax
//! trees ([`lower`]), compiles it for execution ([`tables`]) and runs it: legal
//! moves ([`movegen`]), positions and FEN ([`position`], [`fen`]), notation
//! ([`notation`]) and perft ([`perft`]).

// Diagnostics are returned by value (they are what users see); boxing them
// would only move the allocation.
#![allow(clippy::result_large_err)]

pub mod epd;
pub mod fen;
pub mod geometry;
pub mod load;
pub mod lower;
pub mod model;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod record;
pub mod session;
pub mod spread;
pub mod tables;
pub mod variant;
pub mod view;

pub use model::Game;
pub use position::{Move, Position};
pub use variant::{Status, Variant};
