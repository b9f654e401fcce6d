//! Frames: the state of a board whose levels slide (`slide { … }`).
//!
//! A [`Frame`] holds, per level, how far it is pulled out of the shaft along
//! its slide axis (its *offset*, in rows) and its swing. Cell ids never
//! change: a cell keeps its local coordinates in its level, and its
//! *absolute* position is the local one plus the level's offset on the
//! level's slide axis. The shaft's footprint is the board's extent on the
//! axes other than the stacking axis.
//!
//! Movement ([`step`]): a step with no component along the stacking axis
//! stays in its level and ignores the frame. A step with a stacking
//! component `dl ≠ 0` is taken in shaft coordinates: the origin's absolute
//! position must lie in the footprint, the target's absolute position is the
//! origin's plus the step's other components and must lie in the footprint
//! too, and the target level is the `|dl|`-th level in that direction that
//! has a cell at that absolute position — levels slid away there are
//! skipped (a *black hole*). At rest this is the plain stacked board.
//!
//! The flow layer calls [`activate`] (pull a level out and start its swing),
//! [`tick`] (the end of a complete ply) and [`activations`] (what may be
//! pulled). Move tables depend on the offsets only; [`FrameCache`] builds
//! them lazily, once per combination of offsets met, and keeps the most
//! recently used ones.

use crate::engine::position::{Position, NO_CELL};
use crate::engine::tables::Tables;
use crate::model::geometry::{Cell, Geometry};
use crate::model::Game;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// How one level swings back to rest after it was pulled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swing {
    /// The extreme of the current half-swing (signed rows): the one the level
    /// comes back from, or the one it is heading out to.
    pub peak: i8,
    /// `true` while heading out to `peak`; `false` while coming back to rest.
    pub outward: bool,
    /// The number of overshoots begun so far (0 until the level first passes rest).
    pub pass: u8,
    /// Freshly pulled: the next tick does not move it (its first jump comes
    /// at the end of the opponent's next ply).
    pub wait: bool,
}

/// The state of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LevelState {
    /// Rows pulled out along the level's slide axis (positive: towards the
    /// higher coordinates of that axis).
    pub offset: i8,
    /// Its swing, if it is swinging.
    pub swing: Option<Swing>,
}

impl LevelState {
    /// At rest: in the shaft and not swinging.
    pub fn at_rest(&self) -> bool {
        self.offset == 0 && self.swing.is_none()
    }
}

/// The levels' state; a position's `frame` is `None` exactly when every
/// level is at rest.
#[derive(Debug, PartialEq, Eq, Hash, Default)]
pub struct Frame {
    /// Per level (coordinate on the stacking axis).
    pub levels: Vec<LevelState>,
}

/// `clone_from` keeps the levels' storage (see [`crate::flow::Flow`]'s).
impl Clone for Frame {
    fn clone(&self) -> Self {
        Frame { levels: self.levels.clone() }
    }

    fn clone_from(&mut self, src: &Self) {
        self.levels.clone_from(&src.levels);
    }
}

impl Frame {
    /// Every level at rest?
    pub fn at_rest(&self) -> bool {
        self.levels.iter().all(LevelState::at_rest)
    }

    /// The offsets, or `None` when every level stands in the shaft (the
    /// geometry is the resting one, whatever swings).
    pub fn offsets(&self) -> Option<Vec<i8>> {
        if self.levels.iter().all(|l| l.offset == 0) {
            None
        } else {
            Some(self.levels.iter().map(|l| l.offset).collect())
        }
    }
}

/// Is some level of `pos` swinging (so the end of every ply moves it)?
pub fn swinging(pos: &Position) -> bool {
    pos.frame.as_ref().is_some_and(|f| f.levels.iter().any(|l| l.swing.is_some()))
}

/// Were `t` built for the frame `pos` stands in? (Debug assertions in move
/// generation catch tables of another frame.)
pub fn tables_match(t: &Tables, pos: &Position) -> bool {
    match &pos.frame {
        // Resting tables have an empty frame; a frame with every level at rest is the resting one.
        None => t.frame.is_empty(),
        Some(f) if t.frame.is_empty() => f.levels.iter().all(|l| l.offset == 0),
        Some(f) => f.levels.len() == t.frame.len() && f.levels.iter().zip(&t.frame).all(|(l, &o)| l.offset == o),
    }
}

/// The offsets of `pos`'s frame (`None`: the resting geometry).
pub fn offsets_of(pos: &Position) -> Option<Vec<i8>> {
    pos.frame.as_ref().and_then(|f| f.offsets())
}

/// The cell reached from `from` by one step `v` with the levels at
/// `offsets` (one per level; see the module documentation). Without a
/// `slide` item, or with every offset 0, this is [`Geometry::offset`].
pub fn step(game: &Game, offsets: &[i8], from: Cell, v: &[i32]) -> Option<Cell> {
    let geo = &game.geometry;
    let Some(slide) = &game.slide else { return geo.offset(from, v) };
    let s = slide.stack_axis;
    let dl = v.get(s).copied().unwrap_or(0);
    if dl == 0 || offsets.iter().all(|&o| o == 0) {
        return geo.offset(from, v);
    }
    let dims = geo.dims();
    if v.len() < dims {
        return None;
    }
    // Fixed-size coordinates for the usual boards: this runs once per
    // (vector, cell) of every frame's tables and in every condition that
    // walks the shaft, so it must not allocate.
    if dims <= STEP_DIMS {
        let mut buf = [0i64; 3 * STEP_DIMS];
        walk(game, slide, offsets, from, v, &mut buf[..3 * dims])
    } else {
        walk(game, slide, offsets, from, v, &mut vec![0i64; 3 * dims])
    }
}

/// The most axes [`step`] handles with coordinates on the stack (boards have
/// 2 to 4); a board of more axes takes the same path with a vector.
pub const STEP_DIMS: usize = 8;

/// [`step`] across levels, with `buf` (three times the board's axes long)
/// holding the origin's, the target's and the candidate cell's shaft
/// coordinates.
fn walk(game: &Game, slide: &crate::model::slide::SlideRules, offsets: &[i8], from: Cell, v: &[i32], buf: &mut [i64]) -> Option<Cell> {
    let geo = &game.geometry;
    let s = slide.stack_axis;
    let dims = buf.len() / 3;
    let (origin, rest) = buf.split_at_mut(dims);
    let (target, there) = rest.split_at_mut(dims);
    for (x, &c) in origin.iter_mut().zip(geo.coords_of(from)) {
        *x = i64::from(c);
    }
    // The level's slide axis and offset: (axis, rows), or none.
    let shift_of = |level: usize| level_shift(slide, offsets, dims, level);
    let inside = |p: &[i64]| p.iter().enumerate().all(|(a, &x)| a == s || (0..geo.size(a) as i64).contains(&x));
    let level = origin[s] as usize;
    // The origin's level and every level up to the one the step lands on
    // (or the last, where it leaves the tower) in the shaft: no black hole,
    // no shift on the way, the plain stacked board's step.
    let reach = v[s].unsigned_abs() as usize;
    let (lo, hi) = if v[s] > 0 { (level, level.saturating_add(reach)) } else { (level.saturating_sub(reach), level) };
    if (lo..=hi.min(geo.size(s).saturating_sub(1))).all(|l| offsets.get(l).copied().unwrap_or(0) == 0) {
        return geo.offset(from, v);
    }
    // The origin's absolute position: its local coordinates lie on the
    // board, so only the axis its level slides along can leave the
    // footprint.
    if let Some((axis, rows)) = shift_of(level) {
        origin[axis] += rows;
        if !(0..geo.size(axis) as i64).contains(&origin[axis]) {
            return None;
        }
    }
    for a in 0..dims {
        target[a] = if a == s { 0 } else { origin[a] + i64::from(v[a]) };
    }
    if !inside(target) {
        return None;
    }
    let dl = v[s];
    let dir: i64 = dl.signum().into();
    let mut left = dl.unsigned_abs();
    let mut l = level as i64;
    loop {
        l += dir;
        if l < 0 || l >= geo.size(s) as i64 {
            return None;
        }
        // The level has a cell under the target when the target, taken back
        // along the level's slide axis by its offset, stays on that axis
        // (the other axes are the target's own, inside the footprint).
        let shift = shift_of(l as usize);
        if shift.is_none_or(|(axis, rows)| (0..geo.size(axis) as i64).contains(&(target[axis] - rows))) {
            left -= 1;
            if left == 0 {
                there.copy_from_slice(target);
                there[s] = l;
                if let Some((axis, rows)) = shift {
                    there[axis] -= rows;
                }
                return geo.cell(there);
            }
        }
    }
}

/// Level `level`'s slide axis (other than the stacking one, within the
/// board's `dims` axes) and its rows out at `offsets`; `None` for a level
/// that does not slide. What [`walk`] and [`stack_steps`] shift by.
fn level_shift(slide: &crate::model::slide::SlideRules, offsets: &[i8], dims: usize, level: usize) -> Option<(usize, i64)> {
    let axis = slide.axes.get(level).copied().flatten().filter(|&a| a != slide.stack_axis && a < dims)?;
    Some((axis, i64::from(offsets.get(level).copied().unwrap_or(0))))
}

/// Every cell's unit step along the stacking axis (`forward`: to the next
/// higher level, else the next lower) with the levels at `offsets`, indexed
/// by cell ([`NO_CELL`] where [`step`] gives none): [`step`] of the unit
/// vector for each cell, worked out level by level (a frame's tables need
/// all of them, and [`step`] alone costs about 300 instructions a cell).
/// `None` without a `slide` item.
pub fn stack_steps(game: &Game, offsets: &[i8], forward: bool) -> Option<Vec<Cell>> {
    let slide = game.slide.as_ref()?;
    let geo = &game.geometry;
    let s = slide.stack_axis;
    let dims = geo.dims();
    let levels = geo.size(s);
    let shift: Vec<Option<(usize, i64)>> = (0..levels).map(|l| level_shift(slide, offsets, dims, l)).collect();
    let inside = |a: usize, x: i64| (0..geo.size(a) as i64).contains(&x);
    // A cell's index adds `stride[a]` per row along axis `a` (axis 0 varies fastest).
    let stride: Vec<i64> = (0..dims).scan(1i64, |acc, a| {
        let here = *acc;
        *acc *= geo.size(a) as i64;
        Some(here)
    }).collect();
    let out = (0..geo.cells() as Cell)
        .map(|from| {
            if !geo.on_board[from as usize] {
                return NO_CELL;
            }
            let coords = geo.coords_of(from);
            let level = usize::from(coords[s]);
            // The origin's coordinate on its level's slide axis, in the shaft's rows.
            let moved = shift[level].map(|(axis, rows)| (axis, i64::from(coords[axis]) + rows));
            if moved.is_some_and(|(axis, x)| !inside(axis, x)) {
                return NO_CELL;
            }
            // The origin's cell with its shaft coordinate on that axis.
            let origin = i64::from(from) + moved.map_or(0, |(axis, x)| (x - i64::from(coords[axis])) * stride[axis]);
            let at = |axis: usize| moved.filter(|&(a, _)| a == axis).map_or(i64::from(coords[axis]), |(_, x)| x);
            let mut l = level;
            loop {
                l = match (forward, l.checked_sub(1)) {
                    (true, _) => l + 1,
                    (false, Some(below)) => below,
                    (false, None) => return NO_CELL,
                };
                if l >= levels {
                    return NO_CELL;
                }
                // The target taken back along `l`'s slide axis by its
                // offset: the level has a cell under it when it stays on the axis.
                let back = match shift[l] {
                    Some((axis, rows)) if !inside(axis, at(axis) - rows) => continue,
                    Some((axis, rows)) => -rows * stride[axis],
                    None => 0,
                };
                let to = origin + (l as i64 - level as i64) * stride[s] + back;
                return match usize::try_from(to) {
                    Ok(to) if geo.on_board.get(to).copied().unwrap_or(false) => to as Cell,
                    _ => NO_CELL,
                };
            }
        })
        .collect();
    Some(out)
}

/// The levels whose offsets differ between two frames' offsets (empty:
/// every level at rest), as a mask: bit `l` for level `l` (levels past 63
/// are counted as the last bit, so a board with more never looks unchanged).
pub fn changed_levels(a: &[i8], b: &[i8]) -> u64 {
    let at = |o: &[i8], l: usize| o.get(l).copied().unwrap_or(0);
    (0..a.len().max(b.len())).filter(|&l| at(a, l) != at(b, l)).fold(0, |m, l| m | 1 << l.min(63))
}

/// Does every path of steps from a cell on level `from` to a cell on level
/// `to` stay the same between two frames whose offsets differ in the
/// levels of `changed` ([`changed_levels`])? So it does when no level from
/// `from` to `to` (both included) changed: a step within a level ignores
/// the frame, and a step across levels reads the offsets of its origin's
/// level and of the levels it passes or lands on only ([`step`]). Along a
/// path the level moves one way, so until it reaches `to` no step reads a
/// level outside the two. (The attack lines on a royal piece, the
/// activations' frames differ from the node's by one level.)
pub fn unchanged_between(changed: u64, from: usize, to: usize) -> bool {
    let (lo, hi) = (from.min(to).min(63), from.max(to).min(63));
    let span = if hi - lo >= 63 { !0 } else { ((1u64 << (hi - lo + 1)) - 1) << lo };
    changed & span == 0
}

/// The label of level `level` on the stacking axis of the `slide` item
/// (`?` in a game without one), as notation and position texts write it.
pub fn level_label(game: &Game, level: u8) -> String {
    let Some(slide) = &game.slide else { return "?".into() };
    game.geometry.axes[slide.stack_axis].labels.get(level as usize).cloned().unwrap_or_else(|| "?".into())
}

/// The level labelled `label` on the stacking axis of the `slide` item.
pub fn level_index(game: &Game, label: &str) -> Option<u8> {
    let slide = game.slide.as_ref()?;
    game.geometry.axes[slide.stack_axis].labels.iter().position(|l| l == label).map(|i| i as u8)
}

/// The colour of `cell`: the parity of the sum of its local coordinates
/// (the level's own chequering, so it does not change when the level slides;
/// a piece crossing a black hole can change colour).
pub fn cell_colour(game: &Game, cell: Cell) -> u8 {
    game.geometry.colour(cell)
}

/// Pulls level `level` (at rest) out by `|rows|` rows in the direction of
/// `rows`' sign along its slide axis and starts its swing; the first jump
/// back comes at the second [`tick`] (the end of the opponent's next ply).
/// Returns `false`, changing nothing, when the game has no `slide` item, the
/// level does not slide or is not at rest, or `rows` is 0 or beyond `out at
/// most`.
pub fn activate(game: &Game, pos: &mut Position, level: u8, rows: i8) -> bool {
    let Some(slide) = &game.slide else { return false };
    let l = level as usize;
    if !slide.slides(l) || rows == 0 || rows.unsigned_abs() > slide.out_max {
        return false;
    }
    if pos.frame.as_ref().is_some_and(|f| f.levels.get(l).is_some_and(|s| !s.at_rest())) {
        return false;
    }
    let levels = slide.axes.len();
    let frame = pos.frame.get_or_insert_with(|| Box::new(Frame { levels: vec![LevelState::default(); levels] }));
    frame.levels[l] = LevelState { offset: rows, swing: Some(Swing { peak: rows, outward: false, pass: 0, wait: true }) };
    true
}

/// Does the next [`tick`] leave every level where it is (no level swings
/// but those that wait for their first jump)? The frame's tables are then
/// the same after it.
pub fn tick_keeps_offsets(pos: &Position) -> bool {
    pos.frame.as_ref().is_none_or(|f| f.levels.iter().all(|l| l.swing.is_none_or(|s| s.wait)))
}

/// The end of a complete ply: every swinging level moves by its program
/// (`swing N row per ply`) towards its current target; one that comes back
/// to rest with no overshoot left stops. The frame becomes `None` when every
/// level is at rest.
pub fn tick(game: &Game, pos: &mut Position) {
    let (Some(slide), Some(frame)) = (&game.slide, pos.frame.as_mut()) else { return };
    let rule = slide.swing;
    for level in &mut frame.levels {
        let Some(swing) = level.swing.as_mut() else { continue };
        if swing.wait {
            swing.wait = false;
            continue;
        }
        let target = if swing.outward { swing.peak } else { 0 };
        let distance = i16::from(target) - i16::from(level.offset);
        let by = distance.clamp(-i16::from(rule.rows), i16::from(rule.rows));
        level.offset = (i16::from(level.offset) + by) as i8;
        if level.offset != target {
            continue;
        }
        if swing.outward {
            swing.outward = false;
            continue;
        }
        // Back at rest: overshoot, or stop.
        let next = swing.peak.unsigned_abs().saturating_sub(rule.shrink);
        if next == 0 || (rule.once && swing.pass >= 1) {
            level.swing = None;
        } else {
            let sign = -swing.peak.signum();
            *swing = Swing { peak: sign * next as i8, outward: true, pass: swing.pass.saturating_add(1), wait: false };
        }
    }
    if frame.at_rest() {
        pos.frame = None;
    }
}

/// Every activation allowed in `pos`: each level that slides and is at
/// rest, with each signed amount `+1, -1, +2, -2, …` up to `out at most`.
/// Empty without a `slide` item.
pub fn activations(game: &Game, pos: &Position) -> Vec<(u8, i8)> {
    let Some(slide) = &game.slide else { return Vec::new() };
    let mut out = Vec::with_capacity(slide.axes.len() * 2 * slide.out_max as usize);
    for level in 0..slide.axes.len() {
        if !can_pull(game, pos, level) {
            continue;
        }
        for rows in 1..=slide.out_max as i8 {
            out.push((level as u8, rows));
            out.push((level as u8, -rows));
        }
    }
    out
}

/// Is some activation offered at `pos` ([`activations`] not empty),
/// without listing them?
pub fn any_activation(game: &Game, pos: &Position) -> bool {
    game.slide.as_ref().is_some_and(|slide| slide.out_max >= 1 && (0..slide.axes.len()).any(|level| can_pull(game, pos, level)))
}

/// May `level` be pulled out at `pos`: it slides, and rests?
fn can_pull(game: &Game, pos: &Position, level: usize) -> bool {
    let resting = pos.frame.as_ref().is_none_or(|f| f.levels.get(level).is_none_or(LevelState::at_rest));
    game.slide.as_ref().is_some_and(|slide| slide.slides(level)) && resting
}

// ---- text ------------------------------------------------------------------

/// Writes a frame as the value of the position text's `frame=` key: the
/// levels not at rest, in level order, separated by commas, each
/// `LABEL:OFFSET` (signed, e.g. `IV:+7`), then for a swinging level `<PEAK`
/// (coming back from the extreme `PEAK`) or `>PEAK` (heading out to it),
/// `/N` when `N ≥ 1` overshoots have begun, and `*` while the level waits
/// for its first jump. Example: `IV:+7<+7*,I:-2>-6/1`.
pub fn write(game: &Game, frame: &Frame) -> String {
    let Some(slide) = &game.slide else { return String::new() };
    let labels = &game.geometry.axes[slide.stack_axis].labels;
    let mut parts = Vec::new();
    for (l, state) in frame.levels.iter().enumerate() {
        if state.at_rest() {
            continue;
        }
        let mut s = format!("{}:{:+}", labels[l], state.offset);
        if let Some(sw) = state.swing {
            s.push(if sw.outward { '>' } else { '<' });
            s.push_str(&format!("{:+}", sw.peak));
            if sw.pass > 0 {
                s.push_str(&format!("/{}", sw.pass));
            }
            if sw.wait {
                s.push('*');
            }
        }
        parts.push(s);
    }
    parts.join(",")
}

/// A problem in a `frame=` value: byte range inside the value and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// Start of the offending text, relative to the value.
    pub start: usize,
    /// End of it.
    pub end: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a `frame=` value written by [`write`]. Levels not named are at rest.
pub fn parse(game: &Game, text: &str) -> Result<Option<Frame>, TextError> {
    let Some(slide) = &game.slide else {
        return Err(TextError { start: 0, end: text.len(), message: "this variant has no sliding levels (no `slide` item)".into() });
    };
    let geo = &game.geometry;
    let labels = &geo.axes[slide.stack_axis].labels;
    let mut frame = Frame { levels: vec![LevelState::default(); slide.axes.len()] };
    let mut at = 0usize;
    for entry in text.split(',') {
        let start = at;
        at += entry.len() + 1;
        let bad = |message: String| TextError { start, end: start + entry.len().max(1), message };
        let Some((label, rest)) = entry.split_once(':') else {
            return Err(bad(format!("`{entry}` is not `LEVEL:OFFSET` (e.g. `{}:+3`)", labels.last().map_or("I", |l| l.as_str()))));
        };
        let Some(l) = labels.iter().position(|x| x == label) else {
            return Err(bad(format!("`{label}` is not a level (the levels are {})", labels.join(" "))));
        };
        if !slide.slides(l) {
            return Err(bad(format!("level {label} does not slide")));
        }
        if frame.levels[l] != LevelState::default() {
            return Err(bad(format!("level {label} is given twice")));
        }
        let number_end = |s: &str| {
            let mut n = 0;
            for (i, c) in s.char_indices() {
                if (i == 0 && (c == '+' || c == '-')) || c.is_ascii_digit() {
                    n = i + 1;
                } else {
                    break;
                }
            }
            n
        };
        let signed = |s: &str| -> Option<i8> { s.parse::<i8>().ok() };
        let n = number_end(rest);
        let offset = signed(&rest[..n]).ok_or_else(|| bad(format!("`{}` is not a signed number of rows", &rest[..n])))?;
        let max = slide.out_max as i8;
        if offset.unsigned_abs() > slide.out_max {
            return Err(bad(format!("level {label} is pulled out {} rows, more than `out at most {max}`", offset.unsigned_abs())));
        }
        let mut rest = &rest[n..];
        let mut state = LevelState { offset, swing: None };
        if let Some(dir) = rest.chars().next().filter(|c| *c == '<' || *c == '>') {
            rest = &rest[1..];
            let n = number_end(rest);
            let peak = signed(&rest[..n]).filter(|p| *p != 0).ok_or_else(|| bad("a swing needs its extreme after `<` or `>`, e.g. `<+7`".into()))?;
            rest = &rest[n..];
            let mut pass = 0u8;
            if let Some(r) = rest.strip_prefix('/') {
                let n = r.chars().take_while(char::is_ascii_digit).count();
                pass = r[..n].parse().map_err(|_| bad("`/` is followed by the number of overshoots begun".into()))?;
                rest = &r[n..];
            }
            let wait = match rest {
                "*" => true,
                "" => false,
                _ => return Err(bad(format!("unexpected `{rest}`"))),
            };
            // The states a swing passes through: heading out (an overshoot)
            // short of its extreme; coming back, not yet at rest; waiting only
            // right after being pulled.
            let outward = dir == '>';
            let consistent = peak.unsigned_abs() <= slide.out_max
                && offset.signum() * peak.signum() >= 0
                && if outward { offset.unsigned_abs() < peak.unsigned_abs() && pass >= 1 } else { offset != 0 && offset.unsigned_abs() <= peak.unsigned_abs() }
                && !(wait && (outward || pass > 0 || offset != peak));
            if !consistent {
                return Err(bad(format!("no swing of level {label} is at {offset:+} {dir}{peak:+}{}", if wait { " and waiting" } else { "" })));
            }
            state.swing = Some(Swing { peak, outward: dir == '>', pass, wait });
        } else if !rest.is_empty() {
            return Err(bad(format!("unexpected `{rest}` after the offset (a swing is written `<PEAK` or `>PEAK`)")));
        }
        frame.levels[l] = state;
    }
    Ok(if frame.at_rest() { None } else { Some(frame) })
}

// ---- tables per frame ---------------------------------------------------------

/// The most frames whose tables a [`FrameCache`] keeps. A 4D-Schach node
/// whose ply ends in an activation meets 98 new frames (7 levels × 14
/// amounts), and the swings below it more, so the cache holds several
/// nodes' worth. A frame's tables build the rays of a piece on a cell only
/// when asked for them ([`Tables::for_frame`]): a 4D-Schach frame's take
/// about 120 KiB before that (measured: 98 frames in 14 ms and, with the
/// rays of the pieces a perft meets, 32 MB of resident memory for the
/// post-opening perft 3 at rest, 105 MB when every frame's rays were built
/// at once), so the cache stays small.
pub const FRAME_CACHE_FRAMES: usize = 256;

/// One frame's tables, with when they were last used.
struct Entry {
    tables: Arc<Tables>,
    /// The cache's clock at the last use (shared with the threads' slots,
    /// [`LOCAL`], which mark their own uses in it).
    used: Arc<AtomicU64>,
}

/// The move tables of the frames met so far, by offsets (built lazily; at
/// most [`FRAME_CACHE_FRAMES`] kept: when it is full, the least recently
/// used frame's tables make room, and are rebuilt if met again). Their
/// Zobrist keys are the resting tables' own, shared.
pub struct FrameCache {
    /// By the frame's offsets (hashed with rustc-hash's Fx: a key is a few
    /// bytes, and this lookup runs at every node with a level out of rest).
    tables: RwLock<rustc_hash::FxHashMap<Vec<i8>, Entry>>,
    clock: AtomicU64,
    /// Tells this cache apart from every other one in the process (for the
    /// per-thread slots, [`LOCAL`]).
    id: u64,
}

impl Default for FrameCache {
    fn default() -> FrameCache {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        FrameCache { tables: RwLock::default(), clock: AtomicU64::new(0), id: NEXT_ID.fetch_add(1, Ordering::Relaxed) }
    }
}

/// One thread's slot for a frame it looked up: the cache's id, the frame's
/// offsets as one word ([`packed`]), its tables (weakly: the shared map
/// decides what is kept, so the threads' slots add no memory) and the
/// shared map's use mark of the frame.
type Slot = (u64, u64, std::sync::Weak<Tables>, Arc<AtomicU64>);

/// The first eight offsets as one word: two frames with eight levels or
/// fewer and the same length are the same exactly when their words are.
fn packed(offsets: &[i8]) -> u64 {
    offsets.iter().take(8).enumerate().fold(0, |w, (i, &o)| w | u64::from(o as u8) << (8 * i))
}

/// How many slots each thread has in [`LOCAL`] (a power of two). A
/// 4D-Schach node whose decisions are activations meets up to 98 frames,
/// one after another, at each of the positions below one decision, and
/// judging each activation's ply looks up a second frame (after the
/// levels' jump): the slots hold them all, so that each lookup after the
/// first is one slot compared, without the shared lock and clock that
/// every thread of a parallel count would otherwise touch. (With 256
/// slots a third of those lookups met another frame in their slot.)
const LOCAL_SLOTS: usize = 2048;

thread_local! {
    /// The frames this thread looked up, by a hash of their offsets
    /// (one frame per slot; a frame of more than eight levels is never
    /// kept here, its offsets being more than the word).
    static LOCAL: std::cell::RefCell<Vec<Option<Slot>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl std::fmt::Debug for FrameCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.tables.read().map(|m| m.len()).unwrap_or(0);
        f.debug_struct("FrameCache").field("frames", &n).finish()
    }
}

impl FrameCache {
    /// The tables of `game` with the levels at `offsets`, built on first
    /// use; `base` is the variant's resting tables (their Zobrist keys are shared).
    pub fn get(&self, game: &Arc<Game>, base: &Tables, offsets: &[i8]) -> Arc<Tables> {
        if offsets.len() > 8 {
            return self.get_shared(game, base, offsets).0;
        }
        let word = packed(offsets) ^ (offsets.len() as u64) << 60;
        let slot = (word ^ self.id).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32 & (LOCAL_SLOTS as u64 - 1);
        let slot = slot as usize;
        let kept = LOCAL.with(|l| {
            let l = l.borrow();
            let (id, w, tables, used) = l.get(slot)?.as_ref()?;
            if *id != self.id || *w != word {
                return None;
            }
            let t = tables.upgrade()?;
            // The shared map's clock moves only when it is asked; mark this
            // use when it has moved on (a store each time would make every
            // thread's uses of one frame contend for its mark).
            let now = self.clock.load(Ordering::Relaxed);
            if used.load(Ordering::Relaxed) != now {
                used.store(now, Ordering::Relaxed);
            }
            Some(t)
        });
        if let Some(t) = kept {
            return t;
        }
        let (t, used) = self.get_shared(game, base, offsets);
        LOCAL.with(|l| {
            let mut l = l.borrow_mut();
            if l.len() < LOCAL_SLOTS {
                l.resize(LOCAL_SLOTS, None);
            }
            l[slot] = Some((self.id, word, Arc::downgrade(&t), used));
        });
        t
    }

    /// [`FrameCache::get`] from the shared map: the tables and their use mark.
    fn get_shared(&self, game: &Arc<Game>, base: &Tables, offsets: &[i8]) -> (Arc<Tables>, Arc<AtomicU64>) {
        let now = self.clock.fetch_add(1, Ordering::Relaxed) + 1;
        if let Ok(map) = self.tables.read() {
            if let Some(e) = map.get(offsets) {
                e.used.store(now, Ordering::Relaxed);
                return (Arc::clone(&e.tables), Arc::clone(&e.used));
            }
        }
        let built = Arc::new(Tables::for_frame(game, offsets, base));
        let used = Arc::new(AtomicU64::new(now));
        match self.tables.write() {
            Ok(mut map) => {
                if let Some(e) = map.get(offsets) {
                    // Another thread built them meanwhile.
                    return (Arc::clone(&e.tables), Arc::clone(&e.used));
                }
                if map.len() >= FRAME_CACHE_FRAMES {
                    let oldest = map.iter().min_by_key(|(_, e)| e.used.load(Ordering::Relaxed)).map(|(k, _)| k.clone());
                    if let Some(k) = oldest {
                        map.remove(&k);
                    }
                }
                map.insert(offsets.to_vec(), Entry { tables: Arc::clone(&built), used: Arc::clone(&used) });
                (built, used)
            }
            Err(_) => (built, used),
        }
    }

    /// How many frames have tables.
    pub fn len(&self) -> usize {
        self.tables.read().map(|m| m.len()).unwrap_or(0)
    }

    /// No frame has tables yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The tables a position uses: the variant's own, or a frame's.
#[derive(Clone)]
pub enum TablesRef<'a> {
    /// The resting geometry's tables.
    Base(&'a Tables),
    /// A frame's tables.
    Framed(Arc<Tables>),
}

impl std::ops::Deref for TablesRef<'_> {
    type Target = Tables;
    fn deref(&self) -> &Tables {
        match self {
            TablesRef::Base(t) => t,
            TablesRef::Framed(t) => t,
        }
    }
}

/// The absolute position of `cell` (its local coordinates, shifted by its
/// level's offset on the level's slide axis), for views and tests.
pub fn absolute(game: &Game, frame: Option<&Frame>, cell: Cell) -> Vec<i64> {
    absolute_with(game, |level| frame.and_then(|f| f.levels.get(level)).map_or(0, |l| l.offset), cell)
}

/// [`absolute`] with the levels' offsets given by `offset` (per level).
pub fn absolute_with(game: &Game, offset: impl Fn(usize) -> i8, cell: Cell) -> Vec<i64> {
    let mut c = vec![0; game.geometry.dims()];
    absolute_into(game, offset, cell, &mut c);
    c
}

/// [`absolute_with`] written into `out` (a component per axis), for a
/// caller that works out every cell's (a frame's tables) without a vector
/// each.
pub fn absolute_into(game: &Game, offset: impl Fn(usize) -> i8, cell: Cell, out: &mut [i64]) {
    let geo: &Geometry = &game.geometry;
    for (x, &c) in out.iter_mut().zip(geo.coords_of(cell)) {
        *x = i64::from(c);
    }
    if let Some(slide) = &game.slide {
        let level = out.get(slide.stack_axis).map_or(0, |&l| l as usize);
        if let Some(Some(axis)) = slide.axes.get(level) {
            if let Some(x) = out.get_mut(*axis) {
                *x += i64::from(offset(level));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// In frames of the example tower and of 4D-Schach (random levels out
    /// by random rows, one level to all of them), every cell's unit step up
    /// and down the stack from [`stack_steps`] is [`step`]'s. Some steps
    /// must cross a black hole (land two or more levels on) and some must
    /// leave the board from a cell out of the shaft, so that both ways
    /// through the walk are compared.
    #[test]
    fn stack_steps_are_the_unit_steps() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut below = crate::flow::ply::below_from(0x9E37_79B9_7F4A_7C15);
        let (mut holes, mut outside, mut compared) = (0u32, 0u32, 0u32);
        for file in ["examples/sliding-levels.rules", "rules/4d-schach.rules"] {
            let Ok((game, _)) = crate::model::load::load(&root.join(file)) else { panic!("{file} loads") };
            let game = Arc::new(game);
            let Some(slide) = game.slide.as_ref() else { panic!("{file} slides") };
            let (levels, s) = (slide.axes.len(), slide.stack_axis);
            for _ in 0..40 {
                let offsets = random_offsets(slide, &mut below);
                for forward in [true, false] {
                    let Some(steps) = stack_steps(&game, &offsets, forward) else { panic!("{file} slides") };
                    let mut v = vec![0i32; game.geometry.dims()];
                    v[s] = if forward { 1 } else { -1 };
                    for from in 0..game.geometry.cells() as Cell {
                        let by_step = if game.geometry.on_board[from as usize] { step(&game, &offsets, from, &v) } else { None };
                        assert_eq!(steps[from as usize], by_step.unwrap_or(NO_CELL), "{file} {offsets:?} from {}", game.geometry.name(from));
                        compared += 1;
                        let level = |c: Cell| i64::from(game.geometry.coords_of(c)[s]);
                        match by_step {
                            Some(to) if (level(to) - level(from)).abs() > 1 => holes += 1,
                            None if game.geometry.on_board[from as usize] && (1..levels as i64 - 1).contains(&level(from)) => outside += 1,
                            _ => {}
                        }
                    }
                }
            }
        }
        assert!(holes > 100 && outside > 100, "{compared} steps compared: {holes} across a black hole, {outside} off the board from a middle level");
    }
}

/// For tests: offsets of a random frame of `slide`'s levels, drawn by
/// `below(n)`: some number of the sliding levels (one to all, each with
/// that chance) out by a random number of rows either way up to `out at
/// most` (0 too), the others at rest.
#[cfg(test)]
pub(crate) fn random_offsets(slide: &crate::model::slide::SlideRules, below: &mut impl FnMut(usize) -> usize) -> Vec<i8> {
    let (out, levels) = (usize::from(slide.out_max), slide.axes.len());
    let moved = 1 + below(levels);
    (0..levels).map(|l| if slide.slides(l) && below(levels) < moved { below(2 * out + 1) as i8 - out as i8 } else { 0 }).collect()
}
