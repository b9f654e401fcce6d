//! Perft over complete plies, and over single decisions.
//!
//! A *complete ply* is one path of decisions from a position between plies
//! to the next position between plies: its first decision and every
//! obligation met on the way. `plies(pos, d)` counts the complete plies `d`
//! deep (perft as published: in a game without obligations one ply is one
//! decision); `decisions(pos, d)` counts paths of `d` single decisions,
//! whoever makes them.
//!
//! Complete plies are counted by the engine's perft
//! ([`crate::engine::perft`]), which sends only the nodes and moves that
//! need it through the flow layer: a node with flow state or a swinging
//! level, and at other nodes the moves after which an `oblige` rule fires
//! ([`Variant::ply_starts`]); every other move is one complete ply, counted
//! on the engine's fast path. [`plies_reference`] counts by the definition
//! alone (every decision through [`Variant::successors_reference`]).

use super::ply::in_ply;
use crate::engine::perft::{perft, perft_limited, Budget, CHECK_EVERY};
use crate::engine::position::Position;
use crate::engine::variant::Variant;

/// The positions at the end of every complete ply from `pos`, in the order
/// of the decisions (one per complete ply).
pub fn ply_ends(v: &Variant, pos: &Position, out: &mut Vec<Position>) {
    for (_, next) in v.successors(pos) {
        ends_through(v, next, out);
    }
}

/// The ends of the complete plies through `next`, a position after a legal
/// decision ([`Variant::successors`]): itself when its ply is over, else
/// the ends of the plies that complete it.
pub fn ends_through(v: &Variant, next: Position, out: &mut Vec<Position>) {
    if in_ply(&next) {
        ply_ends(v, &next, out);
    } else {
        out.push(next);
    }
}

/// The number of complete plies from `pos` (each one's end counted once).
pub fn count_plies(v: &Variant, pos: &Position) -> u64 {
    v.count_complete(pos)
}

/// Counts the complete plies `depth` deep below `pos`, within `budget`:
/// `None` if the budget stopped the count.
pub fn plies_limited(v: &Variant, pos: &Position, depth: u32, budget: &Budget) -> Option<u64> {
    perft_limited(v, pos, depth, budget)
}

/// Counts the complete plies `depth` deep below `pos`.
pub fn plies(v: &Variant, pos: &Position, depth: u32) -> u64 {
    perft(v, pos, depth)
}

/// [`plies`] by the definition alone: every decision listed and made by the
/// flow layer ([`Variant::successors_reference`]: every offered move made
/// with its ply's work and judged at the ply's end), no engine fast path and
/// no pre-filter. Slow; the reference the fast paths are tested against.
pub fn plies_reference(v: &Variant, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut ends = Vec::new();
    reference_ends(v, pos, &mut ends);
    if depth == 1 {
        return ends.len() as u64;
    }
    ends.iter().map(|end| plies_reference(v, end, depth - 1)).sum()
}

fn reference_ends(v: &Variant, pos: &Position, out: &mut Vec<Position>) {
    for (_, next) in v.successors_reference(pos) {
        if in_ply(&next) {
            reference_ends(v, &next, out);
        } else {
            out.push(next);
        }
    }
}

/// Counts the paths of `depth` single decisions below `pos` (every
/// obligation met is a decision of its own).
pub fn decisions(v: &Variant, pos: &Position, depth: u32) -> u64 {
    decisions_limited(v, pos, depth, &Budget::new(None, None)).unwrap_or(0)
}

/// [`decisions`] within `budget`: `None` if the budget stopped the count.
pub fn decisions_limited(v: &Variant, pos: &Position, depth: u32, budget: &Budget) -> Option<u64> {
    let mut pending = 0;
    let n = decisions_with(v, pos, depth, budget, &mut pending)?;
    budget.charge(pending).then_some(n)
}

fn decisions_with(v: &Variant, pos: &Position, depth: u32, budget: &Budget, pending: &mut u64) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if depth == 1 {
        let n = v.actions(pos).len() as u64;
        *pending += n;
        if *pending >= CHECK_EVERY && !budget.charge(std::mem::take(pending)) {
            return None;
        }
        return Some(n);
    }
    let mut total = 0;
    for (_, next) in v.successors(pos) {
        total += decisions_with(v, &next, depth - 1, budget, pending)?;
    }
    Some(total)
}
