//! Claims evaluated on concrete positions and moves of the interpreter.
//!
//! These are the definitions the exploration ([`crate::explore`]) checks on
//! every position it reaches; the symbolic encoding states the same
//! properties for Z3.

use rulebook_interpreter::model::geometry::{Cell, Geometry};
use rulebook_interpreter::model::{Color, KindId, Property};
use rulebook_interpreter::engine::position::{color_of, kind_of, MoveKind, PROMOTED};
use rulebook_interpreter::{Move, Position, Variant};

/// Does the position property `p` hold in `pos`? (Move properties: `true`.)
///
/// * `NeverOn { kind, zone }`: no piece of `kind` owned by player `c` stands
///   on a cell of `zone[c]`.
/// * `NeverAdjacent { kind, other }`: no piece of `kind` of player `c` stands
///   one king step away (every coordinate differs by at most 1, not all equal)
///   from a piece of `other` of player `1 - c`.
/// * `AtMost { kind, count }`: neither player has more than `count` pieces of
///   `kind` on the board (pieces in hand do not count; a spread piece stands
///   on two cells and counts once).
/// * `SpreadAtMost { squares }`: no piece stands on more than `squares`
///   cells. A conventional piece stands on one; a pair on two, provided the
///   spread state is well formed ([`spread_well_formed`]); a position whose
///   spread state is not breaks the claim.
/// * `GroupsAtMost { groups }`: at most `groups` entangled groups, a group
///   being a unit that entangling formed or joined: one that carries a label
///   or holds pieces of both sides ([`groups`]).
pub fn position_holds(v: &Variant, pos: &Position, p: &Property) -> bool {
    let nwords = v.tables.nwords;
    match p {
        Property::SpreadAtMost { squares } => {
            let most = if pos.spread.is_some() {
                2
            } else {
                usize::from(v.game.geometry.board_cells().any(|c| pos.board[c as usize] != 0))
            };
            spread_well_formed(v, pos) && most <= usize::from(*squares)
        }
        Property::GroupsAtMost { groups: most } => groups(pos) <= usize::from(*most),
        Property::NeverOn { kind, zone } => (0..2u8).all(|c| {
            zone[c as usize]
                .iter()
                .all(|&cell| !is_piece(pos.board.get(cell as usize).copied().unwrap_or(0), *kind, c))
        }),
        Property::NeverAdjacent { kind, other } => {
            let geo = &v.game.geometry;
            (0..2u8).all(|c| {
                pos.cells_of(c, nwords).filter(|&a| is_piece(pos.board[a as usize], *kind, c)).all(|a| {
                    pos.cells_of(1 - c, nwords)
                        .filter(|&b| is_piece(pos.board[b as usize], *other, 1 - c))
                        .all(|b| !king_step(geo, a, b))
                })
            })
        }
        Property::AtMost { kind, count } => (0..2u8).all(|c| {
            let cells = pos.cells_of(c, nwords).filter(|&a| is_piece(pos.board[a as usize], *kind, c)).count();
            // A pair's second half is the same piece again.
            let pairs = pos.spread.as_ref().map_or(0, |s| {
                s.pairs.iter().filter(|p| p.red != p.blue && is_piece(pos.board.get(p.red as usize).copied().unwrap_or(0), *kind, c)).count()
            });
            (cells.saturating_sub(pairs)) as u64 <= u64::from(*count)
        }),
        Property::NeverInHand { kind } => (0..2).all(|c| pos.hand[c][*kind as usize] == 0),
        Property::KeepsColour { .. } | Property::KeepsColourAtRest { .. } | Property::HiddenArrivals { .. } | Property::Directions { .. } => true,
    }
}

/// Is the spread state of `pos` made of pairs, each one piece on two cells?
/// Each pair's red and blue cells differ, lie on the board and hold the same
/// piece (kind and owner), and no cell holds halves of two pairs. (`true` without spread
/// pieces.)
pub fn spread_well_formed(v: &Variant, pos: &Position) -> bool {
    let Some(state) = pos.spread.as_deref() else { return true };
    let on_board = |c: Cell| v.game.geometry.on_board.get(c as usize).copied().unwrap_or(false);
    let mut seen: Vec<Cell> = Vec::with_capacity(2 * state.pairs.len());
    for p in &state.pairs {
        if p.red == p.blue || !on_board(p.red) || !on_board(p.blue) {
            return false;
        }
        // The same kind and owner (the promoted flag, which only matters
        // for captures into a hand, is not compared).
        let piece = pos.board[p.red as usize] & !PROMOTED;
        if piece == 0 || pos.board[p.blue as usize] & !PROMOTED != piece {
            return false;
        }
        for c in [p.red, p.blue] {
            if seen.contains(&c) {
                return false;
            }
            seen.push(c);
        }
    }
    true
}

/// The entangled groups of `pos`: its units that carry a label or hold
/// pieces of both sides (entangling joins a piece to a unit of the other
/// side; a castling split's unit, one side's, is no group), as
/// [`rulebook_interpreter::engine::spread::entangled_groups`] counts them. Counting
/// units, not labels, also catches a label given to two units and a group
/// left without one.
pub fn groups(pos: &Position) -> usize {
    rulebook_interpreter::engine::spread::entangled_groups(pos)
}

/// Does the move property `p` hold of the move `m` played in `pos`?
/// (Position properties: `true`.)
///
/// * `KeepsColour { kind }`: every piece of `kind` the move displaces ends on
///   a cell of the colour it started on (colour: the parity of the coordinate
///   sum). A drop moves nothing. Castling moves two pieces: the king from
///   `m.from` to its castling destination and the partner from `m.aux` to its
///   own; each one of `kind` is checked. A promoting piece is the kind it was
///   before the move (`m.piece`).
/// * `HiddenArrivals { zone, kinds }`: a face-down piece that moves ends
///   outside its owner's `zone`, or its disguise (the kind on the board, as
///   it moves) is one of `kinds`. Castling with a face-down partner moves
///   that partner (shown as the castling partner kind) to its castling
///   destination. What the piece is revealed as does not matter.
///
/// Neither property reads what a chance draw settles (a revealed identity,
/// a captured face-down piece's, a promotion that follows from them), so a
/// property holds of a decision exactly when it holds of each of its chance
/// outcomes: the search judges decisions at its leaves.
pub fn move_holds(v: &Variant, pos: &Position, m: &Move, p: &Property) -> bool {
    if let Property::HiddenArrivals { zone, kinds } = p {
        return hidden_arrival_holds(v, pos, m, zone, kinds);
    }
    let kind = match p {
        Property::KeepsColour { kind } => kind,
        // A move made while some level stands out of the shaft is not asked about.
        Property::KeepsColourAtRest { kind } if at_rest(pos) => kind,
        _ => return true,
    };
    let geo = &v.game.geometry;
    let us = pos.side as usize;
    match m.kind {
        MoveKind::Drop => true,
        MoveKind::Castle => {
            let Some(rule) = &v.game.castling else {
                // No castling rule: the move cannot happen; judge the king step alone.
                return m.piece != *kind || same_colour(geo, m.from, m.to);
            };
            let Some(side) = rule.sides.get(m.side as usize) else {
                return m.piece != *kind || same_colour(geo, m.from, m.to);
            };
            let king_ok = rule.king != *kind || same_colour(geo, m.from, side.king_to[us]);
            let rook_ok = rule.rook != *kind || same_colour(geo, m.aux as Cell, side.rook_to[us]);
            king_ok && rook_ok
        }
        _ => m.piece != *kind || same_colour(geo, m.from, m.to),
    }
}

/// Does every level of `pos` stand at rest (no `slide` state, or every offset 0)?
pub fn at_rest(pos: &Position) -> bool {
    rulebook_interpreter::engine::frame::offsets_of(pos).is_none_or(|o| o.iter().all(|&x| x == 0))
}

/// `HiddenArrivals` for one move (see [`move_holds`]).
fn hidden_arrival_holds(v: &Variant, pos: &Position, m: &Move, zone: &[Vec<Cell>; 2], kinds: &[KindId]) -> bool {
    let us = pos.side as usize;
    let (cell, to) = match m.kind {
        MoveKind::Drop => return true,
        MoveKind::Castle => {
            let partner = m.aux as Cell;
            let Some(side) = v.game.castling.as_ref().and_then(|r| r.sides.get(m.side as usize)) else {
                return true;
            };
            (partner, side.rook_to[us])
        }
        _ => (m.from, m.to),
    };
    if !pos.is_hidden(cell) || !zone[us].contains(&to) {
        return true;
    }
    let disguise = pos.board.get(cell as usize).copied().unwrap_or(0);
    disguise != 0 && kinds.contains(&kind_of(disguise))
}

/// Is `c` a piece of `kind` owned by `color`?
#[inline]
fn is_piece(c: u8, kind: KindId, color: Color) -> bool {
    c != 0 && kind_of(c) == kind && color_of(c) == color
}

/// The parity of the coordinate sum of `cell` (its colour).
#[inline]
pub fn colour(geo: &Geometry, cell: Cell) -> usize {
    usize::from(geo.colour(cell))
}

/// Do `a` and `b` have the same colour?
#[inline]
fn same_colour(geo: &Geometry, a: Cell, b: Cell) -> bool {
    colour(geo, a) == colour(geo, b)
}

/// Are `a` and `b` one king step apart: every coordinate differs by at most
/// one, and they are different cells?
pub fn king_step(geo: &Geometry, a: Cell, b: Cell) -> bool {
    if a == b {
        return false;
    }
    let (mut ra, mut rb) = (a as usize, b as usize);
    for axis in &geo.axes {
        let n = axis.labels.len().max(1);
        if (ra % n).abs_diff(rb % n) > 1 {
            return false;
        }
        ra /= n;
        rb /= n;
    }
    true
}
