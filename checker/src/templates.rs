//! Move templates: every way a piece kind may move from one cell to another,
//! with the cells that must be empty or occupied on the way, derived from the
//! model's movement parts (not from the interpreter's compiled tables, so that
//! the trust test compares two derivations of the same rules).
//!
//! A template is geometry only: whether it applies in a position depends on
//! the cells it names, which is what the Z3 encoding states.

use rulebook_interpreter::engine::frame::Frame;
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Color, Game, KindId, StepKind};

/// Up to this many passed cells become en-passant targets (as in the interpreter).
pub const MAX_EP: usize = 4;

/// One way a piece of `kind` owned by a player may go from `from` to `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// The moving kind.
    pub kind: KindId,
    /// The index of the movement part in `PieceKind::parts`.
    pub part: usize,
    /// Start cell.
    pub from: Cell,
    /// Landing cell.
    pub to: Cell,
    /// Cells that must be empty (the path, and for a hop the cells beyond the screen).
    pub empty: Vec<Cell>,
    /// For a hop: the cell that must be occupied (by anything).
    pub screen: Option<Cell>,
    /// May land on an empty cell.
    pub quiet: bool,
    /// May capture an enemy piece on `to`.
    pub capture: bool,
    /// May capture en passant when `to` is an en-passant target.
    pub takes_ep: bool,
    /// A quiet move along this template leaves these cells as en-passant targets.
    pub passes: Vec<Cell>,
}

/// The templates of both players.
#[derive(Clone, Debug)]
pub struct Templates {
    /// Per player, every template.
    pub by_player: [Vec<Template>; 2],
}

impl Templates {
    /// Derives the templates of every piece kind of `game` (every level of a
    /// `slide` item at rest).
    pub fn new(game: &Game) -> Templates {
        Templates::for_frame(game, &[])
    }

    /// The templates with the levels of the `slide` item pulled out by
    /// `offsets` (per level; missing ones at rest), stepping as LANGUAGE.md
    /// §3.18 says ([`frame_step`]).
    pub fn for_frame(game: &Game, offsets: &[i8]) -> Templates {
        let by_player = [0u8, 1u8].map(|color| player_templates(game, color, offsets));
        Templates { by_player }
    }
}

/// One step `v` from `at` with the levels at `offsets`, written from
/// LANGUAGE.md §3.18 (not from the interpreter's `frame::step`, so that the
/// trust test compares two derivations): a step with no component along the
/// stacking axis stays in its level and ignores the frame. One with a
/// component `dl` is taken in shaft coordinates: the origin must stand in
/// the shaft, the target place (the origin's absolute place plus the other
/// components) must lie in the shaft, and the target is the `|dl|`-th level
/// in the step's direction that has a cell (or a hole: then nothing) there.
pub fn frame_step(game: &Game, offsets: &[i8], at: Cell, v: &[i32]) -> Option<Cell> {
    let geo = &game.geometry;
    let Some(slide) = &game.slide else { return geo.offset(at, v) };
    let stack = slide.stack_axis;
    let dl = v.get(stack).copied().unwrap_or(0);
    if dl == 0 {
        return geo.offset(at, v);
    }
    let dims = geo.dims();
    let offset = |level: usize| -> (Option<usize>, i64) {
        let axis = slide.axes.get(level).copied().flatten();
        (axis, axis.map_or(0, |_| i64::from(offsets.get(level).copied().unwrap_or(0))))
    };
    let local: Vec<i64> = geo.coords(at).iter().map(|&c| c as i64).collect();
    let level = local[stack];
    // The origin's place in the shaft.
    let mut place = local.clone();
    if let (Some(axis), off) = offset(level as usize) {
        place[axis] += off;
    }
    let in_shaft = |p: &[i64]| (0..dims).filter(|&a| a != stack).all(|a| p[a] >= 0 && p[a] < geo.size(a) as i64);
    if !in_shaft(&place) {
        return None;
    }
    for a in (0..dims).filter(|&a| a != stack) {
        place[a] += i64::from(v[a]);
    }
    if !in_shaft(&place) {
        return None;
    }
    // The |dl|-th level in the step's direction with a cell of its own at that place.
    let mut remaining = dl.unsigned_abs();
    let mut l = level;
    loop {
        l += i64::from(dl.signum());
        if l < 0 || l >= geo.size(stack) as i64 {
            return None;
        }
        let mut target = place.clone();
        target[stack] = l;
        if let (Some(axis), off) = offset(l as usize) {
            target[axis] -= off;
        }
        let has = (0..dims).filter(|&a| a != stack).all(|a| target[a] >= 0 && target[a] < geo.size(a) as i64);
        if has {
            remaining -= 1;
            if remaining == 0 {
                return geo.cell(&target);
            }
        }
    }
}

/// The offsets of the levels after the jump at the end of a complete ply,
/// written from LANGUAGE.md §3.18 (not from the interpreter's
/// `frame::tick`, so that the trust test compares two derivations): a
/// freshly pulled level waits one ply; a swinging one moves `swing N` rows
/// towards the extreme it heads for (rest when coming back, the
/// overshoot's extreme when heading out), never past it. Where it turns
/// and how far it overshoots is the swing's state for later jumps (kept
/// in the frame), not this jump's offset. A level that does not swing
/// keeps its offset.
pub fn offsets_after_jump(game: &Game, frame: &Frame) -> Vec<i8> {
    let Some(slide) = &game.slide else { return Vec::new() };
    let rule = slide.swing;
    frame
        .levels
        .iter()
        .map(|level| {
            let Some(swing) = level.swing else { return level.offset };
            if swing.wait {
                return level.offset;
            }
            let heading = if swing.outward { swing.peak } else { 0 };
            let rows = i16::from(rule.rows);
            let gap = i16::from(heading) - i16::from(level.offset);
            (i16::from(level.offset) + gap.clamp(-rows, rows)) as i8
        })
        .collect()
}

fn player_templates(game: &Game, color: Color, offsets: &[i8]) -> Vec<Template> {
    let geo = &game.geometry;
    let max_len = (0..geo.dims()).map(|a| geo.size(a)).max().unwrap_or(1) as u32;
    let mut out = Vec::new();
    for (k, kind) in game.kinds.iter().enumerate() {
        for (pi, part) in kind.parts.iter().enumerate() {
            for from in geo.board_cells() {
                if let Some(zone) = &part.from {
                    if !zone[color as usize].contains(&from) {
                        continue;
                    }
                }
                let base = Template {
                    kind: k as KindId,
                    part: pi,
                    from,
                    to: from,
                    empty: Vec::new(),
                    screen: None,
                    quiet: part.quiet,
                    capture: part.capture,
                    takes_ep: part.takes_en_passant && part.capture && part.kind != StepKind::Hop,
                    passes: Vec::new(),
                };
                let limit = match part.kind {
                    StepKind::Leap => 1,
                    _ => part.max.unwrap_or(max_len).min(max_len),
                };
                for v in &part.vectors[color as usize] {
                    // The cells along `v` from `from`, to the edge.
                    let mut line = Vec::new();
                    let mut at = from;
                    // `within ZONE` (LANGUAGE §3.5): a move lands only in the zone, a ride stops at its edge.
                    let inside = |c: Cell| part.within.as_ref().is_none_or(|z| z[color as usize].contains(&c));
                    while let Some(next) = frame_step(game, offsets, at, v).filter(|&c| inside(c)) {
                        line.push(next);
                        at = next;
                        if part.kind == StepKind::Leap {
                            break;
                        }
                    }
                    match part.kind {
                        StepKind::Leap if part.lame => {
                            // A lame leap needs its passed cells empty (§3.5,
                            // `rulebook_interpreter::model::lame_path`).
                            let passed: Option<Vec<Cell>> = rulebook_interpreter::model::lame_path(v).iter().map(|p| frame_step(game, offsets, from, p)).collect();
                            if let (Some(&to), Some(empty)) = (line.first(), passed) {
                                out.push(Template { to, empty, ..base.clone() });
                            }
                        }
                        StepKind::Leap => {
                            if let Some(&to) = line.first() {
                                out.push(Template { to, ..base.clone() });
                            }
                        }
                        StepKind::Ride => {
                            let n = line.len().min(limit as usize);
                            let range = if part.exact {
                                if n < limit as usize {
                                    continue;
                                }
                                n - 1..n
                            } else {
                                0..n
                            };
                            for j in range {
                                let passes = if part.sets_en_passant && part.quiet && j > 0 {
                                    line[..j.min(MAX_EP)].to_vec()
                                } else {
                                    Vec::new()
                                };
                                out.push(Template { to: line[j], empty: line[..j].to_vec(), passes, ..base.clone() });
                            }
                        }
                        StepKind::Hop => {
                            for s in 0..line.len() {
                                let end = line.len().min(s + 1 + limit as usize);
                                for j in s + 1..end {
                                    let mut empty = line[..s].to_vec();
                                    empty.extend_from_slice(&line[s + 1..j]);
                                    out.push(Template { to: line[j], empty, screen: Some(line[s]), ..base.clone() });
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}
