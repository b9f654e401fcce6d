//! Perft: the number of leaves of the game tree to a given depth, the
//! reference count engine authors compare move generators with. Leaves at
//! depth 1 are counted in bulk (the legal moves are counted, not played).
//! Draws by rule (repetition, fifty moves) are ignored, as in published tables.

use crate::engine::position::{Move, Position};
use crate::engine::variant::Variant;
use crate::flow::oblige::WatchMemo;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Instant;

mod parallel;
mod table;

pub use parallel::{divide_split, perft_split, SPLIT_DEPTH};
pub use table::PerftTable;

/// Counts the leaves `depth` plies below `pos`.
///
/// A ply is a complete ply ([`crate::flow::perft`]): at a node with flow
/// state (a phase, an obligation owed) or a swinging level the flow layer
/// lists the decisions; elsewhere the engine's legal moves are counted on
/// the fast path, except the moves after which an `oblige` rule fires
/// ([`Variant::ply_starts`]), whose complete plies the flow layer counts.
pub fn perft(v: &Variant, pos: &Position, depth: u32) -> u64 {
    perft_watched(v, pos, depth, &mut Unwatched).unwrap_or(0)
}

/// Why a limited count stopped before it was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// More leaves were counted than the budget's node limit.
    Nodes,
    /// The budget's deadline passed.
    Time,
}

/// Leaves counted between two looks at a [`Budget`]: the shared counter and
/// the clock are touched once per this many leaves (or per position one ply
/// above the leaves, whichever comes later), so a limit costs nothing
/// measurable.
pub const CHECK_EVERY: u64 = 8192;

/// Limits shared by every thread of one perft run: the most leaves to count
/// and a deadline. It also counts the leaves so far, for progress reports.
#[derive(Debug)]
pub struct Budget {
    /// Leaves counted so far (in batches of about [`CHECK_EVERY`]).
    counted: AtomicU64,
    /// Stop once more leaves than this were counted.
    max_nodes: u64,
    /// Stop once this instant has passed.
    deadline: Option<Instant>,
    /// 0 while going on, else 1 + the [`Stop`] reason.
    stopped: AtomicU8,
    /// Counts already made, shared by every thread (`--hash MB`).
    table: Option<PerftTable>,
}

impl Budget {
    /// A budget of at most `max_nodes` leaves (`None`: no limit) until
    /// `deadline` (`None`: no limit).
    pub fn new(max_nodes: Option<u64>, deadline: Option<Instant>) -> Budget {
        Budget {
            counted: AtomicU64::new(0),
            max_nodes: max_nodes.unwrap_or(u64::MAX),
            deadline,
            table: None,
            stopped: AtomicU8::new(0),
        }
    }

    /// The budget with a transposition table of about `megabytes` MB
    /// ([`PerftTable`]), which the counts under it share.
    pub fn with_hash(mut self, megabytes: usize) -> Budget {
        self.table = Some(PerftTable::with_megabytes(megabytes));
        self
    }

    /// The leaves counted so far, by every thread (reported in batches).
    pub fn counted(&self) -> u64 {
        self.counted.load(Ordering::Relaxed)
    }

    /// Why the count stopped, if it did.
    pub fn stopped(&self) -> Option<Stop> {
        match self.stopped.load(Ordering::Relaxed) {
            0 => None,
            1 => Some(Stop::Nodes),
            _ => Some(Stop::Time),
        }
    }

    /// Adds `leaves` to the shared count and looks at the limits: `false`
    /// when the count must stop (also when another thread stopped it).
    pub fn charge(&self, leaves: u64) -> bool {
        let total = self.counted.fetch_add(leaves, Ordering::Relaxed).saturating_add(leaves);
        if self.stopped.load(Ordering::Relaxed) != 0 {
            return false;
        }
        let stop = if total > self.max_nodes {
            Some(Stop::Nodes)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::Time)
        } else {
            None
        };
        match stop {
            Some(why) => {
                let code = if why == Stop::Nodes { 1 } else { 2 };
                let _ = self.stopped.compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
                false
            }
            None => true,
        }
    }
}

/// Counts the leaves `depth` plies below `pos` within `budget`: `None` if the
/// budget stopped the count (then the count is incomplete and not returned).
pub fn perft_limited(v: &Variant, pos: &Position, depth: u32, budget: &Budget) -> Option<u64> {
    let mut watch = Watched { budget, pending: 0 };
    let n = perft_watched(v, pos, depth, &mut watch)?;
    let pending = watch.pending;
    budget.charge(pending).then_some(n)
}

/// What the recursion reports leaves to: nothing for a plain count, a
/// [`Budget`] for a limited one (the plain count compiles to the same code as
/// without limits).
trait Watch<'t> {
    /// `leaves` were counted below one position; `false` stops the count.
    fn leaves(&mut self, leaves: u64) -> bool;
    /// The transposition table, if the count has one.
    fn table(&self) -> Option<&'t PerftTable> {
        None
    }
}

/// No limits.
struct Unwatched;

impl Watch<'static> for Unwatched {
    #[inline(always)]
    fn leaves(&mut self, _: u64) -> bool {
        true
    }
}

/// A budget, charged in batches of [`CHECK_EVERY`] leaves.
struct Watched<'a> {
    budget: &'a Budget,
    pending: u64,
}

impl<'a> Watch<'a> for Watched<'a> {
    #[inline]
    fn leaves(&mut self, leaves: u64) -> bool {
        self.pending += leaves;
        if self.pending < CHECK_EVERY {
            return true;
        }
        let batch = std::mem::take(&mut self.pending);
        self.budget.charge(batch)
    }

    fn table(&self) -> Option<&'a PerftTable> {
        self.budget.table.as_ref()
    }
}

fn perft_watched<'t>(v: &Variant, pos: &Position, depth: u32, watch: &mut impl Watch<'t>) -> Option<u64> {
    let levels = depth.max(1) as usize;
    let mut buffers: Vec<Vec<Move>> = (0..levels).map(|_| Vec::with_capacity(256)).collect();
    // One child position per level, overwritten for each move (no allocation, and
    // only the board's own cells are copied).
    let mut children: Vec<Position> = (0..levels).map(|_| pos.clone()).collect();
    perft_with(v, pos, depth, &mut buffers, &mut children, &mut WatchMemo::default(), watch)
}

fn perft_with<'t>(
    v: &Variant,
    pos: &Position,
    depth: u32,
    buffers: &mut [Vec<Move>],
    children: &mut [Position],
    memo: &mut WatchMemo,
    watch: &mut impl Watch<'t>,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let Some((moves, rest)) = buffers.split_first_mut() else { return Some(0) };
    let Some((child, grandchildren)) = children.split_first_mut() else { return Some(0) };
    moves.clear();
    // The position's frame decides the tables (one branch when no level has slid).
    let t = v.tables_for(pos);
    let Some(starts) = ply_starts(v, pos, &t, memo) else {
        return flow_node(v, pos, depth, rest, grandchildren, memo, watch);
    };
    let hashed = match watch.table() {
        Some(table) if starts.is_empty() && key_tells_count(pos) => {
            let key = pos.key(&t);
            if let Some(n) = table.probe(key, depth) {
                return watch.leaves(n).then_some(n);
            }
            Some(key)
        }
        _ => None,
    };
    if depth == 1 {
        let n = with_ply_starts(v, crate::engine::movegen::count_legal(&v.game, &t, pos, moves), &starts);
        if let (Some(key), Some(table)) = (hashed, watch.table()) {
            table.store(key, 1, n);
        }
        return watch.leaves(n).then_some(n);
    }
    crate::engine::movegen::legal_moves_any_order(&v.game, &t, pos, moves);
    let mut total = 0;
    // Two plies above the leaves, without flow state or frames: each
    // child's moves are counted here, without a call per child.
    let plain = depth == 2 && starts.is_empty() && pos.flow.is_none() && pos.frame.is_none();
    if let (Some(table), true) = (watch.table(), depth >= 3) {
        prefetch_children(v, &t, pos, moves, child, table);
    }
    // The counts of the children's side, kept: each child counts only the
    // pieces its move touched.
    let kept = if plain { crate::engine::movegen::KeptCounts::new(&t, pos) } else { None };
    for m in moves.iter() {
        if starts.iter().any(|s| s.mv == *m) {
            continue;
        }
        child.copy_from(pos, &t);
        child.make(m, &v.game, &t);
        if plain && child.flow.is_none() && child.frame.is_none() {
            let Some(scratch) = rest.first_mut() else { return Some(0) };
            if let Some(n) = leaves_kept(v, &t, child, scratch, kept.as_ref(), memo) {
                if !watch.leaves(n) {
                    return None;
                }
                total += n;
                continue;
            }
        }
        total += perft_with(v, child, depth - 1, rest, grandchildren, memo, watch)?;
    }
    for s in starts {
        let mut ends = EndsBuf::take();
        ends_of(v, s.next, &mut ends);
        for end in by_frame(&ends) {
            total += perft_with(v, end, depth - 1, rest, grandchildren, memo, watch)?;
        }
    }
    if let (Some(key), Some(table)) = (hashed, watch.table()) {
        table.store(key, depth, total);
    }
    Some(total)
}

/// The complete plies from `pos`, one ply above perft's leaves, counted as
/// the node at depth 1 counts them, with the counts `kept` from its parent
/// ([`crate::engine::movegen::count_legal_kept`]); `None` where the flow
/// layer lists its decisions (the caller counts it as a node).
fn leaves_kept(v: &Variant, t: &crate::engine::tables::Tables, pos: &Position, scratch: &mut Vec<Move>, kept: Option<&crate::engine::movegen::KeptCounts>, memo: &mut WatchMemo) -> Option<u64> {
    let starts = ply_starts(v, pos, t, memo)?;
    Some(with_ply_starts(v, crate::engine::movegen::count_legal_kept(&v.game, t, pos, scratch, kept), &starts))
}

/// `n`, the legal moves the engine counts one ply above the leaves, with
/// each move of `starts` counted as its complete plies instead of as one
/// legal move.
#[inline(always)]
fn with_ply_starts(v: &Variant, n: u64, starts: &[crate::flow::ply::PlyStart]) -> u64 {
    if starts.is_empty() {
        return n; // the common case, without a call
    }
    starts.iter().fold(n, |n, s| n - u64::from(s.legal) + plies_through(v, &s.next))
}

/// Asks for the table buckets of `pos`'s children (each made once for its
/// key) before they are counted, so that the probe at the top of each
/// child's count finds its bucket in the cache: the memory accesses overlap
/// instead of each waiting in turn while a count runs.
fn prefetch_children(v: &Variant, t: &crate::engine::tables::Tables, pos: &Position, moves: &[Move], child: &mut Position, table: &PerftTable) {
    for m in moves {
        child.copy_from(pos, t);
        child.make(m, &v.game, t);
        if key_tells_count(child) {
            table.prefetch(child.key(t));
        }
    }
}

/// Does `pos`'s key say everything that decides the count below it? Not
/// with flow state, a level out of rest, spread or face-down pieces.
fn key_tells_count(pos: &Position) -> bool {
    pos.flow.is_none() && pos.frame.is_none() && pos.spread.is_none() && !pos.any_hidden()
}

/// The moves of `pos` after which a rule obliges more decisions
/// ([`Variant::ply_starts`]; none in the common case, tested cheaply), or
/// `None` where the flow layer lists the node's decisions. `memo` keeps
/// the pre-filter from the count's last node.
fn ply_starts(v: &Variant, pos: &Position, t: &crate::engine::tables::Tables, memo: &mut WatchMemo) -> Option<Vec<crate::flow::ply::PlyStart>> {
    if v.game.rules.is_empty() && pos.flow.is_none() && pos.frame.is_none() {
        return Some(Vec::new());
    }
    v.ply_starts_with(pos, t, memo)
}

/// The number of complete plies through `next`, the position after a move
/// that may start a ply ([`Variant::ply_starts`]): its legal completions, or
/// 1 when its ply is over and legal.
fn plies_through(v: &Variant, next: &Position) -> u64 {
    if v.dead_mid_ply(next) {
        0
    } else if crate::flow::ply::in_ply(next) {
        crate::flow::perft::count_plies(v, next)
    } else {
        u64::from(v.completable(next))
    }
}

/// The ends of the complete plies through `next` (see [`plies_through`]).
fn ends_of(v: &Variant, next: Position, out: &mut Vec<Position>) {
    if v.dead_mid_ply(&next) {
        // The move leaves its king attacked mid-ply: no ply goes through it.
    } else if crate::flow::ply::in_ply(&next) {
        crate::flow::perft::ply_ends(v, &next, out);
    } else if v.completable(&next) {
        out.push(next);
    }
}

/// A list of a ply's ends, taken from this thread's pool and given back
/// (emptied, its room kept) when dropped: a ply that pulls a level out
/// ends in thousands of positions, and a list grown afresh for each ply
/// copied them over and over as it grew (2% of 4D-Schach's swinging
/// perft 4 below a group).
struct EndsBuf(Vec<Position>);

thread_local! {
    /// The lists [`EndsBuf`] gives back, for the next to take.
    static ENDS_POOL: std::cell::RefCell<Vec<Vec<Position>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl EndsBuf {
    /// A list from the pool (empty), or a new one.
    fn take() -> EndsBuf {
        EndsBuf(ENDS_POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default())
    }
}

impl Drop for EndsBuf {
    fn drop(&mut self) {
        let mut list = std::mem::take(&mut self.0);
        list.clear();
        ENDS_POOL.with(|p| p.borrow_mut().push(list));
    }
}

impl std::ops::Deref for EndsBuf {
    type Target = Vec<Position>;
    fn deref(&self) -> &Vec<Position> {
        &self.0
    }
}

impl std::ops::DerefMut for EndsBuf {
    fn deref_mut(&mut self) -> &mut Vec<Position> {
        &mut self.0
    }
}

/// The ends of one ply in the order of their frames (the levels'
/// offsets; the order of the decisions within one frame). A ply that
/// pulls a level out ends in as many frames as it offers activations, for
/// each of the ways it got there (a relocation's targets): counted frame
/// by frame, consecutive ends share their frame's tables (about a megabyte
/// in 4D-Schach) and the watch their counts one ply above the leaves keep
/// ([`WatchMemo`], which reads the frame), instead of meeting another frame
/// at every end.
///
/// The positions are not moved: their order is sorted, by a hash of the
/// offsets (two frames with one hash would only be interleaved).
fn by_frame(ends: &[Position]) -> impl Iterator<Item = &Position> {
    let hash = |p: &Position| p.frame.as_ref().map_or(0, |f| f.levels.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, l| (h ^ u64::from(l.offset as u8)).wrapping_mul(0x0100_0000_01B3)));
    let mut order: Vec<(u64, usize)> = ends.iter().map(hash).zip(0..).collect();
    order.sort_unstable();
    order.into_iter().filter_map(|(_, i)| ends.get(i))
}

/// A node the flow layer lists the decisions of (flow state, a swinging
/// level, or a pre-filter that cannot tell): its complete plies, each
/// decision applied once ([`Variant::successors`]).
fn flow_node<'t>(v: &Variant, pos: &Position, depth: u32, buffers: &mut [Vec<Move>], children: &mut [Position], memo: &mut WatchMemo, watch: &mut impl Watch<'t>) -> Option<u64> {
    if depth == 1 {
        let n = v.count_complete_with(pos, Some(memo));
        return watch.leaves(n).then_some(n);
    }
    let succ = v.successors(pos);
    let mut total = 0;
    for (_, next) in &succ {
        if !crate::flow::ply::in_ply(next) {
            // Its ply is over: it is its own end.
            total += perft_with(v, next, depth - 1, buffers, children, memo, watch)?;
            continue;
        }
        let mut ends = EndsBuf::take();
        crate::flow::perft::ply_ends(v, next, &mut ends);
        for end in by_frame(&ends) {
            total += perft_with(v, end, depth - 1, buffers, children, memo, watch)?;
        }
    }
    Some(total)
}

/// The count below each legal move of `pos` (in generation order), for `--divide`,
/// within `budget`: `None` if it stopped the count. `on_move` is called after
/// each root move (for progress reporting).
///
/// In a phase the root moves are the phase's decisions and each is applied
/// with its end-of-ply work; a ply in progress (an obligation at the root)
/// has decisions that are not moves, and gives no rows. A move after which a
/// rule obliges further decisions counts the complete plies through it.
pub fn divide(v: &Variant, pos: &Position, depth: u32, budget: &Budget, mut on_move: impl FnMut(usize, usize)) -> Option<Vec<(Move, u64)>> {
    let moves: Vec<Move> = v.legal_moves(pos);
    let n = moves.len();
    if depth <= 1 {
        // The root moves are the leaves.
        budget.charge(n as u64).then_some(())?;
    }
    let mut rows = Vec::with_capacity(n);
    for (i, m) in moves.into_iter().enumerate() {
        let child = v.play(pos, &m);
        let count = if crate::flow::ply::in_ply(&child) {
            // The move starts a ply of several decisions (a rule obliged): its
            // row counts the complete plies through it.
            crate::flow::perft::plies_limited(v, &child, depth.max(1), budget)?
        } else if depth <= 1 {
            1
        } else {
            perft_limited(v, &child, depth - 1, budget)?
        };
        on_move(i + 1, n);
        rows.push((m, count));
    }
    Some(rows)
}

/// A perft count split by how the last ply's leaves arise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftDetail {
    /// The leaves: every chance outcome its own leaf (what [`perft`] counts).
    pub nodes: u64,
    /// The leaves reached by the last ply's decisions: each chance node of
    /// the last ply counted once, whatever its number of outcomes.
    pub decisions: u64,
    /// The leaves that are outcomes of a chance node (a reveal, a collision,
    /// a tunnel) at the last ply.
    pub outcomes: u64,
}

/// Counts the leaves `depth` plies below `pos`, split as in [`PerftDetail`].
/// Slower than [`perft`] (the last ply's moves are listed, not counted).
pub fn perft_detail(v: &Variant, pos: &Position, depth: u32) -> PerftDetail {
    let mut d = PerftDetail::default();
    if depth == 0 {
        d.nodes = 1;
        d.decisions = 1;
        return d;
    }
    let moves = v.legal_moves(pos);
    if depth == 1 {
        d.nodes = moves.len() as u64;
        d.outcomes = moves.iter().filter(|m| m.is_chance()).count() as u64;
        let mut decisions: Vec<Move> = moves.iter().map(|m| m.decision()).collect();
        decisions.dedup();
        d.decisions = decisions.len() as u64;
        return d;
    }
    for m in &moves {
        let below = perft_detail(v, &v.play(pos, m), depth - 1);
        d.nodes += below.nodes;
        d.decisions += below.decisions;
        d.outcomes += below.outcomes;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn chess() -> Variant {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/chess.rules");
        let (game, _) = crate::model::load::load(&path).map_err(|e| e.0).expect("chess loads");
        Variant::new(std::sync::Arc::new(game))
    }

    #[test]
    fn a_limited_count_stops_or_counts_the_same() {
        let v = chess();
        let start = v.start().expect("setup");
        // 197,281 leaves at depth 4 (the published count).
        let open = Budget::new(None, None);
        assert_eq!(perft_limited(&v, &start, 4, &open), Some(197_281));
        assert_eq!(open.counted(), 197_281);
        assert_eq!(open.stopped(), None);
        let small = Budget::new(Some(50_000), None);
        assert_eq!(perft_limited(&v, &start, 4, &small), None);
        assert_eq!(small.stopped(), Some(Stop::Nodes));
        assert!(small.counted() > 50_000 && small.counted() < 50_000 + 2 * CHECK_EVERY + 1000, "{}", small.counted());
        let late = Budget::new(None, Some(Instant::now() - Duration::from_secs(1)));
        assert_eq!(perft_limited(&v, &start, 4, &late), None);
        assert_eq!(late.stopped(), Some(Stop::Time));
    }
}
