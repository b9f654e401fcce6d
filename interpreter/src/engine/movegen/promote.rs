//! Promotions made as moves of their own (`Pawn on … becomes Fers in place
//! or with a quiet move`, sittuyin): instead of moving, a piece becomes one of
//! the targets where it stands, or on an empty cell the new kind could move
//! to from there. They are added to the legal moves after the others.

use super::*;

/// Appends the legal promotion moves of the side to move (none in a game
/// without `becomes` rules).
pub(crate) fn promotion_moves(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    let us = pos.side;
    let first = out.len();
    for rule in &game.promotion_moves {
        if rule.guard.as_ref().is_some_and(|g| !crate::engine::cond::holds(game, t, pos, g, us, us)) {
            continue;
        }
        let start = out.len();
        for from in pos.cells_of(us, t.nwords) {
            if pos.board[from as usize] != code(rule.kind, us) || pos.is_hidden(from) {
                continue;
            }
            if rule.zone.as_ref().is_some_and(|z| !z[us as usize].contains(&from)) {
                continue;
            }
            for &target in &rule.targets {
                let mut cells = vec![from];
                if rule.quiet_move {
                    // The cells the new piece could move to without capturing.
                    let mut probe = pos.clone();
                    probe.board[from as usize] = code(target, us);
                    probe.ep_len = 0;
                    let mut steps = Vec::new();
                    piece_moves(&probe, t, from, &mut steps);
                    cells.extend(steps.iter().filter(|s| s.kind != MoveKind::EnPassant && pos.board[s.to as usize] == 0).map(|s| s.to));
                }
                for to in cells {
                    let m = Move { promotion: target, ..Move::normal(rule.kind, from, to) };
                    // Each move once, whichever rules and parts offer it.
                    if !out[first..].iter().any(|o| o.from == m.from && o.to == m.to && o.promotion == m.promotion) {
                        out.push(m);
                    }
                }
            }
        }
        retain_from(out, start, |m| {
            let mut next = pos.clone();
            next.make(m, game, t);
            !royal_attacked(game, t, &next, us) && (!rule.no_check || !royal_attacked(game, t, &next, us ^ 1)) && (!rule.no_attack || !attacks_enemy(t, next, m.to, us))
        });
    }
}

/// Does the piece of `us` on `cell` attack a piece of the other player (`next`
/// is the position after the promotion, the other player to move)?
fn attacks_enemy(t: &Tables, mut next: Position, cell: Cell, us: Color) -> bool {
    next.side = us;
    next.ep_len = 0;
    let mut moves = Vec::new();
    piece_moves(&next, t, cell, &mut moves);
    moves.iter().any(|m| m.kind != MoveKind::EnPassant && next.board[m.to as usize] != 0 && color_of(next.board[m.to as usize]) != us)
}
