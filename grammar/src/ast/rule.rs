//! The `rule` item (issue 13): a condition over the position, when it is
//! evaluated, and what happens when it holds.

use super::{Ident, Span, Spanned, Zone};

/// `rule "name" { on TRIGGER  if COND  then EFFECT }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleDef {
    /// Its name, shown when it decides a game.
    pub name: Spanned<String>,
    /// `on ply-end` or `on offer`.
    pub trigger: Spanned<Trigger>,
    /// `if COND` (`None`: always).
    pub guard: Option<Cond>,
    /// `then …`.
    pub effect: Spanned<Effect>,
    /// The whole item.
    pub span: Span,
}

/// When a rule is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// `ply-end`: in the position after every complete ply.
    PlyEnd,
    /// `offer`: on every move the side to move is offered.
    Offer,
}

/// What a rule does when its condition holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// `PLAYER wins`.
    Wins(Spanned<PlayerRef>),
    /// `PLAYER loses`.
    Loses(Spanned<PlayerRef>),
    /// `draw`.
    Draw,
    /// `forbid moves after which COND`.
    Forbid(Cond),
    /// `captures are compulsory`: while a capture is legal, a move that
    /// captures nothing is not.
    CompelCaptures,
    /// `own King loses its first-move right` (ply-end).
    LoseRight(PieceSet),
    /// `King may not capture King`: no move of the first kind captures a
    /// piece of the second.
    NoCapture {
        /// The capturing kind.
        by: Ident,
        /// The kind it may not capture.
        of: Ident,
    },
    /// `King may only capture [checking pieces]`: the kind's moves that
    /// capture nothing (or, with `checking pieces`, no piece attacking a
    /// royal piece of the mover) are not legal.
    OnlyCaptures {
        /// The limited kind.
        piece: Ident,
        /// `checking pieces`: only captures of pieces giving check.
        checking: bool,
    },
    /// `PLAYER must …  then PLAYER must …`: decisions owed, in this order.
    Oblige(Vec<ObligeStep>),
}

/// One `PLAYER must …` (or `PLAYER may …`) of an `oblige` effect.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObligeStep {
    /// Who owes it (`owner`, `mover`, `opponent`, a name).
    pub player: Spanned<PlayerRef>,
    /// `must` (`true`) or `may` (`false`: the player may waive it).
    pub compulsory: bool,
    /// What is owed.
    pub action: ObligeAction,
    /// The whole step.
    pub span: Span,
}

/// What an obligation asks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObligeAction {
    /// `relocate inner pieces to another AXIS[, placed piece attacks no enemy
    /// and is not attacked][, only if COND]`: each inner piece of the lines
    /// the guard's `line` found goes, one decision each, to an empty cell
    /// with another coordinate on the axis.
    Relocate {
        /// Which pieces, and where to.
        what: RelocateWhat,
        /// `placed piece attacks no enemy and is not attacked`.
        safe: bool,
        /// `only if COND`: holds after the relocation (subject: the owner).
        only_if: Option<Cond>,
    },
    /// `activate`: pull a level at rest out of the shaft (`slide`).
    Activate,
    /// `exile own and enemy piece from activated AXIS[, except KIND…][,
    /// missed: enemy piece to owner]`: take pieces of the level activated in
    /// this ply out of play until its swing ends.
    Exile {
        /// Take one of the player's own pieces.
        own: bool,
        /// Take one of the other player's pieces.
        enemy: bool,
        /// The stacking axis (`level`): the pieces stand on the level activated in this ply.
        axis: Ident,
        /// Kinds never taken.
        except: Vec<Ident>,
        /// `missed: enemy piece to owner`: an enemy piece not returned in
        /// time passes to its owner's power (else it stays out for good).
        to_owner: bool,
    },
    /// `return exiled piece`: one piece out of play that the player holds
    /// goes back onto one of its return cells.
    Return,
}

/// Which pieces a relocation moves, and where to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RelocateWhat {
    /// `inner pieces to another AXIS`: the inner pieces of the guard's
    /// `line`, each to a cell with another coordinate on the axis.
    Inner {
        /// The axis whose coordinate must change (`level`).
        axis: Ident,
    },
    /// `SET [except KIND…] from AXIS with COUNT SET to AXIS with COUNT SET`:
    /// one piece of the set, standing in a slice whose count passes the
    /// first test, to an empty cell of a slice whose count passes the second
    /// (counts before the relocation).
    Pieces {
        /// The pieces that may be moved.
        pieces: PieceSet,
        /// Kinds never moved.
        except: Vec<Ident>,
        /// Where the piece may come from.
        from: SliceCount,
        /// Where it may go.
        to: SliceCount,
    },
}

/// `level with fewer than 2 black's pieces`: a slice across an axis with a count of pieces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SliceCount {
    /// The axis whose slices are meant (`level`: one level).
    pub axis: Ident,
    /// The test on the count.
    pub compare: Spanned<Compare>,
    /// The pieces counted.
    pub pieces: PieceSet,
}

/// A condition: any of the conjunctions holds (`A and B or C and not D`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    /// The alternatives joined by `or`.
    pub any_of: Vec<CondConj>,
    /// The whole condition.
    pub span: Span,
}

/// Literals joined by `and`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CondConj {
    /// The literals; all must hold.
    pub all_of: Vec<CondLit>,
    /// The whole conjunction.
    pub span: Span,
}

/// An atom, possibly negated with `not`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CondLit {
    /// `not` was written before it.
    pub negated: bool,
    /// The atom.
    pub atom: Spanned<CondAtom>,
}

/// One test on the position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CondAtom {
    /// `line 3 own Pawn along file rank level` (`line 3..4 …`).
    Line {
        /// The least number of pieces in the line.
        min: Spanned<u32>,
        /// `..M`: the longest such line has at most M pieces.
        max: Option<Spanned<u32>>,
        /// Whose pieces, of which kind.
        pieces: PieceSet,
        /// The axes the line may run along.
        axes: Vec<Ident>,
    },
    /// `fewer than 2 own pieces on some level`.
    Count {
        /// The comparison with a number.
        compare: Spanned<Compare>,
        /// The pieces counted.
        pieces: PieceSet,
        /// Where they are counted (`None`: the whole board).
        scope: Option<Scope>,
    },
    /// `distance own King to enemy King at most 1`.
    Distance {
        /// The first set.
        from: PieceSet,
        /// The second set.
        to: PieceSet,
        /// The comparison of the least distance between them.
        compare: Spanned<Compare>,
    },
    /// `PLAYER in check`.
    InCheck(Spanned<PlayerRef>),
    /// `PLAYER gave check N times`.
    ChecksGiven {
        /// The player.
        player: Spanned<PlayerRef>,
        /// N.
        times: Spanned<u32>,
    },
    /// `PLAYER to move`.
    ToMove(Spanned<PlayerRef>),
    /// `mover passed`: the player's last move was a pass.
    Passed(Spanned<PlayerRef>),
    /// `board full`: no cell of the board is empty.
    BoardFull,
    /// `PLAYER has only King Bishop`.
    HasOnly {
        /// The player.
        player: Spanned<PlayerRef>,
        /// The kinds it may have (a kind written twice may be there twice).
        kinds: Vec<Ident>,
    },
    /// `black's King can move onto rank 8`.
    CanMove {
        /// The pieces that would move.
        pieces: PieceSet,
        /// Where to.
        onto: Zone,
    },
    /// `own Queen attacks enemy King`.
    Attacks {
        /// The attackers.
        pieces: PieceSet,
        /// The attacked.
        target: PieceSet,
    },
    /// `own Queen attacked`: attacked by the owner's opponent.
    Attacked(PieceSet),
    /// `own King faces enemy King along rank`: one of each on a line along
    /// the axis, nothing between them.
    Faces {
        /// The first set.
        pieces: PieceSet,
        /// The second set.
        target: PieceSet,
        /// The axis the line runs along.
        axis: Ident,
        /// `through pieces`: whatever stands between them.
        through: bool,
    },
    /// `own Bishop coloured like a1`.
    Coloured {
        /// The pieces.
        pieces: PieceSet,
        /// A square of the colour.
        like: Ident,
    },
    /// `own King on square d4 or square e4`.
    On {
        /// The pieces.
        pieces: PieceSet,
        /// The zone.
        zone: Zone,
    },
    /// `exiled own piece can return [onto enemy King]`.
    Exiled {
        /// Whose holding (the set's player holds the pieces), of which kind.
        pieces: PieceSet,
        /// `onto SET`: a return cell holds a piece of this set.
        onto: Option<PieceSet>,
    },
    /// `opening ends`: the ply now ending completes the named phase.
    PhaseEnds(Ident),
}

/// A comparison with a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compare {
    /// `fewer than N`.
    Fewer(u32),
    /// `more than N`.
    More(u32),
    /// `at least N`.
    AtLeast(u32),
    /// `at most N`.
    AtMost(u32),
    /// `exactly N`.
    Exactly(u32),
    /// `no` (exactly 0).
    No,
}

/// Where pieces are counted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `on some AXIS`: on one slice of the axis (one level, …).
    Some(Ident),
    /// `on every AXIS`: on each slice of the axis.
    Every(Ident),
    /// `on ZONE`.
    Zone(Zone),
}

/// `own Pawn`, `enemy pieces`, `white's King`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceSet {
    /// Whose pieces.
    pub party: Spanned<PlayerRef>,
    /// Of which kind (`None`: `pieces`/`piece`, any kind).
    pub kind: Option<Ident>,
    /// The whole set.
    pub span: Span,
}

/// A player named in a rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerRef {
    /// `own`: the rule's subject.
    Own,
    /// `enemy`: the subject's opponent.
    Enemy,
    /// `mover`: who makes (or made) the move the rule looks at.
    Mover,
    /// `opponent`: the mover's opponent.
    Opponent,
    /// `owner`: in an effect, the subject the condition held for.
    Owner,
    /// A player's name (`white`).
    Named(String),
}
