//! Obligations created by rules (`rule … on ply-end  if …  then PLAYER must …`).
//!
//! At the end of every decision after which nothing is owed, the `ply-end`
//! rules with an `oblige` effect are evaluated, each for the ply's mover as
//! the subject first and then for the other player. The first rule that
//! holds queues its steps: for `relocate inner pieces to another AXIS`, one
//! compulsory relocation per inner piece (every piece of a line but its two
//! ends) of every line the guard's first `line` atom finds; for `activate`,
//! one compulsory activation. The ply goes on with those decisions, and when
//! they are made the rules are evaluated again; the ply ends only when none
//! holds. Only one rule fires at a time, so a group dissolved by an earlier
//! obligation (an activation that slides its level away) obliges nothing.
//!
//! A rule does not fire forever on an unchanged position: a relocation takes
//! the inner piece off its line, which breaks the line that fired, and an
//! obligation that cannot be met (no piece on its cell any more, no empty
//! cell on another level, no level at rest) is dropped when it comes due.

use super::state::{ActionKind, Obligation};
use super::Action;
use crate::engine::frame;
use crate::engine::movegen;
use crate::engine::position::{color_of, kind_of, Position};
use crate::engine::tables::Tables;
use crate::model::cond::{Atom, Effect, ObligeAction, PieceSet, Range, Rule, Trigger, Who};
use crate::model::geometry::Cell;
use crate::model::{Color, Game};

/// Does the game have a rule that obliges (so that plies can have several decisions)?
pub fn any(game: &Game) -> bool {
    game.rules.iter().any(|r| matches!(r.effect, Effect::Oblige(_)))
}

/// The obligations the first `oblige` rule that holds in `pos` queues (empty
/// when none holds). `pos` is after a decision that completed what was owed;
/// its side to move is the ply's mover's opponent.
pub fn fire(game: &Game, t: &Tables, pos: &Position) -> Vec<Obligation> {
    let mover = pos.side ^ 1;
    for (ri, rule) in game.rules.iter().enumerate() {
        let (Trigger::PlyEnd, Effect::Oblige(steps)) = (rule.trigger, &rule.effect) else { continue };
        let subjects: &[Color] = if rule.per_subject { &[mover, mover ^ 1] } else { &[mover] };
        for &subject in subjects {
            if !rule.guard.as_ref().is_none_or(|g| crate::engine::cond::holds(game, t, pos, g, mover, subject)) {
                continue;
            }
            let mut out = Vec::new();
            for (si, step) in steps.iter().enumerate() {
                let player = resolve(step.player, mover, subject);
                let source = Some((ri as u8, si as u8));
                match step.action {
                    ObligeAction::Activate => out.push(Obligation { source, ..Obligation::plain(player, ActionKind::Activate, true) }),
                    ObligeAction::Relocate { .. } => {
                        for cell in inner_cells(game, t, pos, rule, mover, subject) {
                            out.push(Obligation { from: Some(cell), source, ..Obligation::plain(player, ActionKind::Relocate, true) });
                        }
                    }
                }
            }
            if !out.is_empty() {
                return out;
            }
        }
    }
    Vec::new()
}

fn resolve(w: Who, mover: Color, subject: Color) -> Color {
    match w {
        Who::Own => subject,
        Who::Enemy => subject ^ 1,
        Who::Mover => mover,
        Who::Opponent => mover ^ 1,
        Who::Player(c) => c,
    }
}

/// The inner cells (all but the two ends) of every unbroken line of the
/// guard's first `line` atom at least as long as its least length, in the
/// position's frame; each cell once, in board order of the lines found.
fn inner_cells(game: &Game, t: &Tables, pos: &Position, rule: &Rule, mover: Color, subject: Color) -> Vec<Cell> {
    let line = rule.guard.iter().flat_map(|g| g.any_of.iter().flatten()).find_map(|lit| match &lit.atom {
        Atom::Line { length, pieces, axes } if !lit.negated => Some((*length, *pieces, axes.clone())),
        _ => None,
    });
    let Some((length, pieces, axes)) = line else { return Vec::new() };
    let mut out = Vec::new();
    for run in runs(game, t, pos, length, pieces, &axes, resolve(pieces.who, mover, subject)) {
        for &c in &run[1..run.len() - 1] {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// Every maximal unbroken run of `owner`'s pieces of the set along one of
/// `axes` with at least `length.lo` pieces (a step along the stacking axis
/// lands on the next level present there, as `line` counts).
fn runs(game: &Game, t: &Tables, pos: &Position, length: Range, pieces: PieceSet, axes: &[usize], owner: Color) -> Vec<Vec<Cell>> {
    let offsets = frame::offsets_of(pos).unwrap_or_default();
    let dims = game.geometry.dims();
    let member = |c: Option<Cell>| {
        c.is_some_and(|c| {
            let occ = pos.board[c as usize];
            occ != 0 && color_of(occ) == owner && pieces.kind.is_none_or(|k| kind_of(occ) == k)
        })
    };
    let mut out = Vec::new();
    for &axis in axes {
        let mut fwd = vec![0i32; dims];
        fwd[axis] = 1;
        let back: Vec<i32> = fwd.iter().map(|x| -x).collect();
        for start in pos.cells_of(owner, t.nwords) {
            if !member(Some(start)) || member(frame::step(game, &offsets, start, &back)) {
                continue;
            }
            let mut run = vec![start];
            let mut at = start;
            while let Some(next) = frame::step(game, &offsets, at, &fwd).filter(|&c| member(Some(c))) {
                if run.contains(&next) {
                    break;
                }
                run.push(next);
                at = next;
            }
            if run.len() as u32 >= length.lo {
                out.push(run);
            }
        }
    }
    out
}

/// The relocations an obligation to relocate the piece on `from` offers
/// `player`: every empty cell whose coordinate on the step's axis differs
/// from `from`'s and that meets the step's guards; when no cell meets them
/// all, the `only if` condition is dropped, then `placed piece attacks no
/// enemy and is not attacked` (ruling "opening-no-cell" of
/// rules/4d-schach.rules). Empty when the piece is not there.
pub fn relocations(game: &Game, t: &Tables, pos: &Position, o: &Obligation) -> Vec<Action> {
    let Some(from) = o.from else { return Vec::new() };
    let occ = pos.board[from as usize];
    if occ == 0 || color_of(occ) != o.player {
        return Vec::new();
    }
    let step = o.source.and_then(|(r, s)| match &game.rules.get(r as usize)?.effect {
        Effect::Oblige(steps) => steps.get(s as usize),
        _ => None,
    });
    let (axis, safe, only_if) = match step.map(|s| &s.action) {
        Some(ObligeAction::Relocate { axis, safe, only_if }) => (Some(*axis), *safe, only_if.as_ref()),
        _ => (None, false, None),
    };
    let here = game.geometry.coords(from);
    let targets: Vec<Cell> = game
        .geometry
        .board_cells()
        .filter(|&c| pos.board[c as usize] == 0 && axis.is_none_or(|a| game.geometry.coords(c)[a] != here[a]))
        .collect();
    let us = o.player;
    let after = |to: Cell| {
        let mut next = pos.clone();
        let piece = next.take(from, t);
        next.put(to, piece, t);
        next
    };
    let safe_at = |next: &Position, to: Cell| {
        !movegen::attacked(game, t, next, to, us ^ 1)
            && !next.cells_of(us ^ 1, t.nwords).any(|e| movegen::piece_attacks(game, t, next, to, us, e))
    };
    let stages: [(bool, bool); 3] = [(safe, only_if.is_some()), (safe, false), (false, false)];
    for (i, &(s, c)) in stages.iter().enumerate() {
        if i > 0 && stages[i - 1] == (s, c) {
            continue;
        }
        let ok: Vec<Action> = targets
            .iter()
            .filter(|&&to| {
                if !s && !c {
                    return true;
                }
                let next = after(to);
                (!s || safe_at(&next, to)) && (!c || only_if.is_some_and(|cond| crate::engine::cond::holds(game, t, &next, cond, us, us)))
            })
            .map(|&to| Action::Relocate { from, to })
            .collect();
        if !ok.is_empty() {
            return ok;
        }
    }
    Vec::new()
}

/// What a move at a node between plies must do for an `oblige` rule to fire
/// after it (a cheap and sound pre-filter: a move it lets through may still
/// fire nothing, one it stops cannot fire anything).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Watch {
    /// No rule obliges: no move starts a longer ply.
    Nothing,
    /// A rule can fire only after a move that puts a piece of one of these
    /// (owner, kind) on a cell (`None`: any kind).
    Placing(Vec<(Color, Option<crate::model::KindId>)>),
    /// Any move may make a rule fire: every move is tried.
    Anything,
}

/// The pre-filter at `pos` (between plies, its side to move about to
/// move): for every `ply-end` `oblige` rule, every subject it is evaluated
/// for and every alternative of its guard, a positive `line N PIECES` atom
/// with no upper bound can only become true after a move that puts one of
/// the PIECES on a cell (adding pieces can only lengthen lines, and a move
/// does not change the frame), unless it already holds here. An
/// alternative without such an atom, an atom that holds already, a rule
/// without guard, a game whose moves do more than place the mover's pieces
/// (spread, tunnel) or a position with face-down pieces: [`Watch::Anything`].
pub fn watch(game: &Game, t: &Tables, pos: &Position) -> Watch {
    if !any(game) {
        return Watch::Nothing;
    }
    if game.spread.is_some() || game.tunnel.is_some() || pos.any_hidden() {
        return Watch::Anything;
    }
    let mover = pos.side;
    let cells = game.geometry.cells() as u32;
    let mut placing = Vec::new();
    for rule in &game.rules {
        let (Trigger::PlyEnd, Effect::Oblige(_)) = (rule.trigger, &rule.effect) else { continue };
        let Some(guard) = &rule.guard else { return Watch::Anything };
        let subjects: &[Color] = if rule.per_subject { &[mover, mover ^ 1] } else { &[mover] };
        for &subject in subjects {
            for alt in &guard.any_of {
                let line = alt.iter().find(|lit| matches!(&lit.atom, Atom::Line { length, .. } if !lit.negated && length.hi >= cells));
                let Some(lit) = line else { return Watch::Anything };
                let Atom::Line { pieces, .. } = &lit.atom else { return Watch::Anything };
                let alone = crate::model::cond::Cond { any_of: vec![vec![lit.clone()]] };
                if crate::engine::cond::holds(game, t, pos, &alone, mover, subject) {
                    return Watch::Anything;
                }
                let entry = (resolve(pieces.who, mover, subject), pieces.kind);
                if !placing.contains(&entry) {
                    placing.push(entry);
                }
            }
        }
    }
    if placing.is_empty() {
        Watch::Nothing
    } else {
        Watch::Placing(placing)
    }
}

impl Watch {
    /// May the move `m` of the side to move `mover` make a rule fire? (A
    /// move puts the moving piece on its target, as itself, its promotion
    /// or the identity it is revealed as; castling is always let through.)
    pub fn may_fire(&self, m: &crate::engine::position::Move, mover: Color) -> bool {
        use crate::engine::position::{MoveKind, NO_KIND};
        match self {
            Watch::Nothing => false,
            Watch::Anything => true,
            Watch::Placing(list) => {
                if m.kind == MoveKind::Castle {
                    return true;
                }
                let placed = if m.is_promotion() {
                    m.promotion
                } else if m.reveal != NO_KIND {
                    m.reveal
                } else {
                    m.piece
                };
                list.iter().any(|&(owner, kind)| owner == mover && kind.is_none_or(|k| k == placed))
            }
        }
    }
}
