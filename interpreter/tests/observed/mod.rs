//! Helpers shared by the tests of Heisenberg Chess (heisenberg.rs and
//! heisenberg_hand_counts.rs): the variant, positions, and the targets of a
//! piece's moves as observation changed them.

#![allow(dead_code)]

use super::support;
use rulebook_interpreter::engine::position::Move;
use rulebook_interpreter::{Position, Variant};
use std::collections::BTreeSet;

pub fn heisenberg() -> Variant {
    support::variant("heisenberg")
}

pub fn at(v: &Variant, fen: &str) -> Position {
    v.parse_fen(fen, "<test>").expect("a position of the test")
}

/// The targets of the moves from `from` that observation changed in the
/// way `observed`, seen at `seen`.
pub fn targets(v: &Variant, moves: &[Move], from: &str, seen: &str, observed: u8) -> BTreeSet<String> {
    let geo = &v.game.geometry;
    let (from, seen) = (
        geo.parse_square(from).expect("a square"),
        geo.parse_square(seen).expect("a square"),
    );
    moves
        .iter()
        .filter(|m| m.from == from && m.second == seen && m.observed == observed)
        .map(|m| geo.name(m.to))
        .collect()
}

/// The targets of the moves from `from` that no enemy piece saw.
pub fn unseen(v: &Variant, moves: &[Move], from: &str) -> BTreeSet<String> {
    let geo = &v.game.geometry;
    moves
        .iter()
        .filter(|m| geo.name(m.from) == from && m.observed == 0)
        .map(|m| geo.name(m.to))
        .collect()
}

/// The squares where the moves from `from` were seen.
pub fn seen_squares(v: &Variant, moves: &[Move], from: &str) -> BTreeSet<String> {
    let geo = &v.game.geometry;
    moves
        .iter()
        .filter(|m| geo.name(m.from) == from && m.observed != 0)
        .map(|m| geo.name(m.second))
        .collect()
}

/// How many moves the piece on `from` has.
pub fn count(v: &Variant, moves: &[Move], from: &str) -> usize {
    let geo = &v.game.geometry;
    moves.iter().filter(|m| geo.name(m.from) == from).count()
}

pub fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// The squares at king-step distance `n` from `from` (all of the ring on
/// the board).
pub fn ring(from: &str, n: i32) -> BTreeSet<String> {
    let b = from.as_bytes();
    let (fx, fy) = ((b[0] - b'a') as i32, (b[1] - b'1') as i32);
    let mut out = BTreeSet::new();
    for x in 0..8 {
        for y in 0..8 {
            if (x - fx).abs().max((y - fy).abs()) == n {
                out.insert(format!("{}{}", (b'a' + x as u8) as char, y + 1));
            }
        }
    }
    out
}

/// `squares` less `out`, each of which must be among them.
pub fn without(mut squares: BTreeSet<String>, out: &[&str]) -> BTreeSet<String> {
    for s in out {
        assert!(squares.remove(*s), "{s} is not in the ring");
    }
    squares
}
