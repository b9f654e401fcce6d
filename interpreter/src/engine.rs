//! The execution engine: the model compiled into tables ([`tables`]), the
//! state of a game ([`position`]) and how a move changes it, move generation
//! and legality ([`movegen`]), pieces on two cells ([`spread`]), the compiled
//! variant that users call ([`variant`]) and perft ([`perft`]); sliding
//! levels ([`frame`]).

pub mod cond;
pub mod convert;
pub mod example;
pub mod explosion;
pub mod frame;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod spread;
pub mod tables;
pub mod variant;
