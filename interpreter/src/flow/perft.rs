//! Perft over complete plies, and over single decisions.
//!
//! A *complete ply* is one path of decisions from a position between plies
//! to the next position between plies: its first decision and every
//! obligation met on the way. `plies(pos, d)` counts the complete plies `d`
//! deep (perft as published: in a game without obligations one ply is one
//! decision); `decisions(pos, d)` counts paths of `d` single decisions,
//! whoever makes them.
//!
//! Complete plies are counted by the engine's perft
//! ([`crate::engine::perft`]), which sends only the nodes and moves that
//! need it through the flow layer: a node with flow state or a swinging
//! level, and at other nodes the moves after which an `oblige` rule fires
//! ([`Variant::ply_starts`]); every other move is one complete ply, counted
//! on the engine's fast path. [`plies_reference`] counts by the definition
//! alone (every decision through [`Variant::successors_reference`]).

use super::count::placed::{differs_only_by_placed, PlacedSink};
use super::ply::in_ply;
use super::state::ActionKind;
use super::Action;
use crate::engine::perft::{perft, perft_limited, Budget, CHECK_EVERY};
use crate::engine::position::{Position, WORDS};
use crate::engine::variant::Variant;
use crate::model::geometry::Cell;

/// The positions at the end of every complete ply from `pos` (one per
/// complete ply, in no set order: perft sums below them).
pub fn ply_ends(v: &Variant, pos: &Position, out: &mut Vec<Position>) {
    if relocated_ends(v, pos, out) {
        return;
    }
    for (_, next) in v.successors(pos) {
        ends_through(v, next, out);
    }
}

/// [`ply_ends`] at a node that owes a relocation: each relocation made,
/// and the targets after which only an activation is owed, positions that
/// differ only by where the relocated piece stands, judged activation by
/// activation for all of them at once
/// ([`Variant::placed_activations`], as the count one ply above perft's
/// leaves judges them): per activation the frame, its tables and the
/// attacks on the mover's royal piece are worked out once, and each
/// target asks only whether its piece blocks them. `false` (nothing
/// written) at any other node.
///
/// Profile behind it (callgrind, 4D-Schach's swinging perft 4): judging
/// each target's activations one by one ([`Variant::successors`], then
/// [`Variant::activation_ends_ply`] per activation) took 20% of the count.
fn relocated_ends(v: &Variant, pos: &Position, out: &mut Vec<Position>) -> bool {
    let Some(head) = pos.flow.as_ref().and_then(|f| f.queue.first()).copied() else { return false };
    if head.kind != ActionKind::Relocate {
        return false;
    }
    let t = v.tables_for(pos);
    let runs = crate::engine::cond::RunMemo::default();
    let mut next = pos.clone();
    let mut shields = None;
    // The first target after which an activation is owed, and every such
    // target like it (its relocation and cell); the others on their own.
    let mut first: Option<Position> = None;
    let mut relocated: Vec<(Action, Cell)> = Vec::new();
    for a in v.obligation_candidates(pos, &head) {
        v.apply_keeping_runs(pos, &t, &a, &mut next, &runs);
        if let (Action::Relocate { from, to }, true) = (a, super::count::owes_activation(&next)) {
            if v.relocation_unsafe(pos, &t, &next, from, to, &mut shields).unwrap_or_else(|| v.dead_mid_ply(&next)) {
                continue;
            }
            match (&first, relocated.first()) {
                (None, _) => {
                    first = Some(next.clone());
                    relocated.push((a, to));
                    continue;
                }
                (Some(f), Some(&(_, at))) if differs_only_by_placed(f, at, &next, to) => {
                    relocated.push((a, to));
                    continue;
                }
                _ => {}
            }
        }
        ends_after(v, &next, out);
    }
    let Some(first) = first else { return true };
    let cells: Vec<Cell> = relocated.iter().map(|&(_, c)| c).collect();
    let remake = |i: usize, into: &mut Position| {
        if let Some((b, _)) = relocated.get(i) {
            v.apply_keeping_runs(pos, &t, b, into, &runs);
        }
    };
    let mut sink = Ends { out, scratch: first.clone() };
    if v.placed_activations(&first, &cells, remake, &mut sink).is_none() {
        for i in 0..relocated.len() {
            remake(i, &mut next);
            ends_after(v, &next, out);
        }
    }
    true
}

/// The ends of the complete plies through `next`, a position after a
/// decision not yet judged: itself when its ply is over and legal
/// ([`Variant::completable`]), else the ends of the plies that complete it
/// (none where no way of completing it is legal).
fn ends_after(v: &Variant, next: &Position, out: &mut Vec<Position>) {
    if !in_ply(next) {
        if v.completable(next) {
            out.push(next.clone());
        }
    } else if !v.dead_mid_ply(next) {
        ply_ends(v, next, out);
    }
}

/// The ends [`Variant::placed_activations`] finds, written to `out`.
struct Ends<'o> {
    out: &'o mut Vec<Position>,
    /// Where each node is written before its end is made.
    scratch: Position,
}

impl PlacedSink for Ends<'_> {
    fn ended(&mut self, v: &Variant, (level, rows): (u8, i8), cells: &[u64; WORDS], placed: &[Cell], node: &dyn Fn(usize, &mut Position)) {
        for (i, &c) in placed.iter().enumerate() {
            if cells[c as usize / 64] >> (c % 64) & 1 != 0 {
                node(i, &mut self.scratch);
                self.out.push(v.ended_by_activation(&self.scratch, level, rows));
            }
        }
    }

    fn followed(&mut self, v: &Variant, next: &Position) {
        ends_after(v, next, self.out);
    }
}

/// The ends of the complete plies through `next`, a position after a legal
/// decision ([`Variant::successors`]): itself when its ply is over, else
/// the ends of the plies that complete it.
pub fn ends_through(v: &Variant, next: Position, out: &mut Vec<Position>) {
    if in_ply(&next) {
        ply_ends(v, &next, out);
    } else {
        out.push(next);
    }
}

/// The number of complete plies from `pos` (each one's end counted once).
pub fn count_plies(v: &Variant, pos: &Position) -> u64 {
    v.count_complete(pos)
}

/// Counts the complete plies `depth` deep below `pos`, within `budget`:
/// `None` if the budget stopped the count.
pub fn plies_limited(v: &Variant, pos: &Position, depth: u32, budget: &Budget) -> Option<u64> {
    perft_limited(v, pos, depth, budget)
}

/// Counts the complete plies `depth` deep below `pos`.
pub fn plies(v: &Variant, pos: &Position, depth: u32) -> u64 {
    perft(v, pos, depth)
}

/// [`plies`] by the definition alone: every decision listed and made by the
/// flow layer ([`Variant::successors_reference`]: every offered move made
/// with its ply's work and judged at the ply's end), no engine fast path and
/// no pre-filter. Slow; the reference the fast paths are tested against.
pub fn plies_reference(v: &Variant, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut ends = Vec::new();
    reference_ends(v, pos, &mut ends);
    if depth == 1 {
        return ends.len() as u64;
    }
    ends.iter().map(|end| plies_reference(v, end, depth - 1)).sum()
}

fn reference_ends(v: &Variant, pos: &Position, out: &mut Vec<Position>) {
    for (_, next) in v.successors_reference(pos) {
        if in_ply(&next) {
            reference_ends(v, &next, out);
        } else {
            out.push(next);
        }
    }
}

/// Counts the paths of `depth` single decisions below `pos` (every
/// obligation met is a decision of its own).
pub fn decisions(v: &Variant, pos: &Position, depth: u32) -> u64 {
    decisions_limited(v, pos, depth, &Budget::new(None, None)).unwrap_or(0)
}

/// [`decisions`] within `budget`: `None` if the budget stopped the count.
pub fn decisions_limited(v: &Variant, pos: &Position, depth: u32, budget: &Budget) -> Option<u64> {
    let mut pending = 0;
    let n = decisions_with(v, pos, depth, budget, &mut pending)?;
    budget.charge(pending).then_some(n)
}

fn decisions_with(v: &Variant, pos: &Position, depth: u32, budget: &Budget, pending: &mut u64) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if depth == 1 {
        let n = v.actions(pos).len() as u64;
        *pending += n;
        if *pending >= CHECK_EVERY && !budget.charge(std::mem::take(pending)) {
            return None;
        }
        return Some(n);
    }
    let mut total = 0;
    for (_, next) in v.successors(pos) {
        total += decisions_with(v, &next, depth - 1, budget, pending)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::ply::relocations_along_random_lines;
    use crate::test_support::{variant, FOUR_D_POST_OPENING as P};

    /// The positions of `ends` as sorted texts (frame and flow state included).
    fn texts(v: &Variant, ends: &[Position]) -> Vec<String> {
        let mut out: Vec<String> = ends.iter().map(|p| v.fen(p)).collect();
        out.sort();
        out
    }

    /// At nodes of 4D-Schach that owe a relocation (a group formed: after
    /// VIf1-VIf2 in the post-opening test position, White's VIIf3-VIf3
    /// forms the group VIf2-f3-f4, as in `count::placed`'s test; at rest
    /// and with level IV swinging, then along random lines), the ends
    /// [`ply_ends`] finds, with the targets after which only an activation
    /// is owed judged together ([`relocated_ends`]), are the ends by the
    /// definition ([`reference_ends`]: every decision made with its ply's
    /// work), position for position.
    #[test]
    fn ends_of_a_relocations_targets_are_the_reference_ends() {
        let v = variant("rules/4d-schach.rules");
        let (mut nodes, mut ends) = (0, 0);
        for fen in [P.to_string(), format!("{P} {{frame=IV:-3<-3*}}")] {
            let pos = v.parse_fen(&fen, "<test>").expect("4D position");
            let name = |c| v.game.geometry.name(c);
            let m = v.legal_moves(&pos).into_iter().find(|m| name(m.from) == "VIf1" && name(m.to) == "VIf2").expect("VIf1-VIf2");
            let pos = v.play(&pos, &m);
            relocations_along_random_lines(&v, &pos, 2, 3, |node| {
                let mut fast = Vec::new();
                assert!(relocated_ends(&v, node, &mut fast), "a node owing a relocation");
                let mut reference = Vec::new();
                reference_ends(&v, node, &mut reference);
                assert_eq!(texts(&v, &fast), texts(&v, &reference), "{}", v.fen(node));
                nodes += 1;
                ends += fast.len();
            });
        }
        // (At this writing: 4 nodes, each with over 200 targets judged together, 39,609 ends.)
        assert!(nodes >= 2 && ends > 10_000, "{nodes} nodes, {ends} ends");
    }
}
