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
use crate::engine::cond::AfterPlacing;
use crate::engine::frame;
use crate::engine::movegen;
use crate::engine::position::{cells_in, color_of, kind_of, Position, WORDS};
use crate::engine::tables::Tables;
use crate::model::cond::{Atom, Effect, Lit, ObligeAction, ObligeStep, PieceSet, Range, RelocateWhat, Rule, SliceCount, Trigger, Who};
use crate::model::geometry::Cell;
use crate::model::{Color, Game};

mod answers;
mod conds_memo;

use answers::Answers;
pub use conds_memo::CondsMemo;

/// Does the game have a rule that obliges (so that plies can have several decisions)?
pub fn any(game: &Game) -> bool {
    game.rules.iter().any(|r| matches!(r.effect, Effect::Oblige(_)))
}

/// The obligations the first `oblige` rule that holds in `pos` queues (empty
/// when none holds). `pos` is after a decision that completed what was owed;
/// its side to move is the ply's mover's opponent.
pub fn fire(game: &Game, t: &Tables, pos: &Position) -> Vec<Obligation> {
    fired(game, t, pos).map_or_else(Vec::new, |(_, _, owed)| owed)
}

/// [`fire`], with the rule that fired (index into `Game::rules`) and the
/// subject it held for; `None` when no rule obliges anything.
pub fn fired(game: &Game, t: &Tables, pos: &Position) -> Option<(usize, Color, Vec<Obligation>)> {
    fired_with(game, t, pos, &crate::engine::cond::RunMemo::default())
}

/// [`fired`], with the runs of pieces the guards look for kept in `memo`
/// (which must hold runs of `pos`'s board only: those of `pos` itself, or
/// those that do not depend on the frame, [`crate::engine::cond::RunMemo::forget_frame`]).
pub fn fired_with(game: &Game, t: &Tables, pos: &Position, memo: &crate::engine::cond::RunMemo) -> Option<(usize, Color, Vec<Obligation>)> {
    let mover = pos.side ^ 1;
    for (ri, subject) in holding(game, t, pos, false, memo) {
        let Effect::Oblige(steps) = &game.rules[ri].effect else { continue };
        let mut out = Vec::new();
        for (si, step) in steps.iter().enumerate() {
            let player = resolve(step.player, mover, subject);
            let source = Some((ri as u8, si as u8));
            let owe = |kind| Obligation { source, ..Obligation::plain(player, kind, step.compulsory) };
            match &step.action {
                ObligeAction::Activate => out.push(owe(ActionKind::Activate)),
                ObligeAction::Exile { .. } => out.push(owe(ActionKind::Exile)),
                ObligeAction::Return => out.push(owe(ActionKind::Return)),
                ObligeAction::Relocate { what: RelocateWhat::Pieces { .. }, .. } => out.push(owe(ActionKind::Relocate)),
                ObligeAction::Relocate { what: RelocateWhat::Inner { .. }, .. } => {
                    for cell in inner_cells(game, t, pos, &game.rules[ri], mover, subject) {
                        out.push(Obligation { from: Some(cell), ..owe(ActionKind::Relocate) });
                    }
                }
            }
        }
        if !out.is_empty() {
            return Some((ri, subject, out));
        }
    }
    None
}

/// Every `ply-end` rule (one that obliges or one that ends the game) whose
/// condition holds in `pos` for some subject, with that subject, in the
/// order [`fire`] tries them (file order, the mover first). For the flow
/// trace ([`super::FlowEvent::Fired`]): the rules after the first are those
/// that the order decided against.
pub fn holding_all(game: &Game, t: &Tables, pos: &Position) -> Vec<(usize, Color)> {
    let memo = crate::engine::cond::RunMemo::default();
    holding(game, t, pos, true, &memo).collect()
}

/// The `ply-end` rules that oblige (and, with `ends`, those that end the
/// game) whose condition holds in `pos`, each with the subject it holds
/// for, lazily, in file order and the mover first. A rule that obliges is
/// left out for a player who waived one of its steps in this ply: it does
/// not oblige that player again.
/// `memo` keeps the runs of pieces the guards look for (one position, its tables).
fn holding<'a>(game: &'a Game, t: &'a Tables, pos: &'a Position, ends: bool, memo: &'a crate::engine::cond::RunMemo) -> impl Iterator<Item = (usize, Color)> + 'a {
    let mover = pos.side ^ 1;
    let waived = pos.flow.as_ref().map_or(&[][..], |f| &f.waived[..]);
    game.rules.iter().enumerate().filter(|(_, r)| r.trigger == Trigger::PlyEnd).flat_map(move |(ri, rule)| {
        let (steps, applies): (&[ObligeStep], bool) = match &rule.effect {
            Effect::Oblige(steps) => (steps, true),
            Effect::End { .. } => (&[], ends),
            Effect::Forbid(_) | Effect::CompelCaptures | Effect::NoCapture { .. } | Effect::OnlyCaptures { .. } | Effect::LoseRight(_) => (&[], false),
        };
        let subjects = if !applies { 0 } else if rule.per_subject { 2 } else { 1 };
        [mover, mover ^ 1].into_iter().take(subjects).filter(move |&subject| {
            !steps.iter().any(|st| waived.contains(&(ri as u8, resolve(st.player, mover, subject))))
                && rule.guard.as_ref().is_none_or(|g| crate::engine::cond::holds_with(game, t, pos, g, mover, subject, memo))
        }).map(move |subject| (ri, subject))
    })
}

/// The step of a rule that queued an obligation.
pub fn step_of<'a>(game: &'a Game, o: &Obligation) -> Option<&'a ObligeStep> {
    let (r, s) = o.source?;
    match &game.rules.get(r as usize)?.effect {
        Effect::Oblige(steps) => steps.get(s as usize),
        _ => None,
    }
}

/// The exiles an obligation offers `o.player`: the pieces of the level
/// activated in this ply (`o.level`), not of an excepted kind, one of the
/// player's own and one of the other player's as the step asks (both or
/// none: a pair that cannot be made offers nothing).
pub fn exiles(game: &Game, t: &Tables, pos: &Position, o: &Obligation) -> Vec<Action> {
    let (Some(level), Some(ObligeAction::Exile { own, enemy, except, .. })) = (o.level, step_of(game, o).map(|s| &s.action)) else { return Vec::new() };
    let Some(slide) = &game.slide else { return Vec::new() };
    let on_level = |color: Color| -> Vec<Cell> {
        pos.cells_of(color, t.nwords)
            .filter(|&c| game.geometry.coord(c, slide.stack_axis) == level as usize && !except.contains(&kind_of(pos.board[c as usize])))
            .collect()
    };
    let mine: Vec<Option<Cell>> = if *own { on_level(o.player).into_iter().map(Some).collect() } else { vec![None] };
    let theirs: Vec<Option<Cell>> = if *enemy { on_level(o.player ^ 1).into_iter().map(Some).collect() } else { vec![None] };
    let mut out = Vec::new();
    for &a in &mine {
        for &b in &theirs {
            if a.is_some() || b.is_some() {
                out.push(Action::Exile { own: a, enemy: b });
            }
        }
    }
    out
}

fn resolve(w: Who, mover: Color, subject: Color) -> Color {
    w.player(mover, subject)
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
    relocations_limited(game, t, pos, o, usize::MAX)
}

/// [`relocations`], stopping after `most` (to ask whether there is one).
pub fn relocations_limited(game: &Game, t: &Tables, pos: &Position, o: &Obligation, most: usize) -> Vec<Action> {
    let step = step_of(game, o);
    let (what, safe, only_if) = match step.map(|s| &s.action) {
        Some(ObligeAction::Relocate { what, safe, only_if }) => (Some(what), *safe, only_if.as_ref()),
        _ => (None, false, None),
    };
    let us = o.player;
    // The pieces that may move, and the cells each may go to.
    let mut pairs: Vec<(Cell, Cell)> = Vec::new();
    let empty = |c: &Cell| pos.board[*c as usize] == 0;
    match (what, o.from) {
        (Some(RelocateWhat::Pieces { pieces, except, from, to }), _) => {
            let mover = pos.side ^ 1;
            let owner = resolve(pieces.who, mover, us);
            // Which slices of each test's axis pass it (counted once, before the relocation).
            let passing = |s: &SliceCount| -> Vec<bool> {
                let owner = resolve(s.pieces.who, mover, us);
                let mut per = vec![0u32; game.geometry.size(s.axis)];
                for c in pos.cells_of(owner, t.nwords) {
                    if s.pieces.kind.is_none_or(|k| kind_of(pos.board[c as usize]) == k) {
                        per[game.geometry.coord(c, s.axis)] += 1;
                    }
                }
                per.into_iter().map(|n| s.count.contains(n)).collect()
            };
            let (from_ok, to_ok) = (passing(from), passing(to));
            let count = |s: &SliceCount, ok: &[bool], cell: Cell| ok[game.geometry.coord(cell, s.axis)];
            let targets: Vec<Cell> = game.geometry.board_cells().filter(|c| empty(c) && count(to, &to_ok, *c)).collect();
            for f in pos.cells_of(owner, t.nwords) {
                let k = kind_of(pos.board[f as usize]);
                if pieces.kind.is_some_and(|want| want != k) || except.contains(&k) || !count(from, &from_ok, f) {
                    continue;
                }
                pairs.extend(targets.iter().map(|&c| (f, c)));
            }
        }
        (_, Some(from)) => {
            let occ = pos.board[from as usize];
            if occ == 0 || color_of(occ) != us {
                return Vec::new();
            }
            let axis = match what {
                Some(RelocateWhat::Inner { axis }) => Some(*axis),
                _ => None,
            };
            let here = |a| game.geometry.coord(from, a);
            pairs.extend(game.geometry.board_cells().filter(|c| empty(c) && axis.is_none_or(|a| game.geometry.coord(*c, a) != here(a))).map(|c| (from, c)));
        }
        (_, None) => {
            let targets: Vec<Cell> = game.geometry.board_cells().filter(empty).collect();
            for f in pos.cells_of(us, t.nwords) {
                pairs.extend(targets.iter().map(|&c| (f, c)));
            }
        }
    }
    // Each relocation tried on one reused copy of `pos` (a clone per target
    // cost an allocation for the frame and the flow state each): the piece
    // lifted once per origin, then put on each target and taken back.
    let mut next = pos.clone();
    // The origin lifted, its piece, and the `only if` judged for that piece
    // put on each empty cell without putting it ([`AfterPlacing`], where
    // its tests allow: a relocation's `only if` is a placement's).
    let mut lifted: Option<(Cell, u8, Option<AfterPlacing>)> = None;
    // Safe for the piece's owner: not attacked by the other side, attacking none of its pieces.
    let safe_at = |next: &Position, to: Cell| {
        let owner = color_of(next.board[to as usize]);
        !movegen::attacked(game, t, next, to, owner ^ 1)
            && !next.cells_of(owner ^ 1, t.nwords).any(|e| movegen::piece_attacks(game, t, next, to, owner, e))
    };
    // The same judged on the board with the piece lifted, before it is
    // put: the cells the other side attacks there, found once per origin
    // ([`movegen::attacked_cells`]: the piece blocks no ray to its own
    // cell), and the piece's own moves from the target (its rays start
    // beyond it). `None` where that does not apply (face-down or spread
    // pieces, explosions, parts that apply only sometimes).
    let plain = !pos.any_hidden() && pos.spread.is_none() && game.explosion.is_none();
    let mut attacked: Option<(Cell, [u64; WORDS])> = None;
    let mut safe_lifted = |next: &mut Position, from: Cell, piece: u8, to: Cell| -> Option<bool> {
        if !plain {
            return None;
        }
        let owner = color_of(piece);
        let hit = match &attacked {
            Some((cell, hit)) if *cell == from => hit,
            _ => &attacked.insert((from, movegen::attacked_cells(t, next, owner ^ 1))).1,
        };
        if hit[to as usize / 64] >> (to % 64) & 1 != 0 {
            return Some(false);
        }
        let side = std::mem::replace(&mut next.side, owner);
        let captures = movegen::would_capture(next, t, to, kind_of(piece));
        next.side = side;
        captures.map(|c| !c)
    };
    // A compulsory relocation whose guards no cell meets drops them in turn:
    // first `only if`, then the safety (ruling "opening-no-cell" of
    // rules/4d-schach.rules); an optional one offers only the pass then.
    let stages: &[(bool, bool)] = if o.compulsory { &[(safe, only_if.is_some()), (safe, false), (false, false)] } else { &[(safe, only_if.is_some())] };
    for (i, &(s, c)) in stages.iter().enumerate() {
        if i > 0 && stages[i - 1] == (s, c) {
            continue;
        }
        let mut ok: Vec<Action> = Vec::new();
        for &(from, to) in &pairs {
            if ok.len() >= most {
                break;
            }
            if s || c {
                if lifted.as_ref().is_none_or(|(cell, _, _)| *cell != from) {
                    next.copy_from(pos, t);
                    let piece = next.take(from, t);
                    let after = only_if.and_then(|cond| AfterPlacing::of_piece(game, t, &next, cond, us, color_of(piece), kind_of(piece)));
                    lifted = Some((from, piece, after));
                }
                let Some((_, piece, after)) = &lifted else { continue };
                let piece = *piece;
                let judged = if s { safe_lifted(&mut next, from, piece, to) } else { None };
                if judged == Some(false) {
                    continue;
                }
                let meets = if c { after.as_ref().map(|a| a.holds(t, to)) } else { Some(true) };
                if meets == Some(false) {
                    continue;
                }
                // What could not be judged so, with the piece put.
                let (test_safe, test_cond) = (s && judged.is_none(), meets.is_none());
                if test_safe || test_cond {
                    next.put(to, piece, t);
                    let fails = (test_safe && !safe_at(&next, to)) || (test_cond && !only_if.is_some_and(|cond| crate::engine::cond::holds(game, t, &next, cond, us, us)));
                    next.take(to, t);
                    if fails {
                        continue;
                    }
                }
            }
            ok.push(Action::Relocate { from, to });
        }
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
    /// A rule can fire only after a move that lengthens one of these lines.
    Placing(Vec<Lengthen>),
    /// Any move may make a rule fire: every move is tried.
    Anything,
}

/// A `line` a move must make for a rule's guard to hold after it: a run of
/// `least` or more of `owner`'s pieces of `kind` (`None`: any kind) along
/// one of `axes`, which none of them forms now. Only a move that puts such
/// a piece on a cell can make one, and the run then passes through that
/// cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lengthen {
    owner: Color,
    kind: Option<crate::model::KindId>,
    /// The least length the guard accepts.
    least: u32,
    /// The axes to step along from the placed piece; empty when the
    /// node's tables are not its frame's: then every move that places such
    /// a piece is let through.
    axes: Vec<usize>,
    /// The cells of those pieces now.
    cells: [u64; crate::engine::position::WORDS],
    /// With `least` 2 or more (and the node's own tables, in whose frame a
    /// unit step and its reverse meet, along every axis: see
    /// `interpreter/tests/frames.rs`): the cells one step along the axes
    /// from one of `cells`, and
    /// those reached so from two or more. A run of two or more through a
    /// cell needs a neighbour there other than the moving piece, so a move
    /// to a cell outside the first set, or in it only as a step from the
    /// piece's own cell, lengthens nothing. `None`: not known.
    near: Option<[[u64; crate::engine::position::WORDS]; 2]>,
}

/// The pre-filter at `pos` (between plies, its side to move about to
/// move): for every `ply-end` `oblige` rule, every subject it is evaluated
/// for and every alternative of its guard, a positive `line N PIECES` atom
/// with no upper bound can only become true after a move that puts one of
/// the PIECES on a cell (adding pieces can only lengthen lines, and a move
/// does not change the frame), unless it already holds here; an alternative
/// with a literal no plain move can make true ([`stays_false`]) is left
/// out. An alternative without such an atom, an atom that holds already, a rule
/// without guard, a game whose moves do more than place the mover's pieces
/// (spread, tunnel) or a position with face-down pieces: [`Watch::Anything`].
pub fn watch(game: &Game, t: &Tables, pos: &Position) -> Watch {
    match watched_alternatives(game, t, pos) {
        Ok(alternatives) => watch_over(game, t, pos, &alternatives, true, &crate::engine::cond::RunMemo::default()),
        Err(decided) => decided,
    }
}

/// The alternatives [`watch`] goes through at `pos` ([`open_alternatives`]),
/// or the watch where it is decided without them: nothing without an
/// `oblige` rule; anything with spread, tunnelling, face-down or
/// converting pieces, or a rule without a guard.
fn watched_alternatives<'a>(game: &'a Game, t: &Tables, pos: &Position) -> Result<Vec<(Color, &'a [Lit])>, Watch> {
    if !any(game) {
        return Err(Watch::Nothing);
    }
    if !moves_only_place(game, t, pos) {
        return Err(Watch::Anything);
    }
    open_alternatives(game, pos, pos.side).ok_or(Watch::Anything)
}

/// Does a move at `pos` only put the moving piece on its target and take
/// what stands there (no spread, tunnelling, face-down or converting
/// pieces)? What the watches' tests of a move's landing assume.
fn moves_only_place(game: &Game, t: &Tables, pos: &Position) -> bool {
    game.spread.is_none() && game.tunnel.is_none() && !pos.any_hidden() && !t.converting
}

/// The first `line` test of `alt` that [`watch_over`] judges: positive and
/// without an upper bound (`cells`, the board's, or more).
fn unbounded_line(alt: &[Lit], cells: u32) -> Option<&Lit> {
    alt.iter().find(|lit| matches!(&lit.atom, Atom::Line { length, .. } if !lit.negated && length.hi >= cells))
}

/// [`watch`] in two parts: the watch over the alternatives whose `line`
/// counts the mover's pieces (or that have none), and whether a `line` of
/// another player's pieces holds now ([`others_hold`]: then anything may
/// fire). The first part reads the mover's pieces alone, so that
/// [`WatchMemo`] keeps it while only the other side's pieces change.
fn watch_split(game: &Game, t: &Tables, pos: &Position) -> (Watch, bool) {
    let alternatives = match watched_alternatives(game, t, pos) {
        Ok(alternatives) => alternatives,
        Err(decided) => return (decided, false),
    };
    match watch_over(game, t, pos, &alternatives, false, &crate::engine::cond::RunMemo::default()) {
        // Anything may fire whatever the other side's lines: not judged.
        Watch::Anything => (Watch::Anything, false),
        own => (own, others_hold(game, t, pos, &alternatives)),
    }
}

/// [`others_hold`] at `pos`, with [`watch_split`]'s first tests (where
/// they decide the watch, the other side's lines do not matter: `false`).
fn others_hold_at(game: &Game, t: &Tables, pos: &Position) -> bool {
    watched_alternatives(game, t, pos).is_ok_and(|alternatives| others_hold(game, t, pos, &alternatives))
}

/// Does the `line` test of one of `alternatives` that counts another
/// player's pieces than the mover's hold in `pos`? (The part of [`watch`]
/// that reads those pieces: a move cannot lengthen their lines, but one
/// that holds already lets any move fire.)
fn others_hold(game: &Game, t: &Tables, pos: &Position, alternatives: &[(Color, &[Lit])]) -> bool {
    let mover = pos.side;
    let cells = game.geometry.cells() as u32;
    let memo = crate::engine::cond::RunMemo::default();
    // The other side's lines, each with its least length.
    let lines = || {
        alternatives.iter().filter_map(move |&(subject, alt)| match unbounded_line(alt, cells).map(|lit| (lit, &lit.atom)) {
            Some((lit, Atom::Line { pieces, length, .. })) if resolve(pieces.who, mover, subject) != mover => Some((subject, lit, length.lo)),
            _ => None,
        })
    };
    let holds = |&(subject, lit, _): &(Color, &Lit, u32)| crate::engine::cond::holds_lit_with(game, t, pos, lit, mover, subject, &memo);
    // The shortest first: a line of 3 that does not hold tells that one
    // of 4 of the same pieces does not either ([`crate::engine::cond`]'s
    // kept answers), where judging the one of 4 first tells nothing.
    let Some(least) = lines().map(|(_, _, lo)| lo).min() else { return false };
    lines().filter(|&(_, _, lo)| lo == least).any(|l| holds(&l)) || lines().filter(|&(_, _, lo)| lo > least).any(|l| holds(&l))
}

/// [`watch`] for the conditions of the `forbid` rules that apply at `pos`
/// (`conds`, each judged for the side to move, as
/// [`crate::engine::cond::Offered`] judges them after a move): may a move
/// make one hold? The same pre-filter, over their alternatives. `memo`:
/// runs already found in `pos` with `t` (the `Offered`'s).
pub(crate) fn watch_conds(game: &Game, t: &Tables, pos: &Position, conds: &[&crate::model::cond::Cond], memo: &crate::engine::cond::RunMemo) -> Watch {
    if !moves_only_place(game, t, pos) {
        return Watch::Anything;
    }
    let alternatives: Vec<(Color, &[Lit])> = conds.iter().flat_map(|c| c.any_of.iter()).map(|alt| (pos.side, &alt[..])).collect();
    watch_over(game, t, pos, &alternatives, true, memo)
}

/// [`watch`] over `alternatives` (each with the subject it is judged for);
/// with `others` false, over those whose `line` counts the mover's pieces,
/// or that have none, only ([`others_hold`] judges the rest). In order, the
/// first line that holds answers anything.
fn watch_over(game: &Game, t: &Tables, pos: &Position, alternatives: &[(Color, &[Lit])], others: bool, memo: &crate::engine::cond::RunMemo) -> Watch {
    let mover = pos.side;
    // Runs are stepped through the tables' arrays when they are the node's frame's.
    let stepped = frame::tables_match(t, pos);
    let cells = game.geometry.cells() as u32;
    let mut placing = Vec::new();
    // The guards test lines of the same pieces (a group of 4 and of 3, for
    // each player): each set's runs found once (in `memo`).
    for &(subject, alt) in alternatives {
        let Some(lit) = unbounded_line(alt, cells) else { return Watch::Anything };
        let Atom::Line { pieces, length, axes } = &lit.atom else { return Watch::Anything };
        let owner = resolve(pieces.who, mover, subject);
        if owner != mover && !others {
            continue; // [`others_hold`]'s to judge
        }
        if crate::engine::cond::holds_lit_with(game, t, pos, lit, mover, subject, memo) {
            return Watch::Anything;
        }
        if owner != mover {
            // A move only takes the other side's pieces away: it cannot
            // lengthen their lines ([`Watch::may_fire`] asks for the mover's).
            continue;
        }
        let axes = if stepped { axes.clone() } else { Vec::new() };
        if let Some(found) = placing.iter_mut().find(|l: &&mut Lengthen| l.owner == owner && l.kind == pieces.kind && l.axes == axes) {
            // A run of 4 through a cell is a run of 3 there: one entry per
            // set of pieces and axes, with the least length any guard takes.
            found.least = found.least.min(length.lo);
            found.near = found.near.filter(|_| length.lo >= 2);
            continue;
        }
        let cells = crate::engine::cond::set_cells(pos, t, owner, pieces.kind);
        let near = (stepped && length.lo >= 2).then(|| crate::engine::cond::neighbours(t, &cells, &axes));
        placing.push(Lengthen { owner, kind: pieces.kind, least: length.lo, axes, cells, near });
    }
    if placing.is_empty() {
        Watch::Nothing
    } else {
        Watch::Placing(placing)
    }
}

/// The last [`watch`] worked out by one count, with what it read, so that
/// the next node that reads the same gets it again (most positions one ply
/// above perft's leaves differ from their siblings by a move of the other
/// side, which leaves the mover's lines as they were). Where only the
/// other side's pieces changed, the mover's part of the watch is kept and
/// only whether a line of theirs holds is judged again ([`watch_split`]).
#[derive(Debug, Default)]
pub struct WatchMemo {
    /// What the mover's part of the last watch read ([`WatchMemo::read`]).
    key: Vec<u64>,
    /// What the other part read: the other side's pieces the lines name.
    others_key: Vec<u64>,
    /// The keys of the node at hand, built here without allocating.
    scratch: (Vec<u64>, Vec<u64>),
    /// The mover's part of the last watch (`None` before the first).
    own: Option<Watch>,
    /// The last watch (the mover's part, or anything where a line of the
    /// other side's pieces holds).
    watch: Option<Watch>,
    /// The answers of the last watch ([`FiresFrom`]).
    answers: Answers,
    /// The kinds the `line` tests of the `ply-end` `oblige` rules' guards
    /// name (a bitmask) and whether one names any kind, found at the first
    /// read (`None` before it; `Some(None)` where a kind past the 64th is
    /// named). A memo serves one game, as its watch does.
    named: Option<Option<(u64, bool)>>,
    /// The watch of the `forbid` conditions the last node judged, kept the same way.
    conds: CondsMemo,
}

impl WatchMemo {
    /// [`watch`] at `pos` between plies (no flow state, `t` its frame's
    /// tables), from the memo where the last node read the same.
    pub fn watch(&mut self, game: &Game, t: &Tables, pos: &Position) -> &Watch {
        self.kept(game, t, pos).0
    }

    /// [`Self::watch`], with its [`Watch::may_fire_from`] kept per cell
    /// ([`FiresFrom::may_fire_from`]).
    pub fn kept(&mut self, game: &Game, t: &Tables, pos: &Position) -> (&Watch, FiresFrom<'_>) {
        let (watch, fires, _) = self.kept_with_conds(game, t, pos);
        (watch, fires)
    }

    /// [`Self::kept`], with the memo of the `forbid` conditions' watch
    /// ([`CondsMemo`]) for the same node.
    pub fn kept_with_conds(&mut self, game: &Game, t: &Tables, pos: &Position) -> (&Watch, FiresFrom<'_>, &mut CondsMemo) {
        self.renew(game, t, pos);
        let watch = self.watch.get_or_insert(Watch::Anything);
        (watch, self.answers.of(watch), &mut self.conds)
    }

    /// Makes the memo's watch and answers those of `pos`.
    fn renew(&mut self, game: &Game, t: &Tables, pos: &Position) {
        let (mut key, mut others_key) = std::mem::take(&mut self.scratch);
        if !self.read(game, t, pos, &mut key, &mut others_key) {
            key.clear();
            self.own = None;
        }
        let before = self.watch.take();
        // The new watch, and whether the answers kept still hold: they read
        // the watch and the tables (the frame, part of `key`), not the board.
        let (now, answers_hold) = match &self.own {
            Some(own) if key == self.key => {
                let now = if others_key == self.others_key {
                    (before, true)
                } else if others_hold_at(game, t, pos) {
                    // Only the other side's pieces changed: the mover's part stands.
                    let now = Some(Watch::Anything);
                    let holds = now == before;
                    (now, holds)
                } else if before.as_ref() != Some(&Watch::Anything) || *own == Watch::Anything {
                    // The last watch is the mover's part (it is that or anything).
                    (before, true)
                } else {
                    (Some(own.clone()), false)
                };
                debug_assert_eq!(now.0.as_ref(), Some(&watch(game, t, pos)), "a watch from the memo at a node that reads the same");
                self.scratch = (key, std::mem::replace(&mut self.others_key, others_key));
                now
            }
            _ => {
                let (own, others) = watch_split(game, t, pos);
                let now = if others { Watch::Anything } else { own.clone() };
                self.own = Some(own);
                self.scratch = (std::mem::replace(&mut self.key, key), std::mem::replace(&mut self.others_key, others_key));
                (Some(now), false)
            }
        };
        self.answers.renew(game.geometry.cells(), answers_hold);
        self.watch = Some(now.unwrap_or(Watch::Anything));
    }

    /// Everything [`watch`] reads at a node between plies, as words: in
    /// `key`, the side to move, whether face-down pieces stand, the hands
    /// (which `PHASE ends` reads), the levels' offsets (the tables), and the
    /// cells of the mover's pieces of each kind (or of any kind) that a
    /// `line` test of a `ply-end` `oblige` rule's guard names; in
    /// `others_key`, the other side's pieces of those kinds. `false` where
    /// a kind past the 64th is named (then nothing is kept).
    fn read(&mut self, game: &Game, t: &Tables, pos: &Position, key: &mut Vec<u64>, others_key: &mut Vec<u64>) -> bool {
        key.clear();
        others_key.clear();
        key.push(u64::from(pos.side) | u64::from(pos.any_hidden()) << 8 | u64::from(pos.flow.is_some()) << 9);
        for hand in &pos.hand {
            key.extend(hand[..game.kinds.len()].chunks(8).map(|c| c.iter().enumerate().fold(0u64, |w, (i, &n)| w | u64::from(n) << (8 * i))));
        }
        if let Some(frame) = &pos.frame {
            key.extend(frame.levels.chunks(8).map(|c| c.iter().enumerate().fold(0u64, |w, (i, l)| w | u64::from(l.offset as u8) << (8 * i))));
        }
        let Some((kinds, any)) = *self.named.get_or_insert_with(|| named_kinds(game)) else { return false };
        let named = (0u8..64).filter(|k| kinds >> k & 1 != 0).map(Some);
        for kind in named.chain(any.then_some(None)) {
            key.extend_from_slice(&crate::engine::cond::set_cells(pos, t, pos.side, kind)[..t.nwords]);
            others_key.extend_from_slice(&crate::engine::cond::set_cells(pos, t, pos.side ^ 1, kind)[..t.nwords]);
        }
        true
    }
}

/// The kinds the `line` tests of `game`'s `ply-end` `oblige` rules' guards
/// name, as a bitmask, and whether one names any kind; `None` where a kind
/// past the 64th is named ([`WatchMemo::read`] keeps nothing then).
fn named_kinds(game: &Game) -> Option<(u64, bool)> {
    let (mut kinds, mut any) = (0u64, false);
    for rule in &game.rules {
        let (Trigger::PlyEnd, Effect::Oblige(_), Some(guard)) = (rule.trigger, &rule.effect, &rule.guard) else { continue };
        for lit in guard.any_of.iter().flatten() {
            if let Atom::Line { pieces, .. } = &lit.atom {
                match pieces.kind {
                    Some(k) if k < 64 => kinds |= 1 << k,
                    Some(_) => return None,
                    None => any = true,
                }
            }
        }
    }
    Some((kinds, any))
}

/// A [`Watch`] from a [`WatchMemo`], with the answers of
/// [`Watch::may_fire_from`] at the nodes with the same key.
pub struct FiresFrom<'a> {
    watch: &'a Watch,
    known: &'a [std::cell::Cell<u32>],
    moves: &'a [std::cell::Cell<u64>],
    /// The memo's round: answers stamped with another are not known.
    round: u32,
}

/// The kind `m` puts down on its target (itself, its promotion or the
/// identity it is revealed as), as [`Watch::may_fire`] judges it; `None`
/// for a move always let through (castling, gating, a move observation
/// changed).
fn put_down(m: &crate::engine::position::Move) -> Option<crate::model::KindId> {
    use crate::engine::position::{MoveKind, NO_KIND, UNSEEN};
    if m.kind == MoveKind::Castle || m.gate != NO_KIND || m.observed != UNSEEN {
        return None;
    }
    Some(if m.is_promotion() {
        m.promotion
    } else if m.reveal != NO_KIND {
        m.reveal
    } else {
        m.piece
    })
}

/// The slots of [`WatchMemo`]'s table of [`Watch::may_fire`]'s answers (a
/// power of two: a node lists a few dozen moves a rule may fire after).
const MOVE_SLOTS: usize = 1024;

impl FiresFrom<'_> {
    /// `watch` with no answers kept: each question is put to it.
    pub fn unkept(watch: &Watch) -> FiresFrom<'_> {
        FiresFrom { watch, known: &[], moves: &[], round: 0 }
    }

    /// [`Watch::may_fire`], kept per move while the memo's watch and
    /// tables stay the same. Its answer reads the move's cells, the kind it
    /// puts down and whether it is a drop (the watch's [`Lengthen`] tests);
    /// a move that is always let through is not kept.
    #[inline]
    pub fn may_fire(&self, m: &crate::engine::position::Move, mover: Color, t: &Tables) -> bool {
        use crate::engine::position::MoveKind;
        let Watch::Placing(_) = self.watch else { return self.watch.may_fire(m, mover, t) };
        let Some(placed) = put_down(m) else { return true };
        // The move as it is asked: cells, kind put down, drop, mover (bit
        // 41 marks a kept answer, bit 43 is the answer), the round above.
        let key = u64::from(m.from) | u64::from(m.to) << 16 | u64::from(placed) << 32 | u64::from(m.kind == MoveKind::Drop) << 40 | u64::from(mover) << 42 | 1 << 41 | u64::from(self.round) << 44;
        let slot = (u64::from(m.from) << 9 ^ u64::from(m.to)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54;
        let Some(kept) = self.moves.get(slot as usize) else { return self.watch.may_fire(m, mover, t) };
        let v = kept.get();
        if v & !(1 << 43) == key {
            let fires = v >> 43 & 1 != 0;
            debug_assert_eq!(fires, self.watch.may_fire(m, mover, t), "a kept answer of may_fire");
            return fires;
        }
        let fires = self.watch.may_fire(m, mover, t);
        kept.set(key | u64::from(fires) << 43);
        fires
    }

    /// [`Watch::may_fire_from`], worked out once per cell and kind while
    /// the memo's key stays the same.
    pub fn may_fire_from(&self, t: &Tables, from: Cell, kind: crate::model::KindId, mover: Color) -> bool {
        let Some(known) = self.known.get(from as usize) else { return self.watch.may_fire_from(t, from, kind, mover) };
        let v = known.get();
        let answer = v & 0xFFFF;
        if v >> 16 == self.round && answer != 0 && (answer - 1) >> 1 == u32::from(kind) {
            let fires = (answer - 1) & 1 != 0;
            debug_assert_eq!(fires, self.watch.may_fire_from(t, from, kind, mover), "a kept answer of may_fire_from");
            return fires;
        }
        let fires = self.watch.may_fire_from(t, from, kind, mover);
        known.set(self.round << 16 | (1 + u32::from(kind) * 2 + u32::from(fires)));
        fires
    }
}

/// The alternatives of the `ply-end` `oblige` rules' guards, each with the
/// subject it is evaluated for (as [`fired_with`] tries them: file order,
/// `mover` first), less those with a positive literal that no plain move and
/// no change of frame can make true ([`stays_false`]); `None` when such a
/// rule has no guard (it holds whatever is done). What the pre-filters
/// [`watch`] and [`watch_frames`] go through.
fn open_alternatives<'a>(game: &'a Game, pos: &Position, mover: Color) -> Option<Vec<(Color, &'a [Lit])>> {
    let mut out = Vec::new();
    for rule in &game.rules {
        let (Trigger::PlyEnd, Effect::Oblige(_)) = (rule.trigger, &rule.effect) else { continue };
        let guard = rule.guard.as_ref()?;
        let subjects: &[Color] = if rule.per_subject { &[mover, mover ^ 1] } else { &[mover] };
        for &subject in subjects {
            for alt in &guard.any_of {
                if !alt.iter().any(|lit| !lit.negated && stays_false(game, pos, &lit.atom)) {
                    out.push((subject, &alt[..]));
                }
            }
        }
    }
    Some(out)
}

/// Is `atom` false in `pos` and after any plain move from it (or any change
/// of its frame, which touches neither the phase nor the hands nor what is
/// out of play)? `PHASE ends`
/// when `pos` is in another phase (a move does not change the phase) or
/// the hands hold two pieces or more between them (a phase ends when both
/// are empty, and one decision takes at most one piece from a hand), and
/// `exiled … can return` when no piece out of play has a holder (only an
/// exile takes one out; one that stays out for good is nobody's to return).
fn stays_false(game: &Game, pos: &Position, atom: &Atom) -> bool {
    match atom {
        Atom::PhaseEnds(i) => super::phase::current(game, pos) != *i || super::phase::hand_size(game, pos, 0) + super::phase::hand_size(game, pos, 1) >= 2,
        Atom::Exiled { .. } => pos.flow.as_ref().is_none_or(|f| f.out.iter().all(|e| e.holder.is_none())),
        _ => false,
    }
}

impl Watch {
    /// May a plain move of `mover`'s piece of `kind` on `from` make a rule
    /// fire? [`Self::may_fire`] for all its moves at once, as a sound
    /// pre-filter: `false` where no line is of its kind, or where no cell
    /// of its rays (the
    /// cells its moves land on, whatever stands between) lets a move
    /// through [`Lengthen`]'s test of the cells next to the set's pieces.
    /// Promotions, reveals, castling and drops are the caller's to let
    /// through.
    pub fn may_fire_from(&self, t: &Tables, from: Cell, kind: crate::model::KindId, mover: Color) -> bool {
        match self {
            Watch::Nothing => false,
            Watch::Anything => true,
            Watch::Placing(list) => list.iter().any(|l| l.owner == mover && l.kind.is_none_or(|k| k == kind) && l.may_lengthen_from(t, from, kind)),
        }
    }

    /// May the move `m` of the side to move `mover` make a rule fire? (A
    /// move puts the moving piece on its target, as itself, its promotion
    /// or the identity it is revealed as, and no other piece of the mover's
    /// on any cell; castling, gating and a move that observation changed
    /// are always let through.) `t` are the node's tables.
    pub fn may_fire(&self, m: &crate::engine::position::Move, mover: Color, t: &Tables) -> bool {
        match self {
            Watch::Nothing => false,
            Watch::Anything => true,
            Watch::Placing(list) => {
                let Some(placed) = put_down(m) else { return true };
                list.iter().any(|l| l.owner == mover && l.kind.is_none_or(|k| k == placed) && l.lengthened(m, t))
            }
        }
    }
}

impl Watch {
    /// The cells among `cells` (empty ones) where a drop of `mover`'s
    /// piece of `kind` may make a rule fire ([`Self::may_fire`] of each
    /// drop): a line's test is asked only on the cells next to its pieces
    /// (a drop elsewhere lengthens none of its runs).
    pub fn drops_may_fire(&self, t: &Tables, kind: crate::model::KindId, mover: Color, cells: &[u64; WORDS]) -> [u64; WORDS] {
        use crate::engine::position::Move;
        let list = match self {
            Watch::Nothing => return [0; WORDS],
            Watch::Anything => return *cells,
            Watch::Placing(list) => list,
        };
        let mut asked = [0u64; WORDS];
        for l in list.iter().filter(|l| l.owner == mover && l.kind.is_none_or(|k| k == kind)) {
            let near = l.near.as_ref().filter(|_| !l.axes.is_empty()).map_or(cells, |[once, _]| once);
            asked.iter_mut().zip(near.iter().zip(cells)).for_each(|(a, (n, c))| *a |= n & c);
        }
        let mut out = [0u64; WORDS];
        for cell in crate::engine::position::cells_in(&asked) {
            if self.may_fire(&Move::drop(kind, cell), mover, t) {
                out[cell as usize / 64] |= 1 << (cell % 64);
            }
        }
        out
    }
}

impl Lengthen {
    /// May a move of the owner's piece of `kind` on `from` pass
    /// [`Self::lengthened`]'s test of the cells next to the set's pieces?
    /// Where some cell its moves may land on is next to two of them, or
    /// next to one that is not the piece itself (`true` without that test).
    fn may_lengthen_from(&self, t: &Tables, from: Cell, kind: crate::model::KindId) -> bool {
        let Some([once, twice]) = &self.near else { return true };
        let on = |set: &[u64; WORDS], c: Cell| set[c as usize / 64] >> (c % 64) & 1 != 0;
        // The cells next to the piece itself, where it is one of the set.
        let mut own = [0u64; WORDS];
        if on(&self.cells, from) {
            for &axis in &self.axes {
                for forward in [true, false] {
                    if let Some(c) = t.unit_step(axis, forward, from) {
                        own[c as usize / 64] |= 1 << (c % 64);
                    }
                }
            }
        }
        // Every cell a move of the piece may land on, whatever stands
        // between ([`Tables::move_reach_of`]: its rays' cells), word by word.
        let reach = t.move_reach_of(kind, self.owner, from);
        reach.iter().zip(twice.iter().zip(once).zip(&own)).any(|(&r, ((&two, &one), &mine))| r & (two | one & !mine) != 0)
    }

    /// Does the move `m` (which puts one of these pieces on `m.to`) make a
    /// run of `least` or more through `m.to` along one of the axes?
    fn lengthened(&self, m: &crate::engine::position::Move, t: &Tables) -> bool {
        if self.axes.is_empty() {
            return true;
        }
        if let Some([once, twice]) = &self.near {
            let on = |set: &[u64; crate::engine::position::WORDS]| set[m.to as usize / 64] >> (m.to % 64) & 1 != 0;
            // Its one neighbour among the cells is the piece that moves there.
            let member = || self.cells.get(m.from as usize / 64).is_some_and(|w| w >> (m.from % 64) & 1 != 0);
            let from_next = || m.kind != crate::engine::position::MoveKind::Drop && member() && self.axes.iter().any(|&a| t.unit_step(a, true, m.from) == Some(m.to) || t.unit_step(a, false, m.from) == Some(m.to));
            if !on(once) || (!on(twice) && from_next()) {
                return false;
            }
        }
        let mut cells = self.cells;
        if m.kind != crate::engine::position::MoveKind::Drop {
            cells[m.from as usize / 64] &= !(1 << (m.from % 64));
        }
        cells[m.to as usize / 64] |= 1 << (m.to % 64);
        // No more steps than the guard needs are counted either way.
        let run = |axis, forward| crate::engine::cond::steps_in_set(t.unit_steps_along(axis, forward), &cells, m.to, self.least);
        self.axes.iter().any(|&axis| {
            let n = 1 + run(axis, true) + run(axis, false);
            n >= self.least
        })
    }
}

/// What an activation (a change of frame, the board as it was) at a node
/// inside a ply must do for an `oblige` rule to fire after it: a cheap and
/// sound pre-filter, like [`Watch`] for moves. An activation the filter
/// stops fires nothing, so the ply ends with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameWatch {
    /// Some rule may fire whatever the frame (or the filter cannot tell).
    Anything,
    /// A rule can fire only in a frame where one of these sets of pieces
    /// stands in a run along the stacking axis.
    Stacking {
        /// The stacking axis.
        axis: usize,
        /// The runs, one of which must form (none listed: no frame makes a rule fire).
        runs: Vec<StackRun>,
    },
}

/// A run of `least` or more of the pieces on `cells` along the stacking
/// axis: the only way a `line` test that fails now can hold in another
/// frame (its runs along the other axes stay in their levels, which a
/// change of frame does not change).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackRun {
    cells: [u64; crate::engine::position::WORDS],
    least: u32,
}

/// The pre-filter for the activations at `pos` (inside a ply, `t` its
/// tables): for every `ply-end` `oblige` rule, every subject it is
/// evaluated for and every alternative of its guard, an alternative with a
/// test that a frame cannot change ([`frame_blind`]) and that fails now is
/// left out; otherwise it needs a positive `line` atom with no upper bound
/// that fails now along the axes within a level, and can then hold only
/// in a frame with a run along the stacking axis (the atom's pieces, at
/// least its least length). An alternative with no such atom, a rule
/// without guard, a game without `slide`, tables not of `pos`'s frame or
/// face-down pieces: [`FrameWatch::Anything`].
pub fn watch_frames(game: &Game, t: &Tables, pos: &Position) -> FrameWatch {
    let Some(slide) = &game.slide else { return FrameWatch::Anything };
    if pos.any_hidden() || !frame::tables_match(t, pos) {
        return FrameWatch::Anything;
    }
    let stack = slide.stack_axis;
    // As `fired_with` evaluates: the ply's mover is the one not to move.
    let mover = pos.side ^ 1;
    let cells = game.geometry.cells() as u32;
    let mut runs = Vec::new();
    let Some(alternatives) = open_alternatives(game, pos, mover) else { return FrameWatch::Anything };
    'alternative: for (subject, alt) in alternatives {
        if alt.iter().any(|lit| frame_blind(&lit.atom, stack) && !crate::engine::cond::holds_lit(game, t, pos, lit, mover, subject)) {
            continue;
        }
        for lit in alt {
            let Atom::Line { pieces, length, axes } = &lit.atom else { continue };
            if lit.negated || length.hi < cells || !axes.contains(&stack) {
                continue;
            }
            if crate::engine::cond::line_holds_along(game, t, pos, &lit.atom, |a| a != stack, mover, subject) {
                continue; // holds in every frame
            }
            let owner = resolve(pieces.who, mover, subject);
            let cells = crate::engine::cond::set_cells(pos, t, owner, pieces.kind);
            // A run of 3 is also found where one of 4 is: one entry per set, its least length.
            match runs.iter_mut().find(|r: &&mut StackRun| r.cells == cells) {
                Some(r) => r.least = r.least.min(length.lo),
                None => runs.push(StackRun { cells, least: length.lo }),
            }
            continue 'alternative;
        }
        return FrameWatch::Anything;
    }
    FrameWatch::Stacking { axis: stack, runs }
}

/// Is `atom`'s truth the same in every frame of the board (so an
/// activation, which changes the frame only, cannot change it)? Counts,
/// material, the turn, the cells' colours, the phase and hands, and `line`
/// along axes that stay within a level. What reads attacks, distances,
/// moves, faced pieces or the pieces out of play (whose cells of return
/// follow the frame) is not.
fn frame_blind(atom: &Atom, stack: usize) -> bool {
    match atom {
        Atom::Line { axes, .. } => !axes.contains(&stack),
        Atom::Count { .. } | Atom::ChecksGiven { .. } | Atom::ToMove(_) | Atom::Passed(_) | Atom::BoardFull | Atom::HasOnly { .. } | Atom::Coloured { .. } | Atom::PhaseEnds(_) => true,
        Atom::Distance { .. } | Atom::InCheck(_) | Atom::CanMove { .. } | Atom::Attacks { .. } | Atom::Attacked(_) | Atom::Faces { .. } | Atom::Exiled { .. } => false,
    }
}

impl FrameWatch {
    /// May a rule fire in the frame whose tables are `t` (the frame after
    /// the activation, the board the watch's)?
    pub fn may_fire(&self, t: &Tables) -> bool {
        let FrameWatch::Stacking { axis, runs } = self else { return true };
        let up = t.unit_steps_along(*axis, true);
        runs.iter().any(|r| r.forms(up))
    }
}

impl StackRun {
    /// Do `least` or more of the cells stand in a run along `up` (the
    /// stacking axis's unit steps in a frame)?
    fn forms(&self, up: &[Cell]) -> bool {
        // A run of `least` or more has a cell from which `least - 1` more follow.
        let more = self.least.saturating_sub(1);
        self.cells.iter().enumerate().any(|(w, &bits)| {
            let mut bits = bits;
            while bits != 0 {
                let c = (w * 64 + bits.trailing_zeros() as usize) as Cell;
                bits &= bits - 1;
                if crate::engine::cond::steps_in_set(up, &self.cells, c, more) >= more {
                    return true;
                }
            }
            false
        })
    }

    /// Does `placed` have a neighbour among the cells along the stacking
    /// axis (`up`, `down`: its unit steps in a frame), or is `least` at
    /// most 1? Without, no run of `least` forms through it
    /// ([`Self::forms_through`] walks from it to such a neighbour first).
    #[inline(always)]
    fn next_to(&self, up: &[Cell], down: &[Cell], placed: Cell) -> bool {
        let member = |c: Option<&Cell>| c.is_some_and(|&c| c != crate::engine::position::NO_CELL && self.cells[c as usize / 64] >> (c % 64) & 1 != 0);
        self.least <= 1 || member(up.get(placed as usize)) || member(down.get(placed as usize))
    }

    /// Does a run of `least` or more form through `placed` once it joins
    /// the cells (`up`, `down`: the stacking axis's unit steps in a frame)?
    /// The cells below `placed` count only where their step up leads to
    /// the cell above them, as [`Self::forms`] walks.
    fn forms_through(&self, up: &[Cell], down: &[Cell], placed: Cell) -> bool {
        let more = self.least.saturating_sub(1);
        let above = crate::engine::cond::steps_in_set(up, &self.cells, placed, more);
        let member = |c: Cell| c != crate::engine::position::NO_CELL && self.cells[c as usize / 64] >> (c % 64) & 1 != 0;
        let (mut below, mut at) = (0, placed);
        while above + below < more {
            match down.get(at as usize).copied().filter(|&c| member(c) && up.get(c as usize) == Some(&at)) {
                Some(c) => {
                    below += 1;
                    at = c;
                }
                None => break,
            }
        }
        above + below >= more
    }
}

/// The frame watches of positions that differ only by one piece, put on
/// another empty cell in each (a relocation's targets), split for judging
/// them together frame by frame: each watch's runs without the placed
/// piece (the same sets for every position, found once per frame), and
/// whether the piece belongs to the run (a run through its cell, looked
/// for per position).
#[derive(Clone, Debug)]
pub struct PlacedWatches {
    axis: usize,
    /// The distinct runs without the placed piece.
    bases: Vec<StackRun>,
    /// Per run of `bases`: the first run of `bases` with the same cells
    /// (runs are compared by it instead of by their cells).
    same_cells: Vec<usize>,
    /// The distinct lists of runs a position's watch holds: each an index
    /// into `bases` with whether the piece is one of the run's cells, a
    /// run implied by another of the list left out (the same cells, a
    /// longer least length), ordered by `same_cells`.
    groups: Vec<Vec<(usize, bool)>>,
    /// Per position: the placed piece's cell and its list in `groups`.
    nodes: Vec<(Cell, usize)>,
    /// Per list in `groups`: the placed cells of the positions that hold it.
    group_cells: Vec<[u64; WORDS]>,
    /// Every placed cell, and whether each is one position's alone (the
    /// count by cells, [`Fires::firing`], needs them apart).
    cells: [u64; WORDS],
    distinct: bool,
}

impl PlacedWatches {
    /// No position yet, runs along `axis`, room for `nodes` positions.
    fn empty(axis: usize, nodes: usize) -> PlacedWatches {
        PlacedWatches { axis, bases: Vec::new(), same_cells: Vec::new(), groups: Vec::new(), nodes: Vec::with_capacity(nodes), group_cells: Vec::new(), cells: [0; WORDS], distinct: true }
    }

    /// Every position's placed cell, as a bitset; `None` where two
    /// positions have the same one.
    pub fn cells(&self) -> Option<&[u64; WORDS]> {
        self.distinct.then_some(&self.cells)
    }

    /// The split of `watches`, each the watch of a position with its piece
    /// on the paired cell; `None` unless every one is a
    /// [`FrameWatch::Stacking`] along the same axis.
    pub fn new<'w>(watches: impl IntoIterator<Item = (&'w FrameWatch, Cell)>) -> Option<PlacedWatches> {
        let mut split = PlacedWatches::empty(usize::MAX, 0);
        for (watch, placed) in watches {
            let FrameWatch::Stacking { axis, runs } = watch else { return None };
            if split.axis != usize::MAX && split.axis != *axis {
                return None;
            }
            split.axis = *axis;
            let (word, bit) = (placed as usize / 64, placed % 64);
            let own = runs
                .iter()
                .map(|r| {
                    let mut base = r.clone();
                    let holds = base.cells[word] >> bit & 1 != 0;
                    base.cells[word] &= !(1 << bit);
                    (split.base_index(base), holds)
                })
                .collect();
            split.push_node(placed, own);
        }
        Some(split)
    }

    /// The index of `run` in `bases`, added there if new.
    fn base_index(&mut self, run: StackRun) -> usize {
        if let Some(at) = self.bases.iter().position(|b| *b == run) {
            return at;
        }
        let same = self.bases.iter().position(|b| b.cells == run.cells).unwrap_or(self.bases.len());
        self.bases.push(run);
        self.same_cells.push(same);
        self.bases.len() - 1
    }

    /// Adds a position with its piece on `placed` and its runs `own`.
    fn push_node(&mut self, placed: Cell, mut own: Vec<(usize, bool)>) {
        // A run of the same cells with a shorter least length implies it:
        // by cells, then the shortest first, only it is kept.
        let (bases, same) = (&self.bases, &self.same_cells);
        own.sort_unstable_by_key(|&(at, joins)| (same[at], joins, bases[at].least, at));
        own.dedup_by(|b, a| a.1 == b.1 && same[a.0] == same[b.0]);
        let group = self.groups.iter().position(|g| *g == own).unwrap_or_else(|| {
            self.groups.push(own);
            self.group_cells.push([0; WORDS]);
            self.groups.len() - 1
        });
        self.nodes.push((placed, group));
        let (word, bit) = (placed as usize / 64, 1u64 << (placed % 64));
        match (self.cells.get_mut(word), self.group_cells.get_mut(group)) {
            (Some(all), Some(cells)) => {
                self.distinct &= *all & bit == 0;
                *all |= bit;
                cells[word] |= bit;
            }
            _ => self.distinct = false,
        }
    }

    /// [`Self::new`] of the frame watches ([`watch_frames`]) of positions
    /// that are `base` with the mover's `piece` put on each of `placed`
    /// (empty in `base`), found from `base` without working out each
    /// position's watch: each test that a frame cannot change, and each
    /// `line` along the axes within a level, is judged once for every
    /// placed cell (`cond::AfterLit`), and each node only asks it about its
    /// cell. `node` is one of the positions (what they share: the phase,
    /// the hands, the pieces out of play). `None` where a test cannot be
    /// judged so, or where some position's watch would not be a
    /// [`FrameWatch::Stacking`] (the caller then works out each watch).
    pub fn around(game: &Game, t: &Tables, node: &Position, base: &Position, piece: u8, placed: &[Cell]) -> Option<PlacedWatches> {
        use crate::engine::cond::AfterLit;
        let slide = game.slide.as_ref()?;
        if node.any_hidden() || !frame::tables_match(t, node) {
            return None;
        }
        let stack = slide.stack_axis;
        let mover = node.side ^ 1;
        let (placer, kind) = (color_of(piece), kind_of(piece));
        let cells = game.geometry.cells() as u32;
        // Per alternative: its tests that a frame cannot change, and its
        // lines up the stacking axis, each with the test along the other
        // axes and its run (cells without the piece, whether the piece joins).
        type Lines = Vec<(AfterLit, usize, bool)>;
        let mut split = PlacedWatches::empty(stack, placed.len());
        let mut judged: Vec<(Vec<AfterLit>, Lines)> = Vec::new();
        for (subject, alt) in open_alternatives(game, node, mover)? {
            let mut blind = Vec::new();
            for lit in alt.iter().filter(|lit| frame_blind(&lit.atom, stack)) {
                blind.push(AfterLit::new(game, t, base, lit, |_| true, mover, subject, placer, kind)?);
            }
            let mut lines = Vec::new();
            for lit in alt {
                let Atom::Line { pieces, length, axes } = &lit.atom else { continue };
                if lit.negated || length.hi < cells || !axes.contains(&stack) {
                    continue;
                }
                let along = AfterLit::new(game, t, base, &Lit { negated: false, atom: lit.atom.clone() }, |a| a != stack, mover, subject, placer, kind)?;
                let owner = resolve(pieces.who, mover, subject);
                let run = StackRun { cells: crate::engine::cond::set_cells(base, t, owner, pieces.kind), least: length.lo };
                let at = split.base_index(run);
                lines.push((along, at, owner == placer && pieces.kind.is_none_or(|k| k == kind)));
            }
            judged.push((blind, lines));
        }
        for &cell in placed {
            let mut own = Vec::new();
            'alternative: for (blind, lines) in &judged {
                if blind.iter().any(|lit| !lit.holds(t, cell)) {
                    continue;
                }
                for (along, at, joins) in lines {
                    if along.holds(t, cell) {
                        continue; // holds in every frame
                    }
                    own.push((*at, *joins));
                    continue 'alternative;
                }
                return None; // some rule may fire whatever the frame
            }
            split.push_node(cell, own);
        }
        Some(split)
    }

    /// Which runs without the placed piece form in the frame whose tables
    /// are `t`, for [`Self::judge`] (one entry per base run).
    pub fn formed(&self, t: &Tables, out: &mut Vec<bool>) {
        let up = t.unit_steps_along(self.axis, true);
        out.clear();
        out.extend(self.bases.iter().map(|b| b.forms(up)));
    }

    /// The watches judged in the frame whose tables are `t`, `formed`
    /// being [`Self::formed`] there: what [`Fires::may_fire`] asks per node.
    pub fn judge<'a>(&'a self, t: &'a Tables, formed: &[bool]) -> Fires<'a> {
        let mut through = Vec::new();
        let groups = self
            .groups
            .iter()
            .map(|g| {
                let at = through.len() as u32;
                if g.iter().any(|&(run, _)| formed[run]) {
                    return None; // formed without the piece: fires wherever it is
                }
                through.extend(g.iter().filter(|&&(_, joins)| joins).map(|&(run, _)| &self.bases[run]));
                Some((at, through.len() as u32))
            })
            .collect();
        Fires { split: self, groups, through, up: t.unit_steps_along(self.axis, true), down: t.unit_steps_along(self.axis, false) }
    }

}

/// [`PlacedWatches`] judged in one frame ([`PlacedWatches::judge`]).
pub struct Fires<'a> {
    split: &'a PlacedWatches,
    /// Per group of runs: `None` where one of them forms without the
    /// piece, else the range of `through` holding the runs the piece joins.
    groups: Vec<Option<(u32, u32)>>,
    /// The runs the piece joins, group after group.
    through: Vec<&'a StackRun>,
    /// The stacking axis's unit steps up and down in the frame.
    up: &'a [Cell],
    down: &'a [Cell],
}

impl Fires<'_> {
    /// [`FrameWatch::may_fire`] of position `node`'s watch in the frame.
    #[inline]
    pub fn may_fire(&self, node: usize) -> bool {
        let Some(&(placed, group)) = self.split.nodes.get(node) else { return true };
        let Some(Some((from, to))) = self.groups.get(group) else { return true };
        let runs = self.through.get(*from as usize..*to as usize).unwrap_or_default();
        runs.iter().any(|run| run.next_to(self.up, self.down, placed) && run.forms_through(self.up, self.down, placed))
    }

    /// The placed cells of the positions where a rule may fire (each
    /// position's [`Self::may_fire`], found group by group: a group whose
    /// runs form without the piece gives all its cells; otherwise only
    /// the cells next to a run the piece joins are tried, since a run
    /// cannot form through a cell without a neighbour in it).
    pub fn firing(&self) -> [u64; WORDS] {
        let mut out = [0u64; WORDS];
        for (group, cells) in self.groups.iter().zip(&self.split.group_cells) {
            let Some((from, to)) = *group else {
                out.iter_mut().zip(cells).for_each(|(o, c)| *o |= c);
                continue;
            };
            let has = |c: Cell| c != crate::engine::position::NO_CELL && cells.get(c as usize / 64).is_some_and(|w| w >> (c % 64) & 1 != 0);
            for run in self.through.get(from as usize..to as usize).unwrap_or_default() {
                let mut test = |c: Cell| {
                    if has(c) && run.forms_through(self.up, self.down, c) {
                        out[c as usize / 64] |= 1 << (c % 64);
                    }
                };
                if run.least <= 1 {
                    cells_in(cells).for_each(&mut test);
                    continue;
                }
                // The stacking axis's unit steps are each other's reverse
                // (a step up skips the levels with no cell where it lands,
                // and the step down from there skips the same ones), so the
                // cells next to the run are its cells' steps up and down.
                for x in cells_in(&run.cells) {
                    for steps in [self.up, self.down] {
                        if let Some(&c) = steps.get(x as usize) {
                            test(c);
                        }
                    }
                }
            }
        }
        out
    }
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variant::Variant;
    use crate::flow::ply::{below_from, in_ply, random_complete_ply, relocations_along_random_lines};
    use crate::test_support::FOUR_D_POST_OPENING as P;

    /// 4D-Schach, loaded from rules/4d-schach.rules.
    fn four_d() -> Variant {
        crate::test_support::variant("rules/4d-schach.rules")
    }

    /// A watch from the memo ([`WatchMemo`]) is the one worked out afresh,
    /// and so are its kept answers per piece ([`FiresFrom`]), at the
    /// positions two plies below the post-opening test position of
    /// interpreter/tests/four_d.rs, in the order perft meets them; and most
    /// come from the memo (siblings differ by a move of the other side).
    #[test]
    fn a_watch_from_the_memo_is_the_one_worked_out() {
        let v = four_d();
        let start = v.parse_fen(P, "<test>").expect("the test position");
        let mut memo = WatchMemo::default();
        let (mut nodes, mut kept) = (0, 0);
        for (_, child) in v.successors(&start).into_iter().filter(|(_, c)| !in_ply(c)).take(12) {
            for (_, node) in v.successors(&child).into_iter().filter(|(_, g)| !in_ply(g)) {
                let t = v.tables_for(&node);
                let before = memo.key.clone();
                let fresh = watch(&v.game, &t, &node);
                let (from_memo, fires_from) = memo.kept(&v.game, &t, &node);
                assert_eq!(*from_memo, fresh, "{}", v.fen(&node));
                for from in node.cells_of(node.side, t.nwords) {
                    let kind = kind_of(node.board[from as usize]);
                    assert_eq!(fires_from.may_fire_from(&t, from, kind, node.side), fresh.may_fire_from(&t, from, kind, node.side));
                }
                nodes += 1;
                kept += usize::from(memo.key == before);
            }
        }
        assert!(nodes > 500 && kept * 10 > nodes * 6, "{kept} of {nodes} watches from the memo");
    }

    /// [`Watch::may_fire_from`] lets through the piece of every move that
    /// [`Watch::may_fire`] lets through (a promotion aside, which the
    /// callers let through), at the nodes between plies along random lines
    /// of 4D-Schach from the post-opening test position of
    /// interpreter/tests/four_d.rs, at rest and with level IV swinging, and
    /// from two positions with lines to form (by steps, and by a capture
    /// onto a cell next to one Pawn only); and it stops some pieces with
    /// moves.
    #[test]
    fn a_piece_stopped_before_its_moves_has_no_move_that_may_fire() {
        let v = four_d();
        let (mut nodes, mut firing, mut stopped) = (0, 0, 0);
        let mut below = below_from(0x2545_F491_4F6C_DD1Du64);
        // Pawns on every other file of rank 2 of level I and in between on
        // level II (rank 7 of levels VII and VI for Black): a Pawn stepping
        // down between two others forms a line of 3 (a position built for
        // this test).
        const PAWNS: &str = "k7/p1p1p1p1/8/8/8/8/8/8|8/1p1p1p1p/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/1P1P1P1P/8|8/8/8/8/8/8/P1P1P1P1/K7 w - - 0 1";
        // White's Pawn a3 of level I takes b2, next to c2 and d2: a line of
        // 3 through a cell next to one Pawn only (built for this test).
        const CAPTURE: &str = "k7/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|7K/8/8/8/8/P7/1pPP4/8 w - - 0 1";
        for fen in [P.to_string(), format!("{P} {{frame=IV:-3<-3*}}"), PAWNS.to_string(), CAPTURE.to_string()] {
            for _ in 0..6 {
                let mut pos = v.parse_fen(&fen, "<test>").expect("the test position");
                for _ in 0..8 {
                    let t = v.tables_for(&pos);
                    let mover = pos.side;
                    let watch = watch(&v.game, &t, &pos);
                    if matches!(watch, Watch::Placing(_)) {
                        nodes += 1;
                        let mut moves = Vec::new();
                        movegen::pseudo_moves(&v.game, &t, &pos, &mut moves);
                        for m in moves.iter().filter(|m| m.kind != crate::engine::position::MoveKind::Drop && !m.is_promotion()) {
                            let from = watch.may_fire_from(&t, m.from, m.piece, mover);
                            if watch.may_fire(m, mover, &t) {
                                assert!(from, "{}: {m:?}", v.fen(&pos));
                                firing += 1;
                            }
                            stopped += usize::from(!from);
                        }
                    }
                    let Some(next) = random_complete_ply(&v, &pos, &mut below) else { break };
                    pos = next;
                }
            }
        }
        assert!(nodes > 100 && firing > 100 && stopped > 10_000, "{nodes} nodes, {firing} moves that may fire, {stopped} moves of stopped pieces");
    }

    /// A relocation's `only if` judged for the lifted piece on every empty
    /// cell without putting it ([`AfterPlacing::of_piece`], as
    /// [`relocations_limited`] judges it) says what the condition says with
    /// the piece put ([`crate::engine::cond::holds`]), for pieces of both
    /// sides (the entropy corrections relocate the other side's), wherever
    /// a relocation is owed along random lines of 4D-Schach from the
    /// post-opening test position of interpreter/tests/four_d.rs after
    /// VIf1-VIf2 (White's VIIf3-VIf3 then forms a group).
    #[test]
    fn a_relocations_only_if_judged_unput_is_the_put_one() {
        let v = four_d();
        let start = v.parse_fen(P, "<test>").expect("the test position");
        let Some(m) = v.legal_moves(&start).into_iter().find(|m| v.game.geometry.name(m.from) == "VIf1" && v.game.geometry.name(m.to) == "VIf2") else { panic!("VIf1-VIf2") };
        let start = v.play(&start, &m);
        let (mut nodes, mut judged, mut held) = (0, 0, 0);
        let mut below = below_from(0x9E37_79B9_7F4A_7C15u64);
        relocations_along_random_lines(&v, &start, 6, 4, |next| {
            let Some(o) = next.flow.as_ref().and_then(|f| f.queue.first()).copied() else { return };
            let Some(ObligeAction::Relocate { only_if: Some(cond), .. }) = step_of(&v.game, &o).map(|s| &s.action) else { return };
            let t = v.tables_for(next);
            nodes += 1;
            // The piece to relocate, and every fourth piece of either side.
            let mut pieces: Vec<Cell> = (0..2).flat_map(|c| next.cells_of(c, t.nwords).collect::<Vec<_>>()).filter(|_| below(4) == 0).collect();
            pieces.extend(o.from);
            for from in pieces {
                let mut lifted = next.clone();
                let piece = lifted.take(from, &t);
                let Some(after) = AfterPlacing::of_piece(&v.game, &t, &lifted, cond, o.player, color_of(piece), kind_of(piece)) else { continue };
                for to in v.game.geometry.board_cells().filter(|&c| lifted.board[c as usize] == 0) {
                    let mut put = lifted.clone();
                    put.put(to, piece, &t);
                    let made = crate::engine::cond::holds(&v.game, &t, &put, cond, o.player, o.player);
                    assert_eq!(after.holds(&t, to), made, "{} {} to {}", v.fen(next), v.game.geometry.name(from), v.game.geometry.name(to));
                    judged += 1;
                    held += usize::from(made);
                }
            }
        });
        assert!(nodes > 5 && judged > 10_000 && held > 1_000 && judged - held > 1_000, "{nodes} nodes, {judged} cells judged, {held} held");
    }
}
