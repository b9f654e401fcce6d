//! Legal moves: the definition (every move tried on a copy), the fast
//! generation with pins and checks found once, and bulk counting at perft leaves.

use super::*;
use crate::engine::tables::{CellSet, SmallMoves};

/// The legal moves by the definition alone: every pseudo-legal move, drop and
/// castling tried on a copy, with the walking attack test. Slow; the reference
/// the fast paths of [`legal_moves`] and [`count_legal`] are tested against.
pub fn legal_moves_reference(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    debug_assert!(crate::engine::frame::tables_match(t, pos), "move generation with another frame's tables");
    if !game.rules.is_empty() {
        // Rule-defined ends and forbidden moves (`rule` items).
        return crate::engine::cond::legal_moves_reference(game, t, pos, out);
    }
    legal_moves_plain_reference(game, t, pos, out);
}

/// [`legal_moves_reference`] without the `rule` items.
pub(crate) fn legal_moves_plain_reference(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    if game.spread.is_some() || game.tunnel.is_some() {
        return super::spread::legal_moves(game, t, pos, out);
    }
    let first = out.len();
    pseudo_moves(game, t, pos, out);
    retain_from(out, first, |m| legal_by_trial(game, t, pos, m));
    if !in_check(game, t, pos) {
        castling_moves_with(game, t, pos, out, false);
    }
    layers(game, t, pos, out, first);
    if game.observe.is_some() {
        // The moves the plain rules allow, as observation changes them.
        let plain = out.split_off(first);
        return super::observe::legal_moves(game, t, pos, &plain, out);
    }
    if pos.any_hidden() {
        super::chance::split_outcomes(game, t, pos, out, first);
    }
}

/// Does `m` leave the mover's royal pieces unattacked? (Tried on a copy.)
pub fn legal_by_trial(game: &Game, t: &Tables, pos: &Position, m: &Move) -> bool {
    Trial::new(game, t, pos).legal(m)
}

/// Tries moves of one position on one reusable copy (cloned at the first
/// trial, then overwritten by [`Position::copy_from`]): [`legal_by_trial`]
/// without a clone of the whole position per move.
pub(crate) struct Trial<'a> {
    game: &'a Game,
    t: &'a Tables,
    pos: &'a Position,
    probe: Option<Position>,
}

impl<'a> Trial<'a> {
    /// Trials of moves of `pos`.
    pub(crate) fn new(game: &'a Game, t: &'a Tables, pos: &'a Position) -> Self {
        Trial { game, t, pos, probe: None }
    }

    /// Does `m` leave the mover's royal pieces unattacked?
    pub(crate) fn legal(&mut self, m: &Move) -> bool {
        let (game, t, pos) = (self.game, self.t, self.pos);
        if game.explosion.is_some() {
            return crate::engine::explosion::legal_by_trial(game, t, pos, m);
        }
        let next = self.probe.get_or_insert_with(|| pos.clone());
        next.copy_from(pos, t);
        next.make(m, game, t);
        !royal_attacked(game, t, next, pos.side)
    }
}

/// The cells the piece on `from` may land on (pseudo-legal, en passant aside),
/// with bitsets and ride lookups, and the entry they came from; `None` when
/// one of its parts needs the general walker ([`SmallMoves::general`]).
#[inline(always)]
pub(super) fn landing_small<S: CellSet>(t: &Tables, kc: usize, from: Cell, occ: S, enemy: S) -> Option<(S, &SmallMoves<S>)> {
    let bits = S::tables(t);
    let entry = &bits.moves[kc * t.ncells + from as usize];
    if entry.general {
        return None;
    }
    let (mut quiet, mut capture) = (entry.quiet_leaps, entry.capture_leaps);
    for lookup in &bits.lookups[entry.rides.0 as usize..entry.rides.1 as usize] {
        let reach = bits.reach[lookup.slot(occ)];
        quiet |= reach & lookup.quiet;
        capture |= reach & lookup.capture;
    }
    // Parts of one kind land on distinct cells (kinds whose parts overlap are
    // counted by the general path, which removes repeats).
    Some(((quiet & !occ) | (capture & enemy), entry))
}

/// Appends the moves of the piece on `from` (the side to move's) from the
/// bitset tables, where they can be written out ([`SmallMoves::plain`]:
/// no promotion among them, no en-passant target it may take), in the
/// order of their target cells; `false`, with nothing appended, where they
/// must be walked. `occ`: every occupied cell and wall; `enemy`: the other
/// side's pieces.
#[inline]
fn push_plain_small(t: &Tables, pos: &Position, from: Cell, occ: u64, enemy: u64, out: &mut Vec<Move>) -> bool {
    let Some((kind, mut cells, entry)) = plain_landings_small(t, pos, from, occ, enemy) else { return false };
    out.reserve(cells.count_ones() as usize);
    while cells != 0 {
        let to = cells.trailing_zeros() as Cell;
        cells &= cells - 1;
        out.push(plain_small_move(entry, kind, from, to, enemy));
    }
    true
}

/// The kind of the side to move's piece on `from`, the cells it may land
/// on and its table entry, where its moves can be written out from the
/// bitset tables ([`SmallMoves::plain`], none onto a promotion cell, no
/// en-passant target it may take); `None` where they must be walked.
/// `occ`: every occupied cell and wall; `enemy`: the other side's pieces.
#[inline(always)]
pub(super) fn plain_landings_small<'t>(t: &'t Tables, pos: &Position, from: Cell, occ: u64, enemy: u64) -> Option<(KindId, u64, &'t SmallMoves<u64>)> {
    let kind = kind_of(pos.board[from as usize]);
    let kc = kind as usize * 2 + pos.side as usize;
    if pos.ep_len != 0 && t.takes_ep[kc] {
        return None;
    }
    let (cells, entry) = landing_small(t, kc, from, occ, enemy)?;
    (entry.plain && cells & entry.promo_cells == 0).then_some((kind, cells, entry))
}

/// The move of a piece of `kind` from `from` to `to`, one of the landings
/// [`plain_landings_small`] found with `entry`: a plain move, but for the
/// exact ride's landing, whose start rides along and which, quiet along a
/// ride that sets en passant, sets it (`enemy`: the other side's pieces).
#[inline(always)]
pub(super) fn plain_small_move(entry: &SmallMoves<u64>, kind: KindId, from: Cell, to: Cell, enemy: u64) -> Move {
    let m = Move::normal(kind, from, to);
    let bit = 1u64 << to;
    if bit & entry.exact_cell == 0 {
        return m;
    }
    let kind = if entry.exact_sets_ep && bit & enemy == 0 { MoveKind::EnPassantSetter } else { MoveKind::Normal };
    Move { kind, aux: entry.exact_aux, ..m }
}

/// The number of moves landing on `cells` from `entry`'s cell, each promotion choice counted.
#[inline(always)]
pub(super) fn moves_onto<S: CellSet>(entry: &SmallMoves<S>, cells: S) -> u64 {
    cells.count() as u64 + (cells & entry.promo_cells).count() as u64 * entry.promo_extra as u64
}

/// Appends the legal moves of the side to move, each chance outcome (the
/// identity a face-down piece is revealed as, or a captured one turns out to
/// be) its own move.
pub fn legal_moves(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    legal_moves_in(game, t, pos, out, Order::Generated);
}

/// [`legal_moves`] in an order of the generator's choosing, for a caller
/// that shows no list (perft): on a board of at most 64 cells, the plain
/// moves of a piece are written out from the bitset tables, by target cell.
pub fn legal_moves_any_order(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    legal_moves_in(game, t, pos, out, Order::Any);
}

/// The order a caller needs the moves in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// As generated: piece by piece, each piece's parts as written and
    /// each ray outward (the lists users see: `moves`, `play`'s help,
    /// `--divide`).
    Generated,
    /// Any: the list is only walked through.
    Any,
}

/// [`legal_moves`] in `order`.
fn legal_moves_in(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, order: Order) {
    debug_assert!(crate::engine::frame::tables_match(t, pos), "move generation with another frame's tables");
    if !game.rules.is_empty() {
        // Rule-defined ends and forbidden moves (`rule` items).
        return crate::engine::cond::legal_moves(game, t, pos, out);
    }
    legal_moves_plain_in(game, t, pos, out, order);
}

/// [`legal_moves`] without the `rule` items.
pub(crate) fn legal_moves_plain(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    legal_moves_plain_in(game, t, pos, out, Order::Generated);
}

/// [`legal_moves_plain`] in `order` (observation, spread pieces and
/// tunnels list theirs as generated).
fn legal_moves_plain_in(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, order: Order) {
    if game.observe.is_some() {
        // The moves the plain rules allow (pins and checks found once), as observation changes them.
        let mut plain = Vec::new();
        legal_decisions(game, t, pos, &mut plain);
        return super::observe::legal_moves(game, t, pos, &plain, out);
    }
    if game.spread.is_some() || game.tunnel.is_some() {
        return super::spread::legal_moves(game, t, pos, out);
    }
    let first = out.len();
    legal_decisions_in(game, t, pos, out, order);
    if pos.any_hidden() {
        super::chance::split_outcomes(game, t, pos, out, first);
    }
}

/// Appends the legal moves of the side to move as decisions: a move of a
/// face-down piece once, without its outcome. (Legality does not depend on
/// the outcome: an identity changes no square's occupancy, and no identity is royal.)
pub(crate) fn legal_decisions(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>) {
    legal_decisions_in(game, t, pos, out, Order::Generated);
}

/// [`legal_decisions`] in `order`.
fn legal_decisions_in(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, order: Order) {
    let first = out.len();
    legal_decisions_unlimited(game, t, pos, out, order);
    if t.drop_no_mate {
        retain_from(out, first, |m| !mating_drop(game, t, pos, m));
    }
    layers(game, t, pos, out, first);
}

/// The layers around the plain legal moves in `out[first..]`, in order:
/// promotions made as moves of their own (`promote.rs`), the pass
/// (`pass.rs`: it may need to know that no other move exists), gating
/// (`gating.rs`: copies of moves), compulsory drops (a filter) and walls
/// (`walls.rs`: every move with its wall). Each costs one test in a game
/// without it.
fn layers(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, first: usize) {
    if !game.promotion_moves.is_empty() {
        promotion_moves(game, t, pos, out);
    }
    if t.passing {
        pass_move(game, t, pos, out, first);
    }
    if t.gating {
        add_gated(game, pos, out, first);
    }
    if t.drop_compulsory {
        compulsory_drops(game, pos, out, first);
    }
    if t.walling {
        add_walls(game, t, pos, out, first);
    }
}

/// `compulsory` drops (koedem's king): while the side to move holds a piece
/// of such a kind, its drops of other kinds are not legal, and where a drop
/// of such a kind is legal, nothing else is.
fn compulsory_drops(game: &Game, pos: &Position, out: &mut Vec<Move>, first: usize) {
    let Some(hand) = &game.hand else { return };
    let us = pos.side as usize;
    let held = |k: crate::model::KindId| hand.drop_limits.get(k as usize).is_some_and(|l| l.compulsory) && pos.hand[us][k as usize] > 0;
    if !(0..hand.drop_limits.len() as crate::model::KindId).any(held) {
        return;
    }
    retain_from(out, first, |m| m.kind != MoveKind::Drop || held(m.piece));
    if out[first..].iter().any(|m| m.kind == MoveKind::Drop) {
        retain_from(out, first, |m| m.kind == MoveKind::Drop);
    }
}

/// [`legal_decisions`] before `no mate` removes the drops that checkmate,
/// in `order`.
fn legal_decisions_unlimited(game: &Game, t: &Tables, pos: &Position, out: &mut Vec<Move>, order: Order) {
    let us = pos.side;
    let first = out.len();
    let fast = pins_found_once(game, t, pos);
    let (checked, pinned) = if fast && t.small {
        let occ = pos.occupied[0][0] | pos.occupied[1][0] | pos.walls[0];
        let s = king_safety_small(t, pos, pos.royal[us as usize], us, occ);
        let mut pinned = [0; WORDS];
        pinned[0] = s.pinned;
        (s.checkers > 0, pinned)
    } else if fast {
        king_safety(t, pos, pos.royal[us as usize], us)
    } else {
        (in_check(game, t, pos), [0; WORDS])
    };
    if !fast || checked {
        // Where the lines judge the other pieces' moves, the royal piece's
        // landings are judged at once, with it lifted (`keep_safe_royal_steps`),
        // where each of its moves changes two cells (else each is tried).
        let judge = lines_judge(game, t, pos);
        let mut royal_judged = false;
        for from in pos.cells_of(us, t.nwords) {
            let start = out.len();
            piece_moves_once(pos, t, from, out);
            if judge && from == pos.royal[us as usize] && out[start..].iter().all(changes_two_cells) {
                keep_safe_royal_steps(t, pos, out, start);
                royal_judged = true;
            }
        }
        drops(game, t, pos, out);
        if !checked {
            castling_moves(game, t, pos, out);
        }
        if pos.royal_count[us as usize] == 0 {
            return;
        }
        let mut trial = Trial::new(game, t, pos);
        // In check, or with attacks the look-back test cannot judge (hops,
        // lame and exact leaps, zones, a frame out of rest), with one royal
        // piece: the attacks on it worked out once judge a move of another
        // piece that changes only its two cells, without making it (a
        // trial is a copy of the position and a walk over every enemy
        // piece; on a board of at most 64 cells with plain attacks the
        // copy and the bitset test are cheaper than the lines).
        let king = pos.royal[us as usize];
        let lines = if judge { move_lines(t, pos, king, us ^ 1) } else { None };
        retain_from(out, first, |m| match &lines {
            _ if m.kind == MoveKind::Castle => true,
            _ if royal_judged && m.from == king => true,
            Some(lines) if m.from != king && changes_two_cells(m) => lines.safe_after(m.from, m.to),
            _ => trial.legal(m),
        });
        return;
    }
    let mut trial = Trial::new(game, t, pos);
    // Fast path: not in check, one royal piece, plain attacks. Only the royal
    // piece, pinned pieces and en-passant captures need a test.
    let king = pos.royal[us as usize];
    // On a board of at most 64 cells, a piece that is neither royal nor
    // pinned has its plain moves written out from the bitset tables.
    let listing = order == Order::Any && t.small && !pos.any_hidden();
    let (occ, enemy) = if listing { occupancy::<u64>(pos, us) } else { (0, 0) };
    for from in pos.cells_of(us, t.nwords) {
        let start = out.len();
        if listing && from != king && pinned[0] >> from & 1 == 0 && push_plain_small(t, pos, from, occ, enemy, out) {
            continue;
        }
        piece_moves_once(pos, t, from, out);
        if from == king {
            retain_from(out, start, |m| king_step_safe(t, pos, m, us));
        } else if pinned[from as usize / 64] >> (from % 64) & 1 != 0 {
            retain_from(out, start, |m| trial.legal(m));
        } else if pos.ep_len != 0 {
            retain_from(out, start, |m| m.kind != MoveKind::EnPassant || trial.legal(m));
        }
    }
    drops(game, t, pos, out);
    castling_moves(game, t, pos, out);
}

/// Appends the legal moves of the side to move's pieces whose kind is in
/// `kinds` (a bitmask) or that may promote, its drops and its castling
/// moves: every legal move that moves, puts down or may turn into a piece
/// of those kinds, for a caller that judges only those
/// ([`crate::engine::cond::forbidden_count`]). Pseudo-legal moves judged
/// as [`legal_decisions`] judges them (the attacks on the royal piece
/// found once, a trial where they cannot tell). `false`, with nothing
/// appended, where the legal moves are more than that ([`layers`]:
/// promotions as moves of their own, the pass, gating, compulsory or
/// non-mating drops, walls; or moves that touch other pieces than their own,
/// [`crate::engine::cond::moves_touch_only_their_pieces`]).
pub(crate) fn legal_moves_of(game: &Game, t: &Tables, pos: &Position, kinds: u64, out: &mut Vec<Move>) -> bool {
    let layered = super::layered(game, t) || t.drop_no_mate;
    if layered || !crate::engine::cond::moves_touch_only_their_pieces(game, t, pos) {
        return false;
    }
    let us = pos.side;
    let first = out.len();
    pseudo_moves_of(game, t, pos, &|_, kind| kinds >> kind & 1 != 0, out);
    if game.castling.is_some() && !in_check(game, t, pos) {
        castling_moves(game, t, pos, out);
    }
    if pos.royal_count[us as usize] == 0 {
        return true;
    }
    let mut trial = Trial::new(game, t, pos);
    let king = pos.royal[us as usize];
    let lines = if lines_judge(game, t, pos) { move_lines(t, pos, king, us ^ 1) } else { None };
    retain_from(out, first, |m| match &lines {
        _ if m.kind == MoveKind::Castle => true,
        Some(lines) if m.from != king && changes_two_cells(m) => lines.safe_after(m.from, m.to),
        _ => trial.legal(m),
    });
    true
}

/// The buffers [`OneByOne`] works in, kept by a caller that judges the
/// moves of many positions of one variant: the candidates, and the copy each
/// is made on (cloned from the first position judged, then overwritten).
#[derive(Default)]
pub struct Scratch {
    candidates: Vec<Move>,
    probe: Option<Position>,
}

/// The legal moves of a position judged one at a time, for a caller that
/// needs only some of them (is there any? does one of them break a claim?):
/// the candidates [`OneByOne::new`] lists, in the order [`legal_moves`]
/// lists the legal ones, each judged when it is asked about.
///
/// [`legal_moves`] gives the candidates judged legal, then two layers that
/// neither empty a list nor fill an empty one: where a `captures are
/// compulsory` rule applies and a legal move captures, only the captures;
/// with gating, copies of legal moves that also gate. Where neither applies
/// (`exact`) the candidates judged legal are the legal moves, each replaced
/// by its chance outcomes where face-down pieces stand (`chance`: a
/// candidate is then a decision, whose legality does not depend on what is
/// revealed; [`OneByOne::outcomes`] lists them).
pub struct OneByOne<'a> {
    game: &'a Game,
    t: &'a Tables,
    pos: &'a Position,
    candidates: &'a [Move],
    probe: &'a mut Option<Position>,
    /// Whether the side to move is in check (found at the first castling candidate).
    checked: Option<bool>,
    /// The `offer` rules that apply, in a game with `rule` items.
    offered: Option<crate::engine::cond::Offered<'a>>,
    /// The candidates judged legal are exactly [`legal_moves`]' list (with
    /// `chance`, once each is replaced by its outcomes).
    pub exact: bool,
    /// Face-down pieces stand: the candidates are decisions.
    pub chance: bool,
}

impl<'a> OneByOne<'a> {
    /// The candidates of `pos`: the pseudo-legal moves of each piece, the
    /// drops, the castling moves (none where a `rule` item has ended the
    /// game). `None` where the legal moves are more than a filter of
    /// candidates: chance outcomes of face-down pieces, spread pieces,
    /// observation, promotions made as moves of their own, the pass,
    /// compulsory drops, walls, face-down pieces in a game with `rule` items
    /// (callers list them with [`legal_moves`]).
    pub fn new(game: &'a Game, t: &'a Tables, pos: &'a Position, scratch: &'a mut Scratch) -> Option<OneByOne<'a>> {
        let layered = !game.promotion_moves.is_empty() || t.passing || t.drop_compulsory || t.walling;
        let chance = pos.any_hidden();
        let rules = !game.rules.is_empty();
        if game.observe.is_some() || game.spread.is_some() || game.tunnel.is_some() || layered || (chance && rules) {
            return None;
        }
        let Scratch { candidates, probe } = scratch;
        candidates.clear();
        let ended = rules && crate::engine::cond::decided(game, t, pos).is_some();
        if !ended {
            pseudo_moves(game, t, pos, candidates);
            castling_moves(game, t, pos, candidates);
        }
        let offered = (rules && !ended).then(|| crate::engine::cond::Offered::new(game, t, pos));
        let exact = !t.gating && !offered.as_ref().is_some_and(|o| o.compel);
        Some(OneByOne { game, t, pos, candidates, probe, checked: None, offered, exact, chance })
    }

    /// Appends the moves [`legal_moves`] lists for the candidate `m`: its
    /// chance outcomes where `chance`, in their order, else `m` itself.
    pub fn outcomes(&self, m: &Move, out: &mut Vec<Move>) {
        let first = out.len();
        out.push(*m);
        if self.chance {
            super::chance::split_outcomes(self.game, self.t, self.pos, out, first);
        }
    }

    /// The candidates, in order.
    pub fn candidates(&self) -> &'a [Move] {
        self.candidates
    }

    /// The first candidate that `wanted` accepts (asked first: it is
    /// cheaper) and that is legal.
    pub fn first(&mut self, mut wanted: impl FnMut(&Move) -> bool) -> Option<Move> {
        let candidates = self.candidates;
        candidates.iter().find(|m| wanted(m) && self.legal(m)).copied()
    }

    /// Is the candidate `m` legal: it leaves the mover's royal pieces
    /// unattacked (castling: the side to move is not in check; its path is
    /// tested where it is generated), it is not a drop that mates where such
    /// drops are barred, and no `offer` rule forbids it?
    pub fn legal(&mut self, m: &Move) -> bool {
        let (game, t, pos) = (self.game, self.t, self.pos);
        let castle = m.kind == MoveKind::Castle;
        let royal = pos.royal_count[pos.side as usize] > 0;
        let forbids = self.offered.as_ref().is_some_and(|o| o.needs_after(m));
        // The position after `m`, where a test needs it.
        let made = (royal && !castle && game.explosion.is_none()) || forbids;
        if made {
            let probe = self.probe.get_or_insert_with(|| pos.clone());
            probe.copy_from(pos, t);
            probe.make(m, game, t);
        }
        let after = self.probe.as_ref().filter(|_| made);
        let safe = if castle {
            !*self.checked.get_or_insert_with(|| in_check(game, t, pos))
        } else if !royal {
            true
        } else if game.explosion.is_some() {
            crate::engine::explosion::legal_by_trial(game, t, pos, m)
        } else {
            after.is_some_and(|next| !royal_attacked(game, t, next, pos.side))
        };
        safe && !(t.drop_no_mate && mating_drop(game, t, pos, m))
            && self.offered.as_ref().is_none_or(|o| o.allows_after(m, after))
            && (!self.chance || super::chance::has_outcome(pos, m))
    }
}

/// Do the attacks on the one royal piece of the side to move, found once
/// ([`move_lines`]), judge the moves of its other pieces that change two
/// cells, and cost less than a trial of each? One royal piece that no
/// promotion makes, no explosion, moves that touch only their own pieces,
/// and a board of more than 64 cells or attacks the look-back test cannot
/// judge (the trial then walks every enemy piece's rays).
fn lines_judge(game: &Game, t: &Tables, pos: &Position) -> bool {
    pos.royal_count[pos.side as usize] == 1
        && !t.royal_promotion
        && game.explosion.is_none()
        && (!t.small || !t.simple_attacks)
        && crate::engine::cond::moves_touch_only_their_pieces(game, t, pos)
}

/// Do pins and check, found once from the one royal piece of the side to
/// move, tell which moves leave it safe? (Plain attacks, no promotion to a
/// royal kind, no explosions.)
pub(super) fn pins_found_once(game: &Game, t: &Tables, pos: &Position) -> bool {
    t.simple_attacks && !t.royal_promotion && pos.royal_count[pos.side as usize] == 1 && game.explosion.is_none()
}

/// The number of legal moves of the side to move (bulk counting at perft
/// leaves); `scratch` is a reusable buffer.
pub fn count_legal(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>) -> u64 {
    count_legal_kept(game, t, pos, scratch, None)
}

/// The moves of one side's pieces counted in a position, kept for the
/// positions one move of the other side away: there a piece's count is the
/// same unless the move changed a cell its moves depend on (its leaps'
/// cells, and each ride's up to the first occupied one), took it, or pinned it. Two
/// plies above perft's leaves each child then counts only the pieces its
/// move touched ([`count_legal_kept`]).
pub enum KeptCounts {
    /// Boards of at most 64 cells, counted from the tables.
    Bitsets(Box<BitsetCounts<u64, 64>>),
    /// Boards of 65 to 128 cells, counted from the tables.
    WideBitsets(Box<BitsetCounts<u128, 128>>),
    /// Larger boards, counted by the walker.
    Walks(Box<WalkCounts>),
}

impl KeptCounts {
    /// The counts of the pieces of the side not to move in `parent`, or
    /// `None` where [`count_legal`] would count otherwise.
    pub fn new(t: &Tables, parent: &Position) -> Option<KeptCounts> {
        let side = parent.side ^ 1;
        // With `rule` items a child is counted from them only where the
        // rules are silent ([`count_legal_kept`] lists its moves otherwise).
        if t.general_counting || parent.royal_count[side as usize] != 1 || parent.any_hidden() {
            return None;
        }
        Some(if t.small {
            KeptCounts::Bitsets(Box::new(BitsetCounts::new(t, parent)))
        } else if t.wide {
            KeptCounts::WideBitsets(Box::new(BitsetCounts::new(t, parent)))
        } else {
            KeptCounts::Walks(Box::new(WalkCounts::new(t, parent)))
        })
    }
}

/// [`KeptCounts`] on a board of at most `N` cells, as sets of width `S`
/// (`u64` and 64, `u128` and 128).
pub struct BitsetCounts<S, const N: usize> {
    /// The side whose pieces were counted: the side to move in the children.
    side: Color,
    /// The occupied cells of each color, and the walls, as counted.
    occupied: [S; 2],
    walls: S,
    /// The cells of the counted pieces (not the royal piece, not those the walker counts).
    counted: S,
    /// Per cell of `counted`: its piece's moves (every cell may be landed on:
    /// the counts serve children not in check).
    count: [u32; N],
    /// Per cell: the counted pieces whose moves depend on it.
    dependents: [S; N],
    /// The sum of `count` over `counted`.
    total: u64,
}

/// Every occupied cell of `pos` (pieces of both colors and walls), the
/// enemy's of `us`, in the width `S`.
#[inline(always)]
fn occupancy<S: CellSet>(pos: &Position, us: Color) -> (S, S) {
    let enemy = S::from_words(&pos.occupied[(us ^ 1) as usize]);
    (S::from_words(&pos.occupied[us as usize]) | enemy | S::from_words(&pos.walls), enemy)
}

impl<S: CellSet, const N: usize> BitsetCounts<S, N> {
    fn new(t: &Tables, parent: &Position) -> Self {
        let side = parent.side ^ 1;
        let occupied = [S::from_words(&parent.occupied[0]), S::from_words(&parent.occupied[1])];
        let walls = S::from_words(&parent.walls);
        let occ = occupied[0] | occupied[1] | walls;
        let enemy = occupied[parent.side as usize];
        let mut kept = BitsetCounts { side, occupied, walls, counted: S::EMPTY, count: [0; N], dependents: [S::EMPTY; N], total: 0 };
        let mut pieces = occupied[side as usize] & !S::bit(parent.royal[side as usize] as usize);
        while pieces != S::EMPTY {
            let from = pieces.first() as Cell;
            pieces = pieces.rest();
            let kc = kind_of(parent.board[from as usize]) as usize * 2 + side as usize;
            let Some((cells, entry)) = landing_small(t, kc, from, occ, enemy) else { continue };
            let n = moves_onto(entry, cells);
            kept.count[from as usize] = n as u32;
            kept.total += n;
            kept.counted |= S::bit(from as usize);
            let mut on = small_depends(t, entry, occ);
            while on != S::EMPTY {
                let c = on.first() as usize;
                on = on.rest();
                kept.dependents[c] |= S::bit(from as usize);
            }
        }
        kept
    }

    /// [`count_by_tables`] for `pieces` of a child not in check: the kept
    /// counts of the pieces its move left alone, the rest counted.
    #[inline]
    fn count(&self, t: &Tables, pos: &Position, pieces: S, occ: S, enemy: S, ep_cells: S) -> (u64, S) {
        if ep_cells != S::EMPTY {
            // Captures en passant are the walker's: count every piece afresh.
            return count_by_tables(t, pos, pieces, occ, enemy, S::FULL, ep_cells);
        }
        let mut changed = (S::from_words(&pos.occupied[0]) ^ self.occupied[0]) | (S::from_words(&pos.occupied[1]) ^ self.occupied[1]) | (S::from_words(&pos.walls) ^ self.walls);
        // Kept pieces whose count may differ: on a changed cell (taken),
        // depending on one, or no longer among `pieces` (pinned).
        let mut stale = (changed | !pieces) & self.counted;
        while changed != S::EMPTY {
            let c = changed.first() as usize;
            changed = changed.rest();
            stale |= self.dependents[c];
        }
        let mut total = self.total;
        let mut gone = stale;
        while gone != S::EMPTY {
            let c = gone.first() as usize;
            gone = gone.rest();
            total -= u64::from(self.count[c]);
        }
        let (n, walked) = count_by_tables(t, pos, pieces & (stale | !self.counted), occ, enemy, S::FULL, S::EMPTY);
        (total + n, walked)
    }
}

/// The cells whose occupancy (empty, own, enemy or wall) decides the moves
/// of `entry` while `occ` is occupied: its leaps' cells, and along each ride
/// every cell up to and including the first occupied one (an `exactly`
/// ride: its path and last cell).
#[inline]
fn small_depends<S: CellSet>(t: &Tables, entry: &SmallMoves<S>, occ: S) -> S {
    let bits = S::tables(t);
    let mut depends = entry.quiet_leaps | entry.capture_leaps;
    for lookup in &bits.lookups[entry.rides.0 as usize..entry.rides.1 as usize] {
        depends |= if lookup.plain { bits.reach[lookup.slot(occ)] } else { lookup.mask | bits.reach[lookup.slot(S::EMPTY)] };
    }
    depends
}

/// [`KeptCounts`] on a board of more than 64 cells: each piece's count by
/// the walker, with the cells it depends on.
pub struct WalkCounts {
    /// The side whose pieces were counted: the side to move in the children.
    side: Color,
    /// The occupied cells of each color, and the walls, as counted.
    occupied: [[u64; WORDS]; 2],
    walls: [u64; WORDS],
    /// The counted pieces: not the royal piece, none whose moves overlap or
    /// apply only sometimes.
    pieces: Vec<WalkedPiece>,
}

/// One piece of [`WalkCounts`].
struct WalkedPiece {
    cell: Cell,
    /// `kind * 2 + color`.
    kc: usize,
    /// Its moves (every cell may be landed on).
    count: u64,
    /// The cells its moves depend on.
    depends: [u64; WORDS],
}

impl WalkCounts {
    fn new(t: &Tables, parent: &Position) -> WalkCounts {
        let side = parent.side ^ 1;
        let n = t.nwords;
        let mut kept = WalkCounts { side, occupied: [[0; WORDS]; 2], walls: [0; WORDS], pieces: Vec::new() };
        for c in 0..2 {
            kept.occupied[c][..n].copy_from_slice(&parent.occupied[c][..n]);
        }
        kept.walls[..n].copy_from_slice(&parent.walls[..n]);
        // The parent seen with the children's side to move.
        let mut seen = parent.clone();
        seen.side = side;
        seen.ep_len = 0;
        let king = parent.royal[side as usize];
        for from in parent.cells_of(side, n) {
            let kind = kind_of(parent.board[from as usize]);
            let kc = kind as usize * 2 + side as usize;
            if from == king || t.repeats(kind, side, from) {
                continue;
            }
            let Some((count, depends)) = super::kept_moves::walk_piece(t, &seen, from, kind) else { continue };
            kept.pieces.push(WalkedPiece { cell: from, kc, count, depends });
        }
        kept
    }

    /// The kept pieces of `pos` (a child not in check) whose counts still
    /// hold, and the sum of their counts: not on a changed cell, depending
    /// on none, not pinned, and not able to capture en passant.
    fn clean(&self, t: &Tables, pos: &Position, pinned: &[u64; WORDS]) -> ([u64; WORDS], u64) {
        let n = t.nwords;
        let mut changed = [0u64; WORDS];
        for (w, c) in changed[..n].iter_mut().enumerate() {
            *c = (pos.occupied[0][w] ^ self.occupied[0][w]) | (pos.occupied[1][w] ^ self.occupied[1][w]) | (pos.walls[w] ^ self.walls[w]);
        }
        let mut clean = [0u64; WORDS];
        let mut total = 0;
        for p in &self.pieces {
            let (w, bit) = (p.cell as usize / 64, 1u64 << (p.cell % 64));
            if (changed[w] | pinned[w]) & bit != 0 || (pos.ep_len != 0 && t.takes_ep[p.kc]) {
                continue;
            }
            if (0..n).any(|i| p.depends[i] & changed[i] != 0) {
                continue;
            }
            clean[w] |= bit;
            total += p.count;
        }
        (clean, total)
    }
}

/// [`count_legal`], with the counts kept from the position one move before
/// (two plies above perft's leaves) where they are the side to move's.
pub fn count_legal_kept(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>, kept: Option<&KeptCounts>) -> u64 {
    debug_assert!(crate::engine::frame::tables_match(t, pos), "move generation with another frame's tables");
    let us = pos.side;
    scratch.clear();
    let listed = t.general_counting || pos.royal_count[us as usize] > 1 || pos.any_hidden();
    if listed || t.rules_counting {
        return count_legal_listed_or_ruled(game, t, pos, scratch, kept, listed);
    }
    count_legal_bulk(game, t, pos, scratch, kept)
}

/// [`count_legal_kept`] where the moves are listed (`listed`) or a game's
/// `rule` items may take some away: those the `offer` rules forbid are
/// counted apart where they can be ([`crate::engine::cond::forbidden_count`])
/// and taken from the bulk count, else every legal move is listed. A
/// function of its own, so that the bulk count of a game without rules
/// keeps the code it had.
#[inline(never)]
fn count_legal_listed_or_ruled(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>, kept: Option<&KeptCounts>, listed: bool) -> u64 {
    let forbidden = if listed { None } else { crate::engine::cond::forbidden_count(game, t, pos, scratch) };
    let Some(forbidden) = forbidden else {
        if game.rules.is_empty() && game.observe.is_none() && (game.spread.is_some() || game.tunnel.is_some()) {
            // Spread pieces or tunnels: counted as generated.
            return super::spread::count_legal(game, t, pos);
        }
        scratch.clear();
        legal_moves(game, t, pos, scratch);
        return scratch.len() as u64;
    };
    scratch.clear();
    let bulk = count_legal_bulk(game, t, pos, scratch, kept);
    debug_assert!(forbidden <= bulk, "{forbidden} forbidden of {bulk} legal moves");
    bulk.saturating_sub(forbidden)
}

/// [`count_legal_bulk`] for a side without a royal piece (breakthrough's
/// players, horde's white): every pseudo-legal move is legal
/// ([`legal_decisions`] tests none), so each piece's moves are counted
/// from the bitset tables where the board has them, else walked into a
/// counter; a piece whose moves the tables do not hold, that may take en
/// passant, or (walked) may land twice on one cell is listed.
fn count_unguarded(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>) -> u64 {
    let us = pos.side;
    let mut count = Counter(if t.small {
        count_unguarded_bits::<u64>(t, pos, scratch)
    } else if t.wide {
        count_unguarded_bits::<u128>(t, pos, scratch)
    } else {
        0
    });
    if !t.small && !t.wide {
        for from in pos.cells_of(us, t.nwords) {
            if t.repeats(kind_of(pos.board[from as usize]), us, from) {
                piece_moves_once(pos, t, from, scratch);
            } else {
                piece_moves(pos, t, from, &mut count);
            }
        }
    }
    drops(game, t, pos, &mut count);
    castling_moves(game, t, pos, scratch);
    count.0 + scratch.len() as u64
}

/// [`count_unguarded`] on a board with bitset tables of width `S`: the
/// moves the tables count, the other pieces' listed in `scratch`.
fn count_unguarded_bits<S: CellSet>(t: &Tables, pos: &Position, scratch: &mut Vec<Move>) -> u64 {
    let us = pos.side;
    let (occ, enemy) = occupancy::<S>(pos, us);
    let ep_cells = pos.ep_targets[..pos.ep_len as usize].iter().fold(S::EMPTY, |m, &c| m | S::bit(c as usize));
    let (count, mut walked) = count_by_tables(t, pos, S::from_words(&pos.occupied[us as usize]), occ, enemy, S::FULL, ep_cells);
    while walked != S::EMPTY {
        let from = walked.first() as Cell;
        walked = walked.rest();
        piece_moves_once(pos, t, from, scratch);
    }
    count
}

/// [`count_legal_kept`] where the legal moves are the plain ones, counted
/// in bulk: at most one royal piece, no face-down pieces, tables that count.
#[inline(always)]
fn count_legal_bulk(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>, kept: Option<&KeptCounts>) -> u64 {
    let us = pos.side;
    if pos.royal_count[us as usize] == 0 {
        return count_unguarded(game, t, pos, scratch);
    }
    if t.small {
        let kept = match kept {
            Some(KeptCounts::Bitsets(kept)) => Some(&**kept),
            _ => None,
        };
        return count_legal_bits(game, t, pos, scratch, kept);
    }
    if t.wide {
        let kept = match kept {
            Some(KeptCounts::WideBitsets(kept)) => Some(&**kept),
            _ => None,
        };
        return count_legal_wide(game, t, pos, scratch, kept);
    }
    let kept = match kept {
        Some(KeptCounts::Walks(kept)) if kept.side == us => Some(&**kept),
        _ => None,
    };
    count_legal_walking(game, t, pos, scratch, kept)
}

/// [`count_legal_bits`] for boards of 65 to 128 cells: a function of its
/// own, so that the `u64` count inlined in [`count_legal_kept`] keeps its
/// registers (with both inlined there, and both castling tests inlined in
/// `castling_moves_with`, chess perft 5 ran 1% more instructions).
#[inline(never)]
fn count_legal_wide(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>, kept: Option<&BitsetCounts<u128, 128>>) -> u64 {
    count_legal_bits(game, t, pos, scratch, kept)
}

/// [`count_legal_kept`] on a board of at most `N` cells, from the bitset
/// tables of width `S` (one royal piece, plain attacks).
#[inline(always)]
fn count_legal_bits<S: CellSet, const N: usize>(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>, kept: Option<&BitsetCounts<S, N>>) -> u64 {
    let us = pos.side;
    let king = pos.royal[us as usize];
    let (occ, enemy) = occupancy::<S>(pos, us);
    let safety = king_safety_small(t, pos, king, us, occ);
    let checked = safety.checkers > 0;
    if checked && game.hand.is_some() {
        // Drops that block a check: the general path (the `offer` rules'
        // moves are counted apart, by the caller).
        legal_moves_plain(game, t, pos, scratch);
        return scratch.len() as u64;
    }
    // The royal piece: each landing tested with it lifted.
    let mut count = 0u64;
    let kc = kind_of(pos.board[king as usize]) as usize * 2 + us as usize;
    let without_king = occ & !S::bit(king as usize);
    match landing_small(t, kc, king, occ, enemy) {
        Some((mut cells, entry)) if entry.promo_extra == 0 && entry.promo_cells == S::EMPTY => {
            while cells != S::EMPTY {
                let to = cells.first();
                cells = cells.rest();
                if !attacked_small(t, pos, to as Cell, us ^ 1, without_king) {
                    count += 1;
                }
            }
        }
        _ => {
            piece_moves_once(pos, t, king, scratch);
            retain_from(scratch, 0, |m| !attacked_small(t, pos, m.to, us ^ 1, without_king));
        }
    }
    if safety.checkers >= 2 {
        return count + scratch.len() as u64; // only the royal piece can answer a double check
    }
    // The others: pinned pieces, en-passant takers and pieces whose parts the
    // tables do not hold are walked, and tried on a copy where needed.
    let ep_cells = pos.ep_targets[..pos.ep_len as usize].iter().fold(S::EMPTY, |m, &c| m | S::bit(c as usize));
    let others = S::from_words(&pos.occupied[us as usize]) & !S::bit(king as usize);
    let (counted, mut walked) = match kept {
        Some(kept) if !checked && kept.side == us => kept.count(t, pos, others & !safety.pinned, occ, enemy, ep_cells),
        _ => count_by_tables(t, pos, others & !safety.pinned, occ, enemy, safety.resolve, ep_cells),
    };
    count += counted;
    walked |= others & safety.pinned;
    let mut trial = Trial::new(game, t, pos);
    while walked != S::EMPTY {
        let from = walked.first() as Cell;
        walked = walked.rest();
        let start = scratch.len();
        piece_moves_once(pos, t, from, scratch);
        if checked || safety.pinned.has(from as usize) {
            retain_from(scratch, start, |m| trial.legal(m));
        } else if ep_cells != S::EMPTY {
            retain_from(scratch, start, |m| m.kind != MoveKind::EnPassant || trial.legal(m));
        }
    }
    if !checked {
        if game.hand.is_some() {
            let mut drops_count = Counter(0);
            drops(game, t, pos, &mut drops_count);
            count += drops_count.0;
        }
        castling_moves(game, t, pos, scratch);
    }
    count + scratch.len() as u64
}

/// The moves of `pieces` (the side to move's, none royal or pinned) that
/// land on `resolve`, counted from the tables; returns that count and the
/// pieces left for the walker: those whose parts the tables do not hold
/// ([`SmallMoves::general`]) and those that may capture on an en-passant
/// target in `ep_cells`. A small function of its own, so that its loop
/// keeps everything in registers.
#[inline(never)]
fn count_by_tables<S: CellSet>(t: &Tables, pos: &Position, mut pieces: S, occ: S, enemy: S, resolve: S, ep_cells: S) -> (u64, S) {
    let us = pos.side as usize;
    let kc_of = |from: Cell| kind_of(pos.board[from as usize]) as usize * 2 + us;
    let mut walked = S::EMPTY;
    if ep_cells != S::EMPTY {
        let mut scan = pieces;
        while scan != S::EMPTY {
            let from = scan.first() as Cell;
            scan = scan.rest();
            if S::tables(t).ep_reach[kc_of(from) * t.ncells + from as usize] & ep_cells != S::EMPTY {
                walked |= S::bit(from as usize);
            }
        }
        pieces &= !walked;
    }
    let mut count = 0u64;
    while pieces != S::EMPTY {
        let from = pieces.first() as Cell;
        pieces = pieces.rest();
        match landing_small(t, kc_of(from), from, occ, enemy) {
            Some((cells, entry)) => count += moves_onto(entry, cells & resolve),
            None => walked |= S::bit(from as usize),
        }
    }
    (count, walked)
}

/// [`count_legal`] for boards of more than 64 cells: walks the rays (the
/// pieces whose counts `kept` holds aside).
pub(super) fn count_legal_walking(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>, kept: Option<&WalkCounts>) -> u64 {
    let us = pos.side;
    let king = pos.royal[us as usize];
    let (checked, pinned) = king_safety(t, pos, king, us);
    if checked {
        return count_evasions_walking(game, t, pos, scratch, &pinned);
    }
    let (clean, kept_total) = match kept {
        Some(kept) => kept.clean(t, pos, &pinned),
        None => ([0; WORDS], 0),
    };
    let mut count = Counter(kept_total);
    let mut trial = Trial::new(game, t, pos);
    for from in pos.cells_of(us, t.nwords) {
        if clean[from as usize / 64] >> (from % 64) & 1 != 0 {
            continue;
        }
        let kind = kind_of(pos.board[from as usize]);
        let kc = kind as usize * 2 + us as usize;
        let ep = pos.ep_len != 0 && t.takes_ep[kc];
        let is_pinned = pinned[from as usize / 64] >> (from % 64) & 1 != 0;
        if from == king || is_pinned || ep || t.repeats(kind, us, from) {
            let start = scratch.len();
            piece_moves_once(pos, t, from, scratch);
            if from == king {
                keep_safe_royal_steps(t, pos, scratch, start);
            } else if is_pinned {
                retain_from(scratch, start, |m| trial.legal(m));
            } else if ep {
                retain_from(scratch, start, |m| m.kind != MoveKind::EnPassant || trial.legal(m));
            }
        } else {
            piece_moves(pos, t, from, &mut count);
        }
    }
    drops(game, t, pos, &mut count);
    castling_moves(game, t, pos, scratch);
    count.0 + scratch.len() as u64
}

/// [`count_legal_walking`] in check: the royal piece's steps tested with
/// it lifted, as out of check; another piece's moves counted where they
/// land on the cells that end every check ([`AttackLines::evasions`]),
/// unless it is `pinned`, may take en passant or land twice on a cell
/// (those listed and tried). Where a hop attacks the royal piece, every
/// move is listed (the `offer` rules' moves are counted apart, by the
/// caller).
fn count_evasions_walking(game: &Game, t: &Tables, pos: &Position, scratch: &mut Vec<Move>, pinned: &[u64; WORDS]) -> u64 {
    let us = pos.side;
    let king = pos.royal[us as usize];
    let Some(lines) = attack_lines(t, pos, king, us ^ 1) else {
        legal_moves_plain(game, t, pos, scratch);
        return scratch.len() as u64;
    };
    let mut count = super::CountOnto { cells: lines.evasions(), n: 0 };
    let mut trial = Trial::new(game, t, pos);
    for from in pos.cells_of(us, t.nwords) {
        let kind = kind_of(pos.board[from as usize]);
        let kc = kind as usize * 2 + us as usize;
        let ep = pos.ep_len != 0 && t.takes_ep[kc];
        let is_pinned = pinned[from as usize / 64] >> (from % 64) & 1 != 0;
        if from == king {
            let start = scratch.len();
            piece_moves_once(pos, t, from, scratch);
            keep_safe_royal_steps(t, pos, scratch, start);
        } else if is_pinned || ep || t.repeats(kind, us, from) {
            let start = scratch.len();
            piece_moves_once(pos, t, from, scratch);
            retain_from(scratch, start, |m| trial.legal(m));
        } else if !super::reaches_none(t, pos, from, &count.cells) {
            piece_moves(pos, t, from, &mut count);
        }
    }
    drops(game, t, pos, &mut count);
    count.n + scratch.len() as u64
}

/// Keeps in `moves[start..]`, the side to move's royal piece's moves, those
/// that land where the other side could not capture it, looking through its
/// start cell: every such cell found at once (on boards counted by walking
/// a king has up to 26 steps, each tested alone along every attack
/// direction before: 11% of 4D-Schach's post-opening perft 3), walking only
/// the pieces whose captures may reach a landing
/// ([`capture_cells_onto`]). `t` and `pos` may be another frame's than the
/// one the moves were made in (the frame they are judged in: the end of a
/// ply whose levels swing).
pub(crate) fn keep_safe_royal_steps(t: &Tables, pos: &Position, moves: &mut Vec<Move>, start: usize) {
    let us = pos.side;
    let unsafe_cells = capture_cells_onto(t, pos, us ^ 1, pos.royal[us as usize], Some(&landings(&moves[start..])));
    keep_landing_outside(moves, start, &unsafe_cells);
}

/// The cells `moves` land on.
pub(super) fn landings(moves: &[Move]) -> [u64; WORDS] {
    let mut landings = [0u64; WORDS];
    for m in moves {
        landings[m.to as usize / 64] |= 1 << (m.to % 64);
    }
    landings
}

/// Keeps in `moves[start..]` those that land outside `cells`, in order.
pub(super) fn keep_landing_outside(moves: &mut Vec<Move>, start: usize, cells: &[u64; WORDS]) {
    retain_from(moves, start, |m| cells[m.to as usize / 64] >> (m.to % 64) & 1 == 0);
}

/// Keeps in `out[first..]` the moves `keep_if` accepts, in order.
pub(crate) fn retain_from(out: &mut Vec<Move>, first: usize, mut keep_if: impl FnMut(&Move) -> bool) {
    let mut keep = first;
    for i in first..out.len() {
        let m = out[i];
        if keep_if(&m) {
            out[keep] = m;
            keep += 1;
        }
    }
    out.truncate(keep);
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::variant;

    /// The moves as a sorted list of their printed forms (every field).
    fn sorted(moves: &[Move]) -> Vec<String> {
        let mut out: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
        out.sort();
        out
    }

    /// Along random games of variants of at most 64 cells (chess's pawns
    /// with their exact double step that sets en passant, captures en
    /// passant and promotions; Berolina pawns, with two exact double steps
    /// (walked); Torpedo's double steps from any rank; Makruk's and
    /// Shatranj's promotions; Spartan's two kinds of royal piece;
    /// Nightrider's rides), at every position the
    /// moves in any order ([`legal_moves_any_order`], each plain piece's
    /// moves written out from the bitset tables) are the moves as generated
    /// ([`legal_moves`], every ray walked), field for field. Some positions
    /// must list them in another order (the bitset listing ran).
    #[test]
    fn moves_in_any_order_are_the_generated_moves() {
        let mut below = crate::flow::ply::below_from(0x9E37_79B9_7F4A_7C15);
        let (mut positions, mut reordered, mut setters) = (0, 0, 0);
        for file in ["rules/chess.rules", "rules/fairy/berolina.rules", "rules/fairy/torpedo.rules", "rules/fairy/makruk.rules", "rules/fairy/shatranj.rules", "rules/fairy/spartan.rules", "rules/fairy/nightrider.rules"] {
            let v = variant(file);
            for _ in 0..6 {
                let mut pos = v.start().expect("the start position");
                for _ in 0..60 {
                    let t = v.tables_for(&pos);
                    let (mut generated, mut any) = (Vec::new(), Vec::new());
                    legal_moves(&v.game, &t, &pos, &mut generated);
                    legal_moves_any_order(&v.game, &t, &pos, &mut any);
                    assert_eq!(sorted(&any), sorted(&generated), "{file}: {}", v.fen(&pos));
                    positions += 1;
                    reordered += usize::from(any != generated);
                    setters += any.iter().filter(|m| m.kind == MoveKind::EnPassantSetter).count();
                    let Some(&m) = generated.get(below(generated.len())) else { break };
                    pos = v.play(&pos, &m);
                }
            }
        }
        assert!(positions > 1000, "{positions} positions");
        assert!(reordered * 2 > positions, "{reordered} of {positions} positions listed in another order");
        assert!(setters > 100, "{setters} double steps");
    }
}
