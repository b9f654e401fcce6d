//! A compiled variant: the model with its execution tables, and the operations
//! users call (start position, FEN, legal moves, make, game status).

use crate::text::fen::{self, FenSource};
use crate::model::{EndCondition, Game, Outcome};
use crate::engine::movegen;
use crate::engine::position::{Move, Position, NO_KIND};
use num_rational::Ratio;
use crate::engine::frame::{FrameCache, TablesRef};
use crate::engine::tables::Tables;
use rulebook_grammar::Diagnostic;
use std::sync::Arc;

/// A game ready to play: the model and its compiled tables.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The semantic model.
    pub game: Arc<Game>,
    /// Its execution tables (the resting geometry).
    pub tables: Tables,
    /// The tables of each frame met so far (`slide`), built lazily; shared by clones.
    pub frames: Arc<FrameCache>,
}

/// How a position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move has legal moves.
    Ongoing,
    /// No legal move and in check; the outcome is the side to move's.
    Checkmate(Outcome),
    /// No legal move, not in check; the outcome is the side to move's.
    Stalemate(Outcome),
    /// Drawn by the fifty-move rule (`draw after N moves without …`).
    FiftyMoves,
    /// Drawn because the position occurred the `draw on repetition N` number of times.
    Repetition,
    /// Ended by a `ply-end` rule (`rule "name" { … then … }`): the rule's index
    /// in [`Game::rules`] and the outcome for the side to move.
    Rule {
        /// Which rule ([`Game::rules`]).
        rule: usize,
        /// The result for the side to move.
        outcome: Outcome,
    },
}

impl Variant {
    /// Compiles `game`.
    pub fn new(game: Arc<Game>) -> Variant {
        let tables = Tables::new(&game);
        Variant::with_tables(game, tables)
    }

    /// `game` with its resting `tables` already built ([`Tables::new`] of
    /// this very game: lowering builds them to parse the setup).
    pub(crate) fn with_tables(game: Arc<Game>, tables: Tables) -> Variant {
        Variant { game, tables, frames: Arc::new(FrameCache::default()) }
    }

    /// The tables `pos` moves by: the variant's own, or (levels slid out of
    /// the shaft) its frame's, built on first use. One branch when no level
    /// has slid.
    #[inline]
    pub fn tables_for(&self, pos: &Position) -> TablesRef<'_> {
        match &pos.frame {
            None => TablesRef::Base(&self.tables),
            Some(frame) if frame.levels.iter().all(|l| l.offset == 0) => TablesRef::Base(&self.tables),
            Some(frame) => {
                // The offsets on the stack (no allocation per lookup: this runs
                // at every decision with a level out of the shaft).
                let mut buf = [0i8; 64];
                match buf.get_mut(..frame.levels.len()) {
                    Some(offsets) => {
                        for (o, l) in offsets.iter_mut().zip(&frame.levels) {
                            *o = l.offset;
                        }
                        TablesRef::Framed(self.frames.get(&self.game, &self.tables, offsets))
                    }
                    None => {
                        let offsets: Vec<i8> = frame.levels.iter().map(|l| l.offset).collect();
                        TablesRef::Framed(self.frames.get(&self.game, &self.tables, &offsets))
                    }
                }
            }
        }
    }

    /// The setup position. (Lowering has already checked that it parses.)
    pub fn start(&self) -> Result<Position, Diagnostic> {
        let mut pos = self.parse_fen(&self.game.setup, "<setup>")?;
        fen::hide_setup(&self.game, &self.tables, &mut pos);
        Ok(pos)
    }

    /// The probability of `m`'s chance outcome once its decision is made:
    /// for a reveal, the revealed identity's count in the mover's pool over
    /// the pool's size; for a captured face-down piece, the same in its
    /// owner's pool; the product when both happen (the pools are the two
    /// players', drawn independently); 1 for a move without chance.
    pub fn probability(&self, pos: &Position, m: &Move) -> Ratio<u64> {
        let draw = |color: usize, kind: u8| {
            let total = pos.pool_size(color as u8) as u64;
            if total == 0 {
                Ratio::from_integer(0)
            } else {
                Ratio::new(pos.pool[color][kind as usize] as u64, total)
            }
        };
        let us = pos.side as usize;
        let mut p = Ratio::from_integer(1);
        if m.reveal != NO_KIND {
            p *= draw(us, m.reveal);
        }
        if m.unveil != NO_KIND {
            p *= draw(us ^ 1, m.unveil);
        }
        if m.outcome != 0 {
            p *= crate::engine::spread::outcome_probability(&self.game, pos, m);
        }
        p
    }

    /// Parses a FEN; `name` labels diagnostics (e.g. `<--fen>`).
    pub fn parse_fen(&self, text: &str, name: &str) -> Result<Position, Diagnostic> {
        fen::parse(&self.game, &self.tables, text, &FenSource { name, offset: 0 })
    }

    /// Writes a position as FEN.
    pub fn fen(&self, pos: &Position) -> String {
        fen::write(&self.game, pos)
    }

    /// The legal moves in `pos`.
    /// Where the flow layer is needed ([`Variant::needs_flow`]: a phase, a
    /// ply with obligations, a swinging level, a move that starts a ply of
    /// several decisions), these are the moves among its decisions
    /// ([`Variant::actions`]); elsewhere the engine's.
    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if self.needs_flow(pos) {
            return self.actions(pos).iter().filter_map(|a| a.as_move().copied()).collect();
        }
        let mut out = Vec::with_capacity(64);
        movegen::legal_moves(&self.game, &self.tables_for(pos), pos, &mut out);
        out
    }

    /// Appends the legal moves in `pos` to `out`.
    pub fn legal_moves_into(&self, pos: &Position, out: &mut Vec<Move>) {
        if self.needs_flow(pos) {
            out.extend(self.actions(pos).iter().filter_map(|a| a.as_move().copied()));
            return;
        }
        movegen::legal_moves(&self.game, &self.tables_for(pos), pos, out);
    }

    /// The legal moves of `pos` judged one at a time ([`movegen::OneByOne`],
    /// in `scratch`), for a caller that needs only some of them. `None` where
    /// they are only known as a whole list: the flow layer's decisions, a
    /// position with levels, and the layers `OneByOne::new` names.
    pub fn one_by_one<'a>(&'a self, pos: &'a Position, scratch: &'a mut movegen::Scratch) -> Option<movegen::OneByOne<'a>> {
        if pos.frame.is_some() || self.needs_flow(pos) {
            return None;
        }
        movegen::OneByOne::new(&self.game, &self.tables, pos, scratch)
    }

    /// Has the side to move a legal move? The same answer as
    /// `!legal_moves(pos).is_empty()`, stopping at the first legal move where
    /// the moves can be judged one at a time.
    pub fn has_legal_move(&self, pos: &Position, scratch: &mut movegen::Scratch) -> bool {
        match self.one_by_one(pos, scratch) {
            Some(mut judge) => judge.first(|_| true).is_some(),
            None => !self.legal_moves(pos).is_empty(),
        }
    }

    /// The position after `m`. In a phase, a ply with obligations, while a
    /// level swings or in a game whose rules oblige, with the flow layer's
    /// work ([`Variant::apply`]: castling rights gained by placement, the end
    /// of the phase, the swing's jump, the obligations a rule queues).
    pub fn play(&self, pos: &Position, m: &Move) -> Position {
        if pos.flow.is_some() || crate::engine::frame::swinging(pos) || crate::flow::oblige::any(&self.game) {
            return self.apply(pos, &crate::flow::Action::Move(*m));
        }
        let mut next = pos.clone();
        next.make(m, &self.game, &self.tables_for(pos));
        next
    }

    /// Is the side to move in check?
    pub fn in_check(&self, pos: &Position) -> bool {
        movegen::in_check(&self.game, &self.tables_for(pos), pos)
    }

    /// How the game stands after the positions `earlier` (oldest first) led to
    /// `pos`. Of the end conditions that hold (checkmate or stalemate, the
    /// move limit, repetition), the one that no other holding condition
    /// outranks by the `priority` lines decides; without such lines the order
    /// is mate or stalemate (FIDE 5.1, 5.2 and 9.6 end the game with the move),
    /// then the move limit, then repetition ([`EndRules::deciding`]).
    ///
    /// [`EndRules::deciding`]: crate::model::EndRules::deciding
    pub fn status_in_game(&self, pos: &Position, earlier: &[Position]) -> Status {
        let plain = self.status(pos);
        if let Status::Rule { .. } = plain {
            // A rule ends the game with the ply, as mate does.
            return plain;
        }
        let end = &self.game.end;
        let mut holding = Vec::new();
        for condition in EndCondition::ALL {
            if !self.holds(condition, plain, pos, earlier) {
                continue;
            }
            holding.push(condition);
            // The first condition that holds decides unless a priority line
            // ranks something over it: no need to test the others.
            if holding.len() == 1 && !end.priority.iter().any(|&(_, lower)| lower == condition) {
                break;
            }
        }
        match end.deciding(&holding) {
            None => Status::Ongoing,
            Some(EndCondition::Checkmate | EndCondition::Stalemate) => plain,
            Some(EndCondition::MoveLimit) => Status::FiftyMoves,
            Some(EndCondition::Repetition) => Status::Repetition,
        }
    }

    /// Does `condition` hold in `pos` (after `earlier`)? `plain` is [`Variant::status`] of `pos`.
    fn holds(&self, condition: EndCondition, plain: Status, pos: &Position, earlier: &[Position]) -> bool {
        let end = &self.game.end;
        match condition {
            EndCondition::Checkmate => matches!(plain, Status::Checkmate(_)),
            EndCondition::Stalemate => matches!(plain, Status::Stalemate(_)),
            EndCondition::MoveLimit => end.fifty_move.is_some_and(|n| u64::from(pos.halfmove) >= 2 * u64::from(n)),
            EndCondition::Repetition => end.repetition.is_some_and(|n| {
                let key = self.repetition_key(pos);
                let seen = 1 + earlier.iter().filter(|p| self.repetition_key(p) == key).count();
                seen >= n as usize
            }),
        }
    }

    /// The key under which positions repeat (FIDE 9.2.3): the same pieces on
    /// the same squares, the same side to move and the same possible moves. An
    /// en-passant target counts only while an en-passant capture is legal, and
    /// castling rights and hands count as they are.
    pub fn repetition_key(&self, pos: &Position) -> u64 {
        if pos.ep_len > 0 && !self.legal_moves(pos).iter().any(|m| m.kind == crate::engine::position::MoveKind::EnPassant) {
            let mut plain = pos.clone();
            plain.ep_len = 0;
            return plain.key(&self.tables);
        }
        pos.key(&self.tables)
    }

    /// Mate, stalemate, an end by a `ply-end` rule, or none of them, from this position alone.
    pub fn status(&self, pos: &Position) -> Status {
        if !self.game.rules.is_empty() {
            if let Some(d) = crate::engine::cond::decided(&self.game, &self.tables_for(pos), pos) {
                return Status::Rule { rule: d.rule, outcome: d.outcome_for(pos.side) };
            }
        }
        // A ply in progress goes on while its decisions (not all moves) exist.
        if crate::flow::ply::in_ply(pos) && !self.actions(pos).is_empty() {
            return Status::Ongoing;
        }
        if !self.legal_moves(pos).is_empty() {
            return Status::Ongoing;
        }
        if self.in_check(pos) {
            Status::Checkmate(self.game.end.checkmate.unwrap_or(Outcome::Lose))
        } else {
            Status::Stalemate(self.game.end.stalemate.unwrap_or(Outcome::Draw))
        }
    }
}
