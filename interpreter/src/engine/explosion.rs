//! Explosions (`explosion { … }`, issue 17), a layer around plain make and
//! around the royal piece's safety.
//!
//! * **Make.** A capture is made as usual ([`Position::make_plain`]); then
//!   it explodes on its target square: the capturing piece (unless its kind
//!   is immune) and every piece within the explosion's reach of the target
//!   (unless its kind is spared or immune) leave the board, with any
//!   castling right they carried. Drops and castling capture nothing.
//! * **Royal pieces.** A move is legal when it removes none of the mover's
//!   own royal pieces (no self-destruction) and either removes a royal piece
//!   of the opponent (the game is decided by it) or leaves no royal piece of
//!   the mover attacked. A royal piece within reach of an enemy royal piece
//!   that an explosion would remove is not attacked: capturing it would blow
//!   up the capturer's own royal piece. Kings that touch are safe from each
//!   other, as in atomic chess.

use crate::engine::movegen;
use crate::engine::position::{kind_of, Move, MoveKind, Position};
use crate::engine::tables::Tables;
use crate::model::geometry::Cell;
use crate::model::{Color, Game};

/// Plays the capture `m` and its explosion (`pos` before the move; only
/// captures explode: [`Position::is_capture`]).
pub(crate) fn make_capture(pos: &mut Position, m: &Move, game: &Game, t: &Tables) {
    pos.make_plain(m, game, t);
    blast(pos, m.to, game, t);
}

/// Removes what an explosion on `center` removes: the piece there (the
/// capturer) unless immune, and every piece within reach neither spared nor immune.
fn blast(pos: &mut Position, center: Cell, game: &Game, t: &Tables) {
    // The piece on `cell`, unless empty or of a kind in `keep`, leaves the
    // board with the castling rights it carried.
    let mut remove = |cell: Cell, keep: u64| {
        let code = pos.board[cell as usize];
        if code != 0 && keep >> kind_of(code) & 1 == 0 {
            pos.take(cell, t);
            pos.lose_right_at(cell);
            pos.lose_rights_of_castler(code, game);
        }
    };
    remove(center, t.blast_immune);
    for &c in t.blast_around(center) {
        remove(c, t.blast_spared | t.blast_immune);
    }
}

/// Is `m` legal for the mover's royal pieces? (Tried on a copy; see the module.)
pub(crate) fn legal_by_trial(game: &Game, t: &Tables, pos: &Position, m: &Move) -> bool {
    let us = pos.side as usize;
    let mut next = pos.clone();
    next.make(m, game, t);
    let arrives = match m.kind {
        MoveKind::Drop => t.royal_mask >> m.piece & 1,
        _ if m.is_promotion() => (t.royal_mask >> m.promotion & 1) & !(t.royal_mask >> m.piece & 1),
        _ => 0,
    } as u8;
    if next.royal_count[us] < pos.royal_count[us] + arrives {
        return false; // it blows up a royal piece of its own
    }
    if next.royal_count[us ^ 1] < pos.royal_count[us ^ 1] {
        return true; // it blows up a royal piece of the opponent
    }
    !royal_attacked(game, t, &next, us as Color)
}

/// Is some royal piece of `color` attacked, the royal pieces next to an
/// enemy royal piece (within an explosion's reach, of a kind it removes) left out?
pub(crate) fn royal_attacked(game: &Game, t: &Tables, pos: &Position, color: Color) -> bool {
    pos.cells_of(color, t.nwords)
        .filter(|&c| t.royal_mask >> kind_of(pos.board[c as usize]) & 1 != 0)
        .any(|c| !touches_enemy_royal(t, pos, c, color) && movegen::attacked(game, t, pos, c, color ^ 1))
}

/// Would a royal piece of `color` standing on `cell` be safe from capture
/// because an explosion there would remove a royal piece of the other side?
pub(crate) fn touches_enemy_royal(t: &Tables, pos: &Position, cell: Cell, color: Color) -> bool {
    let keep = t.blast_spared | t.blast_immune;
    t.blast_around(cell).iter().any(|&c| {
        let code = pos.board[c as usize];
        code != 0
            && crate::engine::position::color_of(code) != color
            && t.royal_mask >> kind_of(code) & 1 != 0
            && keep >> kind_of(code) & 1 == 0
    })
}
