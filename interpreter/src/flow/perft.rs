//! Perft over complete plies, and over single decisions.
//!
//! A *complete ply* is one path of decisions from a position between plies
//! to the next position between plies: its first decision and every
//! obligation met on the way. `plies(pos, d)` counts the complete plies `d`
//! deep (perft as published: in a game without obligations one ply is one
//! decision); `decisions(pos, d)` counts paths of `d` single decisions,
//! whoever makes them. Below a position without flow state the count is the
//! engine's (fast) perft.

use super::ply::in_ply;
use crate::engine::perft::{perft_limited, Budget, CHECK_EVERY};
use crate::engine::position::Position;
use crate::engine::variant::Variant;

/// Does `pos` need the flow layer: a phase, an obligation, or a swinging
/// level (whose jump at the end of the ply decides which moves are legal,
/// ruling "check-after-jump" of rules/4d-schach.rules)?
pub fn needs_flow(pos: &Position) -> bool {
    pos.flow.is_some() || crate::engine::frame::swinging(pos)
}

/// The positions at the end of every complete ply from `pos`, in the order
/// of the decisions (one per complete ply).
pub fn ply_ends(v: &Variant, pos: &Position, out: &mut Vec<Position>) {
    for a in v.actions(pos) {
        let next = v.apply(pos, &a);
        if in_ply(&next) {
            ply_ends(v, &next, out);
        } else {
            out.push(next);
        }
    }
}

/// The number of complete plies from `pos` (each one's end counted once).
fn count_plies(v: &Variant, pos: &Position) -> u64 {
    let mut n = 0;
    for a in v.actions(pos) {
        let next = v.apply(pos, &a);
        n += if in_ply(&next) { count_plies(v, &next) } else { 1 };
    }
    n
}

/// Counts the complete plies `depth` deep below `pos`, within `budget`:
/// `None` if the budget stopped the count.
pub fn plies_limited(v: &Variant, pos: &Position, depth: u32, budget: &Budget) -> Option<u64> {
    let mut pending = 0;
    let n = plies_with(v, pos, depth, budget, &mut pending)?;
    budget.charge(pending).then_some(n)
}

/// Counts the complete plies `depth` deep below `pos`.
pub fn plies(v: &Variant, pos: &Position, depth: u32) -> u64 {
    plies_limited(v, pos, depth, &Budget::new(None, None)).unwrap_or(0)
}

fn plies_with(v: &Variant, pos: &Position, depth: u32, budget: &Budget, pending: &mut u64) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if !v.needs_flow(pos) {
        // Play without obligations: the engine's count, charged to the same budget.
        let n = perft_limited(v, pos, depth, budget)?;
        return Some(n);
    }
    if depth == 1 {
        let n = count_plies(v, pos);
        *pending += n;
        if *pending >= CHECK_EVERY && !budget.charge(std::mem::take(pending)) {
            return None;
        }
        return Some(n);
    }
    let mut ends = Vec::new();
    ply_ends(v, pos, &mut ends);
    let mut total = 0;
    for end in &ends {
        total += plies_with(v, end, depth - 1, budget, pending)?;
    }
    Some(total)
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
    let actions = v.actions(pos);
    if depth == 1 {
        let n = actions.len() as u64;
        *pending += n;
        if *pending >= CHECK_EVERY && !budget.charge(std::mem::take(pending)) {
            return None;
        }
        return Some(n);
    }
    let mut total = 0;
    for a in &actions {
        total += decisions_with(v, &v.apply(pos, a), depth - 1, budget, pending)?;
    }
    Some(total)
}
