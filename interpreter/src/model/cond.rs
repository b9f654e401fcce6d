//! Rule-defined conditions and effects (`rule "name" { on …  if …  then … }`,
//! issue 13): predicates over a position and a subject player, and what a
//! rule does when its condition holds. The evaluator is
//! [`crate::engine::cond`].

use crate::model::geometry::Cell;
use crate::model::{Color, KindId, Outcome};
use rulebook_grammar::ast::Span;

/// One `rule` item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// Its name (shown when it decides a game).
    pub name: String,
    /// When it is evaluated.
    pub trigger: Trigger,
    /// `if …` (`None`: always).
    pub guard: Option<Cond>,
    /// What it does.
    pub effect: Effect,
    /// The guard (or a `forbid` condition) names `own` or `enemy`: it is
    /// evaluated for each player as the subject (the mover first), not once.
    pub per_subject: bool,
    /// Where the item was written.
    pub span: Span,
    /// The file it was written in.
    pub file: String,
}

/// When a rule is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// In the position after every complete ply (and in a position given as
    /// text): a rule that ends the game makes the position terminal.
    PlyEnd,
    /// On every move offered to the side to move, before it is made.
    Offer,
}

/// What a rule does when its condition holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The game ends: `player` gets `outcome` (`Draw`: a draw for both).
    End {
        /// Whose result `outcome` is.
        player: Who,
        /// The result for `player`.
        outcome: Outcome,
    },
    /// `forbid moves after which COND`: a move is not legal when `COND`
    /// holds in the position after it (subject: the mover).
    Forbid(Cond),
    /// `captures are compulsory`: while the mover has a legal move that
    /// captures, the moves that capture nothing are not legal (judged after
    /// the moves `forbid` rules remove).
    CompelCaptures,
    /// `own King loses its first-move right` (ply-end): the set's pieces no
    /// longer keep their first-move rights (`Position::unmoved`); applied by
    /// `Position::make` after every move (cambodian's king facing a rook).
    LoseRight(PieceSet),
    /// `King may not capture King`: no move of kind `by` captures a piece
    /// of kind `of` (of either side: only the enemy's can be captured).
    NoCapture {
        /// The capturing kind.
        by: KindId,
        /// The kind it may not capture.
        of: KindId,
    },
    /// `King may only capture [checking pieces]`: no move of the kind that
    /// captures nothing is legal; with `checking`, none that captures a
    /// piece not attacking a royal piece of the mover (makpong's king in check).
    OnlyCaptures {
        /// The limited kind.
        kind: KindId,
        /// Only captures of pieces giving check.
        checking: bool,
    },
    /// `PLAYER must …  then PLAYER must …`: decisions owed before the turn
    /// passes, queued in this order when the rule holds at the end of a
    /// decision ([`crate::flow::oblige`]).
    Oblige(Vec<ObligeStep>),
}

/// One `PLAYER must …` (or `may …`) of an `oblige` effect.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObligeStep {
    /// Who owes it.
    pub player: Who,
    /// `must`; `false` for `may` (the player may waive it, and the rule then
    /// does not oblige the same subject again in that ply).
    pub compulsory: bool,
    /// What is owed.
    pub action: ObligeAction,
}

/// What an obligation asks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObligeAction {
    /// Pieces moved to empty cells, one decision each.
    Relocate {
        /// Which pieces, and where to.
        what: RelocateWhat,
        /// The relocated piece attacks no enemy piece and is not attacked.
        safe: bool,
        /// Holds after the relocation (subject and mover: the owner).
        only_if: Option<Cond>,
    },
    /// Pull a level at rest out of the shaft (`slide`).
    Activate,
    /// Take pieces of the level activated in this ply out of play
    /// ([`crate::flow::OutOfPlay`]), one decision for the whole set, until
    /// that level's swing ends.
    Exile {
        /// One of the deciding player's own pieces is taken.
        own: bool,
        /// One of the other player's pieces is taken.
        enemy: bool,
        /// Kinds never taken.
        except: Vec<KindId>,
        /// An enemy piece not returned before the swing ends passes to its
        /// owner, who may return it at any later time (else it stays out).
        to_owner: bool,
    },
    /// One piece out of play that the player holds goes back onto one of its
    /// return cells, capturing an enemy piece there.
    Return,
}

/// Which pieces a relocation moves, and where to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RelocateWhat {
    /// Each inner piece of the lines the guard's first `line` atom finds
    /// (all of a line's pieces but its two ends) goes, one decision each, to
    /// an empty cell whose coordinate on `axis` differs.
    Inner {
        /// The axis whose coordinate must change.
        axis: usize,
    },
    /// One piece of `pieces` (not of a kind in `except`) standing in a slice
    /// that passes `from`, to an empty cell of a slice that passes `to`
    /// (counted before the relocation).
    Pieces {
        /// The pieces that may be moved.
        pieces: PieceSet,
        /// Kinds never moved.
        except: Vec<KindId>,
        /// The slice the piece comes from.
        from: SliceCount,
        /// The slice it goes to.
        to: SliceCount,
    },
}

/// A slice across an axis (one level, one file …) whose count of pieces is in a range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SliceCount {
    /// The axis (index into the geometry's axes).
    pub axis: usize,
    /// The accepted numbers.
    pub count: Range,
    /// The pieces counted.
    pub pieces: PieceSet,
}

/// A player named in a rule, resolved when the rule is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    /// The rule's subject (`own`; `owner` in an effect).
    Own,
    /// The subject's opponent (`enemy`).
    Enemy,
    /// Who makes the move the rule looks at (`offer`), or made the ply that just ended (`ply-end`).
    Mover,
    /// The mover's opponent.
    Opponent,
    /// A player by name.
    Player(Color),
}

impl Who {
    /// The player this names, with `mover` the player who made (or makes)
    /// the move in question and `subject` the player `own` names.
    pub fn player(self, mover: Color, subject: Color) -> Color {
        match self {
            Who::Own => subject,
            Who::Enemy => subject ^ 1,
            Who::Mover => mover,
            Who::Opponent => mover ^ 1,
            Who::Player(c) => c,
        }
    }
}

/// A condition in disjunctive form: any of the conjunctions holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    /// The alternatives (`or`); each a list of literals that all hold (`and`).
    pub any_of: Vec<Vec<Lit>>,
}

/// An atom, possibly negated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lit {
    /// `not`.
    pub negated: bool,
    /// The test.
    pub atom: Atom,
}

/// Pieces of one player, of one kind or of any kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceSet {
    /// Whose.
    pub who: Who,
    /// Which kind (`None`: any).
    pub kind: Option<KindId>,
}

/// A count the condition accepts: `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    /// The least accepted.
    pub lo: u32,
    /// The most accepted.
    pub hi: u32,
}

impl Range {
    /// Is `n` in the range?
    pub fn contains(self, n: u32) -> bool {
        self.lo <= n && n <= self.hi
    }
}

/// Where pieces are counted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The whole board.
    Board,
    /// `on some AXIS`: some slice across that axis (one level, one file …) has an accepted count.
    Some(usize),
    /// `on every AXIS`: every slice has an accepted count.
    Every(usize),
    /// `on ZONE`: the zone of the pieces' owner (sorted cells, per player).
    Zone([Vec<Cell>; 2]),
}

/// One test on a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// `line N[..M] PIECES along AXES`: some longest unbroken line of
    /// adjacent cells along one of `axes`, each holding one of the pieces,
    /// has a length in `length` (`line N`: N or more).
    Line {
        /// Accepted lengths of a longest line.
        length: Range,
        /// The pieces.
        pieces: PieceSet,
        /// The axes a line may run along (indices into the geometry's axes).
        axes: Vec<usize>,
    },
    /// The number of the pieces in `scope` is in `count`.
    Count {
        /// Accepted numbers.
        count: Range,
        /// The pieces.
        pieces: PieceSet,
        /// Where.
        scope: Scope,
    },
    /// The least king-step (Chebyshev) distance between a piece of `from`
    /// and one of `to` is in `distance` (false when either set is empty).
    Distance {
        /// The first set.
        from: PieceSet,
        /// The second set.
        to: PieceSet,
        /// Accepted distances.
        distance: Range,
    },
    /// Some royal piece of the player is attacked.
    InCheck(Who),
    /// The player's moves have given check at least `times` times in the
    /// game (the count is part of the position: [`crate::Position::checks`]).
    ChecksGiven {
        /// The player.
        who: Who,
        /// How many checks at least.
        times: u32,
    },
    /// The player is to move.
    ToMove(Who),
    /// The player's last move was a pass (`Position::passed`).
    Passed(Who),
    /// No cell of the board is empty.
    BoardFull,
    /// Every piece of the player on the board is of a listed kind, each kind
    /// at most as often as listed (`counts[kind]`).
    HasOnly {
        /// The player.
        who: Who,
        /// Per kind: how many may be there.
        counts: Vec<u8>,
    },
    /// The pieces' owner is to move and has a legal move of one of them
    /// ending in `onto` (its own zone).
    CanMove {
        /// The pieces.
        pieces: PieceSet,
        /// Per player: the zone (sorted cells).
        onto: [Vec<Cell>; 2],
    },
    /// Some piece of `pieces` attacks (could capture) some piece of `target`.
    Attacks {
        /// The attackers.
        pieces: PieceSet,
        /// The attacked.
        target: PieceSet,
    },
    /// Some piece of the set is attacked by its owner's opponent.
    Attacked(PieceSet),
    /// A piece of `pieces` and one of `target` stand on one line along the
    /// axis (only that coordinate differs) with no piece between them
    /// (xiangqi's flying general).
    Faces {
        /// The first set.
        pieces: PieceSet,
        /// The second set.
        target: PieceSet,
        /// The axis the line runs along.
        axis: usize,
        /// `through pieces`: whatever stands between them.
        through: bool,
    },
    /// Some piece of the set stands on a cell coloured like `like` (colours
    /// as [`crate::engine::frame::cell_colour`] gives them).
    Coloured {
        /// The pieces.
        pieces: PieceSet,
        /// A cell of the colour.
        like: Cell,
    },
    /// `exiled SET can return [onto SET]`: a piece out of play that the
    /// set's player holds (of the set's kind, either colour) has a return
    /// cell: without `onto`, one it may take at the end of the holder's
    /// ply now; with `onto`, one on which a piece of that set stands, of the
    /// other colour than the piece out of play (a threat from out of play,
    /// now or later).
    Exiled {
        /// The holder and the kind.
        pieces: PieceSet,
        /// The pieces standing on a return cell.
        onto: Option<PieceSet>,
    },
    /// `PHASE ends`: the ply now ending completes phase `0` (an index into
    /// `Game::phases`): the position is in that phase and its end holds.
    PhaseEnds(usize),
}

impl Cond {
    /// Does the condition name `own` or `enemy` (so that it depends on the subject)?
    pub fn mentions_subject(&self) -> bool {
        let rel = |w: Who| matches!(w, Who::Own | Who::Enemy);
        self.any_of.iter().flatten().any(|lit| match &lit.atom {
            Atom::Line { pieces, .. } | Atom::Count { pieces, .. } | Atom::CanMove { pieces, .. } | Atom::Attacked(pieces) | Atom::Coloured { pieces, .. } => {
                rel(pieces.who)
            }
            Atom::Distance { from, to, .. } => rel(from.who) || rel(to.who),
            Atom::Exiled { pieces, onto } => rel(pieces.who) || onto.is_some_and(|o| rel(o.who)),
            Atom::PhaseEnds(_) | Atom::BoardFull => false,
            Atom::Attacks { pieces, target } | Atom::Faces { pieces, target, .. } => rel(pieces.who) || rel(target.who),
            Atom::InCheck(w) | Atom::ToMove(w) | Atom::Passed(w) | Atom::HasOnly { who: w, .. } | Atom::ChecksGiven { who: w, .. } => rel(*w),
        })
    }

    /// Does the condition contain a `can move` atom (which lists legal moves)?
    pub fn lists_moves(&self) -> bool {
        self.any_of.iter().flatten().any(|lit| matches!(lit.atom, Atom::CanMove { .. }))
    }
}
