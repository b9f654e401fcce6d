//! Ride lookups for boards of at most 128 cells: the cells that a group of
//! rides (or `exactly` rides) of one piece reaches from one cell, for every
//! occupancy of the cells that can block them, found by one multiply and one
//! load (a "magic" index, as chess engines look up sliders) instead of a
//! walk along each ray.
//!
//! A piece's rides from a cell are grouped in pairs of opposite directions
//! (a line) where they share how they may end (quietly, by capturing). Each
//! group gets a table indexed by `((occupied & mask) * magic) >> shift`,
//! whose entry is the set of cells the rides reach: every cell up to and
//! including the first occupied one (a ride), or the last cell when every
//! cell before it is empty (`exactly`). Groups with the same rays share a
//! table, whatever piece they belong to.
//!
//! The sets are [`CellSet`]s: `u64` on boards of at most 64 cells, `u128`
//! on boards of 65 to 128, whose masked occupancy is folded into one `u64`
//! (its high half rotated onto the low one where no cell of the mask meets
//! another) before the multiply.

use super::cellset::CellSet;
use crate::model::geometry::Cell;
use std::collections::HashMap;

/// The most cells whose occupancy one group's table may depend on (a table
/// of 2^12 entries); a group that would need more is split into its rides,
/// and a ride that needs more is walked instead.
const MAX_BITS: u32 = 12;

/// One lookup: a group of rides of one piece from one cell.
#[derive(Clone, Copy, Debug)]
pub struct ReachLookup<S = u64> {
    /// The cells whose occupancy decides what the rides reach.
    pub mask: S,
    /// The multiplier that maps each occupancy of `mask` (folded) to its slot.
    pub magic: u64,
    /// Every cell when the rides may end on an empty cell, else none.
    pub quiet: S,
    /// Every cell when the rides may end by capturing, else none.
    pub capture: S,
    /// The table's first slot in [`ReachBuilder::reach`].
    pub offset: u32,
    /// `64 - bits`: the slot is the product's top `bits` bits.
    pub shift: u8,
    /// The rotation that folds the masked occupancy into one word
    /// ([`CellSet::fold`]; 0 for `u64`).
    pub fold: u8,
    /// No ride of the group is `exactly`: what it reaches (every cell up
    /// to and including the first occupied one) is also every cell whose
    /// occupancy decided it.
    pub plain: bool,
}

impl<S: CellSet> ReachLookup<S> {
    /// The slot in the reach table for the occupied cells `occ`.
    #[inline(always)]
    pub fn slot(&self, occ: S) -> usize {
        self.offset as usize + ((occ & self.mask).fold(u32::from(self.fold)).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// One ride of a group: its cells in order, and whether it is `exactly`
/// (lands only on its last cell).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RideCells {
    /// The cells along the ride.
    pub cells: Vec<Cell>,
    /// Lands only on the last cell, over empty cells before it.
    pub exact: bool,
}

/// Builds the shared reach table and the lookups into it.
pub struct ReachBuilder<S> {
    /// Every group's table, one after another.
    pub reach: Vec<S>,
    /// The lookup already built for a set of rides: offset, magic, shift, fold.
    built: HashMap<Vec<RideCells>, (u32, u64, u8, u8)>,
}

impl<S> Default for ReachBuilder<S> {
    fn default() -> Self {
        ReachBuilder { reach: Vec::new(), built: HashMap::new() }
    }
}

impl<S: CellSet> ReachBuilder<S> {
    /// The lookups for the rides of one piece from one cell, given as
    /// `(rides, quiet, capture)` groups; `None` when some ride depends on
    /// more than [`MAX_BITS`] cells (it is walked instead).
    pub fn lookups(&mut self, from: Cell, rides: Vec<(RideCells, bool, bool)>) -> Option<Vec<ReachLookup<S>>> {
        let mut out = Vec::new();
        for group in pair_lines(from, rides) {
            let (quiet, capture) = (group[0].1, group[0].2);
            let cells: Vec<RideCells> = group.into_iter().map(|(r, _, _)| r).collect();
            match self.lookup(&cells) {
                Some(l) => out.push(ReachLookup { quiet: full(quiet), capture: full(capture), ..l }),
                None if cells.len() > 1 => {
                    for ride in cells {
                        let l = self.lookup(std::slice::from_ref(&ride))?;
                        out.push(ReachLookup { quiet: full(quiet), capture: full(capture), ..l });
                    }
                }
                None => return None,
            }
        }
        Some(out)
    }

    /// The table of one group of rides (built once per distinct group).
    fn lookup(&mut self, rides: &[RideCells]) -> Option<ReachLookup<S>> {
        let mask: S = blockers(rides);
        let bits = mask.count();
        if bits > MAX_BITS {
            return None;
        }
        let mut key = rides.to_vec();
        key.sort_by(|a, b| (&a.cells, a.exact).cmp(&(&b.cells, b.exact)));
        let (offset, magic, shift, fold) = match self.built.get(&key) {
            Some(&found) => found,
            None => {
                let fold = fold_of(mask)?;
                let (magic, table, shift) = find_magic(rides, mask, bits, fold)?;
                let offset = self.reach.len() as u32;
                self.reach.extend(table);
                self.built.insert(key, (offset, magic, shift, fold));
                (offset, magic, shift, fold)
            }
        };
        let plain = rides.iter().all(|r| !r.exact);
        Some(ReachLookup { mask, magic, quiet: S::EMPTY, capture: S::EMPTY, offset, shift, fold, plain })
    }
}

fn full<S: CellSet>(yes: bool) -> S {
    if yes { S::FULL } else { S::EMPTY }
}

/// A rotation that folds `mask` into one word without two of its cells
/// meeting ([`CellSet::fold`]): then every occupancy of the mask folds to
/// a word of its own. `None` if there is none (a mask this small always has one).
fn fold_of<S: CellSet>(mask: S) -> Option<u8> {
    (0..64u8).find(|&k| mask.fold(u32::from(k)).count_ones() == mask.count())
}

/// Groups rides in pairs whose first steps go opposite ways from `from`
/// and that end alike; the rest alone.
fn pair_lines(from: Cell, mut rides: Vec<(RideCells, bool, bool)>) -> Vec<Vec<(RideCells, bool, bool)>> {
    let first_step = |r: &RideCells| r.cells.first().map_or(0, |&c| c as i32 - from as i32);
    let mut groups = Vec::new();
    while let Some(ride) = rides.pop() {
        let d = first_step(&ride.0);
        let partner = rides.iter().position(|o| o.1 == ride.1 && o.2 == ride.2 && first_step(&o.0) == -d && d != 0);
        match partner {
            Some(i) => {
                let other = rides.swap_remove(i);
                groups.push(vec![ride, other]);
            }
            None => groups.push(vec![ride]),
        }
    }
    groups
}

/// The cells whose occupancy decides what `rides` reach: all but each ride's last.
fn blockers<S: CellSet>(rides: &[RideCells]) -> S {
    rides
        .iter()
        .flat_map(|r| r.cells.split_last().map_or(&[][..], |(_, before)| before))
        .fold(S::EMPTY, |m, &c| m | S::bit(c as usize))
}

/// The cells `rides` reach when `occ` is occupied.
fn reach_of<S: CellSet>(rides: &[RideCells], occ: S) -> S {
    let mut reach = S::EMPTY;
    for ride in rides {
        let Some((&last, before)) = ride.cells.split_last() else { continue };
        if ride.exact {
            if before.iter().all(|&c| !occ.has(c as usize)) {
                reach |= S::bit(last as usize);
            }
            continue;
        }
        for &c in &ride.cells {
            reach |= S::bit(c as usize);
            if occ.has(c as usize) {
                break;
            }
        }
    }
    reach
}

/// A multiplier that sends every occupancy of `mask` (`bits` cells) to a
/// slot of a table where no two occupancies with different reaches meet,
/// that table, and the shift that takes a slot from the product. Searched
/// with a fixed seed, so tables are the same on every run; `None` if none
/// is found within the tries. Masks of up to 8 cells get a table of twice
/// 2^bits slots (a few kilobytes at most), where a multiplier is found in
/// far fewer tries. The multiplier works on occupancies folded by `fold`.
fn find_magic<S: CellSet>(rides: &[RideCells], mask: S, bits: u32, fold: u8) -> Option<(u64, Vec<S>, u8)> {
    if bits == 0 {
        return Some((0, vec![reach_of(rides, S::EMPTY)], 63));
    }
    // Every occupancy of the mask (folded) and its reach: each subset of
    // the mask's cells, the cells taken as the bits of a counter.
    let cells: Vec<usize> = (0..128).filter(|&c| c < 8 * std::mem::size_of::<S>() && mask.has(c)).collect();
    let cases: Vec<(u64, S)> = (0..1u64 << bits)
        .map(|n| {
            let sub = cells.iter().enumerate().filter(|&(i, _)| n >> i & 1 != 0).fold(S::EMPTY, |m, (_, &c)| m | S::bit(c));
            (sub.fold(u32::from(fold)), reach_of(rides, sub))
        })
        .collect();
    let slots = if bits <= 8 { bits + 1 } else { bits };
    let shift = 64 - slots;
    let size = 1usize << slots;
    let mut table = vec![S::EMPTY; size];
    let mut stamp = vec![0u32; size];
    let mut seed = 0x2545_F491_4F6C_DD1Du64 ^ mask.fold(u32::from(fold));
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    'tries: for attempt in 1..=100_000u32 {
        let magic = random() & random() & random();
        for &(occ, reach) in &cases {
            let slot = (occ.wrapping_mul(magic) >> shift) as usize;
            if stamp[slot] != attempt {
                stamp[slot] = attempt;
                table[slot] = reach;
            } else if table[slot] != reach {
                continue 'tries;
            }
        }
        return Some((magic, table, shift as u8));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ride(cells: &[Cell], exact: bool) -> RideCells {
        RideCells { cells: cells.to_vec(), exact }
    }

    /// A rook's rank through d4 on an 8x8 board (cells 24..32, d4 = 27),
    /// every occupancy of the rank: the lookup agrees with walking the rays.
    #[test]
    fn a_line_lookup_agrees_with_walking_for_every_occupancy() {
        let mut b = ReachBuilder::<u64>::default();
        let rides = vec![(ride(&[28, 29, 30, 31], false), true, true), (ride(&[26, 25, 24], false), true, true)];
        let ls = b.lookups(27, rides.clone()).expect("a rank needs 5 cells");
        assert_eq!(ls.len(), 1, "the two halves of the rank form one line");
        let all: Vec<RideCells> = rides.into_iter().map(|r| r.0).collect();
        for occ in 0..=255u64 {
            let occ = occ << 24 & !(1 << 27);
            // By hand: e.g. with f4 (29) and b4 (25) occupied, e4 f4 c4 b4.
            let expected = reach_of(&all, occ);
            assert_eq!(b.reach[ls[0].slot(occ)], expected, "occupancy {occ:#x}");
        }
        let f4_b4 = 1u64 << 29 | 1 << 25;
        assert_eq!(b.reach[ls[0].slot(f4_b4)], 1 << 28 | 1 << 29 | 1 << 26 | 1 << 25);
    }

    /// A rook's rank through e7 on a 10x8 board (cells 60..70, e7 = 64):
    /// the rank crosses from the low half of a `u128` to the high one, and
    /// for every occupancy of it the folded lookup agrees with walking.
    #[test]
    fn a_wide_line_lookup_agrees_with_walking_for_every_occupancy() {
        let mut b = ReachBuilder::<u128>::default();
        let rides = vec![(ride(&[65, 66, 67, 68, 69], false), true, true), (ride(&[63, 62, 61, 60], false), true, true)];
        let ls = b.lookups(64, rides.clone()).expect("a rank needs 7 cells");
        assert_eq!(ls.len(), 1);
        let all: Vec<RideCells> = rides.into_iter().map(|r| r.0).collect();
        for occ in 0..1024u128 {
            let occ = occ << 60 & !(1 << 64);
            assert_eq!(b.reach[ls[0].slot(occ)], reach_of(&all, occ), "occupancy {occ:#x}");
        }
        // By hand: with g7 (66) and c7 (62) occupied, f7 g7 d7 c7.
        let g7_c7 = 1u128 << 66 | 1 << 62;
        assert_eq!(b.reach[ls[0].slot(g7_c7)], 1 << 65 | 1 << 66 | 1 << 63 | 1 << 62);
    }

    /// A pawn's double step from e2 (12) over e3 (20) to e4 (28): reached
    /// only while e3 is empty, whatever stands on e4.
    #[test]
    fn an_exact_ride_reaches_its_last_cell_over_empty_cells() {
        let mut b = ReachBuilder::<u64>::default();
        let ls = b.lookups(12, vec![(ride(&[20, 28], true), true, false)]).expect("one blocker cell");
        assert_eq!(ls[0].quiet, !0);
        assert_eq!(ls[0].capture, 0);
        assert_eq!(b.reach[ls[0].slot(0)], 1 << 28);
        assert_eq!(b.reach[ls[0].slot(1 << 28)], 1 << 28);
        assert_eq!(b.reach[ls[0].slot(1 << 20)], 0);
    }

    /// Rides that end differently (a quiet-only and a capture-only half) are
    /// not paired; two pieces with the same line share one table.
    #[test]
    fn groups_pair_alike_rides_and_share_tables() {
        let mut b = ReachBuilder::<u64>::default();
        let split = b.lookups(27, vec![(ride(&[28, 29], false), true, false), (ride(&[26, 25], false), false, true)]).expect("small");
        assert_eq!(split.len(), 2);
        let size = b.reach.len();
        let again = b.lookups(27, vec![(ride(&[26, 25], false), true, true), (ride(&[28, 29], false), true, true)]).expect("small");
        let twice = b.lookups(27, vec![(ride(&[28, 29], false), true, true), (ride(&[26, 25], false), true, true)]).expect("small");
        assert_eq!(again[0].offset, twice[0].offset, "the same line is one table");
        assert!(b.reach.len() > size);
    }
}
