//! Decisions and plies: the actions at a decision node, applying one, the
//! work at the end of a ply, and legality of a whole ply.

use super::phase;
use super::out_of_play::OutOfPlay;
use super::state::{ActionKind, Flow, Obligation};
use super::oblige::{FrameWatch, Watch, WatchMemo};
use crate::model::cond::ObligeAction;
use super::{Action, FlowEvent};
use crate::engine::frame;
use crate::engine::movegen;
use crate::engine::position::{Move, MoveKind, Position};
use crate::engine::tables::Tables;
use crate::engine::variant::Variant;
use crate::model::geometry::Cell;
use crate::model::{Color, KindId};

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

/// Most decisions of one ply that [`Variant::completable`] follows.
pub const PLY_DECISIONS: usize = 64;

/// Most states of one ply that [`Variant::completable`] looks at before it
/// gives up.
pub const PLY_STATES: u32 = 100_000;

/// The state of one search for a completion of a ply.
struct Completion {
    /// The keys of the states on the way, the ply's first one first.
    path: Vec<u64>,
    /// States from which no completion was found.
    failed: std::collections::HashSet<u64>,
    /// States looked at so far.
    states: u32,
    /// Every decision made, with no pre-filter ([`Variant::completable_as`]).
    reference: bool,
}

/// A node that owes one activation and nothing after it, ready to judge
/// its activations without making them ([`Variant::ends_quietly`]).
struct QuietActivations {
    /// The frames' watch of the node ([`super::oblige::watch_frames`]).
    watch: FrameWatch,
    /// A copy of the node, whose frame each judgement sets and puts back.
    node: Position,
    /// A frame's storage, kept from one judgement to the next.
    spare: Option<Box<crate::engine::frame::Frame>>,
}

/// The kinds of decision node.
pub(super) enum Node {
    /// An obligation is owed: its actions, judged on the whole ply.
    Owed,
    /// A phase before play (its index): its placements or moves.
    Placing(usize),
    /// Play where a move's ply may not end with it (a rule may oblige) or
    /// its end moves a level: every move judged at the end of its ply.
    Judged,
    /// Play: the engine's legal moves.
    Plain,
}

/// A move at a node between plies after which an `oblige` rule fires, so
/// that it starts a ply of several decisions ([`Variant::ply_starts`]).
#[derive(Clone, Debug)]
pub struct PlyStart {
    /// The move (its first decision).
    pub mv: Move,
    /// Is it among the engine's legal moves (the mover's royal piece not
    /// attacked right after it)? The whole ply may be legal either way.
    pub legal: bool,
    /// The position after it ([`Variant::apply`]): obligations owed, or
    /// the end of the ply when every obligation was dropped.
    pub next: Position,
}

impl Variant {
    /// Does `pos` need the flow layer to list and make its decisions: a
    /// phase or an obligation owed (`pos.flow`), a swinging level (whose
    /// jump at the end of the ply decides which moves are legal, ruling
    /// "check-after-jump" of rules/4d-schach.rules), or a move after which
    /// an `oblige` rule fires ([`Variant::ply_starts`])? Otherwise the
    /// decisions are exactly the engine's legal moves, each a complete ply.
    pub fn needs_flow(&self, pos: &Position) -> bool {
        if pos.flow.is_some() || frame::swinging(pos) {
            return true;
        }
        if !super::oblige::any(&self.game) {
            return false;
        }
        self.ply_starts(pos, &self.tables_for(pos)).is_none_or(|s| !s.is_empty())
    }

    /// At a node between plies with no level swinging (`t` its tables): the
    /// offered moves after which an `oblige` rule fires, in generation order
    /// (empty when none does: the engine's legal moves are the decisions and
    /// each ends its ply). `None` when the node is not such a node or the
    /// pre-filter ([`super::oblige::watch`]) cannot tell which moves to try:
    /// then every move goes through the flow layer.
    pub fn ply_starts(&self, pos: &Position, t: &Tables) -> Option<Vec<PlyStart>> {
        self.ply_starts_with(pos, t, &mut WatchMemo::default())
    }

    /// [`Self::ply_starts`] with the pre-filter kept between calls (a
    /// count's nodes one after another: see [`WatchMemo`]).
    pub fn ply_starts_with(&self, pos: &Position, t: &Tables, memo: &mut WatchMemo) -> Option<Vec<PlyStart>> {
        if pos.flow.is_some() || frame::swinging(pos) {
            return None;
        }
        let game = &self.game;
        if !super::oblige::any(game) {
            // No rule obliges: the watch is `Nothing`, told without reading the board.
            return Some(Vec::new());
        }
        let (watch, fires_from) = memo.kept(game, t, pos);
        match watch {
            Watch::Nothing => return Some(Vec::new()),
            Watch::Anything => return None,
            Watch::Placing(_) => {}
        }
        if !game.rules.is_empty() && crate::engine::cond::decided(game, t, pos).is_some() {
            return Some(Vec::new());
        }
        let mover = pos.side;
        let mut out = Vec::new();
        // One copy of the node, made again for every move.
        let mut made = pos.clone();
        let wanted = |from, kind| fires_from.may_fire_from(t, from, kind, mover);
        for m in self.offered_moves_where(pos, t, Some(&wanted), |m| fires_from.may_fire(m, mover, t)) {
            made.copy_from(pos, t);
            made.make(&m, game, t);
            if super::oblige::fire(game, t, &made).is_empty() {
                continue;
            }
            let legal = !movegen::royal_attacked(game, t, &made, mover);
            out.push(PlyStart { mv: m, legal, next: self.apply(pos, &Action::Move(m)) });
        }
        Some(out)
    }

    /// Whose decision it is in `pos`: the head of the obligation queue, else the side to move.
    pub fn decider(&self, pos: &Position) -> Color {
        pos.flow.as_ref().and_then(|f| f.queue.first()).map_or(pos.side, |o| o.player)
    }

    /// The legal decisions in `pos`: the head obligation's actions, else the
    /// current phase's, else the legal moves. Without flow state this is
    /// [`Variant::legal_moves`], each wrapped as [`Action::Move`].
    pub fn actions(&self, pos: &Position) -> Vec<Action> {
        match self.node(pos) {
            Node::Owed => self.successors(pos).into_iter().map(|(a, _)| a).collect(),
            Node::Placing(ph) => {
                let (game, t) = (&self.game, self.tables_for(pos));
                let placement = &game.phases[ph].placement;
                // With an order, only the drops of its next kind can be
                // placements (the other kinds' are never kept).
                let mut moves = Vec::with_capacity(64);
                let narrowed = phase::order_kind(game, placement, pos).is_some_and(|kind| movegen::legal_drops_of(game, &t, pos, kind, &mut moves));
                if !narrowed {
                    movegen::legal_moves(game, &t, pos, &mut moves);
                }
                let placed = phase::placements(game, &t, placement, pos, &moves);
                if !placed.is_empty() {
                    return placed.into_iter().map(Action::Move).collect();
                }
                // No placement: the moves other than drops.
                if narrowed {
                    moves.clear();
                    movegen::legal_moves(game, &t, pos, &mut moves);
                }
                moves.into_iter().filter(|m| m.kind != MoveKind::Drop).map(Action::Move).collect()
            }
            Node::Judged => self.judged(pos, false).into_iter().map(|(a, _)| a).collect(),
            Node::Plain => {
                let mut moves = Vec::with_capacity(64);
                movegen::legal_moves(&self.game, &self.tables_for(pos), pos, &mut moves);
                moves.into_iter().map(Action::Move).collect()
            }
        }
    }

    /// What kind of decision node `pos` is.
    pub(super) fn node(&self, pos: &Position) -> Node {
        let flow = pos.flow.as_deref();
        if flow.is_some_and(|f| !f.queue.is_empty()) {
            return Node::Owed;
        }
        if let Some(ph) = flow.map(|f| f.phase as usize).filter(|&p| p < self.game.phases.len()) {
            return Node::Placing(ph);
        }
        if frame::swinging(pos) || super::oblige::any(&self.game) {
            return Node::Judged;
        }
        Node::Plain
    }

    /// The legal decisions in `pos` ([`Variant::actions`], in the same
    /// order), each with the position after it ([`Variant::apply`]), so
    /// that counting plies applies each decision once.
    pub fn successors(&self, pos: &Position) -> Vec<(Action, Position)> {
        match self.node(pos) {
            Node::Owed => self.owed_successors(pos, false),
            Node::Judged => self.judged(pos, false),
            Node::Placing(_) | Node::Plain => self
                .actions(pos)
                .into_iter()
                .map(|a| {
                    let next = self.apply(pos, &a);
                    (a, next)
                })
                .collect(),
        }
    }

    /// [`Variant::successors`] by the definition alone: at a node between
    /// plies every offered move is made with [`Variant::apply`] and judged
    /// at the end of its ply (no pre-filter, no engine fast path). The
    /// reference the fast paths are tested against.
    pub fn successors_reference(&self, pos: &Position) -> Vec<(Action, Position)> {
        match self.node(pos) {
            Node::Judged | Node::Plain => self.judged(pos, true),
            Node::Owed => self.owed_successors(pos, true),
            Node::Placing(_) => self.successors(pos),
        }
    }

    /// [`Variant::successors`] at a node that owes an obligation: each
    /// action its head offers, made, kept when the ply can still be
    /// completed with the mover's royal piece not attacked. Unless
    /// `reference`, an activation that ends the ply with no rule firing is
    /// judged on a copy of the node first ([`Self::activation_ends_ply`]),
    /// and made only when it is legal.
    fn owed_successors(&self, pos: &Position, reference: bool) -> Vec<(Action, Position)> {
        let Some(head) = pos.flow.as_ref().and_then(|f| f.queue.first()) else { return Vec::new() };
        let mut out = Vec::new();
        let mut quiet = if reference { None } else { self.quiet_activations(pos) };
        for a in self.obligation_candidates(pos, head) {
            if let Action::Activate { level, rows } = a {
                match self.ends_quietly(&mut quiet, level, rows) {
                    Some(false) => continue,
                    Some(true) => {
                        out.push((a, self.ended_by_activation(pos, level, rows)));
                        continue;
                    }
                    None => {}
                }
            }
            let next = self.apply(pos, &a);
            if self.completable_as(&next, reference) {
                out.push((a, next));
            }
        }
        out
    }

    /// The offered moves at `pos` (`t` its tables): every pseudo-legal move,
    /// castling when not in check (it tests its own cells in the frame of
    /// now), less those an `offer` rule forbids.
    pub(super) fn offered_moves(&self, pos: &Position, t: &Tables) -> Vec<Move> {
        self.offered_moves_where(pos, t, None, |_| true)
    }

    /// The offered moves at `pos` that `keep` keeps. The `offer` rules
    /// judge each move on its own, so they judge only the moves `keep`
    /// kept (a pre-filter that stops most moves saves their judging),
    /// except where captures are compulsory, which compares every offered
    /// move: then `keep` runs after them.
    ///
    /// `placing`: where `keep` stops every plain move of a piece (by its
    /// cell and kind) for which this is false
    /// ([`super::oblige::Watch::may_fire_from`]), only the other pieces'
    /// moves (and promoting pieces', and drops) are listed.
    pub(super) fn offered_moves_where(&self, pos: &Position, t: &Tables, placing: Option<&dyn Fn(Cell, KindId) -> bool>, keep: impl Fn(&Move) -> bool) -> Vec<Move> {
        let game = &self.game;
        // Room for a node's moves at once (growing from empty reallocated
        // it several times at every node: 3% of 4D-Schach's perft at rest).
        let mut moves = Vec::with_capacity(256);
        let compels = game.rules.iter().any(|r| r.effect == crate::model::cond::Effect::CompelCaptures);
        // Gates and observed moves pass `keep` whatever moves; a face-down
        // piece may be revealed as any kind.
        match placing.filter(|_| !compels && !t.gating && game.observe.is_none() && !pos.any_hidden()) {
            Some(wanted) => movegen::pseudo_moves_of(game, t, pos, wanted, &mut moves),
            None => movegen::pseudo_moves(game, t, pos, &mut moves),
        }
        if game.castling.is_some() && !movegen::in_check(game, t, pos) {
            movegen::castling_moves(game, t, pos, &mut moves);
        }
        if !compels {
            moves.retain(&keep);
        }
        if !moves.is_empty() && !game.rules.is_empty() {
            crate::engine::cond::forbid_filter(game, t, pos, &mut moves, 0);
        }
        if compels {
            moves.retain(&keep);
        }
        moves
    }

    /// The legal moves at a node between plies (as actions), each with the
    /// position after it: every offered move ([`Self::offered_moves`]), made and
    /// followed by the rest of its ply (the obligations a rule queues, the
    /// end of the ply with a swing's jump), kept when the ply can be
    /// completed with the mover's royal piece not attacked. A move is judged
    /// in the frame the opponent will face (ruling "check-after-jump" of
    /// rules/4d-schach.rules: "kommt aber durch die Amplitude erneut ins
    /// Schach, gilt die Stellung als matt"). Unless `reference`, a move the
    /// pre-filter ([`super::oblige::watch`]) clears is made with the end of
    /// the ply only, without testing the rules that oblige.
    fn judged(&self, pos: &Position, reference: bool) -> Vec<(Action, Position)> {
        let game = &self.game;
        let t = self.tables_for(pos);
        if !game.rules.is_empty() && crate::engine::cond::decided(game, &t, pos).is_some() {
            return Vec::new();
        }
        let watch = if reference { Watch::Anything } else { super::oblige::watch(game, &t, pos) };
        let mover = pos.side;
        let king = pos.royal[mover as usize];
        // The attacks on the mover's royal piece in the frame of the end of
        // a ply that obliges nothing ([`Self::quiet_ply_end`]): a move of
        // another piece that changes no cell but its two is judged by them.
        let lines = if reference { None } else { self.quiet_ply_end(pos, &t, &mut pos.clone()).2 };
        let moves = self.offered_moves(pos, &t);
        // Room for every successor at once (a position is over a kilobyte:
        // growing the list from empty copied them again and again).
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            if watch.may_fire(&m, mover, &t) {
                let next = self.apply(pos, &Action::Move(m));
                if self.completable_as(&next, reference) {
                    out.push((Action::Move(m), next));
                }
            } else {
                // No rule can oblige after it: the move and the end of its ply.
                let by_lines = lines.as_ref().filter(|_| m.from != king && movegen::changes_two_cells(&m)).map(|l| l.safe_after(m.from, m.to));
                if by_lines == Some(false) {
                    continue;
                }
                let mut next = pos.clone();
                next.make(&m, game, &t);
                self.end_of_ply(&mut next);
                if by_lines == Some(true) || !movegen::royal_attacked(game, &self.tables_for(&next), &next, mover) {
                    out.push((Action::Move(m), next));
                }
            }
        }
        out
    }

    /// The actions an obligation of `kind` offers `player` before the
    /// whole-ply test: every such action by the piece-movement rules (a move
    /// must not leave the player's own royal piece attacked).
    pub(in crate::flow) fn obligation_candidates(&self, pos: &Position, head: &Obligation) -> Vec<Action> {
        let (player, kind, compulsory) = (head.player, head.kind, head.compulsory);
        let t = self.tables_for(pos);
        let mut out: Vec<Action> = match kind {
            ActionKind::Move => {
                let mut view = pos.clone();
                view.side = player;
                view.flow = None;
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

    /// Does an obligation offer its player an action other than a waiver?
    /// (One that does not is dropped when it comes due.)
    fn has_choice(&self, pos: &Position, head: &Obligation) -> bool {
        let t = self.tables_for(pos);
        match head.kind {
            ActionKind::Relocate => !super::oblige::relocations_limited(&self.game, &t, pos, head, 1).is_empty(),
            ActionKind::Activate => frame::any_activation(&self.game, pos),
            ActionKind::Exile => !super::oblige::exiles(&self.game, &t, pos, head).is_empty(),
            ActionKind::Return => !super::out_of_play::returns(&self.game, pos, head.player).is_empty(),
            ActionKind::Move => self.obligation_candidates(pos, head).iter().any(|a| *a != Action::Pass),
        }
    }

    /// Is `pos` inside a ply (something is owed) with the ply's mover's royal
    /// piece attacked? A decision that leads to such a node is illegal: every decision
    /// of a ply, not only its last, must leave the mover's royal piece not
    /// attacked (LANGUAGE §3.20; ruling "intermediate-check" of
    /// rules/4d-schach.rules), so that a ply cannot escape a check through
    /// the decisions it obliges. Mid-ply the test is in the frame of the
    /// moment; the ply's end is judged after its jumps ([`Self::completable`]).
    pub(crate) fn dead_mid_ply(&self, pos: &Position) -> bool {
        in_ply(pos) && movegen::royal_attacked(&self.game, &self.tables_for(pos), pos, pos.side ^ 1)
    }

    /// Can the ply in `pos` be completed with its mover's royal piece not
    /// attacked after each decision ([`Self::dead_mid_ply`]) and at its end,
    /// after the jumps? (At a ply's end: is it not attacked now?)
    ///
    /// Rules can oblige without end (the checker reports such a rule,
    /// C0234), so the search is bounded: a way of completing the ply that
    /// comes back to a state it passed through is not followed (it is the
    /// same ply again), nor one longer than [`PLY_DECISIONS`] decisions, and
    /// the search gives up (the ply is taken as not completable) after
    /// [`PLY_STATES`] states. No ply of a shipped variant comes near either.
    pub(crate) fn completable(&self, pos: &Position) -> bool {
        self.completable_as(pos, false)
    }

    /// [`Self::completable`]; with `reference`, by the definition alone
    /// (every decision made, no pre-filter), as
    /// [`Variant::successors_reference`] judges.
    fn completable_as(&self, pos: &Position, reference: bool) -> bool {
        let mut search = Completion { path: Vec::new(), failed: std::collections::HashSet::new(), states: 0, reference };
        self.completable_from(pos, &mut search)
    }

    /// [`Self::completable`] within `search`.
    fn completable_from(&self, pos: &Position, search: &mut Completion) -> bool {
        let Some(head) = pos.flow.as_ref().and_then(|f| f.queue.first()) else {
            return !movegen::royal_attacked(&self.game, &self.tables_for(pos), pos, pos.side ^ 1);
        };
        if self.dead_mid_ply(pos) {
            return false;
        }
        let key = pos.key(&self.tables_for(pos));
        search.states += 1;
        if search.path.len() >= PLY_DECISIONS || search.states > PLY_STATES || search.path.contains(&key) || search.failed.contains(&key) {
            return false;
        }
        search.path.push(key);
        // Some decision completes the ply (depth first, stopping at the
        // first; a waiver first, as it makes the least to test).
        let runs = crate::engine::cond::RunMemo::default();
        let t = self.tables_for(pos);
        let mut next = pos.clone();
        // After the first activation tried (most often the ply's first one
        // completes it), an activation that ends the ply with no rule firing
        // is judged without being made ([`Self::activation_ends_ply`], on a
        // copy of the node; the frames' watch worked out then).
        let mut tried = 0;
        let mut quiet = None;
        let done = (!head.compulsory && self.completable_from(&self.apply(pos, &Action::Pass), search))
            || self.obligation_candidates(pos, head).into_iter().filter(|a| *a != Action::Pass).any(|a| {
                if let Action::Activate { level, rows } = a {
                    tried += 1;
                    if tried == 2 && !search.reference {
                        quiet = self.quiet_activations(pos);
                    }
                    if let Some(legal) = self.ends_quietly(&mut quiet, level, rows) {
                        return legal;
                    }
                }
                self.apply_keeping_runs(pos, &t, &a, &mut next, &runs);
                self.completable_from(&next, search)
            });
        search.path.pop();
        if !done {
            search.failed.insert(key);
        }
        done
    }

    /// The actions the obligation at the head of `pos`'s queue offers before
    /// the whole-ply test (every action the piece-movement rules allow, and
    /// a waiver when it is not compulsory); empty when nothing is owed. For
    /// the checker, which follows chains of obligations without assuming
    /// that they end.
    pub fn candidates(&self, pos: &Position) -> Vec<Action> {
        pos.flow.as_ref().and_then(|f| f.queue.first()).map_or_else(Vec::new, |head| self.obligation_candidates(pos, head))
    }

    /// The position after `action` (which must be one of [`Variant::actions`]):
    /// the decision made, then, when the ply is complete, the end-of-ply work.
    pub fn apply(&self, pos: &Position, action: &Action) -> Position {
        self.apply_inner(pos, action, None, None)
    }

    /// [`Variant::apply`] made onto `next`, any position of the game, made a
    /// copy of `pos` first ([`Position::copy_from`]: one position serves
    /// every decision from `pos`; `t` are `pos`'s tables), with the runs of pieces that the rules
    /// look for after an activation kept in `runs` for the next action from
    /// `pos`: an activation changes the frame only, so the runs that do not
    /// depend on it are the same for all of them. Other actions ignore `runs`.
    pub(in crate::flow) fn apply_keeping_runs(&self, pos: &Position, t: &Tables, action: &Action, next: &mut Position, runs: &crate::engine::cond::RunMemo) {
        next.copy_from(pos, t);
        if !matches!(action, Action::Activate { .. }) {
            return self.apply_onto(pos, t, action, next, None, None);
        }
        self.apply_onto(pos, t, action, next, None, Some(runs));
        runs.forget_frame(&self.game);
    }

    /// Where `pos` owes one activation and nothing after it, the watch of
    /// the frames it may make ([`super::oblige::watch_frames`]); `None`
    /// where it owes anything else or the watch cannot tell.
    pub(super) fn last_activation_watch(&self, pos: &Position) -> Option<FrameWatch> {
        let flow = pos.flow.as_deref()?;
        match flow.queue.as_slice() {
            [only] if only.kind == ActionKind::Activate => Some(super::oblige::watch_frames(&self.game, &self.tables_for(pos), pos)).filter(|w| *w != FrameWatch::Anything),
            _ => None,
        }
    }

    /// What judges the activations of `pos` without making them, where it
    /// owes one activation and nothing after it and the frames' watch can
    /// tell ([`Self::last_activation_watch`]): see [`Self::ends_quietly`].
    fn quiet_activations(&self, pos: &Position) -> Option<QuietActivations> {
        self.last_activation_watch(pos).map(|watch| QuietActivations { watch, node: pos.clone(), spare: None })
    }

    /// The activation of `level` by `rows` judged with `quiet` (the node's
    /// [`Self::quiet_activations`]) without being made
    /// ([`Self::activation_ends_ply`]): whether the ply it ends is legal;
    /// `None` without `quiet` or where a rule may fire after it.
    fn ends_quietly(&self, quiet: &mut Option<QuietActivations>, level: u8, rows: i8) -> Option<bool> {
        let q = quiet.as_mut()?;
        self.activation_ends_ply(&mut q.node, &q.watch, level, rows, &mut q.spare)
    }

    /// The end of the ply that the activation of `level` by `rows` makes at
    /// `pos`, which owes only it, where no `oblige` rule fires in the frame
    /// it makes ([`Self::activation_ends_ply`] has said so):
    /// [`Variant::apply`]'s position, made without asking the rules.
    pub(super) fn ended_by_activation(&self, pos: &Position, level: u8, rows: i8) -> Position {
        let mut next = pos.clone();
        frame::activate(&self.game, &mut next, level, rows);
        if let Some(flow) = next.flow.as_mut() {
            flow.queue.clear();
        }
        self.end_of_ply(&mut next);
        next
    }

    /// [`Variant::apply`], telling `events` what the flow layer did after
    /// the decision: the rule that fired and the others that held with it,
    /// the obligations dropped, the end of the ply ([`FlowEvent`]).
    pub fn apply_traced(&self, pos: &Position, action: &Action, events: &mut Vec<FlowEvent>) -> Position {
        self.apply_inner(pos, action, Some(events), None)
    }

    /// The decision, then what it leads to ([`Self::owe_or_end`]); `runs`:
    /// runs of pieces already found on the board after it (see
    /// [`Self::apply_keeping_runs`]).
    fn apply_inner(&self, pos: &Position, action: &Action, events: Option<&mut Vec<FlowEvent>>, runs: Option<&crate::engine::cond::RunMemo>) -> Position {
        let mut next = pos.clone();
        self.apply_onto(pos, &self.tables_for(pos), action, &mut next, events, runs);
        next
    }

    /// [`Self::apply_inner`] onto `next`, which equals `pos` (`t` its tables).
    fn apply_onto(&self, pos: &Position, t: &Tables, action: &Action, next: &mut Position, events: Option<&mut Vec<FlowEvent>>, runs: Option<&crate::engine::cond::RunMemo>) {
        let head = pos.flow.as_ref().and_then(|f| f.queue.first().copied());
        match (action, head) {
            (Action::Move(m), None) => {
                let us = pos.side;
                next.make(m, &self.game, t);
                if let Some(ph) = self.game.phases.get(phase::current(&self.game, pos)) {
                    phase::castling_rights(&self.game, &ph.placement, next, m, us);
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
                frame::activate(&self.game, next, *level, *rows);
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
                let anchor = match (level, frame::offsets_of(next)) {
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
        self.owe_or_end(next, events, runs);
    }

    /// After a decision: drops the obligations at the head of the queue that
    /// can no longer be met; when nothing is owed, queues what the first
    /// `oblige` rule that holds asks ([`super::oblige`]) and, when none
    /// holds, does the end-of-ply work.
    /// `runs`: runs of pieces already found on `next`'s board (the rules'
    /// `line` tests), or `None`.
    fn owe_or_end(&self, next: &mut Position, mut events: Option<&mut Vec<FlowEvent>>, runs: Option<&crate::engine::cond::RunMemo>) {
        let obliging = super::oblige::any(&self.game);
        loop {
            if obliging {
                while let Some(head) = next.flow.as_ref().and_then(|f| f.queue.first().copied()) {
                    if self.has_choice(next, &head) {
                        break;
                    }
                    // Dropped, and (as a waiver) not asked of this player again in the ply.
                    if let Some(ev) = events.as_deref_mut() {
                        ev.push(FlowEvent::Dropped(head));
                    }
                    if let Some(f) = next.flow.as_mut() {
                        f.queue.remove(0);
                        if let Some((rule, _)) = head.source {
                            if !f.waived.contains(&(rule, head.player)) {
                                f.waived.push((rule, head.player));
                            }
                        }
                    }
                }
            }
            if in_ply(next) {
                return;
            }
            if !obliging {
                break;
            }
            let t = self.tables_for(next);
            let fresh = crate::engine::cond::RunMemo::default();
            let Some((rule, subject, owed)) = super::oblige::fired_with(&self.game, &t, next, runs.unwrap_or(&fresh)) else { break };
            if let Some(ev) = events.as_deref_mut() {
                let also = super::oblige::holding_all(&self.game, &t, next).into_iter().filter(|&h| h != (rule, subject)).collect();
                ev.push(FlowEvent::Fired { rule, subject, also });
            }
            drop(t);
            next.flow.get_or_insert_with(|| Box::new(Flow { phase: self.game.phases.len() as u8, ..Flow::default() })).queue = owed;
        }
        self.end_of_ply(next);
        if let Some(ev) = events {
            ev.push(FlowEvent::PlyEnd);
        }
    }

    /// The work at the end of a complete ply: swinging levels move
    /// (`slide`), the phase moves on when it is over (repeatedly), and the
    /// flow state is dropped when it holds nothing (play, no obligation).
    /// Rule-defined triggers at the end of a ply (`rule … on ply-end`) belong
    /// here, after the swing.
    pub(super) fn end_of_ply(&self, pos: &mut Position) {
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

/// For tests: along `lines` random lines of play of up to `plies`
/// complete plies from `start` (line `i` drawn from seed `i`), `look`
/// sees every position one decision into a ply that owes a relocation
/// next.
#[cfg(test)]
pub(crate) fn relocations_along_random_lines(v: &Variant, start: &Position, lines: u64, plies: usize, mut look: impl FnMut(&Position)) {
    for seed in 1..=lines {
        let mut below = below_from(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut pos = start.clone();
        for _ in 0..plies {
            for (_, next) in v.successors(&pos) {
                if next.flow.as_ref().and_then(|f| f.queue.first()).is_some_and(|h| h.kind == ActionKind::Relocate) {
                    look(&next);
                }
            }
            let Some(next) = random_complete_ply(v, &pos, &mut below) else { break };
            pos = next;
        }
    }
}

/// For tests: draws below a bound (`below(n)` is in `0..n`, 0 for 0) from
/// a xorshift generator started at `state` (not 0).
#[cfg(test)]
pub(crate) fn below_from(mut state: u64) -> impl FnMut(usize) -> usize {
    move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    }
}

/// For tests: the position after one complete ply from `pos` (a node
/// between plies), each decision drawn by `below(n)` among the `n` there
/// are; `None` where a node of the ply has no decision.
#[cfg(test)]
pub(crate) fn random_complete_ply(v: &Variant, pos: &Position, below: &mut impl FnMut(usize) -> usize) -> Option<Position> {
    let ends = v.successors(pos);
    let (_, mut next) = ends.get(below(ends.len()))?.clone();
    while in_ply(&next) {
        let more = v.successors(&next);
        next = more.get(below(more.len()))?.1.clone();
    }
    Some(next)
}
