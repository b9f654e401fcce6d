//! Gating (`gate … ` in `hand`, seirawan): a move from a cell whose piece
//! keeps its first-move right may also put a piece from the mover's hand on
//! the cell it leaves; castling may put it on the castler's or the partner's
//! cell. A layer around the legal moves: a gated move is legal when the same
//! move without the gate is (the piece left behind does not shield the
//! mover's royal piece, as Fairy-Stockfish rules).

use super::*;
use crate::engine::position::NO_KIND;
use crate::model::KindId;

/// Appends to `out` the gated forms of the legal moves in `out[first..]`.
pub(crate) fn add_gated(game: &Game, pos: &Position, out: &mut Vec<Move>, first: usize) {
    let Some(hand) = &game.hand else { return };
    let us = pos.side as usize;
    if pos.unmoved.iter().all(|&w| w == 0) || pos.hand[us].iter().all(|&n| n == 0) {
        return;
    }
    let end = out.len();
    for i in first..end {
        let m = out[i];
        if m.kind == MoveKind::Drop || m.gate != NO_KIND {
            // (Drops gate nothing; a move gates once.)
            continue;
        }
        let partner = if m.kind == MoveKind::Castle { m.aux as Cell } else { NO_CELL };
        for cell in [m.from, partner] {
            if cell == NO_CELL || !pos.has_first_move_right(cell) {
                continue;
            }
            if m.kind == MoveKind::Castle {
                // Only on a cell that castling leaves empty.
                let side = game.castling.as_ref().map(|r| &r.sides[m.side as usize]);
                if side.is_some_and(|s| cell == s.king_to[us] || cell == s.rook_to[us]) {
                    continue;
                }
            }
            for (kind, cells) in hand.gate_cells.iter().enumerate() {
                if pos.hand[us][kind] > 0 && cells.as_ref().is_some_and(|c| c[us].contains(&cell)) {
                    out.push(Move { gate: kind as KindId, second: cell, ..m });
                }
            }
        }
    }
}
