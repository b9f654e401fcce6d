//! Observation (`observe { … }`, issue 15): a layer around the plain move
//! generator. Each pseudo-legal move of a piece is looked at along its
//! *path*: the cells it passes and its target (a ride's, a hop's), a leap's
//! target, or a leap's `via step` cell alone. The first of them that lies in the *capturing range* of
//! an enemy piece, judged with the moving piece lifted off its square, is
//! where the piece is *seen*; its *observers* are the enemy pieces whose
//! range holds that cell. A seen move is not made; in its place the mover
//! chooses among
//! - *slowed* moves: the piece goes on from the seen cell (when it is
//!   empty) moving as its `slow` kind, one move of that kind, landing
//!   anywhere but its departure square and never on a royal piece (it
//!   keeps its own kind: no promotion, no en passant);
//! - *displaced* moves: to any cell at king-step distance equal to the
//!   number of observers from the departure square (`from departure`) or
//!   from the seen cell (`from seen`), empty or holding an enemy piece that
//!   is not royal, but not the target of a move seen at that cell (a
//!   piece that promotes there is promoted).
//!
//! Only a move the plain rules allow (it leaves no royal piece of the mover
//! attacked) is made and so can be seen; so a king, which may not move into
//! an enemy's capturing range, is never seen. Moves seen at one cell share
//! their alternatives: each is listed once per seen cell. Castling and drops
//! are never seen. Every alternative is then tested for legality by trial.

use super::*;
use crate::engine::position::{DISPLACED, SLOWED};
use crate::model::observe::{Anchor, Observation};
use crate::model::StepKind;

/// The legal moves of the side to move in a variant with an `observe`
/// item, from `plain`, the moves the plain rules allow: only such a move is
/// made, and so seen. Castling and drops are never seen.
pub(crate) fn legal_moves(game: &Game, t: &Tables, pos: &Position, plain: &[Move], out: &mut Vec<Move>) {
    let Some(obs) = &game.observe else { return out.extend_from_slice(plain) };
    let us = pos.side;
    let base = capture_range(game, pos, us ^ 1, t);
    let mut moves = Vec::new();
    for from in pos.cells_of(us, t.nwords) {
        moves.clear();
        moves.extend(plain.iter().copied().filter(|m| m.from == from && m.kind != MoveKind::Drop && m.kind != MoveKind::Castle));
        if !moves.is_empty() {
            observe_piece(game, t, pos, obs, from, &moves, &base, out);
        }
    }
    out.extend(plain.iter().copied().filter(|m| m.kind == MoveKind::Drop));
    out.extend(plain.iter().copied().filter(|m| m.kind == MoveKind::Castle));
}

/// Where observation saw some of the moves of one piece: the cell, the
/// enemy pieces whose capturing range holds it, and the moves seen there
/// first. For the checker's pass over what the text leaves open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sighting {
    /// The cell the piece leaves.
    pub from: Cell,
    /// The first cell of their paths in an enemy's capturing range (S).
    pub at: Cell,
    /// How many enemy pieces' ranges hold `at` (N).
    pub observers: u8,
    /// The targets of the moves first seen at `at`.
    pub targets: Vec<Cell>,
    /// Cells of those paths after `at` in a capturing range too, with their
    /// observers: where a reading that does not stop at the first cell
    /// would see the piece again.
    pub again: Vec<(Cell, u8)>,
}

/// The sightings of the side to move's pieces in `pos` (a variant with an
/// `observe` item; none without), each piece's in the order of its cells.
pub fn sightings(game: &Game, t: &Tables, pos: &Position) -> Vec<Sighting> {
    let mut plain = Vec::new();
    super::legal::legal_decisions(game, t, pos, &mut plain);
    let base = capture_range(game, pos, pos.side ^ 1, t);
    let mut out = Vec::new();
    for from in pos.cells_of(pos.side, t.nwords) {
        let moves: Vec<Move> = plain.iter().copied().filter(|m| m.from == from && m.kind != MoveKind::Drop && m.kind != MoveKind::Castle).collect();
        if !moves.is_empty() {
            let range = range_without(game, t, pos, from, &base);
            out.extend(sort_seen(game, pos, from, &moves, &range, true, &mut Vec::new()));
        }
    }
    out
}

/// The enemy's capturing range with the piece on `from` lifted: `base` (the
/// range with every piece in place) unless some enemy range reaches `from`.
fn range_without(game: &Game, t: &Tables, pos: &Position, from: Cell, base: &[u8]) -> Vec<u8> {
    if base[from as usize] == 0 {
        return base.to_vec();
    }
    let mut lifted = pos.clone();
    lifted.take(from, t);
    capture_range(game, &lifted, pos.side ^ 1, t)
}

/// Appends to `unseen` the `moves` of the piece on `from` that no enemy
/// piece sees, and returns the sightings of the others, by the first cell of each path in `range`; with
/// `again`, each sighting also lists the cells seen further on (the
/// checker's business: move generation leaves it empty).
#[allow(clippy::too_many_arguments)]
fn sort_seen(game: &Game, pos: &Position, from: Cell, moves: &[Move], range: &[u8], again: bool, unseen: &mut Vec<Move>) -> Vec<Sighting> {
    let kind = kind_of(pos.board[from as usize]);
    let mut seen: Vec<Sighting> = Vec::new();
    let mut cells = Vec::with_capacity(8);
    for m in moves {
        path_into(game, kind, pos.side, from, m.to, &mut cells);
        let Some(i) = cells.iter().position(|&c| range[c as usize] > 0) else {
            unseen.push(*m);
            continue;
        };
        let at = cells[i];
        let later = if again { &cells[i + 1..] } else { &[][..] };
        let again = later.iter().filter(|&&c| range[c as usize] > 0).map(|&c| (c, range[c as usize]));
        match seen.iter_mut().find(|s| s.at == at) {
            Some(s) => {
                s.targets.push(m.to);
                for a in again {
                    if !s.again.contains(&a) {
                        s.again.push(a);
                    }
                }
            }
            None => seen.push(Sighting { from, at, observers: range[at as usize], targets: vec![m.to], again: again.collect() }),
        }
    }
    seen
}

/// The cells a piece seen at `s.at` may be displaced to, counting the
/// distance from `anchor`: at king-step distance `s.observers`, not its
/// departure square nor a target seen there, empty or holding an enemy
/// piece that is not royal. (Before the test of the mover's king.)
pub fn displacement_cells(game: &Game, pos: &Position, s: &Sighting, anchor: Anchor) -> Vec<Cell> {
    let geo = &game.geometry;
    let us = pos.side;
    let at = match anchor {
        Anchor::Departure => s.from,
        Anchor::Seen => s.at,
    };
    let n = i32::from(s.observers);
    let dims = geo.dims();
    // Every offset of king-step distance exactly n: the surface of the cube
    // of side 2n+1 around `at`, in the geometry's cell order.
    let mut out = Vec::new();
    let mut v = vec![-n; dims];
    loop {
        if v.iter().any(|x| x.abs() == n) {
            if let Some(d) = geo.offset(at, &v) {
                let occ = pos.board[d as usize];
                if d != s.from && !s.targets.contains(&d) && (occ == 0 || (color_of(occ) != us && !game.kinds[kind_of(occ) as usize].royal)) {
                    out.push(d);
                }
            }
        }
        // The next offset, axis 0 fastest.
        let mut axis = 0;
        while axis < dims && v[axis] == n {
            v[axis] = -n;
            axis += 1;
        }
        if axis == dims {
            break;
        }
        v[axis] += 1;
    }
    out.sort_unstable();
    out
}

/// Looks at the moves of the piece on `from` (its `moves` the plain rules
/// allow) and appends to `out` the unseen ones as they are, then for each
/// cell where some were seen the legal alternatives, once each. `base` is
/// the enemy's capturing range with every piece in place: lifting the
/// piece changes it only when some enemy piece's range reaches `from`.
#[allow(clippy::too_many_arguments)]
fn observe_piece(game: &Game, t: &Tables, pos: &Position, obs: &Observation, from: Cell, moves: &[Move], base: &[u8], out: &mut Vec<Move>) {
    let us = pos.side;
    let kind = kind_of(pos.board[from as usize]);
    let lifted_range;
    let range: &[u8] = if base[from as usize] == 0 {
        base
    } else {
        lifted_range = range_without(game, t, pos, from, base);
        &lifted_range
    };
    let seen = sort_seen(game, pos, from, moves, range, false, out);
    let start = out.len();
    let push = |m: Move, out: &mut Vec<Move>| {
        if !out[start..].contains(&m) && legal_by_trial(game, t, pos, &m) {
            out.push(m);
        }
    };
    for sighting in seen {
        let s = sighting.at;
        // (The cells other than `from` read the same lifted or not.)
        if let Some(slower) = obs.slow[kind as usize] {
            if pos.board[s as usize] == 0 {
                let mut probe = pos.clone();
                probe.take(from, t);
                probe.put(s, code(slower, us), t);
                let mut going_on = Vec::new();
                piece_moves(&probe, t, s, &mut going_on);
                for g in going_on {
                    // A royal piece is never captured: a slowed move that
                    // would land on one is not a move (as for displacement).
                    let target = pos.board[g.to as usize];
                    if g.kind == MoveKind::EnPassant || g.to == from || (target != 0 && t.royal_mask >> kind_of(target) & 1 != 0) {
                        continue;
                    }
                    push(Move { second: s, observed: SLOWED, ..Move::normal(kind, from, g.to) }, out);
                }
            }
        }
        if let Some(anchor) = obs.displace {
            for d in displacement_cells(game, pos, &sighting, anchor) {
                let moved = Move { second: s, observed: DISPLACED, ..Move::normal(kind, from, d) };
                // A pawn displaced onto its last rank is promoted (FIDE 3.7.5: the
                // last matching promotion rule decides, as for any move).
                let zone = |r: &crate::model::PromotionRule, c: Cell| r.zone[us as usize].contains(&c);
                let captures = pos.board[d as usize] != 0;
                match game.promotions.iter().rev().find(|r| r.kind == kind && (zone(r, d) || r.from_too && zone(r, from))).filter(|r| !r.capturing || captures) {
                    Some(rule) => {
                        for &p in &rule.targets {
                            // Its own kind is the choice not to promote.
                            push(if p == kind { moved } else { Move { promotion: p, ..moved } }, out);
                        }
                    }
                    None => push(moved, out),
                }
            }
        }
    }
}

/// The cells a move of a piece of `kind` (owned by `color`) from `from` to
/// `to` passes and lands on, in order, from the model's movement parts: a
/// ride's cells and a hop's (the screen among them), the target last; a
/// leap's target, or for a leap `via step` that cell alone. Just the target
/// when no part describes the move.
pub fn path(game: &Game, kind: u8, color: Color, from: Cell, to: Cell) -> Vec<Cell> {
    let mut cells = Vec::new();
    path_into(game, kind, color, from, to, &mut cells);
    cells
}

/// [`path`] into `cells` (cleared first), without allocating once it has room.
pub fn path_into(game: &Game, kind: u8, color: Color, from: Cell, to: Cell, cells: &mut Vec<Cell>) {
    cells.clear();
    let geo = &game.geometry;
    for part in &game.kinds[kind as usize].parts {
        if part.from.as_ref().is_some_and(|z| !z[color as usize].contains(&from)) {
            continue;
        }
        for v in &part.vectors[color as usize] {
            match part.kind {
                StepKind::Leap => {
                    if geo.offset(from, v) != Some(to) {
                        continue;
                    }
                    // A leap `via step` is seen only at that cell: its movement is
                    // "defined just by" it (Heisenberg Chess, rule 3.1).
                    if part.via_step {
                        let longest = v.iter().map(|x| x.abs()).max().unwrap_or(0);
                        let mut via = [0i32; 16];
                        if v.len() <= via.len() {
                            for (slot, &x) in via.iter_mut().zip(v) {
                                *slot = if x.abs() == longest { x.signum() } else { 0 };
                            }
                            if let Some(c) = geo.offset(from, &via[..v.len()]).filter(|&c| c != to) {
                                cells.push(c);
                                return;
                            }
                        }
                    }
                    cells.push(to);
                    return;
                }
                StepKind::Ride | StepKind::Hop => {
                    let mut at = from;
                    while let Some(next) = geo.offset(at, v) {
                        cells.push(next);
                        if next == to {
                            return;
                        }
                        at = next;
                    }
                    cells.clear();
                }
            }
        }
    }
    cells.push(to);
}

/// Per cell, how many pieces of `by` could capture on it (an enemy piece
/// standing there) in `pos`: their capture parts' leaps, the cells of their
/// capture rides up to and with the first occupied one, a hop's cells beyond
/// its screen up to and with the first occupied one. Each piece counts a
/// cell once.
pub fn capture_range(game: &Game, pos: &Position, by: Color, t: &Tables) -> Vec<u8> {
    let geo = &game.geometry;
    let mut count = vec![0u8; geo.cells()];
    let mut mine = vec![false; geo.cells()];
    for f in pos.cells_of(by, t.nwords) {
        mine.iter_mut().for_each(|x| *x = false);
        let kind = kind_of(pos.board[f as usize]);
        for part in game.kinds[kind as usize].parts.iter().filter(|p| p.capture) {
            if part.from.as_ref().is_some_and(|z| !z[by as usize].contains(&f)) {
                continue;
            }
            let limit = part.max.unwrap_or(u32::MAX);
            for v in &part.vectors[by as usize] {
                match part.kind {
                    StepKind::Leap => {
                        if let Some(c) = geo.offset(f, v) {
                            mine[c as usize] = true;
                        }
                    }
                    StepKind::Ride => {
                        let mut at = f;
                        let mut steps = 0;
                        while let Some(c) = geo.offset(at, v) {
                            steps += 1;
                            if steps > limit {
                                break;
                            }
                            if !part.exact || steps == limit {
                                mine[c as usize] = true;
                            }
                            if pos.board[c as usize] != 0 {
                                break;
                            }
                            at = c;
                        }
                    }
                    StepKind::Hop => {
                        let mut at = f;
                        let mut screened = false;
                        let mut beyond = 0;
                        while let Some(c) = geo.offset(at, v) {
                            let occupied = pos.board[c as usize] != 0;
                            if screened {
                                beyond += 1;
                                if beyond > limit {
                                    break;
                                }
                                mine[c as usize] = true;
                                if occupied {
                                    break;
                                }
                            } else if occupied {
                                screened = true;
                            }
                            at = c;
                        }
                    }
                }
            }
        }
        for (c, &m) in mine.iter().enumerate() {
            if m {
                count[c] = count[c].saturating_add(1);
            }
        }
    }
    count
}
