//! Walls (`then moves the wall anywhere`, `then shoots a wall from the moved
//! piece` under `players`: duck chess, amazons): every move of such a player
//! also puts a wall, a blocker nobody owns, so each legal move is replaced by
//! one move per square the wall may go to (Fairy-Stockfish counts them so).
//! A layer after the legal moves: a walled move is legal when the move
//! without its wall is.

use super::*;
use crate::engine::position::WALL_GATE;
use crate::model::WallRule;

/// Replaces the legal moves in `out[first..]` by their walled forms.
pub(crate) fn add_walls(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, first: usize) {
    let us = pos.side;
    let Some(rule) = game.players[us as usize].wall else { return };
    let plain: Vec<Move> = out.drain(first..).collect();
    for m in plain {
        if m.is_pass() || m.wall().is_some() {
            out.push(m);
            continue;
        }
        let mut after = pos.clone();
        after.make_plain(&m, game, t);
        let cells: Vec<Cell> = match rule {
            // Any empty square after the move; a square a wall stands on is not empty.
            WallRule::MovesAnywhere => game.geometry.board_cells().filter(|&c| after.board[c as usize] == 0).collect(),
            // The squares the moved piece could move to from where it landed.
            WallRule::ShootsFromMoved => {
                // The moved piece's moves, as if it were to move again.
                after.side = us;
                after.ep_len = 0;
                let mut steps = Vec::new();
                piece_moves(&after, t, m.to, &mut steps);
                let mut cells: Vec<Cell> = steps.iter().filter(|s| after.board[s.to as usize] == 0).map(|s| s.to).collect();
                cells.sort_unstable();
                cells.dedup();
                cells
            }
        };
        for cell in cells {
            out.push(Move { gate: WALL_GATE, second: cell, ..m });
        }
    }
}
