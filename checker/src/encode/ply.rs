//! The decisions between plies in play as Z3 formulas: the encoding of
//! `Variant::actions` at a node where nothing is owed, written from
//! LANGUAGE.md (§3.13 rules, §3.18 frames, §3.19 obligations) and the
//! rulings it cites.
//!
//! A move is *offered* when it is available (pseudo-legal; castling fully
//! tested) and no `offer` rule forbids it. After an offered move, either a
//! `ply-end` rule obliges (the ply goes on: *starts*), or the ply ends: the
//! sliding levels jump ([`Encoder::for_frame`] of the frame after the jump
//! judges the check test) and the move is legal when no royal piece of the
//! mover is attacked then (*ends*). Whether a ply that starts can be
//! completed is judged on the whole ply, which the encoding does not state
//! (the walk by decisions plays it).

use super::cond::{Reading, Unstated};
use super::{Encoder, State, Step};
use rulebook_interpreter::flow::OutOfPlay;
use rulebook_interpreter::model::cond::{Effect, Trigger};
use rulebook_interpreter::model::Color;
use z3::ast::Bool;

/// The decisions of the side to move between plies, as formulas over a
/// [`Step`]'s key.
#[derive(Clone, Debug)]
pub struct PlyStep {
    /// Available, and no `offer` rule forbids it.
    pub offered: Bool,
    /// Offered, and a `ply-end` rule obliges after it.
    pub starts: Bool,
    /// Offered, no rule obliges after it, and no royal piece of the mover
    /// is attacked after the jump at the end of the ply.
    pub ends: Bool,
}

impl Encoder<'_> {
    /// The decisions of `us` (to move in `s`, `step` its move) between
    /// plies of play, with `after` the encoder of the frame after the
    /// jump at the end of the ply (this encoder when no level swings) and
    /// `out` the pieces out of play; the first test of a rule's condition
    /// the encoding does not state, if any.
    pub fn ply(&self, s: &State, step: &Step, us: Color, after: &Encoder, out: &[OutOfPlay]) -> Result<PlyStep, Unstated> {
        let game = self.game;
        let play = game.phases.len();
        let before = Reading { mover: us, subject: us, to_move: us, phase: play, out };
        let made = Reading { to_move: us ^ 1, ..before };
        let mut offered = vec![step.available.clone()];
        let mut fires = Vec::new();
        for rule in &game.rules {
            match (&rule.effect, rule.trigger) {
                // `forbid moves after which COND` (the mover the subject).
                (Effect::Forbid(cond), Trigger::Offer) => {
                    let guard = match &rule.guard {
                        Some(g) => self.cond(s, g, before)?,
                        None => Bool::from_bool(true),
                    };
                    offered.push(Bool::and(&[guard, self.cond(&step.next, cond, made)?]).not());
                }
                // Compulsory captures compare a move with the others: not stated.
                (Effect::CompelCaptures, Trigger::Offer) => return Err(Unstated("captures are compulsory")),
                (Effect::NoCapture { .. }, Trigger::Offer) => return Err(Unstated("a capture a rule forbids")),
                (Effect::OnlyCaptures { .. }, Trigger::Offer) => return Err(Unstated("a piece a rule limits to captures")),
                // A rule that obliges, for the mover and, when its guard
                // names `own` or `enemy`, the other player as the subject.
                (Effect::Oblige(_), Trigger::PlyEnd) => {
                    let subjects = if rule.per_subject { vec![us, us ^ 1] } else { vec![us] };
                    for subject in subjects {
                        fires.push(match &rule.guard {
                            Some(g) => self.cond(&step.next, g, Reading { subject, ..made })?,
                            None => Bool::from_bool(true),
                        });
                    }
                }
                _ => {}
            }
        }
        let offered = Bool::and(&offered);
        let fires = Bool::or(&fires);
        let starts = Bool::and(&[offered.clone(), fires.clone()]);
        let ends = Bool::and(&[offered.clone(), fires.not(), self.in_check_after(s, step, us, after).not()]);
        Ok(PlyStep { offered, starts, ends })
    }

    /// Some royal piece of `us` is attacked in the state after `step`, in
    /// the frame of `after`: [`Encoder::in_check`] of the next state, split
    /// on whether the move moves, makes or drops a royal piece. When it
    /// does not, the royal pieces stand where they stood in `s` (a move
    /// never captures its own piece), so only those cells are asked about:
    /// with a position substituted, one or two cells instead of every cell,
    /// which keeps the formula that a model evaluates small.
    pub(super) fn in_check_after(&self, s: &State, step: &Step, us: Color, after: &Encoder) -> Bool {
        let royal_kinds: Vec<i64> = self.game.kinds.iter().enumerate().filter(|(_, k)| k.royal).map(|(i, _)| i as i64).collect();
        if royal_kinds.is_empty() {
            return Bool::from_bool(false);
        }
        let is_royal_kind = |x: &z3::ast::Int| Bool::or(&royal_kinds.iter().map(|&k| x.eq(super::int(k))).collect::<Vec<_>>());
        let moves_royal = Bool::or(&[is_royal_kind(&step.mover), is_royal_kind(&step.key[3]), is_royal_kind(&step.reveal)]);
        let standing: Vec<Bool> =
            self.cells.iter().map(|&c| Bool::and(&[self.is_royal(&self.at(s, c), us), after.attacked(&step.next, c, us ^ 1)])).collect();
        moves_royal.ite(&after.in_check(&step.next, us), &Bool::or(&standing))
    }
}
