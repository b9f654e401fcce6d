//! Drops: a piece from the mover's hand onto an empty cell of its drop zone
//! (`hand`, LANGUAGE §3.9), within its limits: `at most N per AXIS` here,
//! `no mate` as a legality test ([`mating_drop`]) once the moves are legal.

use super::*;
use crate::engine::position::{NO_KIND, PROMOTED};
use crate::model::KindId;

/// Appends the drops of the side to move (pseudo-legal: a drop may leave
/// the mover's royal piece attacked, and `no mate` is not tested).
pub(super) fn drops(game: &Game, t: &Tables, pos: &Position, out: &mut impl Sink) {
    if game.hand.is_none() {
        return;
    }
    let us = pos.side;
    let limits = game.hand.as_ref().map(|h| &h.drop_limits);
    for (kind, &n) in pos.hand[us as usize][..game.kinds.len()].iter().enumerate() {
        let limit = limits.and_then(|l| l.get(kind));
        if n == 0 && !limit.is_some_and(|l| l.unlimited) {
            continue;
        }
        let zone = &t.drop_zone[(kind * 2 + us as usize) * t.ncells..][..t.ncells];
        // `also promoted`: each drop once more as the promoted form.
        let face = t.drop_face[kind];
        let empty = |c: &Cell| pos.board[*c as usize] == 0;
        if let Some(first) = limit.and_then(|l| l.first_filling.as_ref()).filter(|z| z[us as usize].iter().any(empty)) {
            // `first filling ZONE`: while the zone has an empty cell, only there.
            for &c in first[us as usize].iter().filter(|c| empty(c)) {
                push_drop(out, kind, c as usize, face);
            }
            continue;
        }
        if let Some(l) = limit.filter(|l| l.next_to_own || l.enclosing) {
            // Drops that depend on the pieces around the cell: tested one by one.
            let own = |c: &Cell| pos.board[*c as usize] != 0 && color_of(pos.board[*c as usize]) == us;
            for (cell, &ok) in zone.iter().enumerate() {
                if !ok || pos.board[cell] != 0 {
                    continue;
                }
                if l.next_to_own && !t.neighbours[cell].iter().any(own) {
                    continue;
                }
                if l.enclosing && crate::engine::convert::enclosed(game, t, pos, cell as Cell, us).is_empty() {
                    continue;
                }
                push_drop(out, kind, cell, face);
            }
            continue;
        }
        match &t.drop_lines[kind] {
            None => {
                for (cell, &ok) in zone.iter().enumerate() {
                    if ok && pos.board[cell] == 0 {
                        push_drop(out, kind, cell, face);
                    }
                }
            }
            Some((most, lines)) => {
                // `at most N per AXIS`: only files (cells sharing a label of
                // the axis) holding fewer than N of the mover's pieces of the
                // kind take one more.
                let own = code(kind as u8, us);
                for line in lines {
                    let here = line.iter().filter(|&&c| pos.board[c as usize] & !PROMOTED == own).count();
                    if here as u32 >= *most {
                        continue;
                    }
                    for &cell in line {
                        if zone[cell as usize] && pos.board[cell as usize] == 0 {
                            push_drop(out, kind, cell as usize, face);
                        }
                    }
                }
            }
        }
    }
}

/// Appends the legal drops of `kind` alone, as [`super::legal_moves`]
/// lists them (in its order, the `rule` items' forbidden ones left out),
/// for a caller that only wants drops of that kind (a placement order's
/// next piece: [`crate::flow::phase`]). `false`, with nothing appended,
/// where they cannot be told apart from the other moves: a layer around
/// the plain moves that reads or rewrites the whole list (walls, gating,
/// promotions as moves, the pass, compulsory drops, `captures are
/// compulsory`), chance outcomes, spread pieces or observation; the caller
/// then lists every legal move.
pub fn legal_drops_of(game: &Game, t: &Tables, pos: &Position, kind: KindId, out: &mut Vec<Move>) -> bool {
    let layered = super::layered(game, t);
    if layered || game.observe.is_some() || game.spread.is_some() || game.tunnel.is_some() || pos.any_hidden() {
        return false;
    }
    if !game.rules.is_empty() {
        return crate::engine::cond::legal_drops_of(game, t, pos, kind, out);
    }
    legal_drops_plain(game, t, pos, kind, out);
    true
}

/// The cells where [`legal_drops_of`] lets the mover drop a piece of `kind`
/// from its hand, as a set, found without listing the drops: the empty
/// cells of the kind's drop zone. `None` where the drops are not that
/// plain: a layer around the moves, chance, a hand limit on the kind, a
/// promoted face, `no mate`, the mover in check or its safety not found
/// from pins (a drop may then leave its royal piece attacked), a `rule`
/// item that takes some away ([`crate::engine::cond::drops_unruled`]), or
/// none of `kind` in hand.
pub fn drop_cells(game: &Game, t: &Tables, pos: &Position, kind: KindId) -> Option<[u64; WORDS]> {
    let us = pos.side;
    let layered = super::layered(game, t) || t.drop_no_mate;
    if layered || game.observe.is_some() || game.spread.is_some() || game.tunnel.is_some() || pos.any_hidden() {
        return None;
    }
    let hand = game.hand.as_ref()?;
    if *pos.hand[us as usize].get(kind as usize)? == 0 || t.drop_face.get(kind as usize).is_none_or(|&f| f != NO_KIND) {
        return None;
    }
    let limited = hand.drop_limits.get(kind as usize).is_some_and(|l| l.unlimited || l.first_filling.is_some() || l.next_to_own || l.enclosing);
    if limited || t.drop_lines.get(kind as usize).is_none_or(|l| l.is_some()) {
        return None;
    }
    if pos.royal_count[us as usize] > 0 && (!super::legal::pins_found_once(game, t, pos) || in_check(game, t, pos)) {
        return None;
    }
    if !game.rules.is_empty() && !crate::engine::cond::drops_unruled(game, t, pos, kind) {
        return None;
    }
    let mut cells = *t.drop_zone_cells.get(kind as usize * 2 + us as usize)?;
    for (c, (a, b)) in cells.iter_mut().zip(pos.occupied[0].iter().zip(&pos.occupied[1])) {
        *c &= !(a | b);
    }
    Some(cells)
}

/// [`legal_drops_of`] without the `rule` items (the caller has ruled out
/// the layers): the drops of `kind`, less those that leave the mover's
/// royal piece attacked (only tried where a drop can: in check, or where
/// pins are not found once) and those `no mate` forbids.
pub(crate) fn legal_drops_plain(game: &Game, t: &Tables, pos: &Position, kind: KindId, out: &mut Vec<Move>) {
    /// Keeps the drops of one kind.
    struct OfKind<'a>(KindId, &'a mut Vec<Move>);
    impl Sink for OfKind<'_> {
        #[inline(always)]
        fn add(&mut self, m: Move) {
            if m.piece == self.0 {
                self.1.push(m);
            }
        }
    }
    let first = out.len();
    drops(game, t, pos, &mut OfKind(kind, out));
    if pos.royal_count[pos.side as usize] > 0 && (!super::legal::pins_found_once(game, t, pos) || in_check(game, t, pos)) {
        let mut trial = super::legal::Trial::new(game, t, pos);
        super::retain_from(out, first, |m| trial.legal(m));
    }
    if t.drop_no_mate {
        super::retain_from(out, first, |m| !mating_drop(game, t, pos, m));
    }
}

/// Adds the drop of `kind` on `cell`, and as `face` too unless that is [`NO_KIND`].
#[inline(always)]
fn push_drop(out: &mut impl Sink, kind: usize, cell: usize, face: KindId) {
    let m = Move::drop(kind as u8, cell as Cell);
    out.add(m);
    if face != NO_KIND {
        out.add(Move { promotion: face, ..m });
    }
}

/// Is `m` a drop that `no mate` forbids: of a kind with `no mate`, giving
/// check, and leaving the opponent no legal move? (Fairy-Stockfish's
/// `shogiPawnDropMateIllegal`, for any kind the rules name.)
pub(crate) fn mating_drop(game: &Game, t: &Tables, pos: &Position, m: &Move) -> bool {
    if m.kind != MoveKind::Drop || !game.hand.as_ref().is_some_and(|h| h.drop_limits[m.piece as usize].no_mate) {
        return false;
    }
    let mut next = pos.clone();
    next.make(m, game, t);
    if !in_check(game, t, &next) {
        return false;
    }
    let mut replies = Vec::new();
    legal_moves(game, t, &next, &mut replies);
    replies.is_empty()
}
