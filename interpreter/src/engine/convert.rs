//! Conversions (`converts around N`, `converts enclosed` in a piece): where a
//! piece of such a kind lands, by a move or a drop, enemy pieces change to its
//! side: those within N king steps (ataxx), or every straight line of enemy
//! pieces from it up to another piece of its side (othello). A layer after the
//! plain make; `enclosed` also decides the drops that must convert
//! (`enclosing` in `hand`).

use crate::engine::position::{code, color_of, kind_of, Position, PROMOTED};
use crate::engine::tables::Tables;
use crate::model::geometry::Cell;
use crate::model::{Color, Game};

/// The enemy cells that a piece of `color` on `cell` closes off: along each
/// king-step direction, a run of one or more enemy pieces ended by a piece of
/// `color`.
pub fn enclosed(game: &Game, t: &Tables, pos: &Position, cell: Cell, color: Color) -> Vec<Cell> {
    let mut out = Vec::new();
    for v in &t.king_steps {
        let mut run = Vec::new();
        let mut at = cell;
        let closed = loop {
            match game.geometry.offset(at, v) {
                None => break false,
                Some(next) => {
                    let p = pos.board[next as usize];
                    if p == 0 {
                        break false;
                    }
                    if color_of(p) == color {
                        break true;
                    }
                    run.push(next);
                    at = next;
                }
            }
        };
        if closed {
            out.extend(run);
        }
    }
    out
}

/// The enemy cells within `n` king steps of `cell`.
fn around(t: &Tables, pos: &Position, cell: Cell, n: u32, color: Color) -> Vec<Cell> {
    let mut seen = vec![cell];
    let mut frontier = vec![cell];
    for _ in 0..n {
        let mut next = Vec::new();
        for &c in &frontier {
            for &d in &t.neighbours[c as usize] {
                if !seen.contains(&d) {
                    seen.push(d);
                    next.push(d);
                }
            }
        }
        frontier = next;
    }
    seen.into_iter().filter(|&c| c != cell && pos.board[c as usize] != 0 && color_of(pos.board[c as usize]) != color).collect()
}

/// Applies the conversions of the piece that just landed on `cell` (of
/// `color`), if its kind converts.
pub(crate) fn after_landing(game: &Game, t: &Tables, pos: &mut Position, cell: Cell, color: Color) {
    let piece = pos.board[cell as usize];
    let Some(kind) = game.kinds.get(kind_of(piece) as usize) else { return };
    let mut cells = Vec::new();
    if let Some(n) = kind.converts_around {
        cells.extend(around(t, pos, cell, n, color));
    }
    if kind.converts_enclosed {
        cells.extend(enclosed(game, t, pos, cell, color));
    }
    for c in cells {
        let p = pos.board[c as usize];
        if p != 0 && color_of(p) != color {
            pos.take(c, t);
            pos.put(c, code(kind_of(p), color) | (p & PROMOTED), t);
        }
    }
}
