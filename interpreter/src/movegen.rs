//! Move generation: pseudo-legal moves from the compiled rays, the attack
//! test, and legal moves (royal pieces never left attacked).
//!
//! Legality has a fast path for games whose attacks are plain leaps and rides
//! and where the side to move has exactly one royal piece: pins are found once
//! per position, so only royal moves, pinned pieces, en passant and moves out
//! of check are tried on a copy. Everything else is tried on a copy.

use crate::geometry::Cell;
use crate::model::{Color, Game};
use crate::position::{code, color_of, kind_of, Move, MoveKind, Position, NO_CELL, NO_PROMOTION, WORDS};
use crate::tables::{Tables, CAPTURE, EXACT, HOP, QUIET, SCATTER, SETS_EP, TAKES_EP};

/// Where generated moves go: a move list, or a counter for bulk counting.
pub trait Sink {
    /// Receives one move.
    fn add(&mut self, m: Move);
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without storing them.
pub struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Adds moves of one piece to a move list, expanding promotions.
struct Emitter<'a> {
    /// Per cell: 0, or 1 + the promotion rule applying there (empty when the kind never promotes).
    zone: &'a [u8],
    /// The promotion rules' target lists.
    targets: &'a [Vec<u8>],
}

impl Emitter<'_> {
    #[inline(always)]
    fn push(&self, out: &mut impl Sink, m: Move) {
        let rule = if self.zone.is_empty() { 0 } else { self.zone[m.to as usize] };
        if rule != 0 {
            for &target in &self.targets[rule as usize - 1] {
                out.add(Move { promotion: target, ..m });
            }
        } else {
            out.add(m);
        }
    }
}

/// Appends the pseudo-legal moves of the piece on `from` (owned by the side to move).
#[inline]
fn piece_moves(pos: &Position, t: &Tables, from: Cell, out: &mut impl Sink) {
    let us = pos.side;
    let piece = kind_of(pos.board[from as usize]);
    let kc = piece as usize * 2 + us as usize;
    let e = Emitter {
        zone: if t.promotes[kc] { &t.promo_zone[kc * t.ncells..(kc + 1) * t.ncells] } else { &[] },
        targets: &t.promo_targets,
    };
    for ray in t.rays_of(piece, us, from) {
        let cells = t.ray_cells(ray);
        let f = ray.flags;
        if f & SCATTER != 0 {
            for &to in cells {
                let occ = pos.board[to as usize];
                if occ == 0 {
                    if f & TAKES_EP != 0 && f & CAPTURE != 0 && pos.ep_len != 0 && pos.is_ep_target(to) {
                        // Landing on an en-passant target by a part that takes en passant captures.
                        e.push(out, en_passant(pos, piece, from, to));
                    } else if f & QUIET != 0 {
                        e.push(out, Move::normal(piece, from, to));
                    }
                } else if f & CAPTURE != 0 && color_of(occ) != us {
                    e.push(out, Move::normal(piece, from, to));
                }
            }
        } else if f & (HOP | EXACT | SETS_EP | TAKES_EP) == 0 {
            // The common case: a plain ride.
            ride(pos, &e, out, piece, from, cells, f);
        } else if f & HOP != 0 {
            // Ride to the screen, then ride on beyond it for at most `hop_limit` cells.
            if let Some(screen) = cells.iter().position(|&c| pos.board[c as usize] != 0) {
                let beyond = &cells[screen + 1..];
                ride(pos, &e, out, piece, from, &beyond[..beyond.len().min(ray.hop_limit as usize)], f);
            }
        } else if f & EXACT != 0 {
            let (last, before) = match cells.split_last() {
                Some(x) => x,
                None => continue,
            };
            if before.iter().any(|&c| pos.board[c as usize] != 0) {
                continue;
            }
            let occ = pos.board[*last as usize];
            let kind = if f & SETS_EP != 0 && !before.is_empty() {
                MoveKind::EnPassantSetter
            } else {
                MoveKind::Normal
            };
            let m = Move { kind, aux: ray.start, ..Move::normal(piece, from, *last) };
            if occ == 0 {
                if f & TAKES_EP != 0 && f & CAPTURE != 0 && pos.is_ep_target(*last) {
                    // Landing on an en-passant target by a part that takes en passant captures.
                    e.push(out, en_passant(pos, piece, from, *last));
                } else if f & QUIET != 0 {
                    e.push(out, m);
                }
            } else if f & CAPTURE != 0 && color_of(occ) != us {
                e.push(out, Move { kind: MoveKind::Normal, ..m });
            }
        } else {
            // A ride or leap that sets or takes en passant.
            for (i, &to) in cells.iter().enumerate() {
                let occ = pos.board[to as usize];
                if occ == 0 {
                    if f & TAKES_EP != 0 && f & CAPTURE != 0 && pos.is_ep_target(to) {
                        // Landing on an en-passant target by a part that takes en passant captures.
                        e.push(out, en_passant(pos, piece, from, to));
                    } else if f & QUIET != 0 {
                        let kind = if f & SETS_EP != 0 && i > 0 {
                            MoveKind::EnPassantSetter
                        } else {
                            MoveKind::Normal
                        };
                        e.push(out, Move { kind, aux: ray.start, ..Move::normal(piece, from, to) });
                    }
                } else {
                    if f & CAPTURE != 0 && color_of(occ) != us {
                        e.push(out, Move::normal(piece, from, to));
                    }
                    break;
                }
            }
        }
    }
}

/// Walks `cells` in order: a quiet move to each empty cell (if the part may
/// move), then a capture of the first piece (if it is an enemy and the part may
/// capture), and stops there.
#[inline(always)]
fn ride(pos: &Position, e: &Emitter, out: &mut impl Sink, piece: u8, from: Cell, cells: &[Cell], f: u8) {
    for &to in cells {
        let occ = pos.board[to as usize];
        if occ == 0 {
            if f & QUIET != 0 {
                e.push(out, Move::normal(piece, from, to));
            }
        } else {
            if f & CAPTURE != 0 && color_of(occ) != pos.side {
                e.push(out, Move::normal(piece, from, to));
            }
            break;
        }
    }
}

fn en_passant(pos: &Position, piece: u8, from: Cell, to: Cell) -> Move {
    Move { kind: MoveKind::EnPassant, aux: pos.ep_victim as u32, ..Move::normal(piece, from, to) }
}

/// Appends the moves of the piece on `from`, each once even where parts overlap.
#[inline]
fn piece_moves_once(pos: &Position, t: &Tables, from: Cell, out: &mut Vec<Move>) {
    let start = out.len();
    piece_moves(pos, t, from, out);
    let kc = kind_of(pos.board[from as usize]) as usize * 2 + pos.side as usize;
    if t.may_repeat[kc] {
        // Two parts reaching one cell make one move; a move that sets en-passant
        // targets is the richer of two otherwise equal moves and is kept.
        let mut keep = start;
        for i in start..out.len() {
            let m = out[i];
            let same = (start..keep).find(|&j| {
                let o = &out[j];
                o.to == m.to && o.promotion == m.promotion && (o.kind == MoveKind::EnPassant) == (m.kind == MoveKind::EnPassant)
            });
            match same {
                Some(j) => {
                    if m.kind == MoveKind::EnPassantSetter {
                        out[j] = m;
                    }
                }
                None => {
                    out[keep] = m;
                    keep += 1;
                }
            }
        }
        out.truncate(keep);
    }
}

/// Appends every pseudo-legal move of the side to move: piece moves, castling, drops.
pub fn pseudo_moves(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    for from in pos.cells_of(pos.side, t.nwords) {
        piece_moves_once(pos, t, from, out);
    }
    drops(game, t, pos, out);
}

fn drops(game: &Game, t: &Tables, pos: &Position, out: &mut impl Sink) {
    if game.hand.is_none() {
        return;
    }
    let us = pos.side;
    for (kind, &n) in pos.hand[us as usize][..game.kinds.len()].iter().enumerate() {
        if n == 0 {
            continue;
        }
        let zone = &t.drop_zone[(kind * 2 + us as usize) * t.ncells..][..t.ncells];
        for (cell, &ok) in zone.iter().enumerate() {
            if ok && pos.board[cell] == 0 {
                out.add(Move {
                    kind: MoveKind::Drop,
                    ..Move::normal(kind as u8, cell as Cell, cell as Cell)
                });
            }
        }
    }
}

/// Is `cell` attacked by a piece of `by`?
pub fn attacked(game: &Game, t: &Tables, pos: &Position, cell: Cell, by: Color) -> bool {
    if t.simple_attacks {
        attacked_simple(t, pos, cell, by)
    } else {
        attacked_general(game, t, pos, cell, by)
    }
}

#[inline]
fn attacked_simple(t: &Tables, pos: &Position, cell: Cell, by: Color) -> bool {
    for dir in &t.attack_dirs[by as usize] {
        let (start, len) = dir.rays[cell as usize];
        let ray = &t.cells[start as usize..start as usize + len as usize];
        for (d, &c) in ray.iter().enumerate() {
            let occ = pos.board[c as usize];
            if occ != 0 {
                if color_of(occ) == by && dir.reach[d] >> kind_of(occ) & 1 != 0 {
                    return true;
                }
                break;
            }
        }
    }
    false
}

/// The attack test for any pattern: would a capture by `by` land on `cell`?
fn attacked_general(game: &Game, t: &Tables, pos: &Position, cell: Cell, by: Color) -> bool {
    let mut probe = pos.clone();
    probe.side = by;
    probe.ep_len = 0;
    if probe.board[cell as usize] == 0 {
        // Something to capture: a stand-in piece of the other side.
        probe.board[cell as usize] = code(0, by ^ 1);
    }
    let mut moves = Vec::new();
    for from in probe.cells_of(by, t.nwords) {
        piece_moves(&probe, t, from, &mut moves);
    }
    let _ = game;
    moves.iter().any(|m| m.to == cell)
}

/// Is the side to move in check (some royal piece of it attacked)?
pub fn in_check(game: &Game, t: &Tables, pos: &Position) -> bool {
    royal_attacked(game, t, pos, pos.side)
}

/// Is some royal piece of `color` attacked?
pub fn royal_attacked(game: &Game, t: &Tables, pos: &Position, color: Color) -> bool {
    match pos.royal_count[color as usize] {
        0 => false,
        1 => attacked(game, t, pos, pos.royal[color as usize], color ^ 1),
        _ => pos
            .cells_of(color, t.nwords)
            .filter(|&c| t.royal_mask >> kind_of(pos.board[c as usize]) & 1 != 0)
            .any(|c| attacked(game, t, pos, c, color ^ 1)),
    }
}

/// The legal moves by the definition alone: every pseudo-legal move, drop and
/// castling tried on a copy, with the walking attack test. Slow; the reference
/// the fast paths of [`legal_moves`] and [`count_legal`] are tested against.
pub fn legal_moves_reference(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    let first = out.len();
    pseudo_moves(game, t, pos, out);
    retain_from(out, first, |m| legal_by_trial(game, t, pos, m));
    if !in_check(game, t, pos) {
        castling_moves_with(game, t, pos, out, false);
    }
}

/// Does `m` leave the mover's royal pieces unattacked? (Tried on a copy.)
pub fn legal_by_trial(game: &Game, t: &Tables, pos: &Position, m: &Move) -> bool {
    let mut next = pos.clone();
    next.make(m, game, t);
    !royal_attacked(game, t, &next, pos.side)
}

// ---- Bitset shortcuts for boards of at most 64 cells -------------------------
//
// Cell indices change monotonically along any ray, so the nearest occupied cell
// on a ray is the lowest or highest set bit of `ray & occupied`, and the cells
// before it are the ray's bits below or above it.

/// The nearest set bit of `hits` along a ray.
#[inline(always)]
fn nearest(hits: u64, ascending: bool) -> u32 {
    if ascending {
        hits.trailing_zeros()
    } else {
        63 - hits.leading_zeros()
    }
}

/// The bits of `ray` before cell `b` along the ray.
#[inline(always)]
fn before(ray: u64, b: u32, ascending: bool) -> u64 {
    if ascending {
        ray & ((1u64 << b) - 1)
    } else {
        ray & !((1u64 << b) << 1).wrapping_sub(1)
    }
}

/// [`attacked_simple`] with bitsets; `occ` is every occupied cell.
#[inline]
fn attacked_small(t: &Tables, pos: &Position, cell: Cell, by: Color, occ: u64) -> bool {
    for dir in &t.attack_dirs[by as usize] {
        let ray = dir.masks[cell as usize];
        let hits = ray & occ;
        if hits == 0 {
            continue;
        }
        let b = nearest(hits, dir.ascending);
        let code = pos.board[b as usize];
        // `occ` may differ from the board (a move being tested): a cell occupied
        // in `occ` but empty on the board holds one of the mover's pieces.
        if code != 0 && color_of(code) == by {
            let d = before(ray, b, dir.ascending).count_ones() as usize;
            if dir.reach[d] >> kind_of(code) & 1 != 0 {
                return true;
            }
        }
    }
    false
}

/// What the royal piece's safety allows, on a board of at most 64 cells.
struct Safety {
    /// How many enemy pieces attack the royal piece.
    checkers: u32,
    /// Cells a move of another piece must land on to answer the check (the
    /// checker and the cells between); every cell when not in check.
    resolve: u64,
    /// Pinned pieces of the side to move.
    pinned: u64,
}

/// [`king_safety`] with bitsets, also finding the checkers.
#[inline]
fn king_safety_small(t: &Tables, pos: &Position, king: Cell, us: Color, occ: u64) -> Safety {
    let mut s = Safety { checkers: 0, resolve: 0, pinned: 0 };
    for dir in &t.attack_dirs[(us ^ 1) as usize] {
        let ray = dir.masks[king as usize];
        let hits = ray & occ;
        if hits == 0 {
            continue;
        }
        let b = nearest(hits, dir.ascending);
        let code = pos.board[b as usize];
        if color_of(code) != us {
            let between = before(ray, b, dir.ascending);
            if dir.reach[between.count_ones() as usize] >> kind_of(code) & 1 != 0 {
                s.checkers += 1;
                s.resolve |= between | 1 << b;
            }
            continue;
        }
        let rest = hits & !(1u64 << b);
        if !dir.slides || rest == 0 {
            continue;
        }
        let b2 = nearest(rest, dir.ascending);
        let code2 = pos.board[b2 as usize];
        if color_of(code2) != us {
            let d = before(ray, b2, dir.ascending).count_ones() as usize;
            if dir.reach[d] >> kind_of(code2) & 1 != 0 {
                s.pinned |= 1 << b;
            }
        }
    }
    if s.checkers == 0 {
        s.resolve = !0;
    }
    s
}

/// The cells the piece on `from` may land on (pseudo-legal, en passant aside),
/// with bitsets; `None` when one of its parts needs the general walker (hops,
/// several promotion rules).
#[inline]
fn landing_small(t: &Tables, kc: usize, from: Cell, occ: u64, enemy: u64) -> Option<u64> {
    let entry = &t.small_moves[kc * t.ncells + from as usize];
    if entry.general || t.promo_choices[kc] == u8::MAX {
        return None;
    }
    let mut landing = (entry.quiet_leaps & !occ) | (entry.capture_leaps & enemy);
    for ride in &t.small_rides[entry.rides.0 as usize..entry.rides.1 as usize] {
        if ride.exact {
            let last = 1u64 << ride.last;
            if ride.mask & occ & !last == 0 {
                if occ & last == 0 {
                    if ride.quiet {
                        landing |= last;
                    }
                } else if ride.capture && enemy & last != 0 {
                    landing |= last;
                }
            }
            continue;
        }
        let hits = ride.mask & occ;
        if hits == 0 {
            if ride.quiet {
                landing |= ride.mask;
            }
        } else {
            let b = nearest(hits, ride.ascending);
            if ride.quiet {
                landing |= before(ride.mask, b, ride.ascending);
            }
            if ride.capture && enemy >> b & 1 != 0 {
                landing |= 1 << b;
            }
        }
    }
    // Parts of one kind land on distinct cells (kinds whose parts overlap are
    // counted by the general path, which removes repeats).
    Some(landing)
}

/// The number of moves landing on `cells`, each promotion choice counted.
#[inline(always)]
fn moves_onto(t: &Tables, kc: usize, cells: u64) -> u64 {
    let n = cells.count_ones() as u64;
    match t.promo_choices[kc] {
        0 | 1 => n,
        k => n + (cells & t.promo_mask[kc]).count_ones() as u64 * (k as u64 - 1),
    }
}

/// Appends the legal moves of the side to move.
pub fn legal_moves(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    let us = pos.side;
    let first = out.len();
    let fast = t.simple_attacks && pos.royal_count[us as usize] == 1;
    let (checked, pinned) = if fast && t.small {
        let occ = pos.occupied[0][0] | pos.occupied[1][0];
        let s = king_safety_small(t, pos, pos.royal[us as usize], us, occ);
        let mut pinned = [0; WORDS];
        pinned[0] = s.pinned;
        (s.checkers > 0, pinned)
    } else if fast {
        king_safety(t, pos, pos.royal[us as usize], us)
    } else {
        (in_check(game, t, pos), [0; WORDS])
    };
    if !fast || checked {
        for from in pos.cells_of(us, t.nwords) {
            piece_moves_once(pos, t, from, out);
        }
        drops(game, t, pos, out);
        if !checked {
            castling_moves(game, t, pos, out);
        }
        if pos.royal_count[us as usize] == 0 {
            return;
        }
        retain_from(out, first, |m| m.kind == MoveKind::Castle || legal_by_trial(game, t, pos, m));
        return;
    }
    // Fast path: not in check, one royal piece, plain attacks. Only the royal
    // piece, pinned pieces and en-passant captures need a test.
    let king = pos.royal[us as usize];
    for from in pos.cells_of(us, t.nwords) {
        let start = out.len();
        piece_moves_once(pos, t, from, out);
        if from == king {
            retain_from(out, start, |m| king_step_safe(t, pos, m, us));
        } else if pinned[from as usize / 64] >> (from % 64) & 1 != 0 {
            retain_from(out, start, |m| legal_by_trial(game, t, pos, m));
        } else if pos.ep_len != 0 {
            retain_from(out, start, |m| m.kind != MoveKind::EnPassant || legal_by_trial(game, t, pos, m));
        }
    }
    drops(game, t, pos, out);
    castling_moves(game, t, pos, out);
}

/// The number of legal moves of the side to move (bulk counting at perft
/// leaves); `scratch` is a reusable buffer.
pub fn count_legal(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>) -> u64 {
    let us = pos.side;
    scratch.clear();
    if !t.simple_attacks || pos.royal_count[us as usize] != 1 {
        legal_moves(game, t, pos, scratch);
        return scratch.len() as u64;
    }
    if !t.small {
        return count_legal_walking(game, t, pos, scratch);
    }
    let king = pos.royal[us as usize];
    let occ = pos.occupied[0][0] | pos.occupied[1][0];
    let enemy = pos.occupied[(us ^ 1) as usize][0];
    let safety = king_safety_small(t, pos, king, us, occ);
    let checked = safety.checkers > 0;
    let ep_cells = pos.ep_targets[..pos.ep_len as usize].iter().fold(0u64, |m, &c| m | 1 << c);
    if checked && game.hand.is_some() {
        // Drops that block a check: the general path.
        legal_moves(game, t, pos, scratch);
        return scratch.len() as u64;
    }
    let mut count = 0u64;
    for from in pos.cells_of(us, t.nwords) {
        let kc = kind_of(pos.board[from as usize]) as usize * 2 + us as usize;
        if from == king {
            let without_king = occ & !(1u64 << from);
            match landing_small(t, kc, from, occ, enemy) {
                Some(mut cells) if t.promo_choices[kc] == 0 && !t.may_repeat[kc] => {
                    while cells != 0 {
                        let to = cells.trailing_zeros();
                        cells &= cells - 1;
                        if !attacked_small(t, pos, to as Cell, us ^ 1, without_king) {
                            count += 1;
                        }
                    }
                }
                _ => {
                    let start = scratch.len();
                    piece_moves_once(pos, t, from, scratch);
                    retain_from(scratch, start, |m| !attacked_small(t, pos, m.to, us ^ 1, without_king));
                }
            }
            continue;
        }
        if safety.checkers >= 2 {
            continue; // only the royal piece can answer a double check
        }
        let ep = pos.ep_len != 0 && t.ep_reach[kc * t.ncells + from as usize] & ep_cells != 0;
        if safety.pinned >> from & 1 != 0 || ep || t.may_repeat[kc] {
            let start = scratch.len();
            piece_moves_once(pos, t, from, scratch);
            if checked || safety.pinned >> from & 1 != 0 {
                retain_from(scratch, start, |m| legal_by_trial(game, t, pos, m));
            } else if ep {
                retain_from(scratch, start, |m| m.kind != MoveKind::EnPassant || legal_by_trial(game, t, pos, m));
            }
            continue;
        }
        match landing_small(t, kc, from, occ, enemy) {
            Some(cells) => count += moves_onto(t, kc, cells & safety.resolve),
            None => {
                let start = scratch.len();
                piece_moves_once(pos, t, from, scratch);
                if checked {
                    retain_from(scratch, start, |m| legal_by_trial(game, t, pos, m));
                }
            }
        }
    }
    if !checked {
        let mut drops_count = Counter(0);
        drops(game, t, pos, &mut drops_count);
        count += drops_count.0;
        castling_moves(game, t, pos, scratch);
    }
    count + scratch.len() as u64
}

/// [`count_legal`] for boards of more than 64 cells: walks the rays.
fn count_legal_walking(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>) -> u64 {
    let us = pos.side;
    let king = pos.royal[us as usize];
    let (checked, pinned) = king_safety(t, pos, king, us);
    if checked {
        legal_moves(game, t, pos, scratch);
        return scratch.len() as u64;
    }
    let mut count = Counter(0);
    for from in pos.cells_of(us, t.nwords) {
        let kc = kind_of(pos.board[from as usize]) as usize * 2 + us as usize;
        let ep = pos.ep_len != 0 && t.takes_ep[kc];
        let is_pinned = pinned[from as usize / 64] >> (from % 64) & 1 != 0;
        if from == king || is_pinned || ep || t.may_repeat[kc] {
            let start = scratch.len();
            piece_moves_once(pos, t, from, scratch);
            if from == king {
                retain_from(scratch, start, |m| king_step_safe(t, pos, m, us));
            } else if is_pinned {
                retain_from(scratch, start, |m| legal_by_trial(game, t, pos, m));
            } else if ep {
                retain_from(scratch, start, |m| m.kind != MoveKind::EnPassant || legal_by_trial(game, t, pos, m));
            }
        } else {
            piece_moves(pos, t, from, &mut count);
        }
    }
    drops(game, t, pos, &mut count);
    castling_moves(game, t, pos, scratch);
    count.0 + scratch.len() as u64
}

fn retain_from(out: &mut Vec<Move>, first: usize, mut keep_if: impl FnMut(&Move) -> bool) {
    let mut keep = first;
    for i in first..out.len() {
        let m = out[i];
        if keep_if(&m) {
            out[keep] = m;
            keep += 1;
        }
    }
    out.truncate(keep);
}

/// Is the royal piece's destination safe, looking through its own start cell?
#[inline]
fn king_step_safe(t: &Tables, pos: &Position, m: &Move, us: Color) -> bool {
    let by = us ^ 1;
    for dir in &t.attack_dirs[by as usize] {
        let (start, len) = dir.rays[m.to as usize];
        let ray = &t.cells[start as usize..start as usize + len as usize];
        for (d, &c) in ray.iter().enumerate() {
            let occ = pos.board[c as usize];
            if occ != 0 && c != m.from {
                if color_of(occ) == by && dir.reach[d] >> kind_of(occ) & 1 != 0 {
                    return false;
                }
                break;
            }
        }
    }
    true
}

/// Whether the royal piece on `king` is attacked, and the cells of `us`'s
/// pieces that stand between it and an enemy rider (pinned), in one pass.
#[inline]
fn king_safety(t: &Tables, pos: &Position, king: Cell, us: Color) -> (bool, [u64; WORDS]) {
    let mut pinned = [0u64; WORDS];
    let mut checked = false;
    for dir in &t.attack_dirs[(us ^ 1) as usize] {
        let (start, len) = dir.rays[king as usize];
        let ray = &t.cells[start as usize..start as usize + len as usize];
        let mut own: Cell = NO_CELL;
        for (d, &c) in ray.iter().enumerate() {
            let occ = pos.board[c as usize];
            if occ == 0 {
                continue;
            }
            if color_of(occ) == us {
                if own != NO_CELL || !dir.slides {
                    break;
                }
                own = c;
                continue;
            }
            if dir.reach[d] >> kind_of(occ) & 1 != 0 {
                if own == NO_CELL {
                    checked = true;
                } else {
                    pinned[own as usize / 64] |= 1 << (own % 64);
                }
            }
            break;
        }
    }
    (checked, pinned)
}

/// Appends the legal castling moves (the side to move is not in check).
/// Lowering and FEN parsing guarantee that king, partner and both destinations
/// stand on one line of the file axis, so the cells between are a run of indices.
fn castling_moves(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    castling_moves_with(game, t, pos, out, t.simple_attacks && t.small);
}

/// Castling moves; `bitsets` chooses the bitset attack tests over walking and trial.
fn castling_moves_with(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, bitsets: bool) {
    let Some(rule) = &game.castling else { return };
    let us = pos.side as usize;
    let king = pos.royal[us];
    if pos.royal_count[us] != 1 || kind_of(pos.board[king as usize]) != rule.king {
        return;
    }
    for (s, side) in rule.sides.iter().enumerate() {
        let rook = pos.castling[us][s];
        if rook == NO_CELL || pos.board[rook as usize] != code(rule.rook, us as Color) {
            continue;
        }
        let (kt, rt) = (side.king_to[us], side.rook_to[us]);
        // Every cell between the pieces and their destinations is empty but for the two.
        let lo = king.min(rook).min(kt).min(rt);
        let hi = king.max(rook).max(kt).max(rt);
        if (lo..=hi).any(|c| c != king && c != rook && pos.board[c as usize] != 0) {
            continue;
        }
        // The king crosses no attacked cell (its start was tested: not in check;
        // its destination is tested after the move, with the partner gone).
        let them = us as Color ^ 1;
        if bitsets {
            let occ = pos.occupied[0][0] | pos.occupied[1][0];
            if (king.min(kt)..=king.max(kt)).any(|c| c != king && c != kt && attacked_small(t, pos, c, them, occ)) {
                continue;
            }
            let after = (occ & !(1u64 << king) & !(1u64 << rook)) | 1u64 << kt | 1u64 << rt;
            if attacked_small(t, pos, kt, them, after) {
                continue;
            }
        } else {
            if (king.min(kt)..=king.max(kt)).any(|c| c != king && c != kt && attacked(game, t, pos, c, them)) {
                continue;
            }
        }
        let m = Move {
            kind: MoveKind::Castle,
            aux: rook as u32,
            side: s as u8,
            promotion: NO_PROMOTION,
            ..Move::normal(rule.king, king, kt)
        };
        if bitsets || legal_by_trial(game, t, pos, &m) {
            out.push(m);
        }
    }
}
