//! Move generation: pseudo-legal moves from the compiled rays (this module),
//! the attack test (`attack`), and legal moves and leaf counting (`legal`).
//!
//! Legality has a fast path for games whose attacks are plain leaps and rides
//! and where the side to move has exactly one royal piece: pins and checks are
//! found once per position, so only royal moves, pinned pieces, en passant and
//! some moves out of check are tried on a copy. Everything else is tried on a
//! copy, and `legal_moves_reference` does exactly that for every move: it is
//! the definition the fast paths are tested against. Moves of face-down
//! pieces and captures of them are split into their chance outcomes last
//! (`chance`).

mod attack;
mod chance;
mod drops;
mod legal;
mod kept_moves;
mod royal_zone;
pub mod observe;
mod gating;
mod pass;
mod walls;
mod promote;
mod spread;

pub use attack::{attack_lines, attack_lines_from, attacked, attacked_cells, attacks_after_move, capturing_cells, changes_two_cells, in_check, move_lines, royal_attacked, AttackLines, MoveLines, Shield};
pub use legal::{count_legal, count_legal_kept, legal_by_trial, legal_moves, legal_moves_any_order, legal_moves_reference, KeptCounts, OneByOne, Scratch};
pub(crate) use legal::{legal_moves_of, legal_moves_plain, legal_moves_plain_reference, retain_from};
pub(crate) use kept_moves::KeptMoves;
pub(crate) use royal_zone::RoyalZone;
#[cfg(test)]
pub(crate) use {kept_moves::HITS as KEPT_MOVES_HITS, royal_zone::HITS as ROYAL_ZONE_HITS};
pub use spread::spread_in_check;

use attack::*;
use drops::drops;
use gating::add_gated;
use pass::pass_move;
use walls::add_walls;
use promote::promotion_moves;
pub(crate) use drops::{legal_drops_plain, mating_drop};
pub use drops::{drop_cells, legal_drops_of};
use crate::model::geometry::Cell;
use crate::model::{Color, Game, KindId};
use crate::engine::position::{code, color_of, kind_of, Move, MoveKind, Position, NO_CELL, NO_PROMOTION, WALL, WORDS};
use crate::engine::tables::{Tables, CAPTURE, EXACT, HOP, QUIET, SCATTER, SETS_EP, TAKES_EP};

/// Where generated moves go: a move list, or a counter for bulk counting.
pub trait Sink {
    /// Receives one move.
    fn add(&mut self, m: Move);
    /// The count, for a sink that only counts: a generator may then add
    /// moves it knows to be legal by number, without making each.
    #[inline(always)]
    fn count_only(&mut self) -> Option<&mut u64> {
        None
    }
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without storing them.
pub struct Counter(pub u64);

/// A sink that counts the moves landing on some cells (a bitset).
pub(crate) struct CountOnto {
    /// The cells counted.
    pub(crate) cells: [u64; WORDS],
    /// The moves that landed on them.
    pub(crate) n: u64,
}

impl Sink for CountOnto {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.n += self.cells[m.to as usize / 64] >> (m.to % 64) & 1;
    }
}

impl Sink for Counter {
    #[inline(always)]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn count_only(&mut self) -> Option<&mut u64> {
        Some(&mut self.0)
    }
}

/// Adds moves of one piece to a move list, expanding promotions.
struct Emitter<'a> {
    /// Per cell: 0, or 1 + the promotion rule applying there (empty when the kind never promotes).
    zone: &'a [u8],
    /// 0, or 1 + the `on or from` rule that every move from the piece's cell
    /// promotes by (a later rule applying on arrival wins).
    from_rule: u8,
    /// The promotion rules' target lists.
    targets: &'a [Vec<u8>],
    /// Per rule: only a capture promotes by it (`capturing`).
    capturing: &'a [bool],
    /// The board, to tell captures.
    board: &'a [u8],
}

impl Emitter<'_> {
    #[inline(always)]
    fn push(&self, out: &mut impl Sink, m: Move) {
        let mut rule = if self.zone.is_empty() { 0 } else { self.zone[m.to as usize].max(self.from_rule) };
        if rule != 0 && self.capturing[rule as usize - 1] && self.board[m.to as usize] == 0 && m.kind != MoveKind::EnPassant {
            rule = 0; // `capturing`: a move that captures nothing does not promote
        }
        if rule != 0 {
            for &target in &self.targets[rule as usize - 1] {
                // The piece's own kind is the choice not to promote.
                out.add(Move { promotion: if target == m.piece { NO_PROMOTION } else { target }, ..m });
            }
        } else {
            out.add(m);
        }
    }
}

/// Appends the pseudo-legal moves of the piece on `from` (owned by the side to move).
#[inline]
fn piece_moves(pos: &Position, t: &Tables, from: Cell, out: &mut impl Sink) {
    piece_moves_as(pos, t, from, kind_of(pos.board[from as usize]), out);
}

/// Would a piece of `kind`, of the side to move, standing on `from`
/// capture something in `pos` (where `from` may be empty: a piece about
/// to be placed there)? Its moves as [`piece_moves`] makes them, none kept.
/// `None` where some part of it applies only sometimes (`if …`): whether
/// it applies to a piece not yet on the board is not known here.
pub(crate) fn would_capture(pos: &Position, t: &Tables, from: Cell, kind: KindId) -> Option<bool> {
    if t.rays_of(kind, pos.side, from).rays.iter().any(|r| r.when != 0) {
        return None;
    }
    // No enemy piece where a capture from `from` may land (no move lands on
    // an own piece): none is captured.
    let enemy = &pos.occupied[(pos.side ^ 1) as usize];
    if t.reach_of(kind, pos.side, from).iter().zip(enemy).all(|(r, e)| r & e == 0) {
        return Some(false);
    }
    /// Tells whether a move lands on a piece.
    struct Captures<'a>(&'a [u8], bool);
    impl Sink for Captures<'_> {
        #[inline(always)]
        fn add(&mut self, m: Move) {
            self.1 |= self.0[m.to as usize] != 0;
        }
    }
    let mut sink = Captures(&pos.board, false);
    piece_moves_as(pos, t, from, kind, &mut sink);
    Some(sink.1)
}

/// Is there a layer around the plain moves, one that reads or rewrites the
/// whole list (promotions as moves, the pass, gating, compulsory drops,
/// walls)? Paths that count or find moves without the list give way to it.
pub(crate) fn layered(game: &Game, t: &Tables) -> bool {
    !game.promotion_moves.is_empty() || t.passing || t.gating || t.drop_compulsory || t.walling
}

/// The number of moves of the piece on `from` (as [`piece_moves`] makes
/// them: each promotion choice a move, a cell reached twice counted twice),
/// of those landing on `onto` only where it is given.
pub(crate) fn count_piece_moves(pos: &Position, t: &Tables, from: Cell, onto: Option<&[u64; WORDS]>) -> u64 {
    match onto {
        // No move of the piece may land on `cells` (in check, the few that
        // end it): nothing to walk.
        Some(cells) if reaches_none(t, pos, from, cells) => 0,
        Some(cells) => {
            let mut count = CountOnto { cells: *cells, n: 0 };
            piece_moves(pos, t, from, &mut count);
            count.n
        }
        None => {
            let mut count = Counter(0);
            piece_moves(pos, t, from, &mut count);
            count.0
        }
    }
}

/// Can no move of the side to move's piece on `from` land on `cells`,
/// whatever stands between ([`Tables::move_reach_of`])?
#[inline]
pub(crate) fn reaches_none(t: &Tables, pos: &Position, from: Cell, cells: &[u64; WORDS]) -> bool {
    let reach = t.move_reach_of(kind_of(pos.board[from as usize]), pos.side, from);
    !reach.is_empty() && reach.iter().zip(cells).all(|(r, c)| r & c == 0)
}

/// [`piece_moves`] of a piece of `piece` (a kind) on `from`, whatever stands there.
#[inline(always)]
fn piece_moves_as(pos: &Position, t: &Tables, from: Cell, piece: KindId, out: &mut impl Sink) {
    let us = pos.side;
    let kc = piece as usize * 2 + us as usize;
    // A face-down piece promotes (or not) as what it is revealed to be:
    // its disguise's promotion does not apply (see `chance`).
    let promotes = t.promotes[kc] && !pos.is_hidden(from);
    let e = Emitter {
        zone: if promotes { &t.promo_zone[kc * t.ncells..(kc + 1) * t.ncells] } else { &[] },
        from_rule: if promotes { t.promo_from[kc * t.ncells + from as usize] } else { 0 },
        targets: &t.promo_targets,
        capturing: &t.promo_capturing,
        board: &pos.board,
    };
    let rays = t.rays_of(piece, us, from);
    for ray in rays.rays {
        if ray.when != 0 && !applies_now(t, pos, from, ray.when) {
            continue;
        }
        let cells = rays.cells_of(ray);
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
                } else if f & CAPTURE != 0 && occ != WALL && color_of(occ) != us {
                    e.push(out, Move::normal(piece, from, to));
                }
            }
        } else if f & (HOP | EXACT | SETS_EP | TAKES_EP) == 0 {
            // The common case: a plain ride.
            ride(pos, &e, out, piece, from, cells, f);
        } else if f & HOP != 0 {
            // Ride to the screen, then ride on beyond it for at most `hop_limit` cells.
            if let Some(screen) = cells.iter().position(|&c| pos.board[c as usize] != 0) {
                if ray.screen_not != 0 && kind_of(pos.board[cells[screen] as usize]) == ray.screen_not - 1 {
                    continue; // `not over`: this screen may not be jumped
                }
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
            } else if f & CAPTURE != 0 && occ != WALL && color_of(occ) != us {
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
                    if f & CAPTURE != 0 && occ != WALL && color_of(occ) != us {
                        e.push(out, Move::normal(piece, from, to));
                    }
                    break;
                }
            }
        }
    }
}

/// Does a part limited by `if …` ([`crate::engine::tables::Ray::when`])
/// apply to the piece on `from` now?
#[cold]
fn applies_now(t: &Tables, pos: &Position, from: Cell, when: u8) -> bool {
    use crate::engine::tables::{WHEN_UNCHECKED, WHEN_UNMOVED};
    if when & WHEN_UNMOVED != 0 && !pos.has_first_move_right(from) {
        return false;
    }
    if when & WHEN_UNCHECKED != 0 {
        // The owner's royal pieces (none attacked).
        let us = pos.side;
        let attacked = |c: Cell| if t.simple_attacks { attacked_simple(t, pos, c, us ^ 1) } else { attacked_forward(t, pos, c, us ^ 1) };
        let royal = |c: &Cell| t.royal_mask >> kind_of(pos.board[*c as usize]) & 1 != 0;
        if pos.cells_of(us, t.nwords).filter(royal).any(attacked) {
            return false;
        }
    }
    true
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
            if f & CAPTURE != 0 && occ != WALL && color_of(occ) != pos.side {
                e.push(out, Move::normal(piece, from, to));
            }
            break;
        }
    }
}

fn en_passant(pos: &Position, piece: u8, from: Cell, to: Cell) -> Move {
    Move { kind: MoveKind::EnPassant, aux: pos.ep_victim as u32, ..Move::normal(piece, from, to) }
}

/// Appends the moves of the piece on `from`, each once even where parts
/// overlap: [`pseudo_moves`] of that piece alone.
#[inline]
pub(crate) fn piece_moves_once(pos: &Position, t: &Tables, from: Cell, out: &mut Vec<Move>) {
    let start = out.len();
    piece_moves(pos, t, from, out);
    if t.repeats(kind_of(pos.board[from as usize]), pos.side, from) {
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

/// [`pseudo_moves`] of only the side to move's pieces for which `wanted`
/// holds (given the cell and kind) or that may promote, and every drop:
/// what a caller that keeps only the moves putting down a piece of some
/// kinds (near some cells, say) needs (no face-down pieces, which a move
/// may reveal as any kind).
pub fn pseudo_moves_of(game: &Game, t: &Tables, pos: &Position, wanted: &dyn Fn(Cell, KindId) -> bool, out: &mut Vec<Move>) {
    debug_assert!(!pos.any_hidden());
    for from in pos.cells_of(pos.side, t.nwords) {
        let kind = kind_of(pos.board[from as usize]);
        if t.promotes[kind as usize * 2 + pos.side as usize] || wanted(from, kind) {
            piece_moves_once(pos, t, from, out);
        }
    }
    drops(game, t, pos, out);
}

/// Appends the legal castling moves (the side to move is not in check).
/// Lowering and FEN parsing guarantee that king, partner and both destinations
/// stand on one line of the file axis, so the cells between are a run of indices.
pub(crate) fn castling_moves(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    castling_moves_with(game, t, pos, out, t.simple_attacks && (t.small || t.wide) && game.explosion.is_none());
}

/// Is `piece` (a code on the board) a castling partner of `color`: of one
/// of the rule's partner kinds, unpromoted?
#[inline]
pub(crate) fn is_partner(rule: &crate::model::CastlingRule, piece: u8, color: Color) -> bool {
    rule.partners.iter().any(|&k| code(k, color) == piece)
}

/// The piece that castles for `color`: its royal piece where the castling
/// kind is royal (when it has exactly one), else its one piece of that kind
/// that is not promoted (a pawn promoted to it never castles; none when it
/// has several: no castling then). Inlined: castling asks it at every
/// node where a right is held, and its royal case is a few loads.
#[inline]
pub(crate) fn castler(t: &Tables, pos: &Position, rule: &crate::model::CastlingRule, color: Color) -> Option<Cell> {
    if t.royal_mask >> rule.king & 1 != 0 {
        let king = pos.royal[color as usize];
        return (pos.royal_count[color as usize] == 1 && kind_of(pos.board[king as usize]) == rule.king).then_some(king);
    }
    unroyal_castler(t, pos, rule, color)
}

/// [`castler`] of a castling kind that is not royal: the one unpromoted
/// piece of that kind, found on the board (out of line: rare).
#[inline(never)]
fn unroyal_castler(t: &Tables, pos: &Position, rule: &crate::model::CastlingRule, color: Color) -> Option<Cell> {
    let wanted = code(rule.king, color);
    let mut found = pos.cells_of(color, t.nwords).filter(|&c| pos.board[c as usize] == wanted);
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// Castling moves; `bitsets` chooses the bitset attack tests over walking and trial.
///
/// The sides whose right is held and whose path is clear are few (in a
/// game's opening, none): they are judged apart ([`castle_if_safe`]), so
/// that this loop, run at every node, stays small.
fn castling_moves_with(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, bitsets: bool) {
    let Some(rule) = &game.castling else { return };
    let us = pos.side as usize;
    if pos.castling[us] == [NO_CELL; 2] {
        return; // no castling right left
    }
    let Some(king) = castler(t, pos, rule, us as Color) else { return };
    // `s` indexes the sides as written (it is `Move::side`); the right is the
    // side's slot, shared by a side written twice.
    for (s, side) in rule.sides.iter().enumerate() {
        let rook = pos.castling[us][side.slot()];
        if rook == NO_CELL || !is_partner(rule, pos.board[rook as usize], us as Color) {
            continue;
        }
        let (kt, rt) = (side.king_to[us], side.rook_to[us]);
        // Every cell between the pieces and their destinations is empty but for the two.
        let lo = king.min(rook).min(kt).min(rt);
        let hi = king.max(rook).max(kt).max(rt);
        let blocked = if t.small {
            // Bits `lo..=hi` (cells below 64) against every piece and wall.
            let span = (u64::MAX >> (63 - hi)) & (u64::MAX << lo);
            let occ = pos.occupied[0][0] | pos.occupied[1][0] | pos.walls[0];
            occ & span & !(1u64 << king) & !(1u64 << rook) != 0
        } else {
            (lo..=hi).any(|c| c != king && c != rook && pos.board[c as usize] != 0)
        };
        if blocked {
            continue;
        }
        let m = Move {
            kind: MoveKind::Castle,
            aux: rook as u32,
            side: s as u8,
            promotion: NO_PROMOTION,
            ..Move::normal(rule.king, king, kt)
        };
        if castle_if_safe(game, t, pos, &m, rt, bitsets) {
            out.push(m);
        }
    }
}

/// Is the castling `m` (its path clear, the partner landing on `rt`)
/// legal? A royal castler may not cross or land on an attacked cell; any
/// other castles through attacks (only the mover's royal pieces must be
/// safe after it). The castler's start was tested: not in check.
#[inline(never)]
fn castle_if_safe(game: &Game, t: &Tables, pos: &Position, m: &Move, rt: Cell, bitsets: bool) -> bool {
    let us = pos.side;
    let them = us ^ 1;
    let (king, rook, kt) = (m.from, m.aux as Cell, m.to);
    let royal = t.royal_mask >> kind_of(pos.board[king as usize]) & 1 != 0;
    if royal && bitsets {
        // Its destination is tested with the partner gone.
        return if t.small { castling_safe::<u64>(t, pos, [king, rook, kt, rt], them) } else { castling_safe_wide(t, pos, [king, rook, kt, rt], them) };
    }
    if royal {
        // Under explosions the king may stand attacked next to the enemy
        // royal piece: the cells it crosses are judged with it lifted.
        let lifted = game.explosion.is_some().then(|| {
            let mut p = pos.clone();
            p.take(king, t);
            p
        });
        let threatened = |c: Cell| match &lifted {
            Some(p) => attacked(game, t, p, c, them) && !crate::engine::explosion::touches_enemy_royal(t, pos, c, us),
            None => attacked(game, t, pos, c, them),
        };
        if (king.min(kt)..=king.max(kt)).any(|c| c != king && c != kt && threatened(c)) {
            return false;
        }
    }
    legal_by_trial(game, t, pos, m)
}

/// Does a royal castler on `king` cross and reach only cells `them` does not
/// attack, castling with the partner on `rook` to `kt` and `rt`? (Bitset
/// tests of width `S`; its start was tested: not in check.)
fn castling_safe<S: crate::engine::tables::CellSet>(t: &Tables, pos: &Position, [king, rook, kt, rt]: [Cell; 4], them: Color) -> bool {
    let occ = S::from_words(&pos.occupied[0]) | S::from_words(&pos.occupied[1]) | S::from_words(&pos.walls);
    if (king.min(kt)..=king.max(kt)).any(|c| c != king && c != kt && attacked_small(t, pos, c, them, occ)) {
        return false;
    }
    let after = (occ & !S::bit(king as usize) & !S::bit(rook as usize)) | S::bit(kt as usize) | S::bit(rt as usize);
    !attacked_small(t, pos, kt, them, after)
}

/// [`castling_safe`] on boards of 65 to 128 cells, kept out of
/// [`castling_moves_with`] (where the `u64` test is inlined).
#[inline(never)]
fn castling_safe_wide(t: &Tables, pos: &Position, cells: [Cell; 4], them: Color) -> bool {
    castling_safe::<u128>(t, pos, cells, them)
}

/// Does the piece of `by` on `from` attack `cell`: could it capture an
/// enemy piece standing there? (`attacks` in rule conditions; the cell is
/// tried with a stand-in enemy piece, whatever stands there.)
pub fn piece_attacks(game: &Game, t: &Tables, pos: &Position, from: Cell, by: Color, cell: Cell) -> bool {
    let _ = game;
    // No capturing ray of the piece reaches `cell`, whatever stands between
    // (the tables' capture reach: every cell of its capturing rays).
    let piece = pos.board[from as usize];
    if piece != 0 && color_of(piece) == by && !t.may_capture_on(kind_of(piece), by, from, cell) {
        return false;
    }
    let mut probe = pos.clone();
    probe.side = by;
    probe.ep_len = 0;
    probe.board[cell as usize] = code(0, by ^ 1);
    let mut moves = Vec::new();
    piece_moves(&probe, t, from, &mut moves);
    moves.iter().any(|m| m.to == cell)
}
