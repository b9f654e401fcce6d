//! Where a piece alone on an empty board can go, from its movement parts:
//! the data a movement diagram draws. Everything comes from the parts'
//! vectors (the first player's), their step kind, `max`, `exact`, `from`
//! zones and `via step`; nothing from the piece's name.

use rulebook_interpreter::model::geometry::{Cell, Geometry};
use rulebook_interpreter::model::{Game, KindId, Part, StepKind};
use std::collections::{BTreeMap, BTreeSet};

/// What the piece can do on one cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Target {
    /// Reached by a quiet part that may be used anywhere.
    pub quiet: bool,
    /// Reached by a capturing part that may be used anywhere.
    pub capture: bool,
    /// Reached only by a part limited to a start zone (`from …`).
    pub initial: bool,
}

impl Target {
    /// The marker class: `both`, `quiet`, `capture` or `initial`.
    pub fn class(&self) -> &'static str {
        match (self.quiet, self.capture) {
            (true, true) => "both",
            (true, false) => "quiet",
            (false, true) => "capture",
            (false, false) => "initial",
        }
    }
}

/// How a line from the piece is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// A ride usable anywhere.
    Ride,
    /// A ride limited to a start zone.
    Initial,
    /// A hop: the piece needs a screen on the line and lands beyond it.
    Hop,
}

/// A line from the piece along one direction of a ride or hop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The cells along it, nearest first (the origin excluded).
    pub cells: Vec<Cell>,
    /// How it is drawn.
    pub kind: LineKind,
}

/// A hop part, for the legend: what it may do and how far beyond the screen it lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopRule {
    /// May land on an empty cell.
    pub quiet: bool,
    /// May capture.
    pub capture: bool,
    /// Most cells beyond the screen (`None`: any).
    pub beyond: Option<u32>,
}

/// A piece's reach from one cell of an empty board.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    /// The cell it stands on.
    pub origin: Cell,
    /// The cells it reaches and how.
    pub targets: BTreeMap<Cell, Target>,
    /// Lines along its rides and hops.
    pub lines: Vec<Line>,
    /// Cells a leap `via step` passes (where it can be seen).
    pub via: BTreeSet<Cell>,
    /// Its hop parts that have at least one line here.
    pub hops: Vec<HopRule>,
    /// Some part is limited to a start zone that holds `origin`.
    pub has_initial: bool,
}

/// The cell nearest to the board's centre among `cells` (ties: the lowest
/// index, so an 8×8 board gives d4).
fn nearest_centre(geo: &Geometry, cells: impl Iterator<Item = Cell>) -> Option<Cell> {
    cells.min_by_key(|&c| {
        let d: i64 = geo
            .coords(c)
            .iter()
            .enumerate()
            .map(|(a, &x)| {
                let off = 2 * x as i64 - (geo.size(a) as i64 - 1);
                off * off
            })
            .sum();
        (d, c)
    })
}

/// Where the diagram puts the piece: the central cell, or, when the piece
/// has parts limited to start zones that do not hold it, the cell of those
/// zones (of all of them if they share one, else of the first) nearest to the centre.
pub fn origin(game: &Game, kind: KindId) -> Option<Cell> {
    let geo = &game.geometry;
    let parts = &game.kinds.get(kind as usize)?.parts;
    let zones: Vec<&Vec<Cell>> = parts.iter().filter_map(|p| p.from.as_ref().map(|z| &z[0])).collect();
    let Some(first) = zones.first() else {
        return nearest_centre(geo, geo.board_cells());
    };
    let on = |c: &Cell| geo.on_board.get(*c as usize).copied().unwrap_or(false);
    let shared: Vec<Cell> = first.iter().copied().filter(|c| on(c) && zones.iter().all(|z| z.contains(c))).collect();
    let chosen = if shared.is_empty() { first.iter().copied().filter(on).collect() } else { shared };
    nearest_centre(geo, chosen.into_iter()).or_else(|| nearest_centre(geo, geo.board_cells()))
}

/// The reach of a piece of `kind` standing on `origin`, for the first player.
pub fn reach(game: &Game, kind: KindId, origin: Cell) -> Reach {
    let mut r = Reach { origin, ..Reach::default() };
    let Some(piece) = game.kinds.get(kind as usize) else { return r };
    for part in &piece.parts {
        let initial = match &part.from {
            Some(zone) if !zone[0].contains(&origin) => continue,
            Some(_) => true,
            None => false,
        };
        r.has_initial |= initial;
        match part.kind {
            StepKind::Leap => leap(game, part, initial, &mut r),
            StepKind::Ride => ride(game, part, initial, &mut r),
            StepKind::Hop => hop(game, part, &mut r),
        }
    }
    r
}

/// Records that `part` reaches `cell`.
fn add(r: &mut Reach, cell: Cell, part: &Part, initial: bool) {
    // `within ZONE`: the first player's zone bounds where it lands.
    if part.within.as_ref().is_some_and(|z| !z[0].contains(&cell)) {
        return;
    }
    let t = r.targets.entry(cell).or_default();
    if initial {
        t.initial = true;
    } else {
        t.quiet |= part.quiet;
        t.capture |= part.capture;
    }
}

/// The cells a leap reaches, and the cells a leap `via step` passes.
fn leap(game: &Game, part: &Part, initial: bool, r: &mut Reach) {
    let geo = &game.geometry;
    for v in &part.vectors[0] {
        let Some(to) = geo.offset(r.origin, v) else { continue };
        add(r, to, part, initial);
        if part.lame {
            // Every cell a lame leap passes (`rulebook_interpreter::model::lame_path`).
            for p in rulebook_interpreter::model::lame_path(v) {
                if let Some(via) = geo.offset(r.origin, &p).filter(|&c| c != to) {
                    r.via.insert(via);
                }
            }
        } else if part.via_step {
            // One step along the leap's longest components, as the engine's `path`.
            let longest = v.iter().map(|x| x.abs()).max().unwrap_or(0);
            let step: Vec<i32> = v.iter().map(|&x| if x.abs() == longest { x.signum() } else { 0 }).collect();
            if let Some(via) = geo.offset(r.origin, &step).filter(|&c| c != to) {
                r.via.insert(via);
            }
        }
    }
}

/// The cells from the origin along `v`, at most `max` of them.
fn walk(geo: &Geometry, from: Cell, v: &[i32], max: Option<u32>) -> Vec<Cell> {
    let mut cells = Vec::new();
    let mut at = from;
    while max.is_none_or(|m| (cells.len() as u32) < m) {
        match geo.offset(at, v) {
            Some(next) if next != from => {
                cells.push(next);
                at = next;
            }
            _ => break,
        }
    }
    cells
}

/// The cells a ride reaches (only the last for an `exact` ride) and its lines.
fn ride(game: &Game, part: &Part, initial: bool, r: &mut Reach) {
    let geo = &game.geometry;
    for v in &part.vectors[0] {
        if v.iter().all(|&x| x == 0) {
            continue;
        }
        let cells = walk(geo, r.origin, v, part.max);
        if cells.is_empty() {
            continue;
        }
        if part.exact {
            // Only the last cell, and only when the ride can go all `max` steps.
            if part.max.is_some_and(|m| cells.len() as u32 == m) {
                if let Some(&last) = cells.last() {
                    add(r, last, part, initial);
                }
            } else {
                continue;
            }
        } else {
            for &c in &cells {
                add(r, c, part, initial);
            }
        }
        r.lines.push(Line { cells, kind: if initial { LineKind::Initial } else { LineKind::Ride } });
    }
}

/// A hop's lines (its landing cells depend on a screen, so none are marked).
fn hop(game: &Game, part: &Part, r: &mut Reach) {
    let geo = &game.geometry;
    let mut any = false;
    for v in &part.vectors[0] {
        if v.iter().all(|&x| x == 0) {
            continue;
        }
        // A screen and at least one cell beyond it.
        let cells = walk(geo, r.origin, v, None);
        if cells.len() >= 2 {
            r.lines.push(Line { cells, kind: LineKind::Hop });
            any = true;
        }
    }
    let rule = HopRule { quiet: part.quiet, capture: part.capture, beyond: part.max };
    if any && !r.hops.contains(&rule) {
        r.hops.push(rule);
    }
}
