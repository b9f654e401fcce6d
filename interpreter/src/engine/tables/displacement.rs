//! Where a piece may capture, told by the displacement alone, in any frame.
//!
//! In a frame (levels pulled out of the shaft, [`crate::engine::frame`])
//! a step keeps a simple shape in *absolute* coordinates (a cell's local
//! ones plus its level's offset along the level's slide axis): on every
//! axis but the stacking one the target is the origin plus the step's
//! components, and along the stacking axis the target lies at least the
//! step's component of levels away in its direction (levels without a
//! cell there are passed over, [`crate::engine::frame::step`]), on the
//! origin's level when that component is 0. So `m` steps of one vector
//! move a piece by `m` times its other components, and at least `m` times
//! its stacking one. What a piece's captures may reach from a cell is a
//! set of such displacements, the same in every frame: one table for the
//! game, built with the resting tables and shared with every frame's.
//!
//! A frame's attack tests ask it first ([`super::Tables::may_capture_on`]):
//! an answer of no saves building the attacker's rays in that frame (most
//! pieces on a 448-cell board are nowhere near a line to the king). Profile
//! behind it (perf, 4D-Schach's post-opening perft 3): the lookups and
//! builds of the frames' rays behind the attack tests were 7% of the count
//! at rest and 8% while a level swings; with the test first, the count
//! took 8% less time at rest and 12% less swinging.

use crate::model::{Game, StepKind};

/// Per displacement (absolute, the stacking axis in levels), the pieces
/// (bit `kind * 2 + colour`) whose captures may make it.
#[derive(Clone, Debug)]
pub struct Displacements {
    /// The stacking axis.
    stack: usize,
    /// Per axis: the largest displacement either way.
    reach: Vec<i32>,
    /// Per axis: the index step of one unit of displacement.
    stride: Vec<usize>,
    /// Per displacement, the pieces, as a bitmask.
    pieces: Vec<u64>,
    /// The index of no displacement.
    centre: i32,
}

/// The most displacements a table holds (a guard: 4D-Schach's has 10,933).
const MAX_DISPLACEMENTS: usize = 1 << 22;

impl Displacements {
    /// The table of `game`; `None` without a `slide` item, with more than 32
    /// kinds, or on a board whose table would be too large (frames then
    /// build the rays of every attacker they test).
    pub fn new(game: &Game) -> Option<Displacements> {
        let slide = game.slide.as_ref()?;
        let geo = &game.geometry;
        let (dims, stack) = (geo.dims(), slide.stack_axis);
        if game.kinds.len() * 2 > 64 || stack >= dims {
            return None;
        }
        let out = i32::from(slide.out_max);
        let reach: Vec<i32> = (0..dims)
            .map(|a| {
                let n = geo.size(a) as i32 - 1;
                // Two cells of levels pulled out opposite ways along the axis.
                if a != stack && slide.axes.contains(&Some(a)) { n + 2 * out } else { n }
            })
            .collect();
        let mut stride = vec![0usize; dims];
        let mut total = 1usize;
        for a in 0..dims {
            stride[a] = total;
            total = total.checked_mul(2 * reach[a] as usize + 1)?;
        }
        if total > MAX_DISPLACEMENTS {
            return None;
        }
        let centre = reach.iter().zip(&stride).map(|(&r, &s)| r * s as i32).sum();
        let mut table = Displacements { stack, reach, stride, pieces: vec![0; total], centre };
        for (k, kind) in game.kinds.iter().enumerate() {
            for color in 0..2 {
                for part in kind.parts.iter().filter(|p| p.capture) {
                    let most = match part.kind {
                        StepKind::Leap => 1,
                        StepKind::Ride | StepKind::Hop => part.max.unwrap_or(u32::MAX),
                    };
                    for v in &part.vectors[color] {
                        table.mark(v, most, k * 2 + color);
                    }
                }
            }
        }
        Some(table)
    }

    /// Marks for piece `kc` the displacements of 1 to `most` steps of `v`.
    fn mark(&mut self, v: &[i32], most: u32, kc: usize) {
        let dims = self.reach.len();
        if v.len() < dims || v.iter().all(|&x| x == 0) {
            return;
        }
        let dl = v[self.stack];
        let mut d = vec![0i32; dims];
        let mut m = 1i32;
        while m as u32 <= most {
            // Past the widest displacement on some axis: no more steps fit.
            if (0..dims).any(|a| (m * v[a]).abs() > self.reach[a]) {
                return;
            }
            for a in 0..dims {
                d[a] = m * v[a];
            }
            if dl == 0 {
                self.set(&d, kc);
            } else {
                // Levels passed over: anywhere at least `m * |dl|` levels on.
                for levels in (m * dl.abs())..=self.reach[self.stack] {
                    d[self.stack] = levels * dl.signum();
                    self.set(&d, kc);
                }
            }
            m += 1;
        }
    }

    fn set(&mut self, d: &[i32], kc: usize) {
        if let Some(i) = self.index(d.iter().copied()) {
            self.pieces[i] |= 1 << kc;
        }
    }

    /// The index of displacement `d` (one component per axis), if within reach.
    #[inline]
    fn index(&self, d: impl Iterator<Item = i32>) -> Option<usize> {
        let mut i = 0;
        for ((x, &r), &s) in d.zip(&self.reach).zip(&self.stride) {
            if x.abs() > r {
                return None;
            }
            i += (x + r) as usize * s;
        }
        Some(i)
    }

    /// The keys of cells at absolute positions `abs` (one per cell, `dims`
    /// components each, one per axis): a capture from one cell to another
    /// is asked of [`Self::may`] by the difference of their keys. `None`
    /// where two of the positions lie farther apart on some axis than the
    /// table reaches (differences of keys would not tell displacements
    /// apart).
    pub fn keys(&self, dims: usize, abs: &[i64]) -> Option<Vec<i32>> {
        let cells = || abs.chunks(dims.max(1));
        for (a, &r) in self.reach.iter().enumerate() {
            let (lo, hi) = cells().filter_map(|p| p.get(a)).fold((i64::MAX, i64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            if lo <= hi && hi - lo > i64::from(r) {
                return None;
            }
        }
        cells().map(|p| i32::try_from(p.iter().zip(&self.stride).map(|(&x, &s)| x * s as i64).sum::<i64>()).ok()).collect()
    }

    /// May a capture of piece `kc` (`kind * 2 + colour`) move it from the
    /// cell of key `from` to that of key `to` ([`Self::keys`])? `false`
    /// rules the capture out in every frame; `true` is not a promise.
    #[inline]
    pub fn may(&self, kc: usize, from: i32, to: i32) -> bool {
        usize::try_from(self.centre + to - from).ok().and_then(|i| self.pieces.get(i)).is_some_and(|p| p >> kc & 1 != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Tables;
    use crate::model::geometry::Cell;
    use std::sync::Arc;

    /// In frames of the example tower and of 4D-Schach (each level out by
    /// a random number of rows, one to all of them), every capture a
    /// piece's rays there may land (the frame's reach, built by walking the
    /// steps) is one its displacement allows; and the displacement rules
    /// out most pairs of cells (the test saves work).
    #[test]
    fn displacements_allow_every_capture_the_rays_make() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut below = crate::flow::ply::below_from(0x2545_F491_4F6C_DD1D);
        let (mut reached, mut ruled_out, mut pairs) = (0u64, 0u64, 0u64);
        for (file, frames) in [("examples/sliding-levels.rules", 30), ("rules/4d-schach.rules", 12)] {
            let Ok((game, _)) = crate::model::load::load(&root.join(file)) else { panic!("{file} loads") };
            let game = Arc::new(game);
            let base = Tables::new(&game);
            let Some(slide) = game.slide.as_ref() else { panic!("{file} slides") };
            let cells: Vec<Cell> = game.geometry.board_cells().collect();
            for _ in 0..frames {
                let offsets = crate::engine::frame::random_offsets(slide, &mut below);
                if offsets.iter().all(|&o| o == 0) {
                    continue;
                }
                let t = Tables::for_frame(&game, &offsets, &base);
                let Some(lazy) = t.lazy.as_ref() else { panic!("a frame's rays are lazy") };
                for kc in 0..game.kinds.len() * 2 {
                    for &from in cells.iter().filter(|_| below(4) == 0) {
                        let reach = lazy.reach(kc, from).to_vec();
                        for &cell in &cells {
                            let by_rays = reach.get(cell as usize / 64).is_some_and(|w| w >> (cell % 64) & 1 != 0);
                            let Some((table, keys)) = &lazy.displacements else { panic!("{file} {offsets:?}: no displacement test") };
                            let allowed = table.may(kc, keys[from as usize], keys[cell as usize]);
                            let name = |c: Cell| game.geometry.name(c);
                            assert!(allowed || !by_rays, "{file} {offsets:?}: piece {kc} from {} captures on {}, but its displacement is ruled out", name(from), name(cell));
                            // What the attack tests ask: the two together.
                            assert_eq!(lazy.may_capture(kc, from, cell), by_rays, "{file} {offsets:?}: piece {kc} from {} to {}", name(from), name(cell));
                            reached += u64::from(by_rays);
                            ruled_out += u64::from(!allowed);
                            pairs += 1;
                        }
                    }
                }
            }
        }
        assert!(reached > 10_000 && ruled_out * 2 > pairs, "{reached} captures reached, {ruled_out} of {pairs} pairs ruled out");
    }
}
