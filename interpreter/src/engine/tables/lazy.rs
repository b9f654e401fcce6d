//! A frame's rays, built piece by piece as they are asked for.
//!
//! A frame (levels pulled out of the shaft, [`crate::engine::frame`]) has
//! rays of its own, and a 4D-Schach search meets hundreds of frames, most
//! of them only to test one king against the pieces on the board. Building
//! every kind's rays from every cell took a frame 2.6 to 3.5 ms (a quarter
//! of a 4D-Schach perft at rest, over a third while a level swings); a
//! position asks for the rays of its 32 pieces or fewer. So a frame's
//! tables build the rays of a piece on a cell the first time they are
//! asked for, and keep them ([`OnceLock`]: threads that share the tables
//! build each at most once).

use super::displacement::Displacements;
use super::rays::{self, Vectors, Walker};
use super::{PieceRays, Ray};
use crate::model::geometry::Cell;
use crate::model::Game;
use std::sync::{Arc, OnceLock};

/// The rays of one piece on one cell, with their cells, the cells its
/// captures and its moves may land on and whether two of its parts reach one cell alike.
#[derive(Clone, Debug)]
pub(super) struct Origin {
    rays: Vec<Ray>,
    cells: Vec<Cell>,
    reach: Vec<u64>,
    /// The cells any move of it may land on (a superset, as `reach`).
    moves: Vec<u64>,
    repeats: bool,
}

/// The rays of a frame, per piece (`kind * 2 + colour`) and cell, each
/// built on first use.
#[derive(Clone)]
pub(super) struct LazyRays {
    game: Arc<Game>,
    offsets: Vec<i8>,
    vectors: Arc<Vectors>,
    max_len: u32,
    ncells: usize,
    nwords: usize,
    /// Per `kind * 2 + colour`: the one whose rays it has (the first
    /// player's, for a kind that moves alike for both).
    canon: Vec<usize>,
    origins: Box<[OnceLock<Box<Origin>>]>,
    /// The game's capture displacements ([`Displacements`]) with every
    /// cell's key in this frame ([`Displacements::keys`]): the test asked
    /// before an attacker's rays are built.
    pub(super) displacements: Option<(Arc<Displacements>, Vec<i32>)>,
}

impl std::fmt::Debug for LazyRays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.origins.iter().filter(|o| o.get().is_some()).count();
        f.debug_struct("LazyRays").field("offsets", &self.offsets).field("built", &built).finish()
    }
}

impl LazyRays {
    /// The rays of `game` with its levels at `offsets`, none built yet
    /// (`vectors`: the game's, numbered, shared with the resting tables).
    pub fn new(game: &Arc<Game>, offsets: &[i8], displacements: Option<&Arc<Displacements>>, vectors: Arc<Vectors>) -> LazyRays {
        let geo = &game.geometry;
        // Each cell's key, from its absolute position in this frame.
        let keyed = |d: &Arc<Displacements>| {
            let dims = geo.dims();
            let mut abs = vec![0i64; geo.cells() * dims];
            for (c, out) in abs.chunks_mut(dims.max(1)).enumerate() {
                crate::engine::frame::absolute_into(game, |l| offsets.get(l).copied().unwrap_or(0), c as Cell, out);
            }
            Some((Arc::clone(d), d.keys(dims, &abs)?))
        };
        let ncells = geo.cells();
        let nkinds = game.kinds.len();
        let canon = (0..nkinds * 2).map(|kc| if kc % 2 == 1 && rays::alike(game, kc / 2) { kc - 1 } else { kc }).collect();
        LazyRays {
            game: Arc::clone(game),
            offsets: offsets.to_vec(),
            vectors,
            max_len: (0..geo.dims()).map(|a| geo.size(a)).max().unwrap_or(1) as u32,
            ncells,
            nwords: ncells.div_ceil(64),
            canon,
            origins: (0..nkinds * 2 * ncells).map(|_| OnceLock::new()).collect(),
            displacements: displacements.and_then(keyed),
        }
    }

    /// May a capture of piece `kc` on `from` land on `cell`, whatever
    /// stands between? The displacement is asked first; the piece's rays
    /// in this frame are built only where it allows the capture.
    #[inline]
    pub fn may_capture(&self, kc: usize, from: Cell, cell: Cell) -> bool {
        if let Some((table, keys)) = &self.displacements {
            if let (Some(&f), Some(&c)) = (keys.get(from as usize), keys.get(cell as usize)) {
                if !table.may(kc, f, c) {
                    return false;
                }
            }
        }
        self.reach(kc, from).get(cell as usize / 64).is_some_and(|w| w >> (cell % 64) & 1 != 0)
    }

    /// The rays of piece `kc` (`kind * 2 + colour`) on `from`, built now
    /// if they were not.
    #[inline]
    fn origin(&self, kc: usize, from: Cell) -> &Origin {
        let kc = self.canon[kc];
        self.origins[kc * self.ncells + from as usize].get_or_init(|| Box::new(self.build(kc, from)))
    }

    /// Builds the rays of piece `kc` on `from`.
    fn build(&self, kc: usize, from: Cell) -> Origin {
        let game = &*self.game;
        let offsets = &self.offsets;
        let step = |c: Cell, v: &[i32]| crate::engine::frame::step(game, offsets, c, v);
        let vectors = &self.vectors;
        let mut walker = Walker { game, vectors, max_len: self.max_len, offset: |c: Cell, vi: usize| step(c, &vectors.list[vi]), step };
        let (mut rays, mut cells) = (Vec::new(), Vec::new());
        if game.geometry.on_board[from as usize] {
            walker.origin(kc / 2, kc % 2, from, &mut rays, &mut cells);
        }
        let (mut reach, mut moves) = (vec![0u64; self.nwords], vec![0u64; self.nwords]);
        let mut seen = vec![(u32::MAX, 0u8); self.ncells];
        let repeats = rays::reach_and_repeats(&rays, &cells, &mut reach, &mut moves, &mut seen, 0, false);
        Origin { rays, cells, reach, moves, repeats }
    }

    /// [`super::Tables::rays_of`] in this frame (out of line: the resting
    /// board's lookup, beside it, stays small enough to inline).
    #[inline(never)]
    pub fn rays_of(&self, kc: usize, from: Cell) -> PieceRays<'_> {
        let o = self.origin(kc, from);
        PieceRays { rays: &o.rays, cells: &o.cells }
    }

    /// The words of the cells a capture of piece `kc` on `from` may land on.
    #[inline(never)]
    pub fn reach(&self, kc: usize, from: Cell) -> &[u64] {
        &self.origin(kc, from).reach
    }

    /// The words of the cells a move of piece `kc` on `from` may land on.
    #[inline(never)]
    pub fn move_reach(&self, kc: usize, from: Cell) -> &[u64] {
        &self.origin(kc, from).moves
    }

    /// May two parts of piece `kc` on `from` reach one cell alike?
    #[inline(never)]
    pub fn repeats(&self, kc: usize, from: Cell) -> bool {
        self.origin(kc, from).repeats
    }
}
