//! A placement phase's decisions (`phase NAME { place from hand … }`) as
//! Z3 formulas: the encoding of `flow::phase::placements`, written from
//! LANGUAGE.md (§3.17 phases, the guards dropped in turn as a relocation's
//! are, §3.19).
//!
//! While the side to move has pieces in hand, its decisions are the legal
//! drops that meet the phase: the order's entry due (its kind, `on` cells
//! and `coloured like` colour), `on different colours`, and the guards
//! `placed piece attacks no enemy and is not attacked` and `only if`. When
//! no drop meets them all, the `only if` conditions are dropped, then the
//! safety guard (each a *stage*; the order, its cells and colours and `on
//! different colours` are never dropped). When no stage admits a drop, the
//! decisions are the legal moves that are not drops.

use super::cond::{Reading, Unstated};
use super::{int, sum, Encoder, State, Step};
use rulebook_interpreter::engine::frame;
use rulebook_interpreter::model::flow::Placement;
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Color, KindId};
use z3::ast::{Bool, Int};

/// The decisions of the side to move in a placement phase, as formulas
/// over a [`Step`]'s key: the decisions are the models of the first stage
/// that has one, else those of `otherwise`.
#[derive(Clone, Debug)]
pub struct PlacementStep {
    /// The drops admitted with every guard, then with fewer (each implies `step.legal`).
    pub stages: Vec<Bool>,
    /// The moves that are not drops (implies `step.legal`).
    pub otherwise: Bool,
}

impl Encoder<'_> {
    /// The decisions of `us` (to move in `s`, `step` its move) in the
    /// placement phase `placement` (index `phase`); the first test of an
    /// `only if` the encoding does not state, if any. (No piece is out of
    /// play in a placement phase.)
    pub fn placement(&self, s: &State, step: &Step, us: Color, placement: &Placement, phase: usize) -> Result<PlacementStep, Unstated> {
        let [class, _, to, extra] = &step.key;
        let is_drop = class.eq(int(2));
        // The step's legality, with the check test split on whether a royal piece is dropped.
        let legal = Bool::and(&[step.available.clone(), self.in_check_after(s, step, us, self).not()]);
        let mut base = vec![legal.clone(), is_drop.clone()];
        if !placement.order.is_empty() {
            base.push(self.order_due(s, us, placement, to, extra));
        }
        for &kind in &placement.different_colours {
            base.push(self.leaves_colours(s, us, kind, to, extra));
        }
        let safe = self.placed_safe(&step.next, us, to, extra);
        let roles = Reading { mover: us, subject: us, to_move: us ^ 1, phase, out: &[] };
        let only_if: Vec<Bool> = placement.only_if.iter().map(|c| self.cond(&step.next, c, roles)).collect::<Result<_, _>>()?;
        // The stages of `flow::phase::placements`: every guard, then without
        // `only if`, then without the safety guard; one that repeats the
        // stage before it is left out.
        let mut stages = Vec::new();
        let mut previous: Option<(bool, bool)> = None;
        for (with_safe, with_only_if) in [(placement.safe, true), (placement.safe, false), (false, false)] {
            let effective = (with_safe, with_only_if && !only_if.is_empty());
            if previous == Some(effective) {
                continue;
            }
            previous = Some(effective);
            let mut parts = base.clone();
            if effective.0 {
                parts.push(safe.clone());
            }
            if effective.1 {
                parts.extend(only_if.iter().cloned());
            }
            stages.push(Bool::and(&parts));
        }
        let otherwise = Bool::and(&[legal, is_drop.not()]);
        Ok(PlacementStep { stages, otherwise })
    }

    /// The order's entry due (the one after the pieces already placed: the
    /// order's length minus the hand's size): the dropped kind, its cells
    /// and its colour.
    fn order_due(&self, s: &State, us: Color, placement: &Placement, to: &Int, extra: &Int) -> Bool {
        let kinds = self.game.kinds.len();
        let in_hand = sum(&(0..kinds).map(|k| s.hand[k][us as usize].clone()).collect::<Vec<_>>());
        let order = &placement.order;
        let mut any = Vec::new();
        for (i, entry) in order.iter().enumerate() {
            let mut parts = vec![in_hand.eq(int((order.len() - i) as i64)), extra.eq(int(entry.kind as i64))];
            if let Some(cells) = &entry.cells {
                parts.push(Bool::or(&cells[us as usize].iter().map(|&c| to.eq(int(c as i64))).collect::<Vec<_>>()));
            }
            if let Some(colour) = entry.colour {
                let want = colour[us as usize];
                let cells: Vec<Bool> = self
                    .cells
                    .iter()
                    .filter(|&&c| frame::cell_colour(self.game, c) == want)
                    .map(|&c| to.eq(int(c as i64)))
                    .collect();
                parts.push(Bool::or(&cells));
            }
            any.push(Bool::and(&parts));
        }
        Bool::or(&any)
    }

    /// `KIND on different colours` for a drop of `extra` on `to`: a piece
    /// of `kind` may go on a colour only while the player has fewer than
    /// half (rounded up) of its pieces of that kind there; a drop of
    /// another kind must leave, per colour, enough empty cells where `kind`
    /// may be dropped for half (rounded down) of them.
    fn leaves_colours(&self, s: &State, us: Color, kind: KindId, to: &Int, extra: &Int) -> Bool {
        let own = int(rulebook_interpreter::engine::position::code(kind, us) as i64);
        let colour_cells = |c: u8| self.cells.iter().copied().filter(move |&x| frame::cell_colour(self.game, x) == c);
        let on: Vec<Int> = (0..2u8).map(|c| sum(&colour_cells(c).map(|x| self.at(s, x).eq(&own).ite(&int(1), &int(0))).collect::<Vec<_>>())).collect();
        let total = Int::add(&[on[0].clone(), on[1].clone(), s.hand[kind as usize][us as usize].clone()]);
        // Dropping `kind` itself: twice its count on that colour stays below the total.
        let lands_on = |c: u8| Bool::or(&colour_cells(c).map(|x| to.eq(int(x as i64))).collect::<Vec<_>>());
        let itself = Bool::and(&(0..2u8).map(|c| lands_on(c).implies((on[c as usize].clone() * int(2)).lt(&total))).collect::<Vec<_>>());
        // Another kind: per colour, the pieces there and the free cells of
        // `kind`'s drop zone (but `to`) hold at least half the total.
        let zone: Vec<Cell> = self.game.hand.as_ref().and_then(|h| h.drop_cells.get(kind as usize).cloned().flatten()).map_or_else(Vec::new, |z| z[us as usize].clone());
        let room = Bool::and(
            &(0..2u8)
                .map(|c| {
                    let free = sum(
                        &zone
                            .iter()
                            .filter(|&&x| frame::cell_colour(self.game, x) == c)
                            .map(|&x| Bool::and(&[self.at(s, x).eq(int(0)), to.ne(int(x as i64))]).ite(&int(1), &int(0)))
                            .collect::<Vec<_>>(),
                    );
                    // floor(total / 2) <= on + free  <=>  total <= 2 (on + free) + 1
                    total.le(&((on[c as usize].clone() + free) * int(2) + int(1)))
                })
                .collect::<Vec<_>>(),
        );
        extra.eq(int(kind as i64)).ite(&itself, &room)
    }

    /// `placed piece attacks no enemy and is not attacked`, in the state
    /// `next` after the drop of `extra` on `to`: no enemy capture lands on
    /// `to`, and no capture of the dropped kind from `to` lands on an enemy.
    /// Written as a chain of if-then-else on `to`, so that a model
    /// evaluates the one cell it drops on, not every cell.
    fn placed_safe(&self, next: &State, us: Color, to: &Int, extra: &Int) -> Bool {
        let them = us ^ 1;
        let ts = &self.templates.by_player[us as usize];
        let mut safe = Bool::from_bool(true);
        for &cell in self.cells.iter().rev() {
            let attacked = self.attacked(next, cell, them);
            let kinds: Vec<Bool> = (0..self.game.kinds.len())
                .filter_map(|k| {
                    let hits: Vec<Bool> = ts
                        .iter()
                        .filter(|t| t.from == cell && t.kind as usize == k && t.capture)
                        .map(|t| Bool::and(&[self.template_ready(next, t, us), self.is_enemy(&self.at(next, t.to), them)]))
                        .collect();
                    (!hits.is_empty()).then(|| Bool::and(&[extra.eq(int(k as i64)), Bool::or(&hits)]))
                })
                .collect();
            let attacks = Bool::or(&kinds);
            safe = to.eq(int(cell as i64)).ite(&Bool::or(&[attacked, attacks]).not(), &safe);
        }
        safe
    }
}
