//! Passing (`pass` in a piece, janggi's king): a player who has a piece of
//! such a kind may pass, a move that leaves the board as it is, written with
//! that piece's square twice (`e2e2`, Fairy-Stockfish's form). It is legal
//! when the mover's royal pieces are safe afterwards (so never out of check).

use super::*;

/// Appends the pass of the side to move, where it may pass and it is legal.
pub(crate) fn pass_move(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, first: usize) {
    let us = pos.side;
    let passer = pos.cells_of(us, t.nwords).find(|&c| game.kinds.get(kind_of(pos.board[c as usize]) as usize).is_some_and(|k| k.passes));
    if let Some(from) = passer {
        let kind = kind_of(pos.board[from as usize]);
        if game.kinds[kind as usize].pass_when_stuck && out.len() > first {
            return; // `only when no other move`
        }
        let m = Move::normal(kind, from, from);
        if legal_by_trial(game, t, pos, &m) {
            out.push(m);
        }
    }
}
