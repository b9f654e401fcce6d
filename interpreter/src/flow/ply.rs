//! Decisions and plies: the actions at a decision node, applying one, the
//! work at the end of a ply, and legality of a whole ply.

use super::phase;
use super::out_of_play::OutOfPlay;
use super::state::{ActionKind, Flow, Obligation};
use crate::model::cond::ObligeAction;
use super::Action;
use crate::engine::movegen;
use crate::engine::position::Position;
use crate::engine::frame;
use crate::engine::variant::Variant;
use crate::model::Color;

/// Is a ply in progress in `pos` (an obligation is owed before the turn passes)?
pub fn in_ply(pos: &Position) -> bool {
    pos.flow.as_ref().is_some_and(|f| !f.queue.is_empty())
}

/// The player who started the ply in progress (its first decision passed
/// the turn to `side`), or the side to move between plies.
pub fn mover(pos: &Position) -> Color {
    if in_ply(pos) {
        pos.side ^ 1
    } else {
        pos.side
    }
}

impl Variant {
    /// Does `pos` need the flow layer: a phase, an obligation owed, a
    /// swinging level ([`super::perft::needs_flow`]), or a game whose rules
    /// oblige (a move may start a ply of several decisions)?
    pub fn needs_flow(&self, pos: &Position) -> bool {
        super::perft::needs_flow(pos) || super::oblige::any(&self.game)
    }

    /// Whose decision it is in `pos`: the head of the obligation queue, else the side to move.
    pub fn decider(&self, pos: &Position) -> Color {
        pos.flow.as_ref().and_then(|f| f.queue.first()).map_or(pos.side, |o| o.player)
    }

    /// The legal decisions in `pos`: the head obligation's actions, else the
    /// current phase's, else the legal moves. Without flow state this is
    /// [`Variant::legal_moves`], each wrapped as [`Action::Move`].
    pub fn actions(&self, pos: &Position) -> Vec<Action> {
        let Some(flow) = &pos.flow else {
            if frame::swinging(pos) || super::oblige::any(&self.game) {
                return self.moves_judged_at_ply_end(pos).into_iter().map(Action::Move).collect();
            }
            return self.legal_moves(pos).into_iter().map(Action::Move).collect();
        };
        if let Some(head) = flow.queue.first() {
            // Legality of the whole ply: a decision is kept when the ply can
            // still be completed with the mover's royal piece not attacked.
            let candidates = self.obligation_candidates(pos, head);
            return candidates.into_iter().filter(|a| self.completable(&self.apply(pos, a))).collect();
        }
        let mut moves = Vec::with_capacity(64);
        movegen::legal_moves(&self.game, &self.tables_for(pos), pos, &mut moves);
        match self.game.phases.get(flow.phase as usize) {
            Some(ph) => phase::actions(&self.game, &self.tables_for(pos), &ph.placement, pos, moves).into_iter().map(Action::Move).collect(),
            None => moves.into_iter().map(Action::Move).collect(),
        }
    }

    /// The legal moves while a level swings: every pseudo-legal move (and
    /// castling, which tests its own cells in the frame of now) that no
    /// `offer` rule forbids, made and followed by the end of the ply (the
    /// jump), after which the mover's royal piece must not be attacked. A
    /// move is judged in the frame the opponent will face (ruling
    /// "check-after-jump" of rules/4d-schach.rules: "kommt aber durch die
    /// Amplitude erneut ins Schach, gilt die Stellung als matt").
    fn moves_judged_at_ply_end(&self, pos: &Position) -> Vec<crate::engine::position::Move> {
        let game = &self.game;
        let t = self.tables_for(pos);
        if !game.rules.is_empty() && crate::engine::cond::decided(game, &t, pos).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        movegen::pseudo_moves(game, &t, pos, &mut moves);
        if game.castling.is_some() && !movegen::in_check(game, &t, pos) {
            movegen::castling_moves(game, &t, pos, &mut moves);
        }
        if !game.rules.is_empty() {
            crate::engine::cond::forbid_filter(game, &t, pos, &mut moves, 0);
        }
        moves.retain(|m| self.completable(&self.apply(pos, &Action::Move(*m))));
        moves
    }

    /// The actions an obligation of `kind` offers `player` before the
    /// whole-ply test: every such action by the piece-movement rules (a move
    /// must not leave the player's own royal piece attacked).
    fn obligation_candidates(&self, pos: &Position, head: &Obligation) -> Vec<Action> {
        let (player, kind, compulsory) = (head.player, head.kind, head.compulsory);
        let mut view = pos.clone();
        view.side = player;
        view.flow = None;
        let t = self.tables_for(pos);
        let mut out: Vec<Action> = match kind {
            ActionKind::Move => {
                let mut moves = Vec::new();
                movegen::legal_moves(&self.game, &self.tables_for(&view), &view, &mut moves);
                moves.into_iter().map(Action::Move).collect()
            }
            ActionKind::Relocate => super::oblige::relocations(&self.game, &t, pos, head),
            ActionKind::Activate => frame::activations(&self.game, pos).into_iter().map(|(level, rows)| Action::Activate { level, rows }).collect(),
            ActionKind::Exile => super::oblige::exiles(&self.game, &t, pos, head),
            ActionKind::Return => super::out_of_play::returns(&self.game, pos, player).into_iter().map(|(index, from, to)| Action::Return { index, from, to }).collect(),
        };
        if !compulsory {
            out.push(Action::Pass);
        }
        out
    }

    /// Can the ply in `pos` be completed with its mover's royal piece not
    /// attacked? (At a ply's end: is it not attacked now?)
    fn completable(&self, pos: &Position) -> bool {
        if let Some(head) = pos.flow.as_ref().and_then(|f| f.queue.first()) {
            // Some decision completes the ply (depth first, stopping at the first).
            return self.obligation_candidates(pos, head).into_iter().any(|a| self.completable(&self.apply(pos, &a)));
        }
        !movegen::royal_attacked(&self.game, &self.tables_for(pos), pos, pos.side ^ 1)
    }

    /// The position after `action` (which must be one of [`Variant::actions`]):
    /// the decision made, then, when the ply is complete, the end-of-ply work.
    pub fn apply(&self, pos: &Position, action: &Action) -> Position {
        let mut next = pos.clone();
        let head = pos.flow.as_ref().and_then(|f| f.queue.first().copied());
        let t = &*self.tables_for(pos);
        match (action, head) {
            (Action::Move(m), None) => {
                let us = pos.side;
                next.make(m, &self.game, t);
                if let Some(ph) = self.game.phases.get(phase::current(&self.game, pos)) {
                    phase::castling_rights(&self.game, &ph.placement, &mut next, m, us);
                }
            }
            (Action::Move(m), Some(o)) => {
                // An intermediate move: made as the obligated player's, the turn stays.
                let side = next.side;
                let (half, full) = (next.halfmove, next.fullmove);
                next.side = o.player;
                next.make(m, &self.game, t);
                next.side = side;
                next.fullmove = full;
                next.halfmove = if next.halfmove == 0 { 0 } else { half };
            }
            (Action::Relocate { from, to }, _) => {
                let piece = next.take(*from, t);
                next.put(*to, piece, t);
            }
            (Action::Activate { level, rows }, _) => {
                frame::activate(&self.game, &mut next, *level, *rows);
                // The exiles queued after it take pieces from this level.
                if let Some(flow) = next.flow.as_mut() {
                    for o in flow.queue.iter_mut().filter(|o| o.kind == ActionKind::Exile && o.level.is_none()) {
                        o.level = Some(*level);
                    }
                }
            }
            (Action::Exile { own, enemy }, o) => {
                let (holder, level) = (o.map_or(pos.side, |o| o.player), o.and_then(|o| o.level));
                let to_owner = o.and_then(|o| super::oblige::step_of(&self.game, &o)).is_some_and(|s| matches!(s.action, ObligeAction::Exile { to_owner: true, .. }));
                let anchor = match (level, frame::offsets_of(&next)) {
                    (Some(l), Some(offsets)) => offsets.get(l as usize).copied().unwrap_or(0),
                    _ => 0,
                };
                for cell in [own, enemy].into_iter().flatten() {
                    let piece = next.take(*cell, t);
                    let entry = OutOfPlay { piece, origin: *cell, holder: Some(holder), level, anchor, cells: vec![*cell], fresh: true, to_owner };
                    next.flow.get_or_insert_with(|| Box::new(Flow { phase: self.game.phases.len() as u8, ..Flow::default() })).out.push(entry);
                }
            }
            (Action::Return { index, to, .. }, _) => {
                let entry = next.flow.as_mut().filter(|f| (*index as usize) < f.out.len()).map(|f| f.out.remove(*index as usize));
                if let Some(e) = entry {
                    if next.board[*to as usize] != 0 {
                        next.take(*to, t);
                        next.halfmove = 0;
                    }
                    next.put(*to, e.piece, t);
                }
            }
            (Action::Pass, o) => {
                // A waived step of a rule: the rule does not oblige this player again in the ply.
                if let (Some((rule, _)), Some(flow)) = (o.and_then(|o| o.source), next.flow.as_mut()) {
                    let passer = o.map_or(pos.side, |o| o.player);
                    if !flow.waived.contains(&(rule, passer)) {
                        flow.waived.push((rule, passer));
                    }
                }
            }
        }
        if let Some(flow) = next.flow.as_mut() {
            if head.is_some() {
                flow.queue.remove(0);
            }
        }
        self.owe_or_end(&mut next);
        next
    }

    /// After a decision: drops the obligations at the head of the queue that
    /// can no longer be met; when nothing is owed, queues what the first
    /// `oblige` rule that holds asks ([`super::oblige`]) and, when none
    /// holds, does the end-of-ply work.
    fn owe_or_end(&self, next: &mut Position) {
        let obliging = super::oblige::any(&self.game);
        loop {
            if obliging {
                while let Some(head) = next.flow.as_ref().and_then(|f| f.queue.first().copied()) {
                    if !self.obligation_candidates(next, &head).is_empty() {
                        break;
                    }
                    if let Some(f) = next.flow.as_mut() {
                        f.queue.remove(0);
                    }
                }
            }
            if in_ply(next) {
                return;
            }
            if !obliging {
                break;
            }
            let owed = super::oblige::fire(&self.game, &self.tables_for(next), next);
            if owed.is_empty() {
                break;
            }
            next.flow.get_or_insert_with(|| Box::new(Flow { phase: self.game.phases.len() as u8, ..Flow::default() })).queue = owed;
        }
        self.end_of_ply(next);
    }

    /// The work at the end of a complete ply: swinging levels move
    /// (`slide`), the phase moves on when it is over (repeatedly), and the
    /// flow state is dropped when it holds nothing (play, no obligation).
    /// Rule-defined triggers at the end of a ply (`rule … on ply-end`) belong
    /// here, after the swing.
    fn end_of_ply(&self, pos: &mut Position) {
        let game = &self.game;
        if game.slide.is_some() {
            frame::tick(game, pos);
        }
        super::out_of_play::after_tick(game, pos);
        if let Some(flow) = pos.flow.as_mut() {
            flow.waived.clear();
        }
        if let Some(flow) = pos.flow.as_mut() {
            let before = flow.phase;
            while (flow.phase as usize) < game.phases.len() && hand_empty(game, &pos.hand) {
                flow.phase += 1;
            }
            if flow.phase != before && flow.phase as usize >= game.phases.len() {
                // Play begins: the move limit counts the moves of play only.
                pos.halfmove = 0;
            }
        }
        if pos.flow.as_ref().is_some_and(|f| f.is_empty(game)) {
            pos.flow = None;
        }
    }

    /// Sets the flow state of a position read without one: the first phase
    /// not yet over (nothing when play has begun).
    pub fn init_flow(&self, pos: &mut Position) {
        init_flow(&self.game, pos);
    }
}

fn hand_empty(game: &crate::model::Game, hand: &[[u8; 64]; 2]) -> bool {
    hand.iter().all(|h| h[..game.kinds.len()].iter().all(|&n| n == 0))
}

/// Sets `pos.flow` for a position read without flow state: the first phase
/// not yet over, or `None` once play has begun.
pub fn init_flow(game: &crate::model::Game, pos: &mut Position) {
    if pos.flow.is_some() {
        return;
    }
    let phase = phase::derive(game, pos);
    if phase < game.phases.len() {
        pos.flow = Some(Box::new(Flow { phase: phase as u8, ..Flow::default() }));
    }
}
