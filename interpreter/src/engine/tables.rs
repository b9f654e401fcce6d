//! Execution tables compiled from a [`Game`]: for every piece kind, player and
//! cell, the rays its movement parts walk; the reverse rays the attack test
//! walks; promotion and drop zones as per-cell flags. Built once per game so
//! that move generation does no geometry at run time.

use crate::model::geometry::{Cell, Geometry, MAX_CELLS};
use crate::engine::position::{NO_CELL, NO_KIND, WORDS};
use crate::model::{Color, Game, KindId, Part, StepKind};
use std::collections::BTreeMap;
use std::sync::Arc;

mod cellset;
mod displacement;
mod lazy;
mod rays;
mod reach;
pub use cellset::CellSet;
pub use reach::ReachLookup;

/// A ray may end on an empty cell.
pub const QUIET: u8 = 1;
/// A ray may end by capturing.
pub const CAPTURE: u8 = 2;
/// The ray is a hop: it needs exactly one screen before landing.
pub const HOP: u8 = 4;
/// The ray must be walked to its end, over empty cells.
pub const EXACT: u8 = 8;
/// Cells passed over become en-passant targets.
pub const SETS_EP: u8 = 16;
/// May capture on an en-passant target.
pub const TAKES_EP: u8 = 32;
/// The ray's cells are independent leap targets, not a path.
pub const SCATTER: u8 = 64;

/// A run of cells a part walks from one cell, in order.
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    /// Start in [`Tables::cells`].
    pub start: u32,
    /// Number of cells.
    pub len: u16,
    /// `QUIET | CAPTURE | …`.
    pub flags: u8,
    /// For a hop, the most landing steps beyond the screen.
    pub hop_limit: u16,
    /// When the part applies (`if …`): [`WHEN_UNMOVED`], [`WHEN_UNCHECKED`]; 0: always.
    pub when: u8,
    /// A hop's screen may not be of this kind (`not over`): 1 + the kind; 0: any.
    pub screen_not: u8,
}

/// [`Ray::when`]: only while the piece keeps its first-move right (`if unmoved`).
pub const WHEN_UNMOVED: u8 = 1;
/// [`Ray::when`]: only while its owner is not in check (`if not in check`).
pub const WHEN_UNCHECKED: u8 = 2;

/// The moves of one piece on one cell as bitsets (boards of at most 128
/// cells, in a [`CellSet`] of their width): all leaps merged into two
/// masks, then the rides as table lookups ([`reach`]), and what a landing
/// there counts for.
#[derive(Clone, Copy, Debug, Default)]
pub struct SmallMoves<S = u64> {
    /// Cells a leap reaches that may be entered when empty.
    pub quiet_leaps: S,
    /// Cells a leap reaches that may be entered by capturing.
    pub capture_leaps: S,
    /// The cells where a move from here promotes (one rule covers them all).
    pub promo_cells: S,
    /// Range of this piece's ride lookups in [`BitTables::lookups`].
    pub rides: (u32, u32),
    /// A move onto a promotion cell counts for this many moves more than
    /// one (the rule's choices, less one).
    pub promo_extra: u8,
    /// Count with the walker instead: some part is a hop or applies only
    /// sometimes, two parts may reach one cell alike, or several promotion
    /// rules apply.
    pub general: bool,
    /// The moves from here can be written out from the bitsets
    /// ([`crate::engine::movegen`]'s listing of plain moves): the tables
    /// hold its parts (not `general`), at most one of them is an exact ride
    /// (`exact_cell`), no other sets en passant, no ride takes it (a leap
    /// that takes it is walked only while a target stands), and a
    /// promotion, if any, lands on `promo_cells` (such moves are walked).
    /// Every landing but `exact_cell` is a plain move
    /// ([`crate::engine::position::Move::normal`]).
    pub plain: bool,
    /// The landing of the one exact ride from here (empty where none).
    pub exact_cell: S,
    /// That ride's start in [`Tables::cells`] (the move's `aux`).
    pub exact_aux: u32,
    /// That ride sets en passant: a quiet move along it is an
    /// [`crate::engine::position::MoveKind::EnPassantSetter`].
    pub exact_sets_ep: bool,
}

/// The leaping attack directions of one player on a board of at most 128
/// cells, grouped by the kinds that make them ([`BitTables::leap_groups`]).
#[derive(Clone, Debug)]
pub struct LeapGroups<S = u64> {
    /// How many directions at the front of the player's `attack_dirs` the
    /// groups stand for (0 where the tables of this width are not built).
    pub leaps: usize,
    /// Per group: the kinds (a bitmask) and, per cell, the cells from which
    /// one of them attacks it.
    pub groups: Vec<(u64, Vec<S>)>,
}

impl<S> Default for LeapGroups<S> {
    fn default() -> Self {
        LeapGroups { leaps: 0, groups: Vec::new() }
    }
}

/// The bitset tables of one width ([`CellSet`]): `u64` on boards of at most
/// 64 cells ([`Tables::bits`]), `u128` on boards of 65 to 128
/// ([`Tables::wide_bits`]); empty where the board is of another size.
#[derive(Clone, Debug)]
pub struct BitTables<S> {
    /// Per `(kind * 2 + color) * ncells + cell`: the piece's moves as bitsets.
    pub moves: Vec<SmallMoves<S>>,
    /// The ride lookups [`SmallMoves::rides`] points into.
    pub lookups: Vec<ReachLookup<S>>,
    /// The tables of every ride lookup: the cells a group of rides reaches.
    pub reach: Vec<S>,
    /// Per `(kind * 2 + color) * ncells + cell`: the cells a part that
    /// takes en passant may capture on from there.
    pub ep_reach: Vec<S>,
    /// Per attacking player: the directions at the front of `attack_dirs`
    /// that reach one cell only (leaps), merged by the kinds that make them:
    /// one mask test per group instead of one per direction. The bitset
    /// attack tests start at `attack_dirs[leaps..]`.
    pub leap_groups: [LeapGroups<S>; 2],
}

impl<S> Default for BitTables<S> {
    fn default() -> Self {
        BitTables { moves: Vec::new(), lookups: Vec::new(), reach: Vec::new(), ep_reach: Vec::new(), leap_groups: Default::default() }
    }
}

/// One direction along which some pieces of one player attack, with the kinds
/// that reach each distance.
#[derive(Clone, Debug)]
pub struct AttackDir {
    /// `reach[d]`: bitmask of kinds that attack from distance `d + 1`.
    pub reach: Vec<u64>,
    /// The kinds that attack along the direction at some distance (the
    /// union of `reach`).
    pub kinds: u64,
    /// Some kind reaches beyond distance 1 (the direction can pin).
    pub slides: bool,
    /// On boards of at most 64 cells: per cell, the looking-back cells as a bitset.
    pub masks: Vec<u64>,
    /// On boards of 65 to 128 cells: per cell, the looking-back cells as a bitset.
    pub wide_masks: Vec<u128>,
    /// The looking-back cell indices increase along the ray.
    pub ascending: bool,
}

/// The most cells the move tables of a variant may hold: the cells of every
/// ray, summed over piece kinds, players, starting cells, parts and directions
/// (as bounded by [`part_cells_bound`]; LANGUAGE.md §9). Shipped variants
/// stay below 500,000 (the 448-cell `rules/4d-schach.rules`, whose queen and
/// king have 18 directions in three dimensions); tables this
/// large take at most about 250 MiB.
pub const MAX_TABLE_CELLS: u64 = 1 << 23;

/// An upper bound on the cells [`Tables::new`] stores for `part`, both players
/// together: per direction, the cells from which its first step stays on the
/// board (holes ignored) times the longest ray, doubled for a part that
/// captures (the attack tables look back along it), plus the attack table's
/// per-cell entries. Cheap: no cell is visited.
pub fn part_cells_bound(geo: &Geometry, part: &Part) -> u64 {
    let ncells = geo.cells() as u64;
    let max_len = (0..geo.dims()).map(|a| geo.size(a)).max().unwrap_or(1) as u64;
    let mut total: u64 = 0;
    for v in part.vectors.iter().flatten() {
        let mut starts: u64 = 1;
        let mut steps = max_len;
        for (a, &x) in v.iter().enumerate() {
            let n = geo.size(a) as u64;
            let x = u64::from(x.unsigned_abs());
            starts = starts.saturating_mul(n.saturating_sub(x));
            if let Some(along) = (n - 1).checked_div(x) {
                steps = steps.min(along);
            }
        }
        let steps = match part.kind {
            StepKind::Leap => 1,
            StepKind::Ride => steps.min(part.max.map_or(u64::MAX, u64::from)),
            StepKind::Hop => steps,
        };
        let mut cells = starts.saturating_mul(steps);
        if part.capture {
            cells = cells.saturating_mul(2).saturating_add(ncells);
        }
        total = total.saturating_add(cells);
    }
    total
}

/// Everything move generation looks up.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Number of cells.
    pub ncells: usize,
    /// Words of a cell bitset.
    pub nwords: usize,
    /// Per `(kind * 2 + color) * ncells + cell`: range in `rays` (the
    /// resting board's; read through [`Tables::rays_of`]).
    ray_index: Vec<(u32, u32)>,
    /// Per `kind * 2 + color` and cell, `nwords` words: the cells a capture
    /// by that piece from that cell may land on, whatever stands between
    /// (a superset for hops and exact leaps). The forward attack test skips
    /// the pieces whose reach misses the cell. The resting board's; read
    /// through [`Tables::reach_of`].
    capture_reach: Vec<u64>,
    /// Laid out as `capture_reach`: the cells any move by that piece from
    /// that cell may land on, whatever stands between (a superset, as
    /// `capture_reach`). Counts onto a few cells skip the pieces it keeps
    /// off them. Read through [`Tables::move_reach_of`].
    move_reach: Vec<u64>,
    /// The resting board's rays (a frame's are built as asked for).
    rays: Vec<Ray>,
    /// The cells of the resting board's rays.
    pub cells: Vec<Cell>,
    /// Per player, the attack directions.
    pub attack_dirs: [Vec<AttackDir>; 2],
    /// Per player, cell by cell: each attack direction's look-back ray
    /// from the cell (`(start, len)` in `look_back_cells`, in the order of
    /// `attack_dirs`; built direction by direction, then laid out cell by
    /// cell). One cell's rays and their cells lie together, so that
    /// testing one cell against every direction (a king's safety) reads
    /// a few runs of memory instead of a line per direction. Read through
    /// [`Tables::look_back_from`].
    look_back_rays: [Vec<(u32, u16)>; 2],
    /// The cells of `look_back_rays`, origin by origin.
    pub look_back_cells: Vec<Cell>,
    /// Attacks are all plain leaps and rides: the fast attack test and pin logic are exact.
    pub simple_attacks: bool,
    /// Per player: the look-back cells of its attack directions, on
    /// average over the board's cells (what one look-back attack test
    /// walks on an empty board).
    pub look_back: [u32; 2],
    /// A move can add a royal piece to the board (a promotion to a royal
    /// kind): the paths that test only the one royal piece on the board
    /// before the move do not apply.
    pub royal_promotion: bool,
    /// Target lists of the promotion rules (index = rule number).
    pub promo_targets: Vec<Vec<KindId>>,
    /// Per `(kind * 2 + color) * ncells + cell`: 0, or 1 + the number of the
    /// promotion rule that applies on arrival there (a later rule wins).
    pub promo_zone: Vec<u8>,
    /// Per `(kind * 2 + color) * ncells + cell`: 0, or 1 + the number of the
    /// last `on or from` rule whose zone holds the cell: every move from
    /// there promotes by it, unless a later rule applies on arrival.
    pub promo_from: Vec<u8>,
    /// Per `(kind * 2 + color) * ncells + cell`: a piece there must have
    /// promoted had it arrived by a move (its arrival rule offers no choice
    /// to stay), and it cannot be dropped there: no position holds it there.
    pub promo_forced: Vec<bool>,
    /// Per promotion rule: `capturing` (only a capture promotes by it).
    pub promo_capturing: Vec<bool>,
    /// Per kind: the promoted form it may also be dropped as (`also
    /// promoted`), or [`NO_KIND`].
    pub drop_face: Vec<KindId>,
    /// Per `kind * 2 + color`: the kind promotes somewhere.
    pub promotes: Vec<bool>,
    /// The board has at most 64 cells: bitset shortcuts apply.
    pub small: bool,
    /// The board has 65 to 128 cells (and rests) and leaves are counted in
    /// bulk (not [`Tables::general_counting`]): with `u128` bitsets
    /// ([`Tables::wide_bits`]).
    pub wide: bool,
    /// Per `kind * 2 + color`: the cells where it promotes, as a bitset (small boards).
    pub promo_mask: Vec<u64>,
    /// Per `kind * 2 + color`: the number of promotion choices when one rule covers
    /// every promotion cell (0: it does not promote; `u8::MAX`: several rules).
    pub promo_choices: Vec<u8>,
    /// The bitset tables of boards of at most 64 cells (else empty).
    pub bits: BitTables<u64>,
    /// The bitset tables of boards of 65 to 128 cells (else empty).
    pub wide_bits: BitTables<u128>,
    /// Per `color * ncells + cell` (small boards): the cells from which some
    /// piece of that color may capture en passant on `cell` (any kind; see
    /// [`BitTables::ep_reach`] for which).
    pub ep_takers: Vec<u64>,
    /// Per `kind * 2 + color`: some part captures en passant.
    pub takes_ep: Vec<bool>,
    /// Per `kind * 2 + color`: two parts can reach one cell with the same
    /// kind of move, so generated moves must be deduplicated (the resting
    /// board's; read through [`Tables::repeats`]).
    may_repeat: Vec<bool>,
    /// Per `(kind * 2 + color) * ncells + cell`: may be dropped here.
    pub drop_zone: Vec<bool>,
    /// Per `kind * 2 + color`: [`Tables::drop_zone`]'s cells as a set.
    pub drop_zone_cells: Vec<[u64; WORDS]>,
    /// Per colour (0 or 1, [`crate::model::geometry::Geometry::colour`]):
    /// its cells as a set.
    pub colour_cells: [[u64; WORDS]; 2],
    /// Per kind: `at most N per AXIS` on its drops, as N and the groups of
    /// cells that share a label of the axis (per file: the files).
    pub drop_lines: Vec<Option<(u32, Vec<Vec<Cell>>)>>,
    /// Some kind's drops may not checkmate (`no mate`): legality needs the
    /// opponent's replies, so counting takes the general path.
    pub drop_no_mate: bool,
    /// Some kind's drops are compulsory (`compulsory`): counting takes the general path.
    pub drop_compulsory: bool,
    /// Some kind may be gated (`gate` in `hand`): pieces keep first-move
    /// rights (`Position::unmoved`) and moves from those cells may gate.
    pub gating: bool,
    /// Pieces keep first-move rights (`Position::unmoved`, the FEN castling
    /// field's file letters): gating or a part `if unmoved` needs them.
    pub first_move_rights: bool,
    /// Some kind may pass (`pass`): counting takes the general path.
    pub passing: bool,
    /// The king-step vectors of the board (every vector of -1, 0, 1 but
    /// zero), where a kind converts or a drop must be next to a piece.
    pub king_steps: Vec<Vec<i32>>,
    /// Per cell, the cells one king step away (built where `king_steps` is).
    pub neighbours: Vec<Vec<Cell>>,
    /// Some kind converts enemy pieces where it lands (`converts …`).
    pub converting: bool,
    /// `Position::make` keeps something after the plain move: who passed
    /// (`pass`), rights rules take, checks given (one test per move otherwise).
    pub after_make: bool,
    /// Leaves are counted by listing the legal moves (no bulk counting):
    /// some attack is not a plain leap or ride, or a mechanism beyond the
    /// plain moves is in play (promotions to a royal kind, drop limits that
    /// judge the whole position, layers after the legal moves, spread
    /// pieces, tunnels, observation, explosions; `rule` items are
    /// [`Tables::rules_counting`]'s).
    pub general_counting: bool,
    /// The game has `rule` items: a leaf is counted in bulk only where no
    /// rule has ended the game and the `offer` rules that apply take moves
    /// away that are counted apart ([`crate::engine::cond::forbidden_count`]),
    /// else by listing its moves.
    pub rules_counting: bool,
    /// A player puts walls after its moves (`then … wall …`): every move
    /// carries its wall, and counting takes the general path.
    pub walling: bool,
    /// The game has hands (`hand`): a position's pieces in hand may be
    /// other than none ([`crate::engine::position::Position::copy_from`]
    /// copies them only then).
    pub hands: bool,
    /// Some `ply-end` rule takes first-move rights (`… loses its first-move
    /// right`): `Position::make` applies it after every move.
    pub loses_rights: bool,
    /// Bitmask of royal kinds.
    pub royal_mask: u64,
    /// Per cell: the range of [`Tables::blast_cells`] an explosion there
    /// reaches, the cell itself left out (`explosion`; empty without one).
    pub blast_index: Vec<(u32, u32)>,
    /// The cells within an explosion's reach of each cell (see `blast_index`).
    pub blast_cells: Vec<Cell>,
    /// Bitmask of the kinds an explosion spares around its target.
    pub blast_spared: u64,
    /// Bitmask of the kinds no explosion removes.
    pub blast_immune: u64,
    /// Does a rule count checks (`PLAYER gave check N times`)? Then a
    /// move's make counts the check it gives ([`Position::checks`]).
    ///
    /// [`Position::checks`]: crate::engine::position::Position::checks
    pub counts_checks: bool,
    /// Random keys for position hashing: per piece code and cell (the same
    /// in every frame, and shared by the tables of a variant's frames).
    pub zobrist: std::sync::Arc<Vec<u64>>,
    /// The level offsets these tables were built for (`slide`); empty for the
    /// resting geometry. Frame tables always have `simple_attacks` and
    /// `small` off: out of rest a step and its reverse can differ and cell
    /// indices need not change monotonically along a ray, so the attack test
    /// generates the attacker's captures forward.
    pub frame: Vec<i8>,
    /// One step along each axis, forward and back, from every cell in these
    /// tables' frame ([`Tables::unit_step`]): the `line` condition walks
    /// runs of pieces with it instead of working each step out across the
    /// levels.
    unit_steps: Vec<Cell>,
    /// Per axis, where every unit step forward along it adds one number to
    /// the cell ([`Tables::long_run`]): that number and the cells whose
    /// step forward is on the board. `None` for an axis of another shape
    /// (one that wraps, the stacking axis of a frame out of rest).
    grid_steps: Vec<Option<(u32, [u64; crate::engine::position::WORDS])>>,
    /// A frame's rays, built piece by piece as they are asked for
    /// ([`lazy`]); `None` on the resting board, whose rays are all in
    /// [`Tables::rays`]. Read through [`Tables::rays_of`],
    /// [`Tables::may_capture_on`], [`Tables::reach_of`] and
    /// [`Tables::repeats`].
    lazy: Option<Box<lazy::LazyRays>>,
    /// Where each piece's captures may reach by displacement alone, in any
    /// frame (`slide`: the resting tables build it, frames share it).
    displacements: Option<std::sync::Arc<displacement::Displacements>>,
    /// The game's movement vectors, numbered ([`rays::Vectors`]: they do
    /// not depend on the frame, so frames share the resting tables').
    vectors: std::sync::Arc<rays::Vectors>,
    /// A number no other tables built in this process have (a clone keeps
    /// it: its contents are the same): what a cache of answers read from
    /// one set of tables keys them by ([`Tables::id`]).
    id: u64,
}

impl Tables {
    /// 0, or 1 + the promotion rule a move of `kc` (`kind * 2 + color`)
    /// from `from` to `to` promotes by: the later of the rule applying on
    /// arrival and the `on or from` rule of the start cell.
    /// `captures`: whether the move captures (a `capturing` rule needs it).
    #[inline]
    pub fn promotion_rule(&self, kc: usize, from: Cell, to: Cell, captures: bool) -> u8 {
        if !self.promotes[kc] {
            return 0;
        }
        let base = kc * self.ncells;
        let on = self.promo_zone[base + to as usize];
        let rule = if from == NO_CELL { on } else { on.max(self.promo_from[base + from as usize]) };
        if rule != 0 && self.promo_capturing[rule as usize - 1] && !captures {
            0
        } else {
            rule
        }
    }

    /// Compiles the tables of `game` (the resting geometry).
    pub fn new(game: &Game) -> Tables {
        Tables::build(game, &[], None, None)
    }

    /// Compiles the tables of `game` with its sliding levels at `offsets`
    /// (one per level; see [`crate::engine::frame::step`]), sharing the
    /// Zobrist keys of `base`, the resting tables (a position's key does
    /// not depend on its frame's tables). The rays of a piece on a cell
    /// are built when first asked for (`tables/lazy.rs`): a search meets hundreds
    /// of frames and asks each for the rays of the pieces on the board only.
    pub fn for_frame(game: &Arc<Game>, offsets: &[i8], base: &Tables) -> Tables {
        Tables::build(game, offsets, Some(base), Some(game))
    }

    /// The tables of `game` with its levels at `offsets`; `base`, the
    /// resting tables where these are a frame's: their Zobrist keys are
    /// shared, and their sizes reserve the storage of rays built at once;
    /// `shared`, the game again, which a frame's tables keep to build
    /// their rays as they are asked for (without it, or at rest, every ray
    /// is built here).
    fn build(game: &Game, offsets: &[i8], base: Option<&Tables>, shared: Option<&Arc<Game>>) -> Tables {
        let zobrist = base.map(|b| std::sync::Arc::clone(&b.zobrist));
        let framed = offsets.iter().any(|&o| o != 0);
        let step = |from: Cell, v: &[i32]| -> Option<Cell> {
            if framed {
                crate::engine::frame::step(game, offsets, from, v)
            } else {
                game.geometry.offset(from, v)
            }
        };
        let geo = &game.geometry;
        let ncells = geo.cells();
        debug_assert!(ncells <= MAX_CELLS);
        let nkinds = game.kinds.len();
        let nwords = ncells.div_ceil(64);
        let max_len = (0..geo.dims()).map(|a| geo.size(a)).max().unwrap_or(1) as u32;
        let mut ray_index = Vec::new();
        let mut rays = Vec::new();
        let mut cells: Vec<Cell> = Vec::new();
        let mut capture_reach = Vec::new();
        let mut move_reach = Vec::new();
        let mut may_repeat = Vec::new();
        // A frame's rays are built piece by piece as they are asked for
        // ([`lazy`]); the resting board's all at once, here.
        let vectors = base.map_or_else(|| std::sync::Arc::new(rays::Vectors::new(game)), |b| std::sync::Arc::clone(&b.vectors));
        let lazy = match shared.filter(|_| framed) {
            Some(game) => Some(Box::new(lazy::LazyRays::new(game, offsets, base.and_then(|b| b.displacements.as_ref()), std::sync::Arc::clone(&vectors)))),
            None => {
                let nvectors = vectors.list.len();
                // Each step is worked out once per (vector, cell) and looked up after.
                const UNKNOWN: u32 = u32::MAX;
                const OFF: u32 = u32::MAX - 1;
                let mut memo = vec![UNKNOWN; nvectors * ncells];
                let list = &vectors.list;
                let offset = |from: Cell, vi: usize| -> Option<Cell> {
                    let slot = &mut memo[vi * ncells + from as usize];
                    if *slot == UNKNOWN {
                        *slot = step(from, &list[vi]).map_or(OFF, u32::from);
                    }
                    (*slot != OFF).then_some(*slot as Cell)
                };
                let mut walker = rays::Walker { game, vectors: &vectors, max_len, offset, step };
                ray_index = vec![(0u32, 0u32); nkinds * 2 * ncells];
                rays = Vec::with_capacity(base.map_or(0, |b| b.rays.len() + b.rays.len() / 8));
                cells = Vec::with_capacity(base.map_or(0, |b| b.cells.len() + b.cells.len() / 8));
                // Filled as each origin's rays are built, while their cells
                // are at hand: per piece and cell, every cell a capture of it
                // may land on (a superset for hops and exact leaps, whose rays
                // hold cells they pass); and whether two parts of a kind reach
                // one cell alike from some origin (`may_repeat`).
                capture_reach = vec![0u64; ray_index.len() * nwords];
                move_reach = vec![0u64; ray_index.len() * nwords];
                may_repeat = vec![false; nkinds * 2];
                let mut seen: Vec<(u32, u8)> = vec![(u32::MAX, 0); ncells];
                for k in 0..nkinds {
                    let alike = rays::alike(game, k);
                    for color in 0..2usize {
                        if color == 1 && alike {
                            // The first player's rays, shared.
                            let (first, second) = ((k * 2) * ncells, (k * 2 + 1) * ncells);
                            ray_index.copy_within(first..first + ncells, second);
                            capture_reach.copy_within(first * nwords..(first + ncells) * nwords, second * nwords);
                            move_reach.copy_within(first * nwords..(first + ncells) * nwords, second * nwords);
                            may_repeat[k * 2 + 1] = may_repeat[k * 2];
                            continue;
                        }
                        let kc = k * 2 + color;
                        for from in 0..ncells as Cell {
                            let begin = rays.len();
                            if geo.on_board[from as usize] {
                                walker.origin(k, color, from, &mut rays, &mut cells);
                            }
                            let i = kc * ncells + from as usize;
                            ray_index[i] = (begin as u32, rays.len() as u32);
                            let reach = &mut capture_reach[i * nwords..(i + 1) * nwords];
                            let moves = &mut move_reach[i * nwords..(i + 1) * nwords];
                            may_repeat[kc] = rays::reach_and_repeats(&rays[begin..], &cells, reach, moves, &mut seen, i as u32, may_repeat[kc]);
                        }
                    }
                }
                None
            }
        };

        // Attack directions: plain leaps and rides that may capture.
        let mut simple_attacks = !framed;
        let mut attack_dirs: [Vec<AttackDir>; 2] = [Vec::new(), Vec::new()];
        // Per player, per direction of `attack_dirs`, per cell: `(start,
        // len)` in `back_cells` of the cells looking back along the
        // direction (where an attacker would stand); kept cell by cell in
        // the tables (`look_back_rays`).
        let mut back_rays: [Vec<Vec<(u32, u16)>>; 2] = [Vec::new(), Vec::new()];
        let mut back_cells: Vec<Cell> = Vec::new();
        // Out of rest the look-back rays would be wrong (no symmetry): none.
        for ((color, dirs_out), rays_out) in attack_dirs.iter_mut().enumerate().zip(back_rays.iter_mut()).filter(|_| !framed) {
            let mut dirs: BTreeMap<Vec<i32>, Vec<u64>> = BTreeMap::new();
            for (k, kind) in game.kinds.iter().enumerate() {
                for part in &kind.parts {
                    if !part.capture {
                        continue;
                    }
                    if part.kind == StepKind::Hop || part.exact || part.from.is_some() || part.lame || part.within.is_some() {
                        simple_attacks = false;
                        continue;
                    }
                    let reach = match part.kind {
                        StepKind::Leap => 1,
                        _ => part.max.unwrap_or(max_len).min(max_len),
                    } as usize;
                    for v in &part.vectors[color] {
                        let entry = dirs.entry(v.clone()).or_insert_with(|| vec![0; max_len as usize]);
                        for mask in entry.iter_mut().take(reach) {
                            *mask |= 1u64 << k;
                        }
                    }
                }
            }
            let mut built = Vec::new();
            for (v, mut reach) in dirs {
                while reach.last() == Some(&0) {
                    reach.pop();
                }
                let back: Vec<i32> = v.iter().map(|x| -x).collect();
                let mut dir_rays = vec![(0u32, 0u16); ncells];
                for (cell, slot) in dir_rays.iter_mut().enumerate() {
                    let start = back_cells.len() as u32;
                    let mut at = cell as Cell;
                    let mut n = 0;
                    if geo.on_board[cell] {
                        while n < reach.len() {
                            match geo.offset(at, &back) {
                                Some(next) => {
                                    back_cells.push(next);
                                    at = next;
                                    n += 1;
                                }
                                None => break,
                            }
                        }
                    }
                    *slot = (start, n as u16);
                }
                let slides = reach.len() > 1;
                let kinds = reach.iter().fold(0, |a, r| a | r);
                built.push((AttackDir { reach, kinds, slides, masks: Vec::new(), wide_masks: Vec::new(), ascending: true }, dir_rays));
            }
            // Longer directions last: short leaps are checked first (cheap, common).
            built.sort_by_key(|(d, _)| d.reach.len());
            (*dirs_out, *rays_out) = built.into_iter().unzip();
        }

        // The look-back rays cell by cell (`Tables::look_back_from`).
        let mut look_back_rays: [Vec<(u32, u16)>; 2] = [Vec::new(), Vec::new()];
        let mut look_back_cells = Vec::with_capacity(back_cells.len());
        for (rays, out) in back_rays.iter().zip(look_back_rays.iter_mut()) {
            *out = Vec::with_capacity(ncells * rays.len());
            for cell in 0..ncells {
                for dir_rays in rays {
                    let (start, len) = dir_rays[cell];
                    out.push((look_back_cells.len() as u32, len));
                    look_back_cells.extend_from_slice(&back_cells[start as usize..start as usize + len as usize]);
                }
            }
        }
        let on_board = geo.on_board.iter().filter(|&&on| on).count().max(1);
        let look_back = back_rays.each_ref().map(|rays| (rays.iter().flatten().map(|&(_, n)| usize::from(n)).sum::<usize>() / on_board) as u32);
        let promo_targets: Vec<Vec<KindId>> = game.promotions.iter().map(|r| r.targets.clone()).collect();
        let mut promo_zone = vec![0u8; nkinds * 2 * ncells];
        let mut promo_from = vec![0u8; nkinds * 2 * ncells];
        let mut promotes = vec![false; nkinds * 2];
        let mut from_rules = vec![false; nkinds * 2];
        for (i, rule) in game.promotions.iter().enumerate().take(254) {
            for color in 0..2 {
                let kc = rule.kind as usize * 2 + color;
                promotes[kc] = true;
                from_rules[kc] |= rule.from_too;
                for &c in &rule.zone[color] {
                    promo_zone[kc * ncells + c as usize] = i as u8 + 1;
                    if rule.from_too {
                        promo_from[kc * ncells + c as usize] = i as u8 + 1;
                    }
                }
            }
        }
        let promo_capturing: Vec<bool> = game.promotions.iter().map(|r| r.capturing).collect();
        let drop_face: Vec<KindId> = (0..nkinds)
            .map(|k| {
                let faces = game.hand.as_ref().is_some_and(|h| h.drop_limits[k].also_promoted);
                game.promoted_form(k as KindId).filter(|_| faces).unwrap_or(NO_KIND)
            })
            .collect();
        // A kind may be dropped on a cell: as itself, or as the promoted form of a kind dropped `also promoted`.
        let droppable = |kind: usize, color: usize, c: Cell| {
            let Some(h) = &game.hand else { return false };
            let on = |k: usize| h.drop_cells[k].as_ref().is_some_and(|z| z[color].contains(&c));
            on(kind) || (0..nkinds).any(|b| drop_face[b] as usize == kind && on(b))
        };
        // The same in every frame: a frame's tables copy the resting ones'.
        let promo_forced: Vec<bool> = match base {
            Some(b) if b.promo_forced.len() == nkinds * 2 * ncells => b.promo_forced.clone(),
            _ => (0..nkinds * 2 * ncells)
            .map(|i| {
                let (kc, c) = (i / ncells, i % ncells);
                let r = promo_zone[i];
                // A rule that lists the kind itself, or promotes only captures, lets it arrive unpromoted.
                let stays = || promo_targets[r as usize - 1].contains(&((kc / 2) as KindId)) || game.promotions[r as usize - 1].capturing;
                r != 0 && !stays() && !droppable(kc / 2, kc % 2, c as Cell)
            })
            .collect(),
        };
        let drop_no_mate = game.hand.as_ref().is_some_and(|h| h.drop_limits.iter().any(|l| l.no_mate));
        let passing = game.kinds.iter().any(|k| k.passes);
        let walling = game.players.iter().any(|p| p.wall.is_some());
        let royal_promotion = game.promotions.iter().flat_map(|p| &p.targets).any(|&k| game.kinds.get(k as usize).is_some_and(|k| k.royal));
        let drop_compulsory = game.hand.as_ref().is_some_and(|h| h.drop_limits.iter().any(|l| l.compulsory));
        let gating = game.hand.as_ref().is_some_and(|h| h.gate_cells.iter().any(|c| c.is_some()));
        let general_counting = !simple_attacks
            || royal_promotion
            || drop_no_mate
            || drop_compulsory
            || gating
            || passing
            || walling
            || !game.promotion_moves.is_empty()
            || game.spread.is_some()
            || game.tunnel.is_some()
            || game.observe.is_some()
            || game.explosion.is_some();
        let small = ncells <= 64 && !framed;
        // The u128 tables serve only the bulk count (and castling's bitset
        // test): a game counted by listing its moves is not worth their
        // building (on a 10x10 board about 80 M instructions).
        let wide = (65..=128).contains(&ncells) && !framed && !general_counting;
        let mut promo_mask = vec![0u64; nkinds * 2];
        let mut promo_choices = vec![0u8; nkinds * 2];
        if small || wide {
            for (dirs, rays) in attack_dirs.iter_mut().zip(&back_rays) {
                for (dir, dir_rays) in dirs.iter_mut().zip(rays) {
                    let ray_cells = |&(s, l): &(u32, u16)| &back_cells[s as usize..s as usize + l as usize];
                    if small {
                        dir.masks = dir_rays.iter().map(|r| ray_cells(r).iter().fold(0u64, |m, &c| m | 1 << c)).collect();
                    } else {
                        dir.wide_masks = dir_rays.iter().map(|r| ray_cells(r).iter().fold(0u128, |m, &c| m | 1 << c)).collect();
                    }
                    dir.ascending = dir_rays
                        .iter()
                        .find(|&&(_, l)| l >= 2)
                        .is_none_or(|&(s, _)| back_cells[s as usize + 1] > back_cells[s as usize]);
                }
            }
            for (kc, bits) in promo_mask.iter_mut().enumerate() {
                let zone = &promo_zone[kc * ncells..(kc + 1) * ncells];
                let mut rule = 0u8;
                if from_rules[kc] || game.promotions.iter().any(|r| r.capturing && r.kind as usize == kc / 2) {
                    // Moves from the zone promote too, or only captures do: the general path counts them.
                    promo_choices[kc] = u8::MAX;
                    continue;
                }
                for (c, &r) in zone.iter().enumerate() {
                    if r != 0 {
                        if small {
                            *bits |= 1 << c;
                        }
                        promo_choices[kc] = if rule == 0 || rule == r {
                            promo_targets[r as usize - 1].len().min(254) as u8
                        } else {
                            u8::MAX
                        };
                        rule = r;
                    }
                }
            }
        }
        let takes_ep: Vec<bool> = (0..nkinds * 2)
            .map(|kc| game.kinds[kc / 2].parts.iter().any(|p| p.takes_en_passant))
            .collect();
        let shape = BitShape { ncells, ray_index: &ray_index, rays: &rays, cells: &cells, attack_dirs: &attack_dirs, promo_zone: &promo_zone, promo_choices: &promo_choices, may_repeat: &may_repeat };
        let bits: BitTables<u64> = if small { shape.bit_tables() } else { BitTables::default() };
        let wide_bits: BitTables<u128> = if wide { shape.bit_tables() } else { BitTables::default() };
        let mut ep_takers = vec![0u64; if small { 2 * ncells } else { 0 }];
        for (i, &reach) in bits.ep_reach.iter().enumerate() {
            let (color, from) = ((i / ncells) % 2, i % ncells);
            let mut targets = reach;
            while targets != 0 {
                let e = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                ep_takers[color * ncells + e] |= 1 << from;
            }
        }
        // The drop zones and the cells' colours belong to the cells, not
        // to where the levels stand: a frame's tables copy the resting ones'.
        let (drop_zone, drop_zone_cells, colour_cells) = match base.filter(|b| b.drop_zone.len() == nkinds * 2 * ncells) {
            Some(b) => (b.drop_zone.clone(), b.drop_zone_cells.clone(), b.colour_cells),
            None => drop_zones_and_colours(game),
        };
        let drop_lines: Vec<Option<(u32, Vec<Vec<Cell>>)>> = (0..nkinds)
            .map(|k| {
                let (axis, n) = game.hand.as_ref()?.drop_limits[k].per_line?;
                // `per file`: the cells that share a file label (zone `file a`, …).
                let mut lines: BTreeMap<usize, Vec<Cell>> = BTreeMap::new();
                for c in game.geometry.board_cells() {
                    lines.entry(game.geometry.coords(c)[axis]).or_default().push(c);
                }
                Some((n, lines.into_values().collect()))
            })
            .collect();
        // Conversions and drops next to a piece need the king steps.
        let adjacency = game.kinds.iter().any(|k| k.converts_around.is_some() || k.converts_enclosed)
            || game.hand.as_ref().is_some_and(|h| h.drop_limits.iter().any(|l| l.next_to_own || l.enclosing));
        let king_steps: Vec<Vec<i32>> = if adjacency { king_step_vectors(geo.dims()) } else { Vec::new() };
        let neighbours: Vec<Vec<Cell>> = if adjacency {
            (0..ncells as Cell).map(|c| if geo.on_board[c as usize] { king_steps.iter().filter_map(|v| step(c, v)).collect() } else { Vec::new() }).collect()
        } else {
            Vec::new()
        };
        let loses_rights = game.rules.iter().any(|r| matches!(r.effect, crate::model::cond::Effect::LoseRight(_)));
        let counts_checks = game.check_count_limit().is_some();
        let first_move_rights = gating || game.kinds.iter().flat_map(|k| &k.parts).any(|p| p.unmoved);
        let royal_mask = game
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.royal)
            .fold(0u64, |m, (i, _)| m | 1 << i);

        let (blast_index, blast_cells) = blast_reach(game);
        let mask = |kinds: &[KindId]| kinds.iter().fold(0u64, |m, &k| m | 1 << k);
        let (blast_spared, blast_immune) = game.explosion.as_ref().map_or((0, 0), |x| (mask(&x.spares), mask(&x.immune)));

        // SplitMix64 keys: deterministic, independent of the platform.
        let zobrist = zobrist.unwrap_or_else(|| {
            let mut state = 0x9E37_79B9_7F4A_7C15u64;
            let mut next = move || {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            };
            std::sync::Arc::new((0..256 * ncells).map(|_| next()).collect())
        });

        // A frame's steps within a level are the resting ones (copied);
        // only those along the stacking axis are worked out again.
        let stack = game.slide.as_ref().map(|s| s.stack_axis);
        let mut unit_steps: Vec<Cell> = Vec::with_capacity(geo.dims() * 2 * ncells);
        for k in 0..geo.dims() * 2 {
            let stacking = framed && stack == Some(k / 2);
            if let Some(steps) = stacking.then(|| crate::engine::frame::stack_steps(game, offsets, k % 2 == 0)).flatten() {
                unit_steps.extend(steps);
                continue;
            }
            match base.and_then(|b| b.unit_steps.get(k * ncells..(k + 1) * ncells)).filter(|_| stack != Some(k / 2)) {
                Some(rest) => unit_steps.extend_from_slice(rest),
                None => {
                    let mut v = vec![0i32; geo.dims()];
                    v[k / 2] = if k % 2 == 0 { 1 } else { -1 };
                    unit_steps.extend((0..ncells).map(|c| step(c as Cell, &v).unwrap_or(NO_CELL)));
                }
            }
        }
        // Numbers handed out in order: tables dropped and built again get another.
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Tables {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ncells,
            nwords,
            ray_index,
            capture_reach,
            move_reach,
            rays,
            cells,
            attack_dirs,
            look_back_rays,
            look_back_cells,
            simple_attacks,
            look_back,
            royal_promotion,
            promo_targets,
            promo_zone,
            promo_from,
            promo_forced,
            promo_capturing,
            drop_face,
            promotes,
            small,
            wide,
            promo_mask,
            promo_choices,
            bits,
            wide_bits,
            ep_takers,
            takes_ep,
            may_repeat,
            drop_zone,
            drop_zone_cells,
            colour_cells,
            drop_lines,
            drop_no_mate,
            drop_compulsory,
            gating,
            first_move_rights,
            passing,
            king_steps,
            neighbours,
            walling,
            hands: game.hand.is_some(),
            after_make: passing || loses_rights || counts_checks,
            general_counting,
            rules_counting: !game.rules.is_empty(),
            converting: game.kinds.iter().any(|k| k.converts_around.is_some() || k.converts_enclosed),
            loses_rights,
            royal_mask,
            blast_index,
            blast_cells,
            blast_spared,
            blast_immune,
            counts_checks,
            zobrist,
            displacements: match base {
                Some(b) => b.displacements.clone(),
                None => displacement::Displacements::new(game).map(std::sync::Arc::new),
            },
            lazy,
            vectors,
            frame: if framed { offsets.to_vec() } else { Vec::new() },
            grid_steps: (0..geo.dims()).map(|a| grid_step(&unit_steps[2 * a * ncells..(2 * a + 1) * ncells])).collect(),
            unit_steps,
        }
    }

    /// Do `least` or more of the cells of `set` follow one another along
    /// `axis` (unit steps forward in these tables' frame)? Worked out on
    /// the bitset, `least` shifts of it, where each step along the axis
    /// adds the same number to a cell; `None` on an axis where it does not.
    pub fn long_run(&self, set: &[u64; crate::engine::position::WORDS], axis: usize, least: u32) -> Option<bool> {
        use crate::engine::position::WORDS;
        let (stride, steps) = self.grid_steps.get(axis)?.as_ref()?;
        let (words, bits) = ((*stride / 64) as usize, stride % 64);
        // `run`: the cells that begin `k` of the set's cells in a row.
        let mut run = *set;
        for _ in 1..least {
            if run.iter().all(|&w| w == 0) {
                return Some(false);
            }
            // The cells whose step forward begins `k` in a row.
            let ahead: [u64; WORDS] = std::array::from_fn(|i| {
                let at = |j: usize| run.get(j).copied().unwrap_or(0);
                let (lo, hi) = (at(i + words), at(i + words + 1));
                if bits == 0 { lo } else { lo >> bits | hi << (64 - bits) }
            });
            run = std::array::from_fn(|i| set[i] & steps[i] & ahead[i]);
        }
        Some(run.iter().any(|&w| w != 0))
    }

    /// What tells these tables from every other set built in this process
    /// (a clone has its original's): a cache of what was read from them
    /// keys its answers by it.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Every cell's unit step along `axis` (forward or back), indexed by
    /// cell ([`NO_CELL`] off the board): [`Tables::unit_step`] for a loop
    /// that steps many times.
    pub fn unit_steps_along(&self, axis: usize, forward: bool) -> &[Cell] {
        let k = axis * 2 + usize::from(!forward);
        self.unit_steps.get(k * self.ncells..(k + 1) * self.ncells).unwrap_or(&[])
    }

    /// The cell one step from `from` along `axis` (`forward`: +1, else −1)
    /// in these tables' frame, or `None` off the board.
    #[inline]
    pub fn unit_step(&self, axis: usize, forward: bool, from: Cell) -> Option<Cell> {
        let k = axis * 2 + usize::from(!forward);
        let c = *self.unit_steps.get(k * self.ncells + from as usize)?;
        (c != NO_CELL).then_some(c)
    }

    /// May a capture by a piece of `kind` and `color` standing on `from`
    /// land on `cell`, whatever stands between ([`Tables::reach_of`])?
    /// `false` rules the piece out of attacking `cell`.
    #[inline]
    pub fn may_capture_on(&self, kind: KindId, color: Color, from: Cell, cell: Cell) -> bool {
        let kc = kind as usize * 2 + color as usize;
        match &self.lazy {
            Some(lazy) => lazy.may_capture(kc, from, cell),
            None => self.reach_of(kind, color, from).get(cell as usize / 64).is_some_and(|w| w >> (cell % 64) & 1 != 0),
        }
    }

    /// The cells a capture by a piece of `kind` and `color` standing on
    /// `from` may land on, whatever stands between, as
    /// [`Tables::nwords`] words (a superset for hops and exact leaps).
    #[inline(always)]
    pub fn reach_of(&self, kind: KindId, color: Color, from: Cell) -> &[u64] {
        let kc = kind as usize * 2 + color as usize;
        self.cells_of_piece(&self.capture_reach, kc, from, |lazy| lazy.reach(kc, from))
    }

    /// One piece's (`kc`) cell set on `from`: at rest, its `nwords` words
    /// in `resting` (laid out per piece and cell); in a frame, what
    /// `in_frame` reads from the lazily built rays.
    #[inline(always)]
    fn cells_of_piece<'a>(&'a self, resting: &'a [u64], kc: usize, from: Cell, in_frame: impl FnOnce(&'a lazy::LazyRays) -> &'a [u64]) -> &'a [u64] {
        match &self.lazy {
            None => {
                let at = (kc * self.ncells + from as usize) * self.nwords;
                resting.get(at..at + self.nwords).unwrap_or(&[])
            }
            Some(lazy) => in_frame(lazy),
        }
    }

    /// The look-back rays of `by`'s attack directions from `cell`, one per
    /// direction of `attack_dirs[by]` in its order, each `(start, len)` in
    /// [`Tables::look_back_cells`].
    #[inline(always)]
    pub fn look_back_from(&self, by: Color, cell: Cell) -> &[(u32, u16)] {
        let n = self.attack_dirs[by as usize].len();
        self.look_back_rays[by as usize].get(cell as usize * n..(cell as usize + 1) * n).unwrap_or(&[])
    }

    /// The cells any move by a piece of `kind` and `color` standing on
    /// `from` may land on, whatever stands between, as
    /// [`Tables::nwords`] words (a superset, as [`Tables::reach_of`]).
    #[inline(always)]
    pub fn move_reach_of(&self, kind: KindId, color: Color, from: Cell) -> &[u64] {
        let kc = kind as usize * 2 + color as usize;
        self.cells_of_piece(&self.move_reach, kc, from, |lazy| lazy.move_reach(kc, from))
    }

    /// May two parts of a piece of `kind` and `color` on `from` reach one
    /// cell with the same kind of move (so that its moves must be
    /// deduplicated)? On the resting board, from any cell.
    #[inline(always)]
    pub fn repeats(&self, kind: KindId, color: Color, from: Cell) -> bool {
        let kc = kind as usize * 2 + color as usize;
        match &self.lazy {
            None => self.may_repeat[kc],
            Some(lazy) => lazy.repeats(kc, from),
        }
    }

    /// The rays of a piece of `kind` and `color` standing on `from`.
    #[inline(always)]
    pub fn rays_of(&self, kind: KindId, color: Color, from: Cell) -> PieceRays<'_> {
        let kc = kind as usize * 2 + color as usize;
        match &self.lazy {
            None => {
                let (a, b) = self.ray_index[kc * self.ncells + from as usize];
                PieceRays { rays: &self.rays[a as usize..b as usize], cells: &self.cells }
            }
            Some(lazy) => lazy.rays_of(kc, from),
        }
    }

    /// The cells an explosion on `cell` reaches, `cell` left out.
    #[inline]
    pub fn blast_around(&self, cell: Cell) -> &[Cell] {
        let (a, b) = self.blast_index[cell as usize];
        &self.blast_cells[a as usize..b as usize]
    }

}

/// The rays of one piece on one cell ([`Tables::rays_of`]), with the
/// cells their [`Ray::start`] indexes into.
#[derive(Clone, Copy, Debug)]
pub struct PieceRays<'a> {
    /// The rays, part by part in the order of the rules.
    pub rays: &'a [Ray],
    /// The cells the rays index into (more than theirs).
    pub cells: &'a [Cell],
}

impl<'a> PieceRays<'a> {
    /// The cells of `ray`, one of these rays.
    #[inline]
    pub fn cells_of(&self, ray: &Ray) -> &'a [Cell] {
        &self.cells[ray.start as usize..ray.start as usize + ray.len as usize]
    }

    /// Each ray with its cells.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (&'a Ray, &'a [Cell])> + 'a {
        let cells = self.cells;
        self.rays.iter().map(move |r| (r, &cells[r.start as usize..r.start as usize + r.len as usize]))
    }
}

/// What the bitset tables of either width are built from.
struct BitShape<'a> {
    ncells: usize,
    ray_index: &'a [(u32, u32)],
    rays: &'a [Ray],
    cells: &'a [Cell],
    attack_dirs: &'a [Vec<AttackDir>; 2],
    promo_zone: &'a [u8],
    promo_choices: &'a [u8],
    may_repeat: &'a [bool],
}

impl BitShape<'_> {
    /// The cells of `ray` as a set.
    fn mask<S: CellSet>(&self, ray: &Ray) -> S {
        self.cells[ray.start as usize..ray.start as usize + ray.len as usize].iter().fold(S::EMPTY, |m, &c| m | S::bit(c as usize))
    }

    /// The bitset tables of width `S` (the board fits in it; the attack
    /// directions have their masks of that width).
    fn bit_tables<S: CellSet>(&self) -> BitTables<S> {
        let ncells = self.ncells;
        let mut leap_groups: [LeapGroups<S>; 2] = Default::default();
        for (color, dirs) in self.attack_dirs.iter().enumerate() {
            let leaping = dirs.iter().take_while(|d| d.reach.len() == 1);
            let g = &mut leap_groups[color];
            for dir in leaping {
                g.leaps += 1;
                let masks = S::dir_masks(dir);
                match g.groups.iter_mut().find(|(kinds, _)| *kinds == dir.reach[0]) {
                    Some((_, m)) => m.iter_mut().zip(masks).for_each(|(m, &d)| *m |= d),
                    None => g.groups.push((dir.reach[0], masks.to_vec())),
                }
            }
        }
        let mut ep_reach = vec![S::EMPTY; self.ray_index.len()];
        for (i, reach) in ep_reach.iter_mut().enumerate() {
            let (a, b) = self.ray_index[i];
            for ray in &self.rays[a as usize..b as usize] {
                if ray.flags & TAKES_EP != 0 && ray.flags & CAPTURE != 0 {
                    *reach |= self.mask(ray);
                }
            }
        }
        let mut moves = vec![SmallMoves::<S>::default(); self.ray_index.len()];
        let mut lookups = Vec::new();
        let mut reach_tables = reach::ReachBuilder::<S>::default();
        for (i, entry) in moves.iter_mut().enumerate() {
            let (a, b) = self.ray_index[i];
            let first = lookups.len() as u32;
            let mut rides = Vec::new();
            for ray in &self.rays[a as usize..b as usize] {
                let f = ray.flags;
                if ray.when != 0 {
                    // A part that applies only sometimes (`if unmoved`): the walker decides.
                    entry.general = true;
                }
                if f & SCATTER != 0 {
                    if f & QUIET != 0 {
                        entry.quiet_leaps |= self.mask(ray);
                    }
                    if f & CAPTURE != 0 {
                        entry.capture_leaps |= self.mask(ray);
                    }
                } else if f & HOP != 0 {
                    entry.general = true;
                } else {
                    let cells = self.cells[ray.start as usize..ray.start as usize + ray.len as usize].to_vec();
                    rides.push((reach::RideCells { cells, exact: f & EXACT != 0 }, f & QUIET != 0, f & CAPTURE != 0));
                }
            }
            match reach_tables.lookups((i % ncells) as Cell, rides) {
                Some(found) => lookups.extend(found),
                None => entry.general = true,
            }
            entry.rides = (first, lookups.len() as u32);
            let kc = i / ncells;
            entry.general |= self.may_repeat[kc] || self.promo_choices[kc] == u8::MAX;
            if self.promo_choices[kc] > 1 && !entry.general {
                let zone = &self.promo_zone[kc * ncells..(kc + 1) * ncells];
                entry.promo_cells = zone.iter().enumerate().filter(|&(_, &r)| r != 0).fold(S::EMPTY, |m, (c, _)| m | S::bit(c));
                entry.promo_extra = self.promo_choices[kc] - 1;
            }
            entry.plain = !entry.general && (self.promo_choices[kc] == 0 || entry.promo_cells != S::EMPTY);
            for ray in &self.rays[a as usize..b as usize] {
                let f = ray.flags;
                if f & SCATTER != 0 {
                    entry.plain &= f & SETS_EP == 0;
                } else if f & EXACT != 0 && entry.exact_cell == S::EMPTY && ray.len > 0 {
                    entry.exact_cell = S::bit(self.cells[(ray.start + ray.len as u32 - 1) as usize] as usize);
                    entry.exact_aux = ray.start;
                    entry.exact_sets_ep = f & SETS_EP != 0 && ray.len > 1;
                } else {
                    entry.plain &= f & (EXACT | SETS_EP | TAKES_EP) == 0;
                }
            }
        }
        BitTables { moves, lookups, reach: reach_tables.reach, ep_reach, leap_groups }
    }
}

/// Per `(kind * 2 + color) * ncells + cell`: may the piece be dropped
/// there? The same as bitsets per piece, and the cells of each colour
/// (light, dark) as bitsets: what [`Tables`] keeps of the hand's zones and
/// the board's colouring.
#[allow(clippy::type_complexity)]
fn drop_zones_and_colours(game: &Game) -> (Vec<bool>, Vec<[u64; WORDS]>, [[u64; WORDS]; 2]) {
    let ncells = game.geometry.cells();
    let nkinds = game.kinds.len();
    let mut drop_zone = vec![false; nkinds * 2 * ncells];
    if let Some(hand) = &game.hand {
        for (k, zones) in hand.drop_cells.iter().enumerate() {
            if let Some(zones) = zones {
                for (color, zone) in zones.iter().enumerate() {
                    for &c in zone {
                        drop_zone[(k * 2 + color) * ncells + c as usize] = true;
                    }
                }
            }
        }
    }
    let mut drop_zone_cells = vec![[0u64; WORDS]; nkinds * 2];
    for i in drop_zone.iter().enumerate().filter(|(_, &ok)| ok).map(|(i, _)| i) {
        let c = i % ncells;
        drop_zone_cells[i / ncells][c / 64] |= 1 << (c % 64);
    }
    let mut colour_cells = [[0u64; WORDS]; 2];
    for c in 0..ncells {
        colour_cells[usize::from(game.geometry.colour(c as Cell) & 1)][c / 64] |= 1 << (c % 64);
    }
    (drop_zone, drop_zone_cells, colour_cells)
}

/// Per cell, the cells on the board within the explosion's reach (king
/// steps: every coordinate differs by at most `around`), in cell order, the
/// cell itself left out; empty tables without an `explosion` item.
/// The number a unit step forward adds to every cell whose step is on the
/// board (`forward`: the step of each cell, [`NO_CELL`] off the board),
/// with those cells as a bitset; `None` where the steps add different
/// numbers, or none (no step on the board).
fn grid_step(forward: &[Cell]) -> Option<(u32, [u64; crate::engine::position::WORDS])> {
    let mut steps = [0u64; crate::engine::position::WORDS];
    let mut stride = None;
    for (c, &to) in forward.iter().enumerate() {
        if to == NO_CELL {
            continue;
        }
        let d = (to as usize).checked_sub(c).filter(|&d| d > 0)? as u32;
        if *stride.get_or_insert(d) != d {
            return None;
        }
        *steps.get_mut(c / 64)? |= 1 << (c % 64);
    }
    Some((stride?, steps))
}

fn blast_reach(game: &Game) -> (Vec<(u32, u32)>, Vec<Cell>) {
    let Some(x) = &game.explosion else { return (Vec::new(), Vec::new()) };
    let geo = &game.geometry;
    let r = x.radius as i64;
    let mut index = Vec::with_capacity(geo.cells());
    let mut cells = Vec::new();
    let coords: Vec<Vec<i64>> = (0..geo.cells() as Cell).map(|c| geo.coords(c).into_iter().map(|v| v as i64).collect()).collect();
    for c in 0..geo.cells() as Cell {
        let start = cells.len() as u32;
        if geo.on_board[c as usize] {
            let here = &coords[c as usize];
            for other in geo.board_cells() {
                if other != c && coords[other as usize].iter().zip(here).all(|(a, b)| (a - b).abs() <= r) {
                    cells.push(other);
                }
            }
        }
        index.push((start, cells.len() as u32));
    }
    (index, cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lower::MAX_DIRECTIONS;
    use std::path::{Path, PathBuf};

    fn rules_files() -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        for dir in ["rules", "examples", "examples/ambiguous"] {
            for entry in std::fs::read_dir(root.join(dir)).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "rules") {
                    files.push(path);
                }
            }
        }
        files
    }

    /// [`Tables::long_run`] answers as walking the unit steps from each cell
    /// of the set does (`cond::steps_in_set`), on random sets of cells of
    /// boards of 64 cells (chess), 125 (Raumschach, a cube), 448 (4D-Schach,
    /// seven levels) and the example tower in a frame with a level pulled
    /// out (its stacking axis then has no single step number: `None`).
    #[test]
    fn long_runs_on_the_bitset_are_the_walked_ones() {
        use crate::engine::position::WORDS;
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let (mut compared, mut found, mut unshaped) = (0, 0, 0);
        let mut seed = 0x5DEE_CE66_D1CE_4E5Bu64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (file, offsets) in [("rules/chess.rules", vec![]), ("rules/raumschach.rules", vec![]), ("rules/4d-schach.rules", vec![]), ("examples/sliding-levels.rules", vec![0, 2, 0])] {
            let Ok((game, _)) = crate::model::load::load(&root.join(file)) else { panic!("{file} loads") };
            let game = std::sync::Arc::new(game);
            let base = Tables::new(&game);
            let t = if offsets.is_empty() { base } else { Tables::for_frame(&game, &offsets, &base) };
            let cells: Vec<Cell> = game.geometry.board_cells().collect();
            for round in 0..400 {
                // Sparse to dense sets: one cell in 2 to one in 9.
                let mut set = [0u64; WORDS];
                for &c in &cells {
                    if next() % (2 + round % 8) == 0 {
                        set[c as usize / 64] |= 1 << (c % 64);
                    }
                }
                for axis in 0..game.geometry.dims() {
                    for least in 0..6 {
                        let Some(fast) = t.long_run(&set, axis, least) else {
                            unshaped += 1;
                            continue;
                        };
                        let fwd = t.unit_steps_along(axis, true);
                        let more = least.saturating_sub(1);
                        let walked = cells.iter().any(|&c| set[c as usize / 64] >> (c % 64) & 1 != 0 && crate::engine::cond::steps_in_set(fwd, &set, c, more) >= more);
                        assert_eq!(fast, walked, "{file} axis {axis} least {least} set {set:x?}");
                        compared += 1;
                        found += usize::from(fast);
                    }
                }
            }
        }
        assert!(compared > 10_000 && found > 1_000 && compared - found > 1_000 && unshaped > 0, "{compared} compared, {found} runs, {unshaped} not shaped");
    }

    /// The limits of LANGUAGE.md §9 leave every shipped variant far inside them.
    #[test]
    fn shipped_variants_are_far_below_the_table_limits() {
        let mut checked = 0;
        for path in rules_files() {
            let Ok((game, _)) = crate::model::load::load(&path) else { continue };
            let parts = game.kinds.iter().flat_map(|k| &k.parts);
            let cells: u64 = parts.clone().map(|p| part_cells_bound(&game.geometry, p)).sum();
            let directions = parts.map(|p| p.vectors[0].len() as u64).max().unwrap_or(0);
            assert!(cells <= MAX_TABLE_CELLS / 16, "{}: {cells} table cells", path.display());
            assert!(directions <= MAX_DIRECTIONS / 128, "{}: {directions} directions", path.display());
            // The bound is a bound: the tables built hold no more.
            let tables = Tables::new(&game);
            assert!(tables.cells.len() as u64 <= cells, "{}: {} > {cells}", path.display(), tables.cells.len());
            checked += 1;
        }
        assert!(checked >= 12, "{checked} variants");
    }

    /// Along random complete plies of variants with hops (xiangqi's
    /// cannons), lame leaps (its horses), exact double steps and en passant
    /// (chess, Berolina), promotions (grand) and sliding levels (4D-Schach
    /// at rest and with a level swinging, so that each frame's rays are
    /// built as asked for): every move of every piece of the side to move
    /// lands on a cell of [`Tables::move_reach_of`] (which the counts onto
    /// a few cells use to skip a piece, [`crate::engine::movegen::reaches_none`]).
    /// And the reach is not the whole board: most pieces' leave out cells.
    #[test]
    fn every_move_lands_within_the_move_reach() {
        use crate::flow::ply::{below_from, random_complete_ply};
        use crate::test_support::{variant, FOUR_D_POST_OPENING as P};
        let (mut moves, mut pieces, mut narrow) = (0, 0, 0);
        let starts = [
            ("rules/fairy/xiangqi.rules", None),
            ("rules/chess.rules", None),
            ("rules/fairy/berolina.rules", None),
            ("rules/fairy/grand.rules", None),
            ("rules/4d-schach.rules", Some(P.to_string())),
            ("rules/4d-schach.rules", Some(format!("{P} {{frame=IV:-3<-3*}}"))),
        ];
        for (seed, (file, fen)) in starts.into_iter().enumerate() {
            let v = variant(file);
            let board = v.game.geometry.board_cells().count();
            let mut below = below_from((seed as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let mut pos = match &fen {
                Some(fen) => v.parse_fen(fen, "<test>").expect("the test position"),
                None => v.start().expect("the start position"),
            };
            for _ in 0..12 {
                let t = v.tables_for(&pos);
                for from in pos.cells_of(pos.side, t.nwords) {
                    let kind = crate::engine::position::kind_of(pos.board[from as usize]);
                    let reach = t.move_reach_of(kind, pos.side, from);
                    let mut list = Vec::new();
                    crate::engine::movegen::piece_moves_once(&pos, &t, from, &mut list);
                    for m in &list {
                        assert!(reach[m.to as usize / 64] >> (m.to % 64) & 1 != 0, "{file}: {m:?} outside the reach in {}", v.fen(&pos));
                    }
                    moves += list.len();
                    pieces += 1;
                    narrow += usize::from(reach.iter().map(|w| w.count_ones() as usize).sum::<usize>() < board);
                }
                let Some(next) = random_complete_ply(&v, &pos, &mut below) else { break };
                pos = next;
            }
        }
        assert!(moves > 2000, "{moves} moves");
        assert!(narrow * 10 > pieces * 9, "{narrow} of {pieces} pieces reach fewer cells than the board has");
    }
}

/// Every vector of -1, 0 or 1 per axis but the zero vector: the king's
/// steps in `dims` dimensions (8 in 2D, 26 in 3D).
fn king_step_vectors(dims: usize) -> Vec<Vec<i32>> {
    let mut out: Vec<Vec<i32>> = vec![Vec::new()];
    for _ in 0..dims {
        out = out.into_iter().flat_map(|v| (-1..=1).map(move |x| [v.clone(), vec![x]].concat())).collect();
    }
    out.retain(|v| v.iter().any(|&x| x != 0));
    out
}
