//! The moves of the side to move's pieces counted one by one and kept
//! from one node to the next that shares its tables, so that a piece whose
//! moves depend on no cell that changed in between is not walked again
//! ([`PieceCounts`]). Perft's nodes one ply above the leaves mostly differ
//! from the one before by a move of the other side, or, at the ends of a
//! ply that relocates a piece, by where that piece stands: a few cells.
//!
//! [`walk_piece`], the count of one piece with the cells it depends on, is
//! also what [`super::KeptCounts`] keeps on large boards.

use super::{piece_moves, Counter};
use crate::engine::position::{kind_of, Position, WORDS};
use crate::engine::tables::{Tables, EXACT, HOP, SCATTER, SETS_EP, TAKES_EP};
use crate::model::geometry::{Cell, MAX_CELLS};
use crate::model::{Color, KindId};

/// The moves of the side to move's piece of `kind` on `from` (every cell
/// may be landed on, as [`piece_moves`] makes them), with the cells whose
/// occupancy (empty, either color's, wall) decides them: its leaps' cells,
/// and along each ride every cell up to and including the first occupied
/// one. `None` for a piece with a part that applies only sometimes (a
/// first move, out of check) or hops over some kinds only (a promotion in
/// place changes a kind, not a cell), or that may take en passant now:
/// those are counted afresh.
pub(super) fn walk_piece(t: &Tables, pos: &Position, from: Cell, kind: KindId) -> Option<(u64, [u64; WORDS])> {
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
    let mut count = Counter(0);
    piece_moves(pos, t, from, &mut count);
    Some((count.0, depends))
}

/// One piece's kept count.
#[derive(Clone, Copy)]
struct Kept {
    /// `kind * 2 + color` of the piece counted (`u16::MAX`: none).
    kc: u16,
    count: u32,
    /// The cells its moves depend on ([`walk_piece`]).
    depends: [u64; WORDS],
}

const NONE: Kept = Kept { kc: u16::MAX, count: 0, depends: [0; WORDS] };

/// The counts of the side to move's pieces, by cell, as found at the nodes
/// counted so far with the same tables and side to move, each valid on the
/// board of the last node [`PieceCounts::begin`] was given: at each node
/// the counts that depend on a cell whose occupancy changed are dropped.
pub struct PieceCounts {
    /// The number of the tables the counts were made with (0: none kept).
    tables: u64,
    side: Color,
    /// The occupied cells of each color, and the walls, at the last node.
    occupied: [[u64; WORDS]; 2],
    walls: [u64; WORDS],
    /// Per cell: the count kept for the piece there.
    kept: Box<[Kept; MAX_CELLS]>,
    /// The cells with a count kept.
    cells: [u64; WORDS],
    /// May counts be kept at the last node (no face-down piece stands)?
    usable: bool,
}

impl Default for PieceCounts {
    fn default() -> PieceCounts {
        PieceCounts { tables: 0, side: 0, occupied: [[0; WORDS]; 2], walls: [0; WORDS], kept: Box::new([NONE; MAX_CELLS]), cells: [0; WORDS], usable: false }
    }
}

impl PieceCounts {
    /// Makes the counts those of `pos` (with `t`, its tables): every count
    /// is dropped where the tables or the side to move changed, else those
    /// on a cell or depending on a cell whose occupancy changed.
    pub fn begin(&mut self, t: &Tables, pos: &Position) {
        let n = t.nwords;
        // A face-down piece moves as what it seems (or promotes as what it
        // is): no count is kept where one stands.
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

    /// The moves of the side to move's piece on `from` in `pos` (the
    /// position last given to [`Self::begin`]), every cell landed on:
    /// [`super::count_piece_moves`] with no target cells, from the count
    /// kept where it holds.
    pub fn count(&mut self, t: &Tables, pos: &Position, from: Cell) -> u64 {
        let piece = pos.board[from as usize];
        let kc = u16::from(kind_of(piece)) * 2 + u16::from(pos.side);
        let (w, bit) = (from as usize / 64, 1u64 << (from % 64));
        if !self.usable {
            return super::count_piece_moves(pos, t, from, None);
        }
        let k = &self.kept[from as usize];
        if self.cells[w] & bit != 0 && k.kc == kc {
            debug_assert_eq!(u64::from(k.count), super::count_piece_moves(pos, t, from, None), "a kept count");
            return u64::from(k.count);
        }
        match walk_piece(t, pos, from, kind_of(piece)) {
            Some((count, depends)) if count <= u64::from(u32::MAX) => {
                self.kept[from as usize] = Kept { kc, count: count as u32, depends };
                self.cells[w] |= bit;
                count
            }
            _ => super::count_piece_moves(pos, t, from, None),
        }
    }
}
