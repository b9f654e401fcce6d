//! The attacks on a royal piece's landings kept from one node to the next
//! ([`RoyalZone`]): at perft's nodes one ply above the leaves the royal
//! piece's steps are judged at once ([`keep_safe_royal_steps`](super::legal::keep_safe_royal_steps)),
//! walking every enemy piece that may reach a landing, and consecutive
//! nodes mostly differ by a move of the other side or by where a relocated
//! piece stands, which most often leaves every walk as it was.

use super::attack::capture_cells_reading;
use super::legal::{keep_landing_outside, landings};
use crate::engine::position::{color_of, kind_of, Move, Position, WALL, WORDS};
use crate::engine::tables::Tables;
use crate::model::geometry::{Cell, MAX_CELLS};
use crate::model::Color;

/// The cells of one zone (a royal piece's landings) that one side could
/// capture on, as last found, with what that answer read.
pub struct RoyalZone {
    /// The number of the tables it was found with (0: none kept).
    tables: u64,
    /// The capturing side, and the cell taken as empty (the royal piece's own).
    by: Color,
    through: Cell,
    zone: [u64; WORDS],
    /// The answer: exact on the zone.
    hit: [u64; WORDS],
    /// The cells the answer read ([`capture_cells_reading`]).
    read: [u64; WORDS],
    /// The board the answer holds for (its cells up to the tables' count).
    board: Box<[u8; MAX_CELLS]>,
}

impl Default for RoyalZone {
    fn default() -> RoyalZone {
        RoyalZone { tables: 0, by: 0, through: 0, zone: [0; WORDS], hit: [0; WORDS], read: [0; WORDS], board: Box::new([0; MAX_CELLS]) }
    }
}

impl RoyalZone {
    /// [`keep_safe_royal_steps`](super::legal::keep_safe_royal_steps): keeps in `moves[start..]`, the side
    /// to move's royal piece's moves, those that land where the other side
    /// could not capture it, from the answer kept where it holds.
    pub fn keep_safe_steps(&mut self, t: &Tables, pos: &Position, moves: &mut Vec<Move>, start: usize) {
        let us = pos.side;
        let unsafe_cells = self.capture_cells(t, pos, us ^ 1, pos.royal[us as usize], &landings(&moves[start..]));
        keep_landing_outside(moves, start, &unsafe_cells);
    }

    /// The cells of `zone` a capture by `by` could land on in `pos`,
    /// `through` taken as empty (exact on the zone only).
    fn capture_cells(&mut self, t: &Tables, pos: &Position, by: Color, through: Cell, zone: &[u64; WORDS]) -> [u64; WORDS] {
        let n = t.ncells.min(MAX_CELLS);
        if self.tables == t.id() && self.by == by && self.through == through && self.zone == *zone && self.unchanged(t, pos, zone) {
            debug_assert!(
                {
                    let fresh = super::attack::capture_cells_onto(t, pos, by, through, Some(zone));
                    (0..WORDS).all(|w| (fresh[w] ^ self.hit[w]) & zone[w] == 0)
                },
                "a kept answer of the attacks on a royal piece's landings"
            );
            self.board[..n].copy_from_slice(&pos.board[..n]);
            #[cfg(test)]
            HITS.with(|h| h.set(h.get() + 1));
            return self.hit;
        }
        let mut read = [0u64; WORDS];
        self.hit = capture_cells_reading(t, pos, by, through, zone, &mut read);
        self.read = read;
        (self.tables, self.by, self.through, self.zone) = (t.id(), by, through, *zone);
        self.board[..n].copy_from_slice(&pos.board[..n]);
        self.hit
    }

    /// Does the kept answer hold on `pos`'s board? Every cell whose
    /// contents changed was not read, and holds no piece of the capturing
    /// side that may reach the zone (one that stood there before and was
    /// walked stood on a cell read).
    fn unchanged(&self, t: &Tables, pos: &Position, zone: &[u64; WORDS]) -> bool {
        let n = t.ncells.min(MAX_CELLS);
        let (old, new) = (&self.board[..n], &pos.board[..n]);
        if old == new {
            return true;
        }
        // Eight cells to a word, then the cells past the last whole word.
        let whole = n / 8 * 8;
        for (i, (a, b)) in old[..whole].chunks_exact(8).zip(new[..whole].chunks_exact(8)).enumerate() {
            let (Ok(a), Ok(b)) = (<[u8; 8]>::try_from(a), <[u8; 8]>::try_from(b)) else { return false };
            let mut diff = u64::from_le_bytes(a) ^ u64::from_le_bytes(b);
            while diff != 0 {
                let byte = diff.trailing_zeros() / 8;
                diff &= !(0xFF << (byte * 8));
                if !self.stays(t, pos, zone, i * 8 + byte as usize) {
                    return false;
                }
            }
        }
        (whole..n).all(|c| old[c] == new[c] || self.stays(t, pos, zone, c))
    }

    /// Does the kept answer stay whatever now stands on `c`, a cell whose
    /// contents changed? It was not read, and what stands there is no piece
    /// of the capturing side that may reach the zone.
    fn stays(&self, t: &Tables, pos: &Position, zone: &[u64; WORDS], c: usize) -> bool {
        if self.read[c / 64] >> (c % 64) & 1 != 0 {
            return false;
        }
        let code = pos.board[c];
        if code == 0 || code == WALL || color_of(code) != self.by {
            return true;
        }
        let reach = t.reach_of(kind_of(code), self.by, c as Cell);
        reach.iter().zip(zone).all(|(r, z)| r & z == 0)
    }
}

#[cfg(test)]
thread_local! {
    /// For tests: the answers given from what was kept, on this thread.
    pub(crate) static HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
