//! The moves of the side to move's pieces, counted or listed one piece at
//! a time and kept from one node to the next that shares its tables, so
//! that a piece whose moves depend on no cell that changed in between is
//! not walked again ([`KeptMoves`]). Perft's nodes one ply above the
//! leaves mostly differ from the one before by a move of the other side,
//! or, at the ends of a ply that relocates a piece, by where that piece
//! stands: a few cells.
//!
//! [`walk_piece`], the count of one piece with the cells it depends on, is
//! also what [`super::KeptCounts`] keeps on large boards.

use super::{piece_moves, piece_moves_once, Counter};
use crate::engine::position::{kind_of, Move, Position, WORDS};
use crate::engine::tables::{Tables, EXACT, HOP, SCATTER, SETS_EP, TAKES_EP};
use crate::model::geometry::{Cell, MAX_CELLS};
use crate::model::{Color, KindId};

/// The cells whose occupancy (empty, either color's, wall) decides the
/// moves of the side to move's piece of `kind` on `from`: its leaps'
/// cells, and along each ride every cell up to and including the first
/// occupied one. `None` for a piece with a part that applies only
/// sometimes (a first move, out of check) or hops over some kinds only (a
/// promotion in place changes a kind, not a cell), or that may take en
/// passant now: its moves read more than cells.
fn depends_of(t: &Tables, pos: &Position, from: Cell, kind: KindId) -> Option<[u64; WORDS]> {
    let mut depends = [0u64; WORDS];
    for (ray, ray_cells) in t.rays_of(kind, pos.side, from).iter() {
        // (A capture en passant reads the position's target, not a cell.)
        if ray.when != 0 || ray.screen_not != 0 || (ray.flags & TAKES_EP != 0 && pos.ep_len != 0) {
            return None;
        }
        // A plain ride depends on its cells up to and including the first
        // occupied one; leaps, hops and the rest on all.
        let plain = ray.flags & (SCATTER | HOP | EXACT | SETS_EP | TAKES_EP) == 0;
        for &c in ray_cells {
            depends[c as usize / 64] |= 1 << (c % 64);
            if plain && pos.board[c as usize] != 0 {
                break;
            }
        }
    }
    Some(depends)
}

/// The number of moves of the side to move's piece of `kind` on `from`
/// (every cell may be landed on, as [`piece_moves`] makes them), with the
/// cells they depend on ([`depends_of`]; `None` where that does not apply).
pub(super) fn walk_piece(t: &Tables, pos: &Position, from: Cell, kind: KindId) -> Option<(u64, [u64; WORDS])> {
    let depends = depends_of(t, pos, from, kind)?;
    let mut count = Counter(0);
    piece_moves(pos, t, from, &mut count);
    Some((count.0, depends))
}

/// What is kept of one piece.
#[derive(Clone, Copy)]
struct Kept {
    /// `kind * 2 + color` of the piece (`u16::MAX`: none).
    kc: u16,
    /// Its number of moves, where counted.
    count: Option<u32>,
    /// Whether its moves are kept listed ([`KeptMoves::lists`]).
    listed: bool,
    /// The cells its moves depend on ([`depends_of`]).
    depends: [u64; WORDS],
}

const NONE: Kept = Kept { kc: u16::MAX, count: None, listed: false, depends: [0; WORDS] };

/// The counts and lists of the side to move's pieces' moves, by cell, as
/// found at the nodes seen so far with the same tables and side to move,
/// each valid on the board of the last node [`KeptMoves::begin`] was
/// given: at each node what depends on a cell whose occupancy changed is
/// dropped.
pub struct KeptMoves {
    /// The number of the tables the counts were made with (0: none kept).
    tables: u64,
    side: Color,
    /// The occupied cells of each color, and the walls, at the last node.
    occupied: [[u64; WORDS]; 2],
    walls: [u64; WORDS],
    /// Per cell: what is kept of the piece there.
    kept: Box<[Kept; MAX_CELLS]>,
    /// Per cell: its piece's moves, where [`Kept::listed`].
    lists: Vec<Vec<Move>>,
    /// The cells with something kept.
    cells: [u64; WORDS],
    /// May anything be kept at the last node (no face-down piece stands)?
    usable: bool,
}

impl Default for KeptMoves {
    fn default() -> KeptMoves {
        KeptMoves { tables: 0, side: 0, occupied: [[0; WORDS]; 2], walls: [0; WORDS], kept: Box::new([NONE; MAX_CELLS]), lists: Vec::new(), cells: [0; WORDS], usable: false }
    }
}

impl KeptMoves {
    /// Makes what is kept hold for `pos` (with `t`, its tables): all is
    /// dropped where the tables or the side to move changed, else what
    /// stands on or depends on a cell whose occupancy changed.
    pub fn begin(&mut self, t: &Tables, pos: &Position) {
        let n = t.nwords;
        // A face-down piece moves as what it seems (or promotes as what it
        // is): nothing is kept where one stands.
        self.usable = !pos.any_hidden();
        if self.tables != t.id() || self.side != pos.side {
            self.tables = t.id();
            self.side = pos.side;
            self.cells = [0; WORDS];
        } else {
            let mut changed = [0u64; WORDS];
            for (w, c) in changed[..n].iter_mut().enumerate() {
                *c = (pos.occupied[0][w] ^ self.occupied[0][w]) | (pos.occupied[1][w] ^ self.occupied[1][w]) | (pos.walls[w] ^ self.walls[w]);
            }
            // The words with a changed cell (at most a few: a move or two).
            let mut touched = [0usize; WORDS];
            let mut nt = 0;
            for (w, &c) in changed[..n].iter().enumerate() {
                if c != 0 {
                    touched[nt] = w;
                    nt += 1;
                }
            }
            for w in 0..n {
                let mut bits = self.cells[w];
                while bits != 0 {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    let depends = &self.kept[w * 64 + b as usize].depends;
                    if changed[w] >> b & 1 != 0 || touched[..nt].iter().any(|&i| depends[i] & changed[i] != 0) {
                        self.cells[w] &= !(1 << b);
                    }
                }
            }
        }
        self.occupied[0][..n].copy_from_slice(&pos.occupied[0][..n]);
        self.occupied[1][..n].copy_from_slice(&pos.occupied[1][..n]);
        self.walls[..n].copy_from_slice(&pos.walls[..n]);
    }

    /// What is kept of the side to move's piece on `from` in `pos`, where
    /// it holds (`None`: nothing); the piece's `kind * 2 + color`.
    fn entry(&mut self, pos: &Position, from: Cell) -> (Option<&mut Kept>, u16) {
        let kc = u16::from(kind_of(pos.board[from as usize])) * 2 + u16::from(pos.side);
        let held = self.usable && self.cells[from as usize / 64] >> (from % 64) & 1 != 0;
        let k = &mut self.kept[from as usize];
        (Some(k).filter(|k| held && k.kc == kc), kc)
    }

    /// A new entry, with nothing kept yet, for the side to move's piece
    /// (of `kc`) on `from` in `pos`; `None` where its moves are not kept
    /// ([`depends_of`], or a face-down piece stands).
    fn fresh(&mut self, t: &Tables, pos: &Position, from: Cell, kc: u16) -> Option<&mut Kept> {
        if !self.usable {
            return None;
        }
        let depends = depends_of(t, pos, from, kind_of(pos.board[from as usize]))?;
        self.cells[from as usize / 64] |= 1 << (from % 64);
        let k = &mut self.kept[from as usize];
        *k = Kept { kc, count: None, listed: false, depends };
        Some(k)
    }

    /// The moves of the side to move's piece on `from` in `pos` (the
    /// position last given to [`Self::begin`]), every cell landed on:
    /// [`super::count_piece_moves`] with no target cells, from the count
    /// kept where it holds.
    pub fn count(&mut self, t: &Tables, pos: &Position, from: Cell) -> u64 {
        let fresh_count = || {
            let mut count = Counter(0);
            piece_moves(pos, t, from, &mut count);
            count.0
        };
        let (kept, kc) = self.entry(pos, from);
        if let Some(k) = kept {
            if let Some(n) = k.count {
                #[cfg(test)]
                HITS.with(|h| h.set(h.get() + 1));
                debug_assert_eq!(u64::from(n), super::count_piece_moves(pos, t, from, None), "a kept count");
                return u64::from(n);
            }
            let n = fresh_count();
            k.count = u32::try_from(n).ok();
            return n;
        }
        let n = fresh_count();
        if let Some(k) = self.fresh(t, pos, from, kc) {
            k.count = u32::try_from(n).ok();
        }
        n
    }

    /// Appends the moves of the side to move's piece on `from` in `pos`
    /// (the position last given to [`Self::begin`]), each once:
    /// [`piece_moves_once`], from the list kept where it holds.
    pub fn list(&mut self, t: &Tables, pos: &Position, from: Cell, out: &mut Vec<Move>) {
        let start = out.len();
        let (kept, kc) = self.entry(pos, from);
        let known = kept.map(|k| std::mem::replace(&mut k.listed, true));
        if known == Some(true) {
            if let Some(list) = self.lists.get(from as usize) {
                #[cfg(test)]
                HITS.with(|h| h.set(h.get() + 1));
                out.extend_from_slice(list);
                debug_assert!(
                    {
                        let mut fresh = Vec::new();
                        piece_moves_once(pos, t, from, &mut fresh);
                        fresh == out[start..]
                    },
                    "a kept list of moves"
                );
                return;
            }
        }
        piece_moves_once(pos, t, from, out);
        if known.is_none() {
            let Some(k) = self.fresh(t, pos, from, kc) else { return };
            k.listed = true;
        }
        if self.lists.len() < MAX_CELLS {
            self.lists.resize_with(MAX_CELLS, Vec::new);
        }
        if let Some(list) = self.lists.get_mut(from as usize) {
            list.clear();
            list.extend_from_slice(&out[start..]);
        }
    }
}

#[cfg(test)]
thread_local! {
    /// For tests: the counts and lists answered from what was kept, on this thread.
    pub(crate) static HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
