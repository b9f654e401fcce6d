//! Positions and moves as text: FEN ([`fen`]), move notation in each letter
//! set ([`notation`]), perft suites ([`epd`]) and game records ([`record`]).

pub mod epd;
pub mod fen;
pub mod notation;
pub mod record;
