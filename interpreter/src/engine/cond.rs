//! Rule-defined conditions and effects (issue 13): evaluates the
//! [`crate::model::cond`] predicates over a position, decides positions that
//! a `ply-end` rule ends, and filters the moves an `offer` rule forbids.
//!
//! A game without `rule` items never enters this module: move generation and
//! status test `game.rules.is_empty()` once.
//!
//! *Mover* and *subject*: in a position (after a complete ply) the mover is
//! the player who made that ply, the one not to move; for an offered move it
//! is the side to move. A rule whose condition names `own` or `enemy` is
//! evaluated with each player as the subject, the mover first; otherwise once.

mod sight;

use crate::engine::frame;
use crate::engine::movegen;
use crate::engine::position::{color_of, kind_of, Move, MoveKind, Position, NO_CELL};
use crate::engine::tables::Tables;
use crate::model::cond::{Atom, Cond, Effect, PieceSet, Range, Rule, Scope, Trigger, Who};
use crate::model::geometry::Cell;
use crate::model::{Color, Game, Outcome};

/// A position a `ply-end` rule ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The rule (index into [`Game::rules`]).
    pub rule: usize,
    /// The winner (`None`: a draw).
    pub winner: Option<Color>,
}

impl Decision {
    /// The result for `side` (the side to move, for [`crate::Status`]).
    pub fn outcome_for(&self, side: Color) -> Outcome {
        match self.winner {
            None => Outcome::Draw,
            Some(w) if w == side => Outcome::Win,
            Some(_) => Outcome::Lose,
        }
    }
}

/// Does a `ply-end` rule end the game in `pos`? The first such rule in file
/// order whose condition holds (for the mover as subject first, then the
/// opponent) decides. This is the evaluation at the end of a complete ply:
/// the flow layer may call it there; move generation and status call it for
/// every position between plies (a position given as text is the end of a
/// ply too), and never while an obligation of the ply is owed.
pub fn decided(game: &Game, t: &Tables, pos: &Position) -> Option<Decision> {
    ends(game, t, pos).next()
}

/// Every `ply-end` rule that would end the game in `pos`, in file order (each
/// with the first subject it holds for): [`decided`] takes the first. Two
/// with different winners are an ambiguity the file resolves by order only
/// (`rulebook check` reports one it reaches).
pub fn holding(game: &Game, t: &Tables, pos: &Position) -> Vec<Decision> {
    ends(game, t, pos).collect()
}

/// The `ply-end` rules that end the game in `pos`, lazily, in file order;
/// none while an obligation of the ply is owed (not the end of a ply).
fn ends<'a>(game: &'a Game, t: &'a Tables, pos: &'a Position) -> impl Iterator<Item = Decision> + 'a {
    let mover = pos.side ^ 1;
    let between_plies = !crate::flow::ply::in_ply(pos);
    game.rules.iter().enumerate().filter(move |_| between_plies).filter_map(move |(i, rule)| {
        let Effect::End { player, outcome } = rule.effect else { return None };
        if rule.trigger != Trigger::PlyEnd {
            return None;
        }
        subjects(rule, mover).find_map(|subject| {
            let cx = Cx { game, t, pos, mover, subject, memo: None };
            rule.guard.as_ref().is_none_or(|g| cx.holds(g)).then(|| {
                let p = cx.player(player);
                let winner = match outcome {
                    Outcome::Win => Some(p),
                    Outcome::Lose => Some(p ^ 1),
                    Outcome::Draw => None,
                };
                Decision { rule: i, winner }
            })
        })
    })
}

/// `PIECES loses its first-move right` rules, applied to `pos` (the
/// position after a move, the mover's opponent to move): the pieces of each
/// rule that holds lose their rights. Called by `Position::make` in a game
/// with such rules (`Tables::loses_rights`).
pub(crate) fn lose_rights(game: &Game, t: &Tables, pos: &mut Position) {
    let mover = pos.side ^ 1;
    let mut lost: Vec<Cell> = Vec::new();
    for rule in game.rules.iter().filter(|r| r.trigger == Trigger::PlyEnd) {
        let Effect::LoseRight(set) = rule.effect else { continue };
        for subject in subjects(rule, mover) {
            let cx = Cx { game, t, pos, mover, subject, memo: None };
            if rule.guard.as_ref().is_none_or(|g| cx.holds(g)) {
                lost.extend(cx.cells(set).1);
            }
        }
    }
    for c in lost {
        pos.set_first_move_right(c, false);
    }
}

/// The subjects a rule is evaluated for: the mover, then (if the condition
/// names `own`/`enemy`) the other player.
fn subjects(rule: &Rule, mover: Color) -> impl Iterator<Item = Color> {
    let both = rule.per_subject;
    [mover, mover ^ 1].into_iter().take(if both { 2 } else { 1 })
}

/// The legal moves in a game with rules: none when a rule has ended the
/// game; otherwise the plain legal moves without those an `offer` rule forbids.
pub fn legal_moves(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    if decided(game, t, pos).is_some() {
        return;
    }
    moves_without_end(game, t, pos, out);
}

/// [`movegen::legal_drops_of`] in a game with `rule` items: none where a
/// rule has ended the game, else the plain legal drops of `kind` less the
/// forbidden ones; `false` (nothing appended) where a `captures are
/// compulsory` rule applies, since then whether a drop is kept depends on
/// the other moves.
pub(crate) fn legal_drops_of(game: &Game, t: &Tables, pos: &Position, kind: crate::model::KindId, out: &mut Vec<Move>) -> bool {
    if decided(game, t, pos).is_some() {
        return true;
    }
    let mut offered = Offered::new(game, t, pos);
    if offered.compel {
        return false;
    }
    let first = out.len();
    movegen::legal_drops_plain(game, t, pos, kind, out);
    movegen::retain_from(out, first, |m| offered.allows(m));
    true
}

/// Do the `rule` items leave the plain legal drops of `kind` in `pos` as
/// they are ([`legal_drops_of`] keeps them all)? The game is not decided,
/// and the `offer` rules that apply allow every such drop
/// ([`Offered::allows_every_drop_of`]).
pub(crate) fn drops_unruled(game: &Game, t: &Tables, pos: &Position, kind: crate::model::KindId) -> bool {
    decided(game, t, pos).is_none() && Offered::new(game, t, pos).allows_every_drop_of(kind)
}

/// [`legal_moves`] by the reference generator (every move tried on a copy).
pub fn legal_moves_reference(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    if decided(game, t, pos).is_some() {
        return;
    }
    let first = out.len();
    movegen::legal_moves_plain_reference(game, t, pos, out);
    forbid_filter(game, t, pos, out, first);
}

/// The legal moves without the end test: the plain legal moves less the
/// forbidden ones (what `can move` asks for).
fn moves_without_end(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    let first = out.len();
    movegen::legal_moves_plain(game, t, pos, out);
    forbid_filter(game, t, pos, out, first);
}

/// Removes from `out[first..]` every move an `offer` rule forbids in `pos`:
/// those after which a `forbid` rule's condition holds, those a `may not
/// capture` or `may only capture` rule bars ([`Offered::allows`]), then,
/// where a `captures are compulsory` rule applies and some move left
/// captures, the moves that capture nothing.
pub fn forbid_filter(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, first: usize) {
    let mut offered = Offered::new(game, t, pos);
    movegen::retain_from(out, first, |m| offered.allows(m));
    if offered.compel && out[first..].iter().any(|m| pos.is_capture(m)) {
        movegen::retain_from(out, first, |m| pos.is_capture(m));
    }
}

/// How many of the plain legal moves of `pos` its `offer` rules take away,
/// where that is found without listing the others (so that perft's leaves
/// are counted in bulk less these): `Some(0)` where no `offer` rule
/// applies; `Some(n)` where every rule that applies is a `forbid` rule whose
/// conditions read only the side to move's pieces of named kinds
/// ([`piece_read`]) and fail now, so that a move of no such piece (and,
/// where a test counts them on the whole board, none that promotes or
/// drops) leaves them failing and the forbidden moves are among the legal
/// moves of those pieces ([`movegen::legal_moves_of`]: with every
/// promotion and drop), each judged here. `None` where a
/// `ply-end` rule has ended the game, or some rule applies and the game
/// has `offer` rules that do anything else: the caller lists the legal
/// moves ([`legal_moves`]). `scratch` is a reusable buffer.
pub(crate) fn forbidden_count(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>) -> Option<u64> {
    if decided(game, t, pos).is_some() {
        return None;
    }
    let us = pos.side;
    let applies = |r: &Rule| r.trigger == Trigger::Offer && r.guard.as_ref().is_none_or(|g| Cx { game, t, pos, mover: us, subject: us, memo: None }.holds(g));
    if !game.rules.iter().any(applies) {
        return Some(0);
    }
    let other = |r: &Rule| r.trigger == Trigger::Offer && !matches!(r.effect, Effect::Forbid(_));
    if game.rules.iter().any(other) {
        return None;
    }
    // The guards that hold are judged again here, at the few nodes where
    // one does (the scan above is cheaper than `Offered::new` at the many
    // where none does).
    let mut offered = Offered::new(game, t, pos);
    let u = offered.unchanged.as_ref()?;
    if u.now || u.read().any(|&(owner, _)| owner != us) {
        return None;
    }
    // The moves that may change what the tests read: those of the pieces
    // whose cells they read, and (listed with them) every promotion and
    // drop, which change numbers; a capture takes only the other side's.
    let mut kinds = 0u64;
    for &(_, kind) in &u.placed {
        if kind >= 64 {
            return None;
        }
        kinds |= 1 << kind;
    }
    scratch.clear();
    if !movegen::legal_moves_of(game, t, pos, kinds, scratch) {
        return None;
    }
    Some(scratch.iter().filter(|m| !offered.allows(m)).count() as u64)
}

/// What the `offer` rules that apply in one position say about its moves,
/// judged one move at a time: [`forbid_filter`] is [`Offered::allows`] on
/// every move, then the compulsion to capture (`compel`), the one effect
/// that depends on the other moves (it never empties a list: it keeps the
/// captures when there are any).
pub(crate) struct Offered<'a> {
    game: &'a Game,
    t: &'a Tables,
    pos: &'a Position,
    /// The conditions of the `forbid` rules that apply: a move after which one holds is forbidden.
    forbid: Vec<&'a Cond>,
    /// `PIECE may not capture PIECE`: (capturer, victim) kinds.
    barred: Vec<(crate::model::KindId, crate::model::KindId)>,
    /// `PIECE may only capture [a checking piece]`: (kind, only checking pieces).
    capturing_only: Vec<(crate::model::KindId, bool)>,
    /// The cells of the pieces giving check (attacking a royal piece of the mover), where `capturing_only` needs them.
    checkers: Vec<Cell>,
    /// A `captures are compulsory` rule applies.
    pub(crate) compel: bool,
    /// Where every test of the `forbid` conditions reads only the cells of
    /// one player's pieces of named kinds (`line` and `count`), and a move
    /// changes no other piece than the ones it names
    /// ([`Offered::touched`]): those players and kinds, and whether a
    /// condition holds now. A move that touches none of them (or, for a
    /// `count` on the whole board, changes none of their numbers) leaves
    /// the conditions as they are, so it is judged without being made.
    unchanged: Option<Unchanged>,
    /// Where `unchanged` is not, and the conditions' tests are those it
    /// judges, whether a player passed, `faces` tests between named kinds
    /// or whether the opponent is in check: the conditions judged after a
    /// move that changes two cells and touches none of those pieces,
    /// without making it.
    sight: Option<sight::Sight>,
    /// The copy each move is made on for the `forbid` conditions (made at
    /// the first; boxed, so that moving the struct copies no board).
    next: Option<Box<Position>>,
    /// The runs of pieces the guards and the `forbid` conditions found in
    /// the position ([`Offered::runs`]): a guard and a condition often test
    /// the same line (`not line 3 own Pawn`, then `line 3 own Pawn`).
    runs: RunMemo,
}

impl<'a> Offered<'a> {
    /// The `offer` rules of `game` that apply in `pos` (their guards judged once).
    pub(crate) fn new(game: &'a Game, t: &'a Tables, pos: &'a Position) -> Offered<'a> {
        let mover = pos.side;
        let runs = RunMemo::default();
        let offered = |r: &&Rule| r.trigger == Trigger::Offer && r.guard.as_ref().is_none_or(|g| Cx { game, t, pos, mover, subject: mover, memo: Some(&runs) }.holds(g));
        let forbid = offered_effects(game, &offered, |e| match e {
            Effect::Forbid(after) => Some(after),
            _ => None,
        });
        // `PIECE may not capture PIECE`: the victim's kind, before the move.
        let barred = offered_effects(game, &offered, |e| match *e {
            Effect::NoCapture { by, of } => Some((by, of)),
            _ => None,
        });
        // `PIECE may only capture`: its moves that capture nothing go.
        let capturing_only = offered_effects(game, &offered, |e| match *e {
            Effect::OnlyCaptures { kind, checking } => Some((kind, checking)),
            _ => None,
        });
        let checkers = if capturing_only.is_empty() {
            Vec::new()
        } else {
            let royal: Vec<Cell> = pos.cells_of(mover, t.nwords).filter(|&c| game.kinds[kind_of(pos.board[c as usize]) as usize].royal).collect();
            pos.cells_of(mover ^ 1, t.nwords).filter(|&c| royal.iter().any(|&r| movegen::piece_attacks(game, t, pos, c, mover ^ 1, r))).collect()
        };
        let compel = game.rules.iter().filter(|r| r.effect == Effect::CompelCaptures).any(|r| offered(&r));
        let judged_unmade = !forbid.is_empty() && moves_touch_only_their_pieces(game, t, pos);
        let unchanged = if !judged_unmade {
            None
        } else {
            let (mut placed, mut counted) = (Vec::new(), Vec::new());
            let all_read = forbid.iter().flat_map(|c| c.any_of.iter().flatten()).all(|lit| match piece_read(&lit.atom, mover, mover) {
                Some(r) if r.number_only => {
                    counted.push(r.piece);
                    true
                }
                Some(r) => {
                    placed.push(r.piece);
                    true
                }
                None => false,
            });
            all_read.then(|| {
                let now = forbid.iter().any(|c| Cx { game, t, pos, mover, subject: mover, memo: Some(&runs) }.holds(c));
                Unchanged { placed, counted, now }
            })
        };
        let sight = if judged_unmade && unchanged.is_none() { sight::Sight::new(game, t, pos, &forbid) } else { None };
        Offered { game, t, pos, forbid, barred, capturing_only, checkers, compel, unchanged, sight, next: None, runs }
    }

    /// The runs of pieces found in the position so far (for its tables
    /// only): what [`crate::flow::oblige::watch_conds`] of the same position
    /// need not find again.
    pub(crate) fn runs(&self) -> &RunMemo {
        &self.runs
    }

    /// The pieces (owner and kind) `m` moves, takes, puts down or turns
    /// into: the mover, what it promotes to, its victim (the opponent's),
    /// castling's partner.
    fn touched(&self, m: &Move) -> [(Color, crate::model::KindId); 4] {
        let pos = self.pos;
        let us = pos.side;
        let promotion = if m.is_promotion() { m.promotion } else { m.piece };
        let victim = pos.captured(m).map_or((us, m.piece), |v| (color_of(v), kind_of(v)));
        let partner = if m.kind == MoveKind::Castle { pos.board.get(m.aux as usize).map_or(m.piece, |&c| kind_of(c)) } else { m.piece };
        [(us, m.piece), (us, promotion), victim, (us, partner)]
    }

    /// The pieces (owner and kind) whose number on the board `m` changes:
    /// what it takes, and where it drops a piece or turns one into
    /// another kind, the piece it moves and what that becomes.
    fn renumbered(&self, m: &Move) -> [Option<(Color, crate::model::KindId)>; 3] {
        let us = self.pos.side;
        let victim = self.pos.captured(m).map(|v| (color_of(v), kind_of(v)));
        let turns = m.is_promotion() && m.promotion != m.piece;
        [victim, (turns || m.kind == MoveKind::Drop).then_some((us, m.piece)), turns.then_some((us, m.promotion))]
    }

    /// Whether a `forbid` condition holds after `m`, where that is known
    /// without making it ([`Offered::unchanged`], [`Offered::sight`]).
    fn forbidden_unmade(&self, m: &Move) -> Option<bool> {
        if let Some(u) = &self.unchanged {
            let placed = self.touched(m).iter().any(|p| u.placed.contains(p));
            let counted = !u.counted.is_empty() && self.renumbered(m).iter().flatten().any(|p| u.counted.contains(p));
            return (!placed && !counted).then_some(u.now);
        }
        let sight = self.sight.as_ref()?;
        sight.judges(self.pos, m).then(|| sight.holds_after(self.t, self.pos, m))
    }

    /// Does no `forbid`, `may not capture` or `may only capture` rule that
    /// applies bar `m` (a legal move of the position, by the plain rules)?
    pub(crate) fn allows(&mut self, m: &Move) -> bool {
        let (game, t, pos) = (self.game, self.t, self.pos);
        if !self.forbid.is_empty() {
            let forbidden = match self.forbidden_unmade(m) {
                Some(known) => known,
                None => {
                    let mut next = self.next.take().unwrap_or_else(|| Box::new(pos.clone()));
                    next.copy_from(pos, t);
                    next.make(m, game, t);
                    let forbidden = self.forbidden_in(&next);
                    self.next = Some(next);
                    forbidden
                }
            };
            if forbidden {
                return false;
            }
        }
        self.allows_unforbidden(m)
    }

    /// Does every move pass [`Offered::allows`], and no capture need be
    /// compelled? (No `offer` rule that restricts moves applies.)
    pub(crate) fn allows_every_move(&self) -> bool {
        !self.compel && self.forbid.is_empty() && self.barred.is_empty() && self.capturing_only.is_empty()
    }

    /// Does every plain move of the mover's piece of `kind` (no promotion,
    /// no castling) pass [`Offered::allows`]? No capture is compelled, no
    /// `may not capture` or `may only capture` rule names `kind` as the
    /// capturer, and no `forbid` rule applies, or every one that does reads
    /// only the mover's pieces of other kinds ([`Offered::unchanged`]: the
    /// move then leaves them as they are) and fails now.
    pub(crate) fn allows_every_move_of(&self, kind: crate::model::KindId) -> bool {
        let us = self.pos.side;
        self.only_forbids_for(kind) && (self.forbid.is_empty() || self.unchanged.as_ref().is_some_and(|u| !u.now && u.read().all(|&(owner, k)| owner == us && k != kind)))
    }

    /// Is every plain move of the mover's piece of `kind` that no `forbid`
    /// rule forbids allowed? (No capture is compelled, and no `may not
    /// capture` or `may only capture` rule names `kind` as the capturer.)
    pub(crate) fn only_forbids_for(&self, kind: crate::model::KindId) -> bool {
        !self.compel && !self.capturing_only.iter().any(|&(k, _)| k == kind) && !self.barred.iter().any(|&(by, _)| by == kind)
    }

    /// The conditions of the `forbid` rules that apply.
    pub(crate) fn forbid_conds(&self) -> &[&'a Cond] {
        &self.forbid
    }

    /// Does every drop of `kind` pass [`Offered::allows`]? No capture is
    /// compelled, `kind` is not one that may only capture, and no `forbid`
    /// rule applies, or every one that does reads only pieces a drop of
    /// `kind` leaves as they are ([`Offered::unchanged`]) and fails now. (A
    /// drop captures nothing, so `may not capture` never bars one.)
    pub(crate) fn allows_every_drop_of(&self, kind: crate::model::KindId) -> bool {
        let us = self.pos.side;
        !self.compel
            && !self.capturing_only.iter().any(|&(k, _)| k == kind)
            && (self.forbid.is_empty() || self.unchanged.as_ref().is_some_and(|u| !u.now && !u.read().any(|&p| p == (us, kind))))
    }

    /// Does a `forbid` rule apply whose conditions after `m` are not known
    /// without making it, so that [`Offered::allows_after`] needs the
    /// position after the move?
    pub(crate) fn needs_after(&self, m: &Move) -> bool {
        !self.forbid.is_empty() && self.forbidden_unmade(m).is_none()
    }

    /// [`Offered::allows`] with the position after `m` made by the caller
    /// (needed only where [`Offered::needs_after`]; a `forbid` rule
    /// without it bars the move).
    pub(crate) fn allows_after(&self, m: &Move, after: Option<&Position>) -> bool {
        if !self.forbid.is_empty() {
            let forbidden = match (self.forbidden_unmade(m), after) {
                (Some(known), _) => known,
                (None, Some(next)) => self.forbidden_in(next),
                (None, None) => true,
            };
            if forbidden {
                return false;
            }
        }
        self.allows_unforbidden(m)
    }

    /// Does a `forbid` condition hold in `next`, the position after a move
    /// of the mover made?
    fn forbidden_in(&self, next: &Position) -> bool {
        let cx = Cx { game: self.game, t: self.t, pos: next, mover: self.pos.side, subject: self.pos.side, memo: None };
        self.forbid.iter().any(|after| cx.holds(after))
    }

    /// [`Offered::allows`] of `m` where no `forbid` condition holds after
    /// it (the caller knows so, from [`crate::flow::oblige::watch_conds`]):
    /// only the `may not capture` and `may only capture` rules judge it.
    pub(crate) fn allows_unforbidden(&self, m: &Move) -> bool {
        let pos = self.pos;
        if !self.barred.is_empty() && pos.captured(m).is_some_and(|v| self.barred.contains(&(m.piece, kind_of(v)))) {
            return false;
        }
        self.capturing_only.iter().all(|&(kind, checking)| {
            m.piece != kind || pos.captured(m).is_some() && (!checking || pos.captured_at(m).is_some_and(|c| self.checkers.contains(&c)))
        })
    }
}

/// What one test of a condition reads of the board ([`piece_read`]).
#[derive(Clone, Copy)]
struct Read {
    /// The pieces' owner and kind.
    piece: (Color, crate::model::KindId),
    /// Only how many of them stand on the board (`count` on the whole
    /// board), not where.
    number_only: bool,
}

/// The pieces (owner and kind) a test reads, where they are all it reads
/// (`line` and `count` of a named kind), for `mover` and `subject`;
/// `None` where the test reads anything else.
fn piece_read(atom: &Atom, mover: Color, subject: Color) -> Option<Read> {
    match atom {
        Atom::Line { pieces, .. } | Atom::Count { pieces, .. } => {
            Some(Read { piece: (pieces.who.player(mover, subject), pieces.kind?), number_only: matches!(atom, Atom::Count { scope: Scope::Board, .. }) })
        }
        _ => None,
    }
}

/// The `forbid` conditions of a position whose tests read only pieces of
/// named kinds ([`piece_read`]), for a game whose moves change no other
/// piece than the ones they name ([`Offered::touched`]): a move that
/// touches none of the `placed` pieces and changes the number of none of
/// the `counted` ones leaves the conditions as they are.
struct Unchanged {
    /// The pieces whose cells a test reads (`line`, `count` in a zone or per slice).
    placed: Vec<(Color, crate::model::KindId)>,
    /// The pieces whose number on the board alone a test reads (`count` on the board).
    counted: Vec<(Color, crate::model::KindId)>,
    /// Whether a condition holds now.
    now: bool,
}

impl Unchanged {
    /// Every piece a test reads, however.
    fn read(&self) -> impl Iterator<Item = &(Color, crate::model::KindId)> {
        self.placed.iter().chain(&self.counted)
    }
}

/// A condition judged for a piece of one kind put by one player on each
/// empty cell, without putting it (a placement's `only if`): each test is
/// an [`AfterLit`].
pub(crate) struct AfterPlacing {
    /// The alternatives (`or`) of literals (`and`), judged.
    alternatives: Vec<Vec<AfterLit>>,
}

impl AfterPlacing {
    /// `cond` judged for `us` putting a piece of `kind` on an empty cell of
    /// `pos` (`us` the mover and the subject, as a placement's `only if`
    /// is tested); `None` where some test cannot be judged so (the caller
    /// then makes the placement).
    pub(crate) fn new(game: &Game, t: &Tables, pos: &Position, cond: &Cond, us: Color, kind: crate::model::KindId) -> Option<AfterPlacing> {
        AfterPlacing::of_piece(game, t, pos, cond, us, us, kind)
    }

    /// [`Self::new`] for a piece of `placer`'s (a relocated piece may be
    /// the other side's), `us` the mover and the subject.
    pub(crate) fn of_piece(game: &Game, t: &Tables, pos: &Position, cond: &Cond, us: Color, placer: Color, kind: crate::model::KindId) -> Option<AfterPlacing> {
        let alternatives = cond
            .any_of
            .iter()
            .map(|alt| alt.iter().map(|lit| AfterLit::new(game, t, pos, lit, |_| true, us, us, placer, kind)).collect())
            .collect::<Option<_>>()?;
        Some(AfterPlacing { alternatives })
    }

    /// Keeps in `cells` (empty cells of `pos`) those where `cond` holds once
    /// `us` puts a piece of `kind` there, each test judged as [`Self::new`]
    /// judges it and applied at once instead of kept (a placement phase's
    /// `only if`, once per node); `None` (`cells` then partly narrowed)
    /// where some test cannot be judged so.
    pub(crate) fn retain_new(game: &Game, t: &Tables, pos: &Position, cond: &Cond, us: Color, kind: crate::model::KindId, cells: &mut [u64; crate::engine::position::WORDS]) -> Option<()> {
        let mut kept = [0u64; crate::engine::position::WORDS];
        for alt in &cond.any_of {
            let mut here = *cells;
            for lit in alt {
                AfterLit::new(game, t, pos, lit, |_| true, us, us, us, kind)?.retain(t, &mut here);
            }
            kept.iter_mut().zip(&here).for_each(|(k, h)| *k |= h);
        }
        *cells = kept;
        Some(())
    }

    /// Does the condition hold once the piece is put on `cell` (empty in
    /// the position it was judged on, whose tables `t` are)?
    pub(crate) fn holds(&self, t: &Tables, cell: Cell) -> bool {
        self.alternatives.iter().any(|alt| alt.iter().all(|lit| lit.holds(t, cell)))
    }
}

/// One test judged for a piece of one kind put by one player on each empty
/// cell, without putting it. A test either keeps the value it has now (one
/// that reads only other players' pieces or other kinds: `line` and
/// `count`), or is a `line N` of the placed pieces with no upper bound that
/// fails now, which then holds after exactly when a run of N or more goes
/// through the placed cell (adding a piece only lengthens runs).
pub(crate) enum AfterLit {
    /// Its value after any placement: the value now.
    Known(bool),
    /// A `line` of the placed pieces that fails now: it holds after a
    /// placement on a cell with a run of `least` or more through it along
    /// one of `axes`, among `cells` (the pieces' cells now); `near`: the
    /// cells one step along the axes from one of `cells` (a run of two or
    /// more through a cell needs a neighbour there); `negated`: the
    /// literal is its negation.
    Through { cells: [u64; crate::engine::position::WORDS], near: [u64; crate::engine::position::WORDS], least: u32, axes: Vec<usize>, negated: bool },
}

impl AfterLit {
    /// `lit` (for `mover` and `subject`, as [`holds_lit`]; a `line` along
    /// only the axes `keep` keeps) judged for `placer` putting a piece of
    /// `kind` on an empty cell of `pos`; `None` where it cannot be judged
    /// so: another test, a `count` of the placed pieces, a `line` with an
    /// upper bound, or tables not of `pos`'s frame.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(game: &Game, t: &Tables, pos: &Position, lit: &crate::model::cond::Lit, keep: impl Fn(usize) -> bool, mover: Color, subject: Color, placer: Color, kind: crate::model::KindId) -> Option<AfterLit> {
        let cx = Cx { game, t, pos, mover, subject, memo: None };
        let (Atom::Line { pieces, .. } | Atom::Count { pieces, .. }) = &lit.atom else { return None };
        let touched = cx.player(pieces.who) == placer && pieces.kind.is_none_or(|k| k == kind);
        let Atom::Line { pieces, length, axes } = &lit.atom else {
            return (!touched).then(|| AfterLit::Known(cx.atom(&lit.atom) != lit.negated));
        };
        let axes: Vec<usize> = axes.iter().copied().filter(|&a| keep(a)).collect();
        let holds_now = cx.line(*length, *pieces, &axes);
        if !touched || holds_now {
            return Some(AfterLit::Known(holds_now != lit.negated));
        }
        // In any frame a unit step along one axis and its reverse meet
        // (interpreter/tests/frames.rs): a run through a cell is the steps
        // from it both ways.
        if !frame::tables_match(t, pos) || length.hi < game.geometry.cells() as u32 {
            return None;
        }
        let cells = set_cells(pos, t, placer, pieces.kind);
        let [near, _] = neighbours(t, &cells, &axes);
        Some(AfterLit::Through { cells, near, least: length.lo, axes, negated: lit.negated })
    }

    /// Keeps in `cells` (empty cells of the position it was judged on)
    /// those where the test holds once the piece is put there: a cell with
    /// no neighbour along the axes among the set's cells has the value of
    /// a run of one, and only the others are walked.
    fn retain(&self, t: &Tables, cells: &mut [u64; crate::engine::position::WORDS]) {
        match self {
            AfterLit::Known(true) => {}
            AfterLit::Known(false) => *cells = [0; crate::engine::position::WORDS],
            AfterLit::Through { near, least, negated, .. } => {
                let mut walked = *cells;
                if *least >= 2 {
                    walked.iter_mut().zip(near).for_each(|(w, n)| *w &= n);
                    if !*negated {
                        *cells = walked;
                    }
                }
                for cell in crate::engine::position::cells_in(&walked) {
                    if !self.holds(t, cell) {
                        cells[cell as usize / 64] &= !(1 << (cell % 64));
                    }
                }
            }
        }
    }

    /// Does the test hold once the piece is put on `cell` (empty in the
    /// position it was judged on, whose tables `t` are)?
    #[inline]
    pub(crate) fn holds(&self, t: &Tables, cell: Cell) -> bool {
        match self {
            AfterLit::Known(value) => *value,
            AfterLit::Through { cells, near, least, axes, negated } => {
                if *least >= 2 && near[cell as usize / 64] >> (cell % 64) & 1 == 0 {
                    return *negated; // alone on its lines: no run formed
                }
                let run = |axis, forward| steps_in_set(t.unit_steps_along(axis, forward), cells, cell, *least);
                let formed = axes.iter().any(|&axis| 1 + run(axis, true) + run(axis, false) >= *least);
                formed != *negated
            }
        }
    }
}

/// Does every move of `pos` change the board only where it moves, takes,
/// puts down or turns the pieces that [`Offered::touched`] names, and no
/// level's place? No explosion, conversion, gating, wall, spread piece,
/// observation or face-down piece; a move never shifts a level (the jumps
/// come at the ply's end).
pub(crate) fn moves_touch_only_their_pieces(game: &Game, t: &Tables, pos: &Position) -> bool {
    let converts = game.kinds.iter().any(|k| k.converts_around.is_some() || k.converts_enclosed);
    game.explosion.is_none()
        && !converts
        && !t.gating
        && !t.walling
        && game.spread.is_none()
        && game.tunnel.is_none()
        && game.observe.is_none()
        && !pos.any_hidden()
}

/// The payloads `pick` takes from the effects of the game's rules that are
/// `offered` now (the guard is judged only for the rules `pick` keeps).
fn offered_effects<'a, T>(game: &'a Game, offered: &dyn Fn(&&Rule) -> bool, pick: impl Fn(&'a Effect) -> Option<T>) -> Vec<T> {
    game.rules.iter().filter_map(|r| pick(&r.effect).filter(|_| offered(&r))).collect()
}

/// Is `cond` true in `pos` for `subject`, with `mover` the player who made
/// (or makes) the move in question? (For tests and the flow layer.)
pub fn holds(game: &Game, t: &Tables, pos: &Position, cond: &Cond, mover: Color, subject: Color) -> bool {
    Cx { game, t, pos, mover, subject, memo: None }.holds(cond)
}

/// Does the literal `lit` hold in `pos` (as [`holds`] judges a condition)?
pub fn holds_lit(game: &Game, t: &Tables, pos: &Position, lit: &crate::model::cond::Lit, mover: Color, subject: Color) -> bool {
    Cx { game, t, pos, mover, subject, memo: None }.atom(&lit.atom) != lit.negated
}

/// [`holds_lit`], keeping the runs it finds in `memo` (which must be used
/// for `pos` and `t` only): literals testing lines of the same pieces find
/// their runs once.
pub fn holds_lit_with(game: &Game, t: &Tables, pos: &Position, lit: &crate::model::cond::Lit, mover: Color, subject: Color, memo: &RunMemo) -> bool {
    Cx { game, t, pos, mover, subject, memo: Some(memo) }.atom(&lit.atom) != lit.negated
}

/// Does `line PIECES N along AXES` hold in `pos`, for the line atom `atom`
/// with only the axes `keep` keeps (the `line` test along some of its
/// axes); `false` for any other atom.
pub fn line_holds_along(game: &Game, t: &Tables, pos: &Position, atom: &Atom, keep: impl Fn(usize) -> bool, mover: Color, subject: Color) -> bool {
    let Atom::Line { pieces, length, axes } = atom else { return false };
    let along: Vec<usize> = axes.iter().copied().filter(|&a| keep(a)).collect();
    Cx { game, t, pos, mover, subject, memo: None }.line(*length, *pieces, &along)
}

/// The runs of pieces found while evaluating conditions on one position
/// with one set of tables, by (owner, kind, axis): the rules evaluated
/// together at the end of a decision test the same lines (a group of 4 and
/// of 3, for each player), so each set's runs are found once.
///
/// The runs along an axis a step of which stays in its level (every axis
/// but a `slide`'s stacking axis) do not depend on the frame
/// ([`frame::step`]): after [`RunMemo::forget_frame`] the memo serves
/// positions with the same board in any frame, such as the activations
/// offered at one decision.
#[derive(Debug, Default)]
pub struct RunMemo(std::cell::RefCell<Vec<Runs>>, std::cell::RefCell<Vec<MemberSet>>);

/// The cells of one set of pieces, as a bitset (the board's alone).
#[derive(Debug)]
struct MemberSet {
    owner: Color,
    kind: Option<crate::model::KindId>,
    cells: [u64; crate::engine::position::WORDS],
}

/// The distinct run lengths of one set of pieces along one axis.
#[derive(Debug)]
struct Runs {
    owner: Color,
    kind: Option<crate::model::KindId>,
    axis: usize,
    lengths: RunLengths,
}

/// A set of distinct run lengths: those under 64 as bits, any longer one
/// listed (so that finding the runs allocates nothing on the usual boards).
#[derive(Debug, Default)]
struct RunLengths {
    short: u64,
    long: Vec<u32>,
}

impl RunLengths {
    fn insert(&mut self, n: u32) {
        if n < 64 {
            self.short |= 1 << n;
        } else if !self.long.contains(&n) {
            self.long.push(n);
        }
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let mut bits = self.short;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let n = bits.trailing_zeros();
                bits &= bits - 1;
                n
            })
        })
        .chain(self.long.iter().copied())
    }
}

impl RunMemo {
    /// Forgets the runs that depend on the frame (those along `game`'s
    /// stacking axis), keeping those that depend on the board alone (and
    /// the sets of pieces' cells).
    pub fn forget_frame(&self, game: &Game) {
        if let Some(slide) = &game.slide {
            self.0.borrow_mut().retain(|r| r.axis != slide.stack_axis);
        }
    }
}

/// The cells of `owner`'s pieces of `kind` (any kind: `None`) in `pos`, as
/// a bitset: the set a `line` test's runs are stepped through.
pub fn set_cells(pos: &Position, t: &Tables, owner: Color, kind: Option<crate::model::KindId>) -> [u64; crate::engine::position::WORDS] {
    use crate::engine::position::WORDS;
    let occupied = &pos.occupied[owner as usize];
    let Some(kind) = kind else {
        // Any kind: the owner's cells as they are.
        return std::array::from_fn(|w| if w < t.nwords { occupied[w] } else { 0 });
    };
    let mut set = [0u64; WORDS];
    for (w, (out, &word)) in set.iter_mut().zip(occupied).enumerate().take(t.nwords) {
        let mut bits = word;
        while bits != 0 {
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            // Cells index the board masked to its size (all are below it).
            if kind_of(pos.board[(w * 64 + b as usize) % crate::model::geometry::MAX_CELLS]) == kind {
                *out |= 1 << b;
            }
        }
    }
    set
}

/// The cells one step along `axes` (either way, the tables' unit steps)
/// from one cell of `set`, and those reached so from two or more: a run
/// of two or more through a cell needs a neighbour in the set there.
///
/// A pure function of the tables, the set and the axes: the last answers
/// are kept per thread ([`NEAR`], by [`Tables::id`]), since the nodes one
/// ply above a count's leaves ask it of the mover's pieces, which their
/// siblings share.
pub(crate) fn neighbours(t: &Tables, set: &[u64; crate::engine::position::WORDS], axes: &[usize]) -> [[u64; crate::engine::position::WORDS]; 2] {
    let Some(axes_read) = axis_bits(axes) else { return neighbours_walked(t, set, axes) };
    let key = SetKey { tables: t.id(), set: *set, axes: axes_read, length: (0, 0) };
    if let Some(near) = NEAR.with(|n| n.borrow().get(&key)) {
        debug_assert_eq!(near, neighbours_walked(t, set, axes), "neighbours kept for {key:?}");
        return near;
    }
    let near = neighbours_walked(t, set, axes);
    NEAR.with(|n| n.borrow_mut().keep(key, near));
    near
}

thread_local! {
    /// The answers of [`neighbours`] this thread found last (keys of no length).
    static NEAR: std::cell::RefCell<Slots<[[u64; crate::engine::position::WORDS]; 2], 16>> = const { std::cell::RefCell::new(Slots::new()) };
}

/// [`neighbours`], worked out.
fn neighbours_walked(t: &Tables, set: &[u64; crate::engine::position::WORDS], axes: &[usize]) -> [[u64; crate::engine::position::WORDS]; 2] {
    let [mut once, mut twice] = [[0u64; crate::engine::position::WORDS]; 2];
    for c in crate::engine::position::cells_in(set) {
        for (&axis, forward) in axes.iter().flat_map(|a| [(a, true), (a, false)]) {
            if let Some(n) = t.unit_step(axis, forward, c) {
                let (word, bit) = (n as usize / 64, 1u64 << (n % 64));
                twice[word] |= once[word] & bit;
                once[word] |= bit;
            }
        }
    }
    [once, twice]
}

/// How many cells of `set` follow `from` one after the other along
/// `steps` (a table of unit steps along one axis, [`Tables::unit_steps_along`]),
/// counting at most `most` of them (a guard for boards that wrap around).
pub fn steps_in_set(steps: &[Cell], set: &[u64; crate::engine::position::WORDS], from: Cell, most: u32) -> u32 {
    let member = |c: Cell| c != NO_CELL && set[c as usize / 64] >> (c % 64) & 1 != 0;
    let mut k = 0;
    let mut at = from;
    while k < most {
        match steps.get(at as usize).copied().filter(|&c| member(c)) {
            Some(c) => {
                k += 1;
                at = c;
            }
            None => break,
        }
    }
    k
}

/// [`holds`], keeping the runs it finds in `memo` (which must be used for
/// `pos` and `t` only).
pub fn holds_with(game: &Game, t: &Tables, pos: &Position, cond: &Cond, mover: Color, subject: Color, memo: &RunMemo) -> bool {
    Cx { game, t, pos, mover, subject, memo: Some(memo) }.holds(cond)
}

/// How far `cond` is from holding in `pos` for `subject` (0: it holds): the
/// least, over its alternatives, of the sum over their tests of each test's
/// shortfall. A `line` short of its length counts the cells missing from
/// the fullest window of that many cells, a count outside its range the
/// pieces too few or too many (per slice for `on every`, the nearest slice
/// for `on some`), `has only` the pieces beyond what it allows; any other
/// test that fails counts 1. For the checker's directed lines, which
/// steer a game towards the position where a rule applies.
pub fn shortfall(game: &Game, t: &Tables, pos: &Position, cond: &Cond, mover: Color, subject: Color) -> u32 {
    let cx = Cx { game, t, pos, mover, subject, memo: None };
    cond.any_of
        .iter()
        .map(|conj| conj.iter().map(|lit| if cx.atom(&lit.atom) != lit.negated { 0 } else if lit.negated { 1 } else { cx.atom_shortfall(&lit.atom) }).sum())
        .min()
        .unwrap_or(0)
}

/// How far the guard of `rule` is from holding in `pos` with `mover` the
/// player who moves: the least over the players it is judged for (the
/// mover, and the other player when it names `own` or `enemy`); 0 without a
/// guard.
pub fn rule_shortfall(game: &Game, t: &Tables, pos: &Position, rule: &Rule, mover: Color) -> u32 {
    let Some(cond) = &rule.guard else { return 0 };
    subjects(rule, mover).map(|s| shortfall(game, t, pos, cond, mover, s)).min().unwrap_or(0)
}

/// How far `n` is from `range`.
fn off(range: Range, n: u32) -> u32 {
    if n < range.lo {
        range.lo - n
    } else {
        n.saturating_sub(range.hi)
    }
}

/// What an answer read from one set of tables and a set of cells reads:
/// the tables ([`Tables::id`]), the cells, the axes (as bits, [`axis_bits`])
/// and, for a `line` test, the accepted lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SetKey {
    tables: u64,
    set: [u64; crate::engine::position::WORDS],
    axes: u64,
    length: (u32, u32),
}

impl SetKey {
    /// A hash of the key, for its slot in [`Slots`].
    fn hash(&self) -> u64 {
        self.set.iter().fold(self.tables ^ self.axes.rotate_left(32) ^ u64::from(self.length.0) << 48 ^ u64::from(self.length.1), |h, &w| (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
}

/// The axes of a test as bits (`None` past the 64th axis: then nothing is kept).
fn axis_bits(axes: &[usize]) -> Option<u64> {
    axes.iter().try_fold(0u64, |m, &a| (a < 64).then(|| m | 1 << a))
}

/// Answers kept per thread by their [`SetKey`], one per slot of `N` (a
/// key's slot is a hash of it; a later answer in the same slot replaces the
/// earlier): the nodes one ply above a count's leaves differ from their
/// siblings by a move of the other side, and their guards and watches ask
/// about the mover's pieces, which that move leaves as they were.
struct Slots<V, const N: usize> {
    kept: Vec<Option<(SetKey, V)>>,
}

impl<V: Copy, const N: usize> Slots<V, N> {
    const fn new() -> Self {
        Slots { kept: Vec::new() }
    }

    fn slot(key: &SetKey) -> usize {
        (key.hash() >> 40) as usize % N
    }

    fn get(&self, key: &SetKey) -> Option<V> {
        match self.kept.get(Self::slot(key)) {
            Some(Some((k, v))) if k == key => Some(*v),
            _ => None,
        }
    }

    fn keep(&mut self, key: SetKey, v: V) {
        if self.kept.len() < N {
            self.kept.resize(N, None);
        }
        self.kept[Self::slot(&key)] = Some((key, v));
    }
}

/// The `line` answers judged lately on one thread ([`Slots`]: a node's
/// rules test a few sets, each side's pieces of a kind, lines of 3 and of
/// 4), and the keys of those that did not hold.
struct LineAnswers {
    kept: Slots<bool, 64>,
    /// The last few keys of unbounded lines (`line N`: N or more) judged
    /// not to hold: a set that differs from one of them by a
    /// few added cells is judged by the runs through those cells alone
    /// ([`Cx::line_through_added`]).
    missing: Vec<SetKey>,
    /// The slot of `missing` the next key goes to once all are taken.
    next_missing: usize,
}

/// How many keys [`LineAnswers::missing`] keeps.
const MISSING_KEPT: usize = 4;

impl LineAnswers {
    fn get(&self, key: &SetKey) -> Option<bool> {
        self.kept.get(key)
    }

    fn keep(&mut self, key: SetKey, holds: bool) {
        self.kept.keep(key, holds);
        if !holds {
            // The oldest replaced once all are taken (the order of the search does not matter).
            if self.missing.len() < MISSING_KEPT {
                self.missing.push(key);
            } else {
                self.missing[self.next_missing] = key;
                self.next_missing = (self.next_missing + 1) % MISSING_KEPT;
            }
        }
    }

    /// A kept key of a line that did not hold, read from the same tables
    /// along the same axes with the same lengths as `key`, whose set lacks
    /// at most [`ADDED_MOST`] cells of `key`'s: those cells.
    fn missing_but(&self, key: &SetKey) -> Option<[u64; crate::engine::position::WORDS]> {
        self.missing.iter().filter(|m| m.tables == key.tables && m.axes == key.axes && m.length == key.length).find_map(|m| {
            let added: [u64; crate::engine::position::WORDS] = std::array::from_fn(|w| key.set[w] & !m.set[w]);
            (added.iter().map(|w| w.count_ones()).sum::<u32>() <= ADDED_MOST).then_some(added)
        })
    }
}

/// The most cells a set may have beyond one judged not to hold for
/// [`Cx::line_through_added`] to judge it (each is walked along each axis).
const ADDED_MOST: u32 = 4;

thread_local! {
    /// This thread's [`LineAnswers`].
    static LINES: std::cell::RefCell<LineAnswers> = const { std::cell::RefCell::new(LineAnswers { kept: Slots::new(), missing: Vec::new(), next_missing: 0 }) };
}

/// An evaluation: the position and who is who.
struct Cx<'a> {
    game: &'a Game,
    t: &'a Tables,
    pos: &'a Position,
    mover: Color,
    subject: Color,
    /// Runs found already on this position, when the caller keeps them.
    memo: Option<&'a RunMemo>,
}

impl Cx<'_> {
    fn player(&self, w: Who) -> Color {
        w.player(self.mover, self.subject)
    }

    fn holds(&self, c: &Cond) -> bool {
        c.any_of.iter().any(|conj| conj.iter().all(|lit| self.atom(&lit.atom) != lit.negated))
    }

    /// Does `f` hold for some cell holding a piece of the set? (Without
    /// collecting the cells; a set of the game's one royal kind whose owner
    /// has one royal piece is that piece's cell, which the position keeps.)
    fn any_member(&self, s: PieceSet, mut f: impl FnMut(Cell) -> bool) -> bool {
        let owner = self.player(s.who);
        if let Some(royal) = self.lone_royal(s, owner) {
            return f(royal);
        }
        self.pos.cells_of(owner, self.t.nwords).filter(|&c| self.is_member(s.kind, owner, c)).any(f)
    }

    /// The one member of a set of the game's one royal kind, where its
    /// owner has one royal piece: that piece's cell, which the position keeps.
    fn lone_royal(&self, s: PieceSet, owner: Color) -> Option<Cell> {
        s.kind.filter(|&k| self.t.royal_mask == 1u64 << k && self.pos.royal_count[owner as usize] == 1).map(|_| self.pos.royal[owner as usize])
    }

    /// The cells holding a piece of the set, and its owner.
    fn cells(&self, s: PieceSet) -> (Color, Vec<Cell>) {
        let owner = self.player(s.who);
        if let Some(royal) = self.lone_royal(s, owner) {
            return (owner, vec![royal]);
        }
        let cells = self.pos.cells_of(owner, self.t.nwords).filter(|&c| self.is_member(s.kind, owner, c)).collect();
        (owner, cells)
    }

    /// The numbers a `count` test compares with its range: one for the
    /// board or the owner's zone, one per slice across the axis for `on
    /// some` and `on every`.
    fn scoped_counts(&self, scope: &Scope, owner: Color, cells: &[Cell]) -> impl Iterator<Item = u32> {
        let geo = &self.game.geometry;
        let (one, per) = match scope {
            Scope::Board => (Some(cells.len() as u32), Vec::new()),
            Scope::Zone(z) => (Some(cells.iter().filter(|c| z[owner as usize].binary_search(c).is_ok()).count() as u32), Vec::new()),
            Scope::Some(axis) | Scope::Every(axis) => {
                let mut per = vec![0u32; geo.size(*axis)];
                for &c in cells {
                    per[geo.coords(c)[*axis]] += 1;
                }
                (None, per)
            }
        };
        one.into_iter().chain(per)
    }

    /// Does `c` have at most `counts[k]` pieces of each kind `k` (on the
    /// board and in hand; kinds past `counts` unlimited)? [`Self::material`]
    /// compared, stopping at the first piece on the board past its kind's
    /// limit (at most nodes of a game with `has only`, the first piece
    /// that is not a King).
    fn has_only(&self, c: Color, counts: &[u8]) -> bool {
        const KINDS: usize = 64;
        if self.game.kinds.len() > KINDS {
            return self.material(c).iter().zip(counts).all(|(&n, &most)| n <= u32::from(most));
        }
        let mut have = [0u32; KINDS];
        for cell in self.pos.cells_of(c, self.t.nwords) {
            let k = kind_of(self.pos.board[cell as usize]) as usize;
            if let (Some(n), Some(&most)) = (have.get_mut(k), counts.get(k)) {
                *n += 1;
                if *n > u32::from(most) {
                    return false;
                }
            }
        }
        let hand = &self.pos.hand[c as usize];
        have.iter().zip(hand).take(self.game.kinds.len()).zip(counts).all(|((&n, &h), &most)| n + u32::from(h) <= u32::from(most))
    }

    /// The pieces `c` has of each kind, on the board and in hand.
    fn material(&self, c: Color) -> Vec<u32> {
        let mut have = vec![0u32; self.game.kinds.len()];
        for cell in self.pos.cells_of(c, self.t.nwords) {
            if let Some(n) = have.get_mut(kind_of(self.pos.board[cell as usize]) as usize) {
                *n += 1;
            }
        }
        for (k, n) in have.iter_mut().enumerate() {
            *n += u32::from(self.pos.hand[c as usize][k]);
        }
        have
    }

    /// The cells `a` faces along `axis`: the nearest piece each way (with
    /// `through`, every piece on the line), none beyond a cell off the board
    /// unless `through`.
    fn faced(&self, a: Cell, axis: usize, through: bool) -> impl Iterator<Item = Cell> + '_ {
        // Cells are numbered with axis 0 fastest: the line through `a` along
        // `axis` is `base + k * stride`.
        let geo = &self.game.geometry;
        let stride = geo.stride(axis);
        let ka = geo.coord(a, axis);
        let base = a as usize - ka * stride;
        let size = geo.size(axis);
        let pos = self.pos;
        let mut found = [NO_CELL; 2];
        let mut n = 0;
        let mut all = Vec::new();
        for way in [-1isize, 1] {
            let mut k = ka as isize + way;
            while (0..size as isize).contains(&k) {
                let c = base + k as usize * stride;
                if !geo.on_board[c] && !through {
                    break; // a hole in the board stands between
                }
                if pos.board[c] != 0 {
                    if !through {
                        found[n] = c as Cell;
                        n += 1;
                        break;
                    }
                    all.push(c as Cell);
                }
                k += way;
            }
        }
        found.into_iter().take(n).chain(all)
    }

    fn is_member(&self, kind: Option<u8>, owner: Color, cell: Cell) -> bool {
        let occ = self.pos.board[cell as usize];
        occ != 0 && color_of(occ) == owner && kind.is_none_or(|k| kind_of(occ) == k)
    }

    fn atom(&self, a: &Atom) -> bool {
        let game = self.game;
        match a {
            Atom::Line { length, pieces, axes } => self.line(*length, *pieces, axes),
            // On the board or a zone: one number, counted without a list.
            Atom::Count { count, pieces, scope: scope @ (Scope::Board | Scope::Zone(_)) } => {
                let owner = self.player(pieces.who);
                if let Scope::Zone(z) = scope {
                    // A zone smaller than the owner's pieces: its cells looked at.
                    let zone = &z[owner as usize];
                    if zone.len() < self.pos.occupied[owner as usize][..self.t.nwords].iter().map(|w| w.count_ones() as usize).sum() {
                        return count.contains(zone.iter().filter(|&&c| self.is_member(pieces.kind, owner, c)).count() as u32);
                    }
                }
                let within = |c: &Cell| match scope {
                    Scope::Zone(z) => z[owner as usize].binary_search(c).is_ok(),
                    _ => true,
                };
                let n = self.pos.cells_of(owner, self.t.nwords).filter(|&c| self.is_member(pieces.kind, owner, c)).filter(within).count();
                count.contains(n as u32)
            }
            Atom::Count { count, pieces, scope } => {
                let (owner, cells) = self.cells(*pieces);
                let mut counts = self.scoped_counts(scope, owner, &cells);
                if matches!(scope, Scope::Every(_)) {
                    counts.all(|n| count.contains(n))
                } else {
                    counts.any(|n| count.contains(n))
                }
            }
            Atom::Distance { from, to, distance } => {
                let (_, a) = self.cells(*from);
                let (_, b) = self.cells(*to);
                let frame = self.pos.frame.as_deref();
                let abs_b: Vec<Vec<i64>> = b.iter().map(|&c| frame::absolute(game, frame, c)).collect();
                let least = a
                    .iter()
                    .flat_map(|&c| {
                        let pa = frame::absolute(game, frame, c);
                        abs_b.iter().map(move |pb| pa.iter().zip(pb).map(|(x, y)| (x - y).unsigned_abs()).max().unwrap_or(0)).collect::<Vec<u64>>()
                    })
                    .min();
                least.is_some_and(|d| distance.contains(u32::try_from(d).unwrap_or(u32::MAX)))
            }
            Atom::InCheck(w) => movegen::royal_attacked(game, self.t, self.pos, self.player(*w)),
            Atom::ChecksGiven { who, times } => u32::from(self.pos.checks[self.player(*who) as usize]) >= *times,
            Atom::ToMove(w) => self.pos.side == self.player(*w),
            Atom::Passed(w) => self.pos.passed[self.player(*w) as usize],
            Atom::BoardFull => game.geometry.board_cells().all(|c| self.pos.board[c as usize] != 0),
            Atom::HasOnly { who, counts } => {
                self.has_only(self.player(*who), counts)
            }
            Atom::CanMove { pieces, onto } => {
                let owner = self.player(pieces.who);
                if self.pos.side != owner {
                    return false;
                }
                let mut moves = Vec::new();
                moves_without_end(game, self.t, self.pos, &mut moves);
                moves.iter().any(|m| {
                    m.kind != MoveKind::Drop
                        && pieces.kind.is_none_or(|k| m.piece == k)
                        && onto[owner as usize].binary_search(&m.to).is_ok()
                })
            }
            Atom::Attacks { pieces, target } => {
                let (by, from) = self.cells(*pieces);
                let (_, targets) = self.cells(*target);
                targets.iter().any(|&cell| from.iter().any(|&f| f != cell && movegen::piece_attacks(game, self.t, self.pos, f, by, cell)))
            }
            Atom::Attacked(pieces) => {
                let (owner, cells) = self.cells(*pieces);
                cells.iter().any(|&c| movegen::attacked(game, self.t, self.pos, c, owner ^ 1))
            }
            Atom::Faces { pieces, target, axis, through } => {
                let owner = self.player(target.who);
                self.any_member(*pieces, |x| self.faced(x, *axis, *through).any(|y| self.is_member(target.kind, owner, y)))
            }
            Atom::Coloured { pieces, like } => {
                let colour = frame::cell_colour(game, *like);
                self.cells(*pieces).1.iter().any(|&c| frame::cell_colour(game, c) == colour)
            }
            Atom::Exiled { pieces, onto } => {
                let Some(flow) = &self.pos.flow else { return false };
                let holder = self.player(pieces.who);
                flow.out.iter().filter(|e| e.holder == Some(holder) && pieces.kind.is_none_or(|k| kind_of(e.piece) == k)).any(|e| match onto {
                    None => !e.fresh && e.cells.iter().any(|&c| crate::flow::out_of_play::may_land(game, self.pos, e.piece, c)),
                    Some(set) => {
                        let owner = self.player(set.who);
                        owner != color_of(e.piece) && e.cells.iter().any(|&c| self.is_member(set.kind, owner, c))
                    }
                })
            }
            Atom::PhaseEnds(phase) => crate::flow::phase::current(game, self.pos) == *phase && crate::flow::phase::over(game, self.pos),
        }
    }

    /// How far the (failing, not negated) test `a` is from holding.
    fn atom_shortfall(&self, a: &Atom) -> u32 {
        match a {
            Atom::Line { length, pieces, axes } => {
                let runs = self.run_lengths(*pieces, axes);
                if runs.iter().any(|n| n > length.hi) {
                    // Too long: pieces to take away.
                    return runs.iter().map(|n| off(*length, n)).min().unwrap_or(1).max(1);
                }
                self.window_shortfall(length.lo, *pieces, axes).max(1)
            }
            Atom::Count { count, pieces, scope } => {
                let (owner, cells) = self.cells(*pieces);
                let offs = self.scoped_counts(scope, owner, &cells).map(|n| off(*count, n));
                let n = if matches!(scope, Scope::Every(_)) { offs.sum() } else { offs.min().unwrap_or(0) };
                n.max(1)
            }
            Atom::HasOnly { who, counts } => {
                // The pieces beyond what the test allows (on the board and in hand).
                let have = self.material(self.player(*who));
                have.iter().zip(counts).map(|(&n, &most)| n.saturating_sub(u32::from(most))).sum::<u32>().max(1)
            }
            _ => 1,
        }
    }

    /// The fewest cells missing a piece of the set in some window of `n`
    /// consecutive cells along one of `axes` that holds one (`n` when the set
    /// has none on the board): `X X _ X` is one short of a line of four,
    /// although its longest run is two.
    fn window_shortfall(&self, n: u32, pieces: PieceSet, axes: &[usize]) -> u32 {
        let game = self.game;
        let owner = self.player(pieces.who);
        let offsets = frame::offsets_of(self.pos).unwrap_or_default();
        let dims = game.geometry.dims();
        let member = |c: Cell| self.is_member(pieces.kind, owner, c);
        let mut best = n;
        for &axis in axes {
            let mut fwd = vec![0i32; dims];
            fwd[axis] = 1;
            let back: Vec<i32> = fwd.iter().map(|x| -x).collect();
            for piece in self.pos.cells_of(owner, self.t.nwords).filter(|&c| member(c)) {
                // Each window that holds `piece`: it starts up to n - 1 cells back.
                let mut start = Some(piece);
                for _ in 0..n {
                    let Some(first) = start else { break };
                    let mut missing = 0;
                    let mut at = Some(first);
                    for _ in 0..n {
                        match at {
                            Some(c) => {
                                missing += u32::from(!member(c));
                                at = frame::step(game, &offsets, c, &fwd);
                            }
                            None => {
                                missing = n; // off the board: no such window
                                break;
                            }
                        }
                    }
                    best = best.min(missing);
                    start = frame::step(game, &offsets, first, &back);
                }
            }
        }
        best
    }

    /// The distinct lengths of the runs of the set's pieces along `axes`
    /// (each run once, from its first piece), in the position's frame: what
    /// a `line` test and its shortfall need.
    fn run_lengths(&self, pieces: PieceSet, axes: &[usize]) -> RunLengths {
        let mut out = RunLengths::default();
        self.any_run(pieces, axes, |n| {
            out.insert(n);
            false
        });
        out
    }

    /// Is `found` true of the length of some run of the set's pieces along
    /// `axes` (each run once, from its first piece; the first such run ends
    /// the search), in the position's frame?
    fn any_run(&self, pieces: PieceSet, axes: &[usize], mut found: impl FnMut(u32) -> bool) -> bool {
        let game = self.game;
        let owner = self.player(pieces.who);
        let dims = game.geometry.dims();
        // The tables' unit steps when they are the position's frame's (the
        // usual case); else each step is worked out across the levels.
        let own_tables = frame::tables_match(self.t, self.pos);
        let offsets = if own_tables { Vec::new() } else { frame::offsets_of(self.pos).unwrap_or_default() };
        let step = |axis: usize, forward: bool, from: Cell| -> Option<Cell> {
            let mut v = vec![0i32; dims];
            v[axis] = if forward { 1 } else { -1 };
            frame::step(game, &offsets, from, &v)
        };
        // The set's cells as a bitset, built once: each run's steps test it.
        let set = self.member_set(pieces.kind, owner);
        // The set's cells, in order (no allocation: read off the bitset).
        let starts = set.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    (w * 64 + b as usize) as Cell
                })
            })
        });
        let member = |c: Option<Cell>| c.is_some_and(|c| set[c as usize / 64] >> (c % 64) & 1 != 0);
        let limit = dims as u32 * 4096; // a cycle cannot happen on a finite board; guard anyway
        for &axis in axes {
            if own_tables {
                // The common case, stepped through the tables' own arrays.
                // (The same walk as below, written out: one generic walk for
                // both measured 6% slower on 4D-Schach's perft.)
                let (fwd, back) = (self.t.unit_steps_along(axis, true), self.t.unit_steps_along(axis, false));
                for start in starts.clone() {
                    if steps_in_set(back, &set, start, 1) > 0 {
                        continue; // not the first of its run
                    }
                    let n = 1 + steps_in_set(fwd, &set, start, limit);
                    if found(n) {
                        return true;
                    }
                }
                continue;
            }
            for start in starts.clone() {
                if member(step(axis, false, start)) {
                    continue; // not the first of its run
                }
                let mut n = 1u32;
                let mut at = start;
                while let Some(next) = step(axis, true, at).filter(|&c| member(Some(c))) {
                    n += 1;
                    at = next;
                    if n > limit {
                        break;
                    }
                }
                if found(n) {
                    return true;
                }
            }
        }
        false
    }

    /// The cells of `owner`'s pieces of `kind` (any kind: `None`) as a
    /// bitset, kept in the memo when there is one.
    fn member_set(&self, kind: Option<crate::model::KindId>, owner: Color) -> [u64; crate::engine::position::WORDS] {
        if let Some(m) = self.memo.and_then(|m| m.1.borrow().iter().find(|s| s.owner == owner && s.kind == kind).map(|s| s.cells)) {
            return m;
        }
        let set = set_cells(self.pos, self.t, owner, kind);
        if let Some(memo) = self.memo {
            memo.1.borrow_mut().push(MemberSet { owner, kind, cells: set });
        }
        set
    }

    /// `line`: some longest run of the set's pieces along one of `axes`, in
    /// the position's frame (a step along the stacking axis lands on the
    /// next level present there), has a length in `length`.
    fn line(&self, length: Range, pieces: PieceSet, axes: &[usize]) -> bool {
        // In the position's own frame the answer reads the set's cells and
        // the tables alone: siblings in a search (a move of the other side
        // apart) ask the same, and find it in [`LINES`].
        let Some(axes_read) = axis_bits(axes).filter(|_| frame::tables_match(self.t, self.pos)) else {
            return self.line_judged(length, pieces, axes);
        };
        let set = self.member_set(pieces.kind, self.player(pieces.who));
        // Fewer pieces than the least length: no run is long enough (told
        // before a key is built: the usual answer while few pieces stand).
        if set[..self.t.nwords].iter().map(|w| w.count_ones()).sum::<u32>() < length.lo {
            return false;
        }
        let key = SetKey { tables: self.t.id(), set, axes: axes_read, length: (length.lo, length.hi) };
        if let Some(holds) = LINES.with(|l| l.borrow().get(&key)) {
            debug_assert_eq!(holds, self.line_judged(length, pieces, axes), "a line answer kept for {key:?}");
            return holds;
        }
        let unbounded = length.hi >= self.game.geometry.cells() as u32;
        // No run of one less or more: none of this length or more (a game's
        // rules often test lines of 3 and of 4 of the same pieces).
        let shorter = SetKey { tables: key.tables, set: key.set, axes: key.axes, length: (length.lo.saturating_sub(1), length.hi) };
        if unbounded && length.lo > 1 && LINES.with(|l| l.borrow().get(&shorter)) == Some(false) {
            debug_assert!(!self.line_judged(length, pieces, axes), "a line implied by a shorter one for {key:?}");
            return false;
        }
        let through = if unbounded { LINES.with(|l| l.borrow().missing_but(&key)).and_then(|added| self.line_through_added(length.lo, &key.set, &added, axes)) } else { None };
        let holds = through.unwrap_or_else(|| self.line_judged(length, pieces, axes));
        debug_assert!(through.is_none_or(|h| h == self.line_judged(length, pieces, axes)), "a line judged through the added cells for {key:?}");
        LINES.with(|l| l.borrow_mut().keep(key, holds));
        holds
    }

    /// Does a run of `least` or more cells of `set` along one of `axes`
    /// pass through a cell of `added`, where `set` less `added` is part of
    /// a set judged to have none (from the same tables, the position's own)?
    /// Then no other run can: one that misses the added cells lies in the
    /// earlier set, whose runs are all shorter. `None` where a walk from an
    /// added cell meets no end within the board's cells (an axis that
    /// closes on itself, which no geometry of the language has: the earlier
    /// judgement would not tell then), and the line is judged in full.
    fn line_through_added(&self, least: u32, set: &[u64; crate::engine::position::WORDS], added: &[u64; crate::engine::position::WORDS], axes: &[usize]) -> Option<bool> {
        let most = self.t.ncells as u32;
        for c in crate::engine::position::cells_in(added) {
            for &axis in axes {
                let (fwd, back) = (self.t.unit_steps_along(axis, true), self.t.unit_steps_along(axis, false));
                let (ahead, behind) = (steps_in_set(fwd, set, c, most), steps_in_set(back, set, c, most));
                if ahead >= most || behind >= most {
                    return None;
                }
                if 1 + ahead + behind >= least {
                    return Some(true);
                }
            }
        }
        Some(false)
    }

    /// [`Self::line`], judged on the position.
    fn line_judged(&self, length: Range, pieces: PieceSet, axes: &[usize]) -> bool {
        // With no upper bound, on an axis whose steps each add one number
        // to the cell: shifts of the set's bitset ([`Tables::long_run`]);
        // the runs walked along the others (the stacking axis of a frame).
        let unbounded = length.hi >= self.game.geometry.cells() as u32 && frame::tables_match(self.t, self.pos);
        let set = unbounded.then(|| self.member_set(pieces.kind, self.player(pieces.who)));
        // Fewer pieces than the least length: no run is long enough.
        if set.as_ref().is_some_and(|set| set[..self.t.nwords].iter().map(|w| w.count_ones()).sum::<u32>() < length.lo) {
            return false;
        }
        axes.iter().any(|&axis| match set.as_ref().and_then(|set| self.t.long_run(set, axis, length.lo)) {
            Some(found) => found,
            None => self.line_walked(length, pieces, axis),
        })
    }

    /// [`Self::line`] along one axis, each run walked (its lengths kept in
    /// the memo when there is one).
    fn line_walked(&self, length: Range, pieces: PieceSet, axis: usize) -> bool {
        let Some(memo) = self.memo else { return self.any_run(pieces, &[axis], |n| length.contains(n)) };
        let owner = self.player(pieces.who);
        let found = memo.0.borrow().iter().find(|r| r.owner == owner && r.kind == pieces.kind && r.axis == axis).map(|r| r.lengths.iter().any(|n| length.contains(n)));
        if let Some(found) = found {
            return found;
        }
        let lengths = self.run_lengths(pieces, &[axis]);
        let found = lengths.iter().any(|n| length.contains(n));
        memo.0.borrow_mut().push(Runs { owner, kind: pieces.kind, axis, lengths });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variant::Variant;

    use crate::test_support::{variant, FOUR_D_POST_OPENING};

    /// Calls `visit` at every position of four random games of 40 plies at
    /// most from `fen` (the setup where `None`) of `file`'s variant.
    fn random_games(file: &str, fen: Option<&str>, mut visit: impl FnMut(&Variant, &Position)) {
        let v = variant(file);
        let mut seed = file.len() as u64;
        for _ in 0..4 {
            let mut pos = match fen {
                Some(f) => v.parse_fen(f, file).expect("the test position"),
                None => v.start().expect("the setup"),
            };
            for _ in 0..40 {
                visit(&v, &pos);
                let moves = v.legal_moves(&pos);
                if moves.is_empty() || pos.flow.is_some() {
                    break;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                pos = v.play(&pos, &moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }

    /// A xiangqi position built for the flying general: the generals on
    /// one file with one piece between (a red horse on e6), so that the
    /// horse's moves off the file are forbidden, and a red chariot on d2
    /// that may step between them.
    const FACING: &str = "4k4/9/9/9/4N4/9/9/9/3R5/4K4 w - - 0 1";

    /// A `forbid` condition judged without making the move
    /// ([`Offered::unchanged`], [`Offered::sight`]) says what it says after
    /// the move made: along random games of the files whose `forbid`
    /// conditions read only counts and lines of named kinds (Grand chess's
    /// "more than 1 own Queen or …", Spartan chess's "more than 2 own King",
    /// 4D-Schach's "line 3 own Pawn" while in check, from the post-opening
    /// test position of tests/four_d.rs) or whether two named pieces face
    /// each other (xiangqi's flying general, from the setup and from
    /// [`FACING`]; janggi's, unless the mover passed) or whether the
    /// opponent is in check (racing kings), every plain legal move is
    /// judged both ways.
    #[test]
    fn forbid_conditions_judged_unmade_are_those_made() {
        let (mut unmade, mut forbidden_unmade, mut compared) = (0, 0, 0);
        for (file, fen) in [
            ("rules/fairy/grand.rules", None),
            ("rules/fairy/spartan.rules", None),
            ("rules/4d-schach.rules", Some(FOUR_D_POST_OPENING)),
            ("rules/fairy/xiangqi.rules", None),
            ("rules/fairy/xiangqi.rules", Some(FACING)),
            ("rules/fairy/janggi.rules", None),
            ("rules/fairy/racingkings.rules", None),
        ] {
            random_games(file, fen, |v, pos| {
                let t = &v.tables;
                let mut plain = Vec::new();
                movegen::legal_moves_plain(&v.game, t, pos, &mut plain);
                let mut offered = Offered::new(&v.game, t, pos);
                let mut made = Offered::new(&v.game, t, pos);
                made.unchanged = None;
                made.sight = None;
                for m in &plain {
                    unmade += usize::from(offered.forbidden_unmade(m).is_some());
                    forbidden_unmade += usize::from(offered.forbidden_unmade(m) == Some(true));
                    assert_eq!(offered.allows(m), made.allows(m), "{file}: {m:?} at {}", v.fen(pos));
                    compared += 1;
                }
            });
        }
        assert!(compared > 30_000 && unmade > 15_000 && forbidden_unmade > 30, "{compared} moves compared, {unmade} judged unmade, {forbidden_unmade} of them forbidden");
    }

    /// The watch of the `forbid` conditions that apply
    /// ([`crate::flow::oblige::watch_conds`]) is sound: along random games
    /// of the files with `forbid` rules (as above), a piece of which it says
    /// that no move may make a condition hold has every plain move allowed
    /// ([`Offered::allows`], the move made). 4D-Schach's "line 3 own Pawn"
    /// while in check is the rule it judges (a `count` test leaves it
    /// saying that anything may); the test sees it clear pieces, and sees
    /// forbidden moves among the pieces it does not clear.
    #[test]
    fn a_piece_the_forbid_watch_clears_has_every_move_allowed() {
        let (mut cleared, mut forbidden) = (0, 0);
        let mut visit = |file: &str, v: &Variant, pos: &Position| {
            let t = v.tables_for(pos);
            let mut offered = Offered::new(&v.game, &t, pos);
            if offered.forbid_conds().is_empty() {
                return;
            }
            let watch = crate::flow::oblige::watch_conds(&v.game, &t, pos, offered.forbid_conds(), offered.runs());
            let mut plain = Vec::new();
            movegen::legal_moves_plain(&v.game, &t, pos, &mut plain);
            for m in plain.iter().filter(|m| !m.is_promotion() && m.kind != MoveKind::Castle) {
                let allowed = offered.allows(m);
                if !watch.may_fire_from(&t, m.from, m.piece, pos.side) {
                    assert!(allowed || !offered.only_forbids_for(m.piece), "{file}: {m:?} cleared but forbidden at {}", v.fen(pos));
                    cleared += 1;
                } else {
                    forbidden += usize::from(!allowed);
                }
            }
        };
        let swinging = format!("{FOUR_D_POST_OPENING} {{frame=IV:-3<-3*}}");
        for (file, fen) in [("rules/fairy/grand.rules", None), ("rules/fairy/spartan.rules", None), ("rules/4d-schach.rules", Some(FOUR_D_POST_OPENING)), ("rules/4d-schach.rules", Some(swinging.as_str()))] {
            random_games(file, fen, |v, pos| visit(file, v, pos));
        }
        // The block of `bulk_counts_less_the_forbidden_moves_are_the_listed_ones`
        // (White's King on a1 of level I checked by the Rook on e1; the Pawn
        // c2 blocks on c1 in a line of 3 with the Pawns on c1 of levels II
        // and III), at rest and with the empty level IV swinging.
        let v = variant("rules/4d-schach.rules");
        let fen = "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/2P5|8/8/8/8/8/8/8/2P5|8/8/8/8/8/8/2P5/K3r3 w - - 0 1";
        for fen in [fen.to_string(), format!("{fen} {{frame=IV:-3<-3*}}")] {
            visit("rules/4d-schach.rules", &v, &v.parse_fen(&fen, "test").expect("the position"));
        }
        assert!(cleared > 50 && forbidden > 0, "{cleared} moves of cleared pieces, {forbidden} forbidden among the others");
    }

    /// A leaf counted in bulk less the forbidden moves
    /// ([`forbidden_count`]) counts what the list of legal moves holds,
    /// along the random games of the same files and of Raumschach (a board
    /// counted by walking, in check too), and the forbidding rules apply
    /// (and forbid) at some of their positions.
    #[test]
    fn bulk_counts_less_the_forbidden_moves_are_the_listed_ones() {
        let (mut counted, mut forbidding, mut forbidden) = (0, 0, 0);
        let files = [("rules/fairy/grand.rules", None), ("rules/fairy/spartan.rules", None), ("rules/4d-schach.rules", Some(FOUR_D_POST_OPENING)), ("rules/raumschach.rules", None)];
        for (file, fen) in files {
            random_games(file, fen, |v, pos| {
                let t = &v.tables;
                let mut list = Vec::new();
                movegen::legal_moves(&v.game, t, pos, &mut list);
                let mut scratch = Vec::new();
                assert_eq!(movegen::count_legal(&v.game, t, pos, &mut scratch), list.len() as u64, "{file} at {}", v.fen(pos));
                counted += 1;
                if !Offered::new(&v.game, t, pos).forbid.is_empty() {
                    forbidding += 1;
                    forbidden += forbidden_count(&v.game, t, pos, &mut scratch).unwrap_or(0);
                }
            });
        }
        assert!(counted > 400 && forbidding > 100 && forbidden > 0, "{counted} positions counted, {forbidding} with forbidding rules, {forbidden} moves forbidden");

        // 4D-Schach's "no group while in check", in a position built for it:
        // White's King on a1 of level I is checked along rank 1 by the Rook
        // on e1. The Pawn c2 steps to c1 and blocks, but it then stands in a
        // line of 3 with the Pawns on c1 of levels II and III: forbidden.
        // The Pawn on c1 of level II also blocks, by stepping down, and
        // leaves a line of 2: allowed. No other move is forbidden.
        let v = variant("rules/4d-schach.rules");
        // (The text gives level VII first, level I last.)
        let fen = "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/2P5|8/8/8/8/8/8/8/2P5|8/8/8/8/8/8/2P5/K3r3 w - - 0 1";
        let pos = v.parse_fen(fen, "test").expect("the position");
        let t = &v.tables;
        // a1 of level I: file, rank and level 0.
        assert_eq!(frame::absolute(&v.game, None, pos.royal[0]), [0, 0, 0]);
        assert!(movegen::in_check(&v.game, t, &pos));
        let mut list = Vec::new();
        movegen::legal_moves(&v.game, t, &pos, &mut list);
        let mut plain = Vec::new();
        movegen::legal_moves_plain(&v.game, t, &pos, &mut plain);
        let mut scratch = Vec::new();
        assert_eq!(forbidden_count(&v.game, t, &pos, &mut scratch), Some(1));
        assert_eq!(plain.len(), list.len() + 1);
        assert_eq!(movegen::count_legal(&v.game, t, &pos, &mut scratch), list.len() as u64);
    }
}
