//! Chance outcomes: a move of a face-down piece (or castling with a
//! face-down partner) reveals what it is, and a captured face-down piece is
//! drawn from its owner's pool. Each identity with a non-zero count in the
//! pool is its own move, so the move list is the list of the chance tree's
//! branches; a revealed identity that promotes where it lands expands into
//! its promotion choices (promotion is part of the same move).

use crate::model::geometry::Cell;
use crate::model::Game;
use crate::engine::position::{Move, MoveKind, Position, NO_KIND, NO_PROMOTION};
use crate::engine::tables::Tables;

/// The cells whose identities a chance draw settles when the decision `m`
/// is made: the face-down piece it moves (castling: the face-down partner)
/// and the face-down piece it captures, each `None` where there is none.
pub(super) fn drawn_cells(pos: &Position, m: &Move) -> (Option<Cell>, Option<Cell>) {
    let revealed: Option<Cell> = match m.kind {
        MoveKind::Castle => Some(m.aux as Cell),
        MoveKind::Drop => None,
        _ => Some(m.from),
    }
    .filter(|&c| pos.is_hidden(c));
    let victim: Option<Cell> = match m.kind {
        MoveKind::EnPassant => Some(m.aux as Cell),
        MoveKind::Normal | MoveKind::EnPassantSetter => Some(m.to),
        MoveKind::Castle | MoveKind::Drop => None,
    }
    .filter(|&c| pos.board[c as usize] != 0 && pos.is_hidden(c));
    (revealed, victim)
}

/// Does some identity remain to be drawn for each cell of [`drawn_cells`]:
/// has the decision `m` at least one chance outcome?
pub(super) fn has_outcome(pos: &Position, m: &Move) -> bool {
    let (revealed, victim) = drawn_cells(pos, m);
    let us = pos.side;
    revealed.is_none_or(|_| pos.pool_size(us) > 0) && victim.is_none_or(|_| pos.pool_size(us ^ 1) > 0)
}

/// Replaces the moves `out[first..]` by their chance outcomes, in order.
pub(super) fn split_outcomes(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, first: usize) {
    let decisions: Vec<Move> = out.drain(first..).collect();
    let us = pos.side as usize;
    let kinds = game.kinds.len();
    let drawable = |color: usize| -> Vec<u8> { (0..kinds as u8).filter(|&k| pos.pool[color][k as usize] > 0).collect() };
    let mine = drawable(us);
    let theirs = drawable(us ^ 1);
    let none = [NO_KIND];
    for m in decisions {
        let (revealed, victim) = drawn_cells(pos, &m);
        if revealed.is_none() && victim.is_none() {
            out.push(m);
            continue;
        }
        let reveals: &[u8] = if revealed.is_some() { &mine } else { &none };
        let unveils: &[u8] = if victim.is_some() { &theirs } else { &none };
        for &reveal in reveals {
            for &unveil in unveils {
                let outcome = Move { reveal, unveil, ..m };
                let kc = reveal as usize * 2 + us;
                let rule = if reveal != NO_KIND && m.kind != MoveKind::Castle { t.promotion_rule(kc, m.from, m.to, pos.board[m.to as usize] != 0 || m.kind == MoveKind::EnPassant) } else { 0 };
                if rule == 0 {
                    out.push(outcome);
                } else {
                    for &target in &t.promo_targets[rule as usize - 1] {
                        let promotion = if target == reveal { NO_PROMOTION } else { target };
                        out.push(Move { promotion, ..outcome });
                    }
                }
            }
        }
    }
}
