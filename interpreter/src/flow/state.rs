//! The flow state a position carries (`Position::flow`): the phase and the
//! obligations still to be met in the current ply.

use super::out_of_play::OutOfPlay;
use crate::model::geometry::Cell;
use crate::model::Color;

/// The flow state of a position. `Position::flow` is `None` in play with no
/// obligation pending, so classical games never carry one.
#[derive(Debug, PartialEq, Eq, Hash, Default)]
pub struct Flow {
    /// The index of the current phase in `Game::phases`; `phases.len()` is play.
    pub phase: u8,
    /// Decisions owed before the turn passes, the head first.
    pub queue: Vec<Obligation>,
    /// Pieces out of play ([`super::out_of_play`]).
    pub out: Vec<OutOfPlay>,
    /// `(rule, player)`: optional steps waived in the ply in progress; the
    /// rule does not oblige that player again before the ply ends.
    pub waived: Vec<(u8, Color)>,
}

/// Cloned field by field so that `clone_from` keeps the vectors' storage
/// ([`crate::engine::position::Position::copy_from`] reuses one position
/// for every decision from a node).
impl Clone for Flow {
    fn clone(&self) -> Self {
        Flow { phase: self.phase, queue: self.queue.clone(), out: self.out.clone(), waived: self.waived.clone() }
    }

    fn clone_from(&mut self, src: &Self) {
        self.phase = src.phase;
        self.queue.clone_from(&src.queue);
        self.out.clone_from(&src.out);
        self.waived.clone_from(&src.waived);
    }
}

/// A decision a player owes before the turn passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Obligation {
    /// Who decides.
    pub player: Color,
    /// What kind of action.
    pub kind: ActionKind,
    /// `false`: the player may waive it ([`crate::flow::Action::Pass`]).
    pub compulsory: bool,
    /// A relocation of one piece: the cell it stands on (`None`: any of the
    /// player's pieces).
    pub from: Option<Cell>,
    /// The rule (index into `Game::rules`) and its step that queued this
    /// obligation, whose guards the action must meet (`None`: no guards).
    pub source: Option<(u8, u8)>,
    /// An exile: the level activated in this ply that it takes pieces from
    /// (set by the activation before it).
    pub level: Option<u8>,
}

impl Obligation {
    /// An obligation with no piece named and no guards.
    pub fn plain(player: Color, kind: ActionKind, compulsory: bool) -> Obligation {
        Obligation { player, kind, compulsory, from: None, source: None, level: None }
    }
}

/// The kinds of action an obligation asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// A move of one of the player's pieces (an intermediate move).
    Move,
    /// Moving one of the player's pieces to an empty cell (no capture, any distance).
    Relocate,
    /// Pulling a level at rest out of the shaft (`slide { … }`).
    Activate,
    /// Taking pieces of the level activated in the ply out of play.
    Exile,
    /// Returning a piece out of play that the player holds.
    Return,
}

impl ActionKind {
    /// The word for it in the position text (`oblige=`).
    pub fn word(self) -> &'static str {
        match self {
            ActionKind::Move => "move",
            ActionKind::Relocate => "relocate",
            ActionKind::Activate => "activate",
            ActionKind::Exile => "exile",
            ActionKind::Return => "return",
        }
    }

    /// The kind a word names.
    pub fn from_word(word: &str) -> Option<ActionKind> {
        [ActionKind::Move, ActionKind::Relocate, ActionKind::Activate, ActionKind::Exile, ActionKind::Return].into_iter().find(|k| k.word() == word)
    }
}

impl Flow {
    /// Does the state hold nothing beyond play (no phase before play, nothing
    /// owed, nothing out of play), so that the position needs none?
    pub fn is_empty(&self, game: &crate::model::Game) -> bool {
        self.queue.is_empty() && self.out.is_empty() && self.waived.is_empty() && self.phase as usize >= game.phases.len()
    }

    /// A number mixing the whole state, for `Position::key`.
    pub fn key(&self) -> u64 {
        let mut h = 0x51u64 + u64::from(self.phase);
        for o in &self.queue {
            let mut v = u64::from(o.player) | (o.kind as u64) << 1 | u64::from(o.compulsory) << 4;
            if let Some(c) = o.from {
                v |= (u64::from(c) + 1) << 5;
            }
            if let Some((r, s)) = o.source {
                v |= (u64::from(r) << 8 | u64::from(s)) << 24;
            }
            if let Some(l) = o.level {
                v |= (u64::from(l) + 1) << 40;
            }
            h = h.wrapping_mul(0x100000001B3).wrapping_add(v + 17);
        }
        for e in &self.out {
            h = h.wrapping_mul(0x100000001B3).wrapping_add(e.key() ^ 0x9E37_79B9);
        }
        for &(r, p) in &self.waived {
            h = h.wrapping_mul(0x100000001B3).wrapping_add(u64::from(r) << 1 | u64::from(p) | 0x4000);
        }
        h
    }
}
