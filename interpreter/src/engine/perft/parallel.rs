//! Perft on several threads: the tree is split at every node at least
//! [`SPLIT_DEPTH`] plies above the leaves, and rayon's work stealing hands
//! the subtrees to idle threads, so threads stay busy to the end of the
//! count (splitting only at the root leaves them idle behind the largest
//! root move). Below the split the count is [`perft_limited`]'s, one thread
//! per subtree.
//!
//! The functions here run in the caller's rayon pool (the global one unless
//! the caller installs its own, as `rulebook perft -j N` does).

use super::{ends_of, perft_limited, ply_starts, Budget};
use crate::engine::position::{Move, Position};
use crate::engine::variant::Variant;
use rayon::prelude::*;

/// The usual `split` of [`perft_split`]: nodes 4 plies or more above the
/// leaves are split among threads; below, one thread counts the whole
/// subtree (a chess subtree of 3 plies is some 10⁴ leaves, enough to pay
/// for handing it over).
pub const SPLIT_DEPTH: u32 = 4;

/// Counts the leaves `depth` plies below `pos` within `budget`, on the
/// threads of the current rayon pool, the subtrees below every node at
/// least `split` plies above the leaves counted in parallel (at least 1;
/// [`SPLIT_DEPTH`] as a rule, less in tests to split nearly everywhere):
/// `None` if the budget stopped the count. The same count as [`perft_limited`].
pub fn perft_split(v: &Variant, pos: &Position, depth: u32, split: u32, budget: &Budget) -> Option<u64> {
    if depth < split.max(1) {
        return perft_limited(v, pos, depth, budget);
    }
    children(v, pos).into_par_iter().map(|child| perft_split(v, &child, depth - 1, split, budget)).try_reduce(|| 0, |a, b| Some(a + b))
}

/// The count below each legal move of `pos` (`depth` ≥ 1), in generation
/// order, within `budget`, the moves counted in parallel (and split below
/// as in [`perft_split`]); `on_move` is
/// called after each. `None` if the budget stopped the count. The same
/// rows as [`super::divide`] for a position outside a ply in progress
/// (the caller keeps those on [`super::divide`]).
pub fn divide_split(v: &Variant, pos: &Position, depth: u32, split: u32, budget: &Budget, on_move: &(dyn Fn() + Sync)) -> Option<Vec<(Move, u64)>> {
    if depth <= 1 {
        return super::divide(v, pos, depth, budget, |_, _| on_move());
    }
    v.legal_moves(pos)
        .into_par_iter()
        .map(|m| {
            let child = v.play(pos, &m);
            let n = if crate::flow::ply::in_ply(&child) {
                // A move that starts a ply of several decisions: its complete plies.
                crate::flow::perft::plies_limited(v, &child, depth, budget)?
            } else {
                perft_split(v, &child, depth - 1, split, budget)?
            };
            on_move();
            Some((m, n))
        })
        .collect()
}

/// The positions one complete ply below `pos` whose counts add up to its
/// count ([`super::perft`]'s recursion): each legal move made, except those
/// that start a ply of several decisions, whose complete plies' ends stand
/// in for them; at a node the flow layer decides, the ends of its plies.
fn children(v: &Variant, pos: &Position) -> Vec<Position> {
    let t = v.tables_for(pos);
    let Some(starts) = ply_starts(v, pos, &t, &mut crate::flow::oblige::WatchMemo::default()) else {
        let mut ends = Vec::new();
        for (_, next) in v.successors(pos) {
            crate::flow::perft::ends_through(v, next, &mut ends);
        }
        return ends;
    };
    let mut moves = Vec::with_capacity(256);
    crate::engine::movegen::legal_moves(&v.game, &t, pos, &mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for m in &moves {
        if starts.iter().any(|s| s.mv == *m) {
            continue;
        }
        let mut child = pos.clone();
        child.make(m, &v.game, &t);
        out.push(child);
    }
    for s in starts {
        ends_of(v, s.next, &mut out);
    }
    out
}
