//! The rulebook verifier: checks a variant's model for consistency,
//! ambiguities, claims and well-formedness.
//!
//! * [`templates`] derives every way a piece may move from the model.
//! * [`encode`] states positions and legal moves as Z3 formulas.
//! * [`prove`] asks Z3: claims by induction, witnesses for conditions.
//! * [`spread_layer`] proves or refutes the claims about spread pieces on
//!   an abstraction that keeps only pieces' squares counts and units.
//! * [`concrete`] evaluates claims on the interpreter's positions and moves.
//! * [`swings`] runs every pull of a sliding level to rest (the bound on a swing).
//! * [`explore`] walks the game tree from the setup (bounded model checking,
//!   reachable wins, positions where the rules say nothing).
//! * [`flow_walk`] walks the game by decisions (placements, obligations)
//!   for the places where the rules do not decide, with witness lines;
//!   [`gaps`] turns what it finds into diagnostics.
//! * [`observation`] searches the positions near the setup for what an
//!   `observe` item leaves for a reading to decide, with witnesses.
//! * [`live`] looks along random lines of play for parts and promotion
//!   rules seen to apply (spares the solver questions a legal move answers).
//! * [`model_claims`] decides claims from the templates alone (directions,
//!   colour per move template).
//! * [`settled`] links findings to the rulings that settle them.
//! * [`check`] runs them all and gathers the [`Report`]; [`diagram`] draws
//!   witness positions.

pub mod check;
pub mod concrete;
pub mod diagram;
pub mod encode;
pub mod explore;
pub mod flow_walk;
pub mod gaps;
pub mod live;
pub mod model_claims;
pub mod observation;
pub mod prove;
pub mod settled;
pub mod spread_layer;
pub mod swings;
pub mod templates;

pub use check::{check, ClaimResult, Counterexample, Options, Report, Stats, Verdict};
