//! Perft: the number of leaves of the game tree to a given depth, the
//! reference count engine authors compare move generators with. Leaves at
//! depth 1 are counted in bulk (the legal moves are counted, not played).
//! Draws by rule (repetition, fifty moves) are ignored, as in published tables.

use crate::position::{Move, Position};
use crate::variant::Variant;

/// Counts the leaves `depth` plies below `pos`.
pub fn perft(v: &Variant, pos: &Position, depth: u32) -> u64 {
    let levels = depth.max(1) as usize;
    let mut buffers: Vec<Vec<Move>> = (0..levels).map(|_| Vec::with_capacity(256)).collect();
    // One child position per level, overwritten for each move (no allocation, and
    // only the board's own cells are copied).
    let mut children: Vec<Position> = (0..levels).map(|_| pos.clone()).collect();
    perft_with(v, pos, depth, &mut buffers, &mut children)
}

fn perft_with(v: &Variant, pos: &Position, depth: u32, buffers: &mut [Vec<Move>], children: &mut [Position]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, rest)) = buffers.split_first_mut() else { return 0 };
    moves.clear();
    if depth == 1 {
        return crate::movegen::count_legal(&v.game, &v.tables, pos, moves);
    }
    v.legal_moves_into(pos, moves);
    let Some((child, grandchildren)) = children.split_first_mut() else { return 0 };
    let mut total = 0;
    for m in moves.iter() {
        child.copy_from(pos, &v.tables);
        child.make(m, &v.game, &v.tables);
        total += perft_with(v, child, depth - 1, rest, grandchildren);
    }
    total
}

/// The count below each legal move of `pos` (in generation order), for `--divide`.
/// `on_move` is called after each root move (for progress reporting).
pub fn divide(v: &Variant, pos: &Position, depth: u32, mut on_move: impl FnMut(usize, usize)) -> Vec<(Move, u64)> {
    let moves = v.legal_moves(pos);
    let n = moves.len();
    moves
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            let count = if depth <= 1 { 1 } else { perft(v, &v.play(pos, &m), depth - 1) };
            on_move(i + 1, n);
            (m, count)
        })
        .collect()
}

/// A perft count split by how the last ply's leaves arise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftDetail {
    /// The leaves: every chance outcome its own leaf (what [`perft`] counts).
    pub nodes: u64,
    /// The leaves reached by the last ply's decisions: each chance node of
    /// the last ply counted once, whatever its number of outcomes.
    pub decisions: u64,
    /// The leaves that are outcomes of a chance node (a reveal, a collision,
    /// a tunnel) at the last ply.
    pub outcomes: u64,
}

/// Counts the leaves `depth` plies below `pos`, split as in [`PerftDetail`].
/// Slower than [`perft`] (the last ply's moves are listed, not counted).
pub fn perft_detail(v: &Variant, pos: &Position, depth: u32) -> PerftDetail {
    let mut d = PerftDetail::default();
    if depth == 0 {
        d.nodes = 1;
        d.decisions = 1;
        return d;
    }
    let moves = v.legal_moves(pos);
    if depth == 1 {
        d.nodes = moves.len() as u64;
        d.outcomes = moves.iter().filter(|m| m.is_chance()).count() as u64;
        let mut decisions: Vec<Move> = moves.iter().map(|m| m.decision()).collect();
        decisions.dedup();
        d.decisions = decisions.len() as u64;
        return d;
    }
    for m in &moves {
        let below = perft_detail(v, &v.play(pos, m), depth - 1);
        d.nodes += below.nodes;
        d.decisions += below.decisions;
        d.outcomes += below.outcomes;
    }
    d
}
