//! Counting the complete plies from a decision node without keeping the
//! positions they end in: what perft needs one complete ply above its
//! leaves, where [`Variant::successors`] would copy out a position per
//! decision only for it to be counted and dropped.
//!
//! The count is the definition's ([`super::perft::count_plies`]): every
//! legal decision, followed through the obligations it leads to, each
//! complete ply's end counted once. Four things make it cheaper than
//! listing the successors:
//!
//! - a decision whose ply ends with it is counted, not kept;
//! - the activations an obligation offers change the frame only, so the
//!   runs of pieces the rules look for after them along the axes that stay
//!   in a level are found once for all of them ([`crate::engine::cond::RunMemo`]);
//! - at a node between plies, a move after which no rule can oblige
//!   ([`super::oblige::watch`]) ends its ply in the same way whatever the
//!   move: the levels jump ([`crate::engine::frame::tick`]) and the flow
//!   state's bookkeeping moves on, neither of which reads the board. So
//!   that end is worked out once per node, and each such move is only made
//!   on one reused copy of the node and judged in the end's frame (its
//!   mover's royal piece not attacked there, ruling "check-after-jump" of
//!   rules/4d-schach.rules);
//! - an activation that is the last thing a ply owes, and after which no
//!   rule can fire ([`super::oblige::watch_frames`]: only a run up the
//!   stacking axis can change), ends its ply without being made: the frame
//!   is set on the node itself and the mover's royal piece tested in the
//!   frame of the ply's end;
//! - the activations after a relocation are judged for all its targets at
//!   once ([`placed`]): the positions differ only by the relocated piece;
//! - at a node of a placement phase, the placements are found as a set of
//!   cells ([`placing`]) and those after which no rule can oblige counted
//!   together.

pub(super) mod placed;
mod placing;

use super::oblige::{FrameWatch, WatchMemo};
use super::ply::{in_ply, Node};
use super::state::ActionKind;
use super::Action;
use crate::engine::frame::{self, Frame, LevelState};
use crate::engine::movegen;
use crate::engine::position::Position;
use crate::engine::variant::Variant;

impl Variant {
    /// The number of complete plies from `pos`, a position between plies or
    /// inside one ([`super::perft::count_plies`]), each one's end counted once.
    pub fn count_complete(&self, pos: &Position) -> u64 {
        self.count_complete_with(pos, None)
    }

    /// [`Self::count_complete`], with the oblige watch of a node between
    /// plies kept in `memo` from one call to the next (perft's depth-1
    /// nodes: siblings mostly read the same, [`WatchMemo`]).
    pub fn count_complete_with(&self, pos: &Position, memo: Option<&mut WatchMemo>) -> u64 {
        if let Some(head) = pos.flow.as_ref().and_then(|f| f.queue.first()).copied() {
            // Owed: each action judged on the whole ply, as `successors` does.
            // Activations change the frame only: the runs of pieces that the
            // rules look for after them, along the axes that stay in a level,
            // are found once for all of them.
            // Each action is made onto one copy of the node; the positions
            // after it that owe an activation next are counted together.
            let runs = crate::engine::cond::RunMemo::default();
            let t = self.tables_for(pos);
            let mut next = pos.clone();
            let mut n = 0;
            let candidates = self.obligation_candidates(pos, &head);
            // The positions after an action that owe an activation next, in
            // order: while they are all a relocation's targets that differ
            // only by where the piece stands ([`placed::differs_only_by_placed`]),
            // the first one and each one's action and cell (the others are
            // made again only where followed); else each one.
            let mut first: Option<Position> = None;
            let mut relocated: Vec<(Action, crate::model::geometry::Cell)> = Vec::new();
            let mut activating = Vec::new();
            let mut placed = Vec::new();
            // Per origin of a relocation: the attacks on the mover's royal
            // piece with the piece lifted, as the cells that block them all.
            let mut shields = None;
            for a in candidates {
                self.apply_keeping_runs(pos, &t, &a, &mut next, &runs);
                if !owes_activation(&next) {
                    n += self.plies_through(&next);
                    continue;
                }
                let dead = match a {
                    Action::Relocate { from, to } => self.relocation_unsafe(pos, &t, &next, from, to, &mut shields),
                    _ => None,
                };
                if dead.unwrap_or_else(|| self.dead_mid_ply(&next)) {
                    continue;
                }
                let to = match a {
                    Action::Relocate { to, .. } => Some(to),
                    _ => None,
                };
                if activating.is_empty() {
                    match (to, &first, relocated.first()) {
                        (Some(to), None, _) => {
                            first = Some(next.clone());
                            relocated.push((a, to));
                            continue;
                        }
                        (Some(to), Some(f), Some(&(_, at))) if placed::differs_only_by_placed(f, at, &next, to) => {
                            relocated.push((a, to));
                            continue;
                        }
                        // Not all alike: the nodes kept so far made again.
                        _ => (activating, placed) = self.relocated_again(pos, &t, &relocated, &runs),
                    }
                }
                activating.push(next.clone());
                placed.push(to);
            }
            if activating.is_empty() {
                let Some(first) = first else { return n };
                let cells: Vec<_> = relocated.iter().map(|&(_, c)| c).collect();
                let remake = |i: usize, out: &mut Position| {
                    if let Some((b, _)) = relocated.get(i) {
                        self.apply_keeping_runs(pos, &t, b, out, &runs);
                    }
                };
                if let Some(k) = self.count_placed_from(&first, &cells, remake) {
                    return n + k;
                }
                (activating, placed) = self.relocated_again(pos, &t, &relocated, &runs);
            }
            return n + self.count_activations(&mut activating, &placed);
        }
        match self.node(pos) {
            Node::Judged => return self.count_judged(pos, memo),
            Node::Placing(phase) => {
                if let Some(n) = self.count_placing(pos, phase) {
                    return n;
                }
            }
            Node::Owed | Node::Plain => {}
        }
        if pos.flow.is_none() && !super::oblige::any(&self.game) {
            // Plain play: each legal move is a complete ply.
            return self.actions(pos).len() as u64;
        }
        // A phase's decisions: each applied when a rule may oblige after it
        // (a placement may); one after which none can ([`super::oblige::watch`])
        // ends its ply, and is counted without being made.
        let t = self.tables_for(pos);
        let watch = super::oblige::watch(&self.game, &t, pos);
        self.actions(pos)
            .into_iter()
            .map(|a| {
                if let Action::Move(m) = &a {
                    if !watch.may_fire(m, pos.side, &t) {
                        return 1;
                    }
                }
                let next = self.apply(pos, &a);
                if in_ply(&next) {
                    self.count_complete(&next)
                } else {
                    1
                }
            })
            .sum()
    }

    /// The positions after the relocations `relocated` (each action with
    /// its target cell) made on `pos` (`t` its tables, `runs` the memo of
    /// the runs found after its actions), with their targets: what
    /// [`Self::count_activations`] takes where they are not judged as one
    /// piece placed on each target.
    fn relocated_again(&self, pos: &Position, t: &crate::engine::tables::Tables, relocated: &[(Action, crate::model::geometry::Cell)], runs: &crate::engine::cond::RunMemo) -> (Vec<Position>, Vec<Option<crate::model::geometry::Cell>>) {
        let mut next = pos.clone();
        let mut nodes = Vec::with_capacity(relocated.len());
        for (a, _) in relocated {
            self.apply_keeping_runs(pos, t, a, &mut next, runs);
            nodes.push(next.clone());
        }
        (nodes, relocated.iter().map(|&(_, cell)| Some(cell)).collect())
    }

    /// The complete plies through `next`, the position after a decision:
    /// its own end (1) when its ply is over and legal, else the complete
    /// plies that finish it. Inside a ply, the count is the test: it is 0
    /// exactly when no way of completing the ply is legal, so the search
    /// [`Variant::completable`] makes before a decision is offered is not
    /// made again here (it would follow one completion of each ply before
    /// the count follows all of them).
    fn plies_through(&self, next: &Position) -> u64 {
        if !in_ply(next) {
            u64::from(self.completable(next))
        } else if self.dead_mid_ply(next) {
            0
        } else {
            self.count_complete(next)
        }
    }

    /// The sum of [`Self::count_complete`] over `nodes`, positions inside a
    /// ply whose next decision pulls a level ([`ActionKind::Activate`]),
    /// counted frame by frame: the first activation offered at each node,
    /// then the second, and so on. An activation changes the frame only,
    /// and every node below one decision (a relocation's targets, say)
    /// offers the same ones, so the consecutive plies are judged with one
    /// frame's tables: a 4D-Schach frame's tables take about a megabyte, and
    /// going through a node's activations one node after another (98
    /// frames) would fetch them from memory at every ply.
    ///
    /// At a node that owes nothing else, an activation after which no rule
    /// can fire ([`super::oblige::watch_frames`], worked out once per node)
    /// ends the ply and is judged without being made
    /// ([`Self::activation_ends_ply`]). Each node is left as it was.
    ///
    /// `placed[i]`: the cell a relocation put a piece on to make node `i`;
    /// nodes that differ only by that piece are judged together
    /// ([`placed`]).
    fn count_activations(&self, nodes: &mut [Position], placed: &[Option<crate::model::geometry::Cell>]) -> u64 {
        if let Some(n) = placed.iter().copied().collect::<Option<Vec<_>>>().and_then(|cells| self.count_placed_activations(nodes, &cells)) {
            return n;
        }
        let offered = self.offers(nodes);
        let Some(widest) = offered.iter().map(|(a, _, _)| a.len()).max() else { return 0 };
        let Some(first) = nodes.first() else { return 0 };
        let mut next = first.clone();
        let mut spare = None;
        let mut n = 0;
        for i in 0..widest {
            for (pos, (actions, runs, watch)) in nodes.iter_mut().zip(&offered) {
                let Some(a) = actions.get(i) else { continue };
                if let (Some(watch), Action::Activate { level, rows }) = (watch, a) {
                    if let Some(legal) = self.activation_ends_ply(pos, watch, *level, *rows, &mut spare) {
                        n += u64::from(legal);
                        continue;
                    }
                }
                let t = self.tables_for(pos);
                self.apply_keeping_runs(pos, &t, a, &mut next, runs);
                n += self.plies_through(&next);
            }
        }
        n
    }

    /// What [`Self::count_activations`] works out per node before counting
    /// ([`Offer`]): the actions offered, a memo of runs for them,
    /// and the frame watch where the node owes only an activation.
    ///
    /// The activations offered depend on the frame and the obligation owed
    /// only ([`frame::activations`]): a node with the same frame and flow
    /// state as the one before it shares its list (a relocation's targets
    /// all do).
    fn offers(&self, nodes: &[Position]) -> Vec<Offer> {
        let mut out: Vec<Offer> = Vec::with_capacity(nodes.len());
        for (i, p) in nodes.iter().enumerate() {
            let watch = self.last_activation_watch(p);
            let shared = i.checked_sub(1).filter(|_| owes_activation(p)).and_then(|j| {
                let before = &nodes[j];
                (before.flow == p.flow && before.frame == p.frame).then(|| std::rc::Rc::clone(&out[j].0))
            });
            let actions = shared.unwrap_or_else(|| std::rc::Rc::new(self.candidates(p)));
            out.push((actions, crate::engine::cond::RunMemo::default(), watch));
        }
        out
    }

    /// The activation of `level` by `rows` at `pos`, which owes only it,
    /// judged without making it when `watch` shows that no rule fires in
    /// the frame it makes: the ply then ends with it, and is legal when the
    /// mover's royal piece is not attacked after the jumps at its end (as
    /// [`Self::completable`] judges the end of a ply; the board is `pos`'s).
    /// `None` when a rule may fire (the activation must be made and
    /// followed). `pos` is left as it was; `spare` holds a frame's storage
    /// from one call to the next.
    pub(super) fn activation_ends_ply(&self, pos: &mut Position, watch: &FrameWatch, level: u8, rows: i8, spare: &mut Option<Box<Frame>>) -> Option<bool> {
        let game = &self.game;
        // The node's frame copied into the spare storage, then swapped in.
        match (spare.as_mut(), pos.frame.as_ref()) {
            (Some(s), Some(f)) => s.clone_from(f),
            (Some(s), None) => s.levels.iter_mut().for_each(|l| *l = LevelState::default()),
            (None, f) => *spare = f.cloned(),
        }
        std::mem::swap(&mut pos.frame, spare);
        let verdict = if frame::activate(game, pos, level, rows) {
            let t = self.tables_for(pos);
            if watch.may_fire(&t) {
                None
            } else {
                // The jumps at the ply's end; the tables stay when no level moves.
                let keeps = frame::tick_keeps_offsets(pos);
                frame::tick(game, pos);
                let t = if keeps { t } else { self.tables_for(pos) };
                Some(!movegen::royal_attacked(game, &t, pos, pos.side ^ 1))
            }
        } else {
            None
        };
        std::mem::swap(&mut pos.frame, spare);
        verdict
    }

    /// [`Self::dead_mid_ply`] of `next`, `pos` with its piece on `from`
    /// relocated to `to` (nothing else changed), judged without testing
    /// `next`'s attacks: the relocated piece, the mover's (not royal), only
    /// blocks attacks on the mover's royal piece, so the attacks are those
    /// of the board with it lifted, blocked where it lands
    /// ([`movegen::Shield`], worked out once per origin and kept in
    /// `shields`). `None` where that does not apply (the caller tests).
    pub(super) fn relocation_unsafe(&self, pos: &Position, t: &crate::engine::tables::Tables, next: &Position, from: crate::model::geometry::Cell, to: crate::model::geometry::Cell, shields: &mut Option<(crate::model::geometry::Cell, Option<movegen::Shield>)>) -> Option<bool> {
        let mover = next.side ^ 1;
        let piece = pos.board.get(from as usize).copied()?;
        let plain = self.game.explosion.is_none() && pos.spread.is_none() && !pos.any_hidden() && next.side == pos.side && pos.royal_count[mover as usize] == 1;
        if !plain || piece == 0 || crate::engine::position::color_of(piece) != mover || t.royal_mask >> crate::engine::position::kind_of(piece) & 1 != 0 || pos.board.get(to as usize) != Some(&0) || next.board.get(to as usize) != Some(&piece) {
            return None;
        }
        if shields.as_ref().is_none_or(|(cell, _)| *cell != from) {
            let mut lifted = pos.clone();
            lifted.take(from, t);
            let shield = movegen::attack_lines(t, &lifted, pos.royal[mover as usize], next.side).map(|l| l.shield());
            *shields = Some((from, shield));
        }
        let (_, shield) = shields.as_ref()?;
        shield.as_ref().map(|s| !s.keeps(to))
    }

    /// [`Self::count_complete`] at a node between plies in play where a
    /// move's ply may not end with it or its end moves a level (the moves
    /// `judged` lists).
    ///
    /// Where the mover's royal piece is judged by its attack lines in the
    /// frame of the ply's end and the moves are plain
    /// ([`Self::counted_in_bulk`]), a piece none of whose moves may make a
    /// rule fire ([`super::oblige::Watch::may_fire_from`]) and every one of
    /// whose moves the `offer` rules allow
    /// ([`crate::engine::cond::Offered::allows_every_move_of`]) has its
    /// moves counted, not listed: those landing where the lines stay clear
    /// ([`movegen::AttackLines::safe_targets`]). The royal piece's steps
    /// are judged together in the end's frame. The moves of the pieces
    /// that may make a rule fire, promote, take en passant, reach a cell
    /// twice or meet an `offer` rule are listed and judged one by one, as
    /// everywhere else; the `offer` rules are asked last, of the moves the
    /// rest of the judgement keeps (in check, few).
    ///
    /// Consecutive nodes mostly differ by a few cells (a move of the other
    /// side, or where a relocated piece stands), so what a node works out
    /// is kept for the next on the same thread where it still holds: the
    /// `forbid` conditions' watch and its answers (in `memo`,
    /// [`super::oblige::CondsMemo`]), each piece's count or list of moves
    /// ([`movegen::KeptMoves`]: walked again only where a cell it
    /// depends on changed) and the attacks on the royal piece's landings
    /// ([`movegen::RoyalZone`]: found again only where a cell their walk
    /// read changed, or a piece that may reach them came).
    fn count_judged(&self, pos: &Position, memo: Option<&mut WatchMemo>) -> u64 {
        let game = &self.game;
        let t = self.tables_for(pos);
        if !game.rules.is_empty() && crate::engine::cond::decided(game, &t, pos).is_some() {
            return 0;
        }
        let fresh;
        let (watch, fires, conds_memo) = match memo {
            Some(memo) => {
                let (watch, fires, conds) = memo.kept_with_conds(game, &t, pos);
                (watch, Some(fires), Some(conds))
            }
            None => {
                fresh = super::oblige::watch(game, &t, pos);
                (&fresh, None, None)
            }
        };
        let mover = pos.side;
        // May a rule fire after `m`? (From the memo's answers where there is one.)
        let may_fire = |m: &crate::engine::position::Move| fires.as_ref().map_or_else(|| watch.may_fire(m, mover, &t), |f| f.may_fire(m, mover, &t));
        let king = pos.royal[mover as usize];
        let mut scratch = pos.clone();
        let (t_end, mut end_frame, lines) = self.quiet_ply_end(pos, &t, &mut scratch);
        let mut n = 0;
        let plain = lines.is_some() && self.counted_in_bulk(&t, pos);
        let mut offered = (plain && !game.rules.is_empty()).then(|| crate::engine::cond::Offered::new(game, &t, pos));
        let bulk = lines.as_ref().filter(|_| plain && offered.as_ref().is_none_or(|o| !o.compel));
        // Where `forbid` rules apply to moves listed in bulk, the watch of
        // their conditions ([`super::oblige::watch_conds`]): a piece none of
        // whose moves may make one hold has none forbidden, and a move
        // listed that cannot make one hold is not made to judge them.
        // Kept from the last node where there is a memo ([`super::oblige::CondsMemo`]).
        let fresh_conds;
        let forbidding = match (bulk.and(offered.as_ref()).filter(|o| !o.forbid_conds().is_empty()), conds_memo) {
            (Some(o), Some(memo)) => Some(memo.kept(game, &t, pos, o.forbid_conds(), o.runs())),
            (Some(o), None) => {
                fresh_conds = super::oblige::watch_conds(game, &t, pos, o.forbid_conds(), o.runs());
                Some(super::oblige::FiresFrom::unkept(&fresh_conds))
            }
            (None, _) => None,
        };
        let listed = match bulk {
            Some(lines) => {
                // Room for a node's listed moves at once (growing from
                // empty reallocated at most nodes).
                let mut listed = Vec::with_capacity(64);
                let mut steps = Vec::with_capacity(32);
                // Every move of the piece of `kind` on `from` passes the `offer` rules.
                let allowed = |from, kind| {
                    offered.as_ref().is_none_or(|o| {
                        o.allows_every_move_of(kind) || (o.only_forbids_for(kind) && forbidding.as_ref().is_some_and(|w| !w.may_fire_from(&t, from, kind, mover)))
                    })
                };
                // The pieces' counts and lists kept from the nodes counted before ([`movegen::KeptMoves`]).
                let mut kept = KEPT_MOVES.take().unwrap_or_default();
                kept.begin(&t, pos);
                for from in pos.cells_of(mover, t.nwords) {
                    let kind = crate::engine::position::kind_of(pos.board[from as usize]);
                    let kc = kind as usize * 2 + mover as usize;
                    let fires = || fires.as_ref().map_or_else(|| watch.may_fire_from(&t, from, kind, mover), |f| f.may_fire_from(&t, from, kind, mover));
                    // Moves that change more than two cells, or a promotion's kind.
                    let special = t.promotes[kc] || (pos.ep_len != 0 && t.takes_ep[kc]);
                    if from == king && !special && allowed(from, kind) {
                        kept.list(&t, pos, from, &mut steps);
                        // The royal piece's steps after which a rule may fire are followed.
                        if fires() {
                            let mut i = 0;
                            while i < steps.len() {
                                if may_fire(&steps[i]) {
                                    listed.push(steps.swap_remove(i));
                                } else {
                                    i += 1;
                                }
                            }
                        }
                    } else if from == king || special || !allowed(from, kind) || t.repeats(kind, mover, from) || fires() {
                        kept.list(&t, pos, from, &mut listed);
                    } else if lines.clear() {
                        n += kept.count(&t, pos, from);
                    } else {
                        n += movegen::count_piece_moves(pos, &t, from, Some(&lines.safe_targets(from)));
                    }
                }
                KEPT_MOVES.set(Some(kept));
                // The royal piece's steps after which no rule fires, judged
                // at once in the frame of the ply's end.
                std::mem::swap(&mut scratch.frame, &mut end_frame);
                let mut zone = ROYAL_ZONE.take().unwrap_or_default();
                zone.keep_safe_steps(&t_end, &scratch, &mut steps, 0);
                ROYAL_ZONE.set(Some(zone));
                std::mem::swap(&mut scratch.frame, &mut end_frame);
                n += steps.len() as u64;
                if game.castling.is_some() && !movegen::in_check(game, &t, pos) {
                    movegen::castling_moves(game, &t, pos, &mut listed);
                }
                listed
            }
            None => {
                // A move the attack lines show illegal, after which no rule
                // can oblige, counts nothing: the `offer` rules need not
                // judge it (they judge what `keep` keeps; in check that is
                // few moves). The watch is asked only of the moves the lines
                // show illegal, so that a move kept is not asked twice.
                let keep = |m: &crate::engine::position::Move| {
                    lines.as_ref().is_none_or(|lines| m.from == king || !movegen::changes_two_cells(m) || lines.safe_after(m.from, m.to) || may_fire(m))
                };
                offered = None;
                self.offered_moves_where(pos, &t, None, keep)
            }
        };
        // The moves listed in bulk pass the `offer` rules one by one, each
        // asked only once the rest of its judgement keeps it (the moves
        // listed otherwise have passed them).
        let mut barring = offered.filter(|o| !o.allows_every_move());
        let mut allows = |m: &crate::engine::position::Move| {
            barring.as_mut().is_none_or(|o| match &forbidding {
                Some(w) if !w.may_fire(m, mover, &t) => o.allows_unforbidden(m),
                _ => o.allows(m),
            })
        };
        // Each move listed judged: followed where a rule may fire, else by
        // the lines, else made in the frame of now and judged in the frame
        // of the ply's end.
        for m in &listed {
            if may_fire(m) {
                if allows(m) {
                    n += self.plies_through(&self.apply(pos, &Action::Move(*m)));
                }
                continue;
            }
            let safe = match lines.as_ref().filter(|_| m.from != king && movegen::changes_two_cells(m)) {
                Some(lines) => lines.safe_after(m.from, m.to),
                None => {
                    scratch.copy_from(pos, &t);
                    scratch.make(m, game, &t);
                    std::mem::swap(&mut scratch.frame, &mut end_frame);
                    let safe = !movegen::royal_attacked(game, &t_end, &scratch, mover);
                    std::mem::swap(&mut scratch.frame, &mut end_frame);
                    safe
                }
            };
            n += u64::from(safe && allows(m));
        }
        n
    }

    /// The end of a ply from `pos` (between plies, `t` its tables) whose
    /// move obliges nothing, worked out once: it does not depend on the
    /// move (see the module documentation). Its frame with that frame's
    /// tables, and the attacks on the mover's royal piece in that frame on
    /// the node's board ([`movegen::AttackLines`], where one royal piece
    /// stands and moves touch only their own pieces): a move of another
    /// piece that changes no cell but its two is judged by them, not made.
    /// `scratch` is a copy of `pos`, left as it was.
    pub(super) fn quiet_ply_end(&self, pos: &Position, t: &crate::engine::tables::Tables, scratch: &mut Position) -> (frame::TablesRef<'_>, Option<Box<Frame>>, Option<movegen::AttackLines>) {
        let mover = pos.side;
        // Of the end of the ply ([`Self::end_of_ply`]) only the levels'
        // jump ([`frame::tick`]) changes what the tables and the lines read
        // (the rest is the flow: what is out of play, the phase): it is
        // made on the copy's frame, which is put back once the lines are found.
        frame::tick(&self.game, scratch);
        let t_end = self.tables_for(scratch);
        let lines = if pos.royal_count[mover as usize] == 1 && crate::engine::cond::moves_touch_only_their_pieces(&self.game, t, pos) {
            movegen::attack_lines(&t_end, scratch, pos.royal[mover as usize], mover ^ 1)
        } else {
            None
        };
        let end_frame = scratch.frame.take();
        scratch.frame.clone_from(&pos.frame);
        (t_end, end_frame, lines)
    }

    /// May [`Self::count_judged`] count the moves at `pos` (`t` its
    /// tables) piece by piece? Its moves are every piece's plain moves and
    /// castling: no layer around them (gating, walls, the pass, promotions
    /// as moves), no drop (the mover's hand is empty), no chance, spread or
    /// face-down piece, no observation. (The `offer` rules are asked per
    /// piece.)
    fn counted_in_bulk(&self, t: &crate::engine::tables::Tables, pos: &Position) -> bool {
        let game = &self.game;
        let plain = !movegen::layered(game, t) && game.observe.is_none() && game.spread.is_none() && game.tunnel.is_none() && !pos.any_hidden() && game.explosion.is_none();
        let no_drops = game.hand.as_ref().is_none_or(|h| h.drop_limits.iter().all(|l| !l.unlimited) && pos.hand[pos.side as usize].iter().all(|&n| n == 0));
        plain && no_drops
    }
}

thread_local! {
    /// The counts and lists of the pieces' moves [`Variant::count_judged`]
    /// found, kept for the next node it counts on the same thread (taken
    /// while one count uses them).
    static KEPT_MOVES: std::cell::Cell<Option<Box<movegen::KeptMoves>>> = const { std::cell::Cell::new(None) };
    /// The attacks on the royal piece's landings [`Variant::count_judged`]
    /// judged in the frame of the ply's end, kept for the next node it
    /// counts on the same thread ([`movegen::RoyalZone`]).
    static ROYAL_ZONE: std::cell::Cell<Option<Box<movegen::RoyalZone>>> = const { std::cell::Cell::new(None) };
}

/// What [`Variant::count_activations`] works out per node before counting:
/// the actions it offers, the runs found after its activations, and its
/// frame watch (where only an activation is owed).
/// Nodes that offer the same actions share one list.
type Offer = (std::rc::Rc<Vec<Action>>, crate::engine::cond::RunMemo, Option<FrameWatch>);

/// Is the next decision of the ply in `pos` pulling a level?
pub(super) fn owes_activation(pos: &Position) -> bool {
    pos.flow.as_ref().and_then(|f| f.queue.first()).is_some_and(|h| h.kind == ActionKind::Activate)
}

#[cfg(test)]
mod tests {
    use super::super::perft::plies_reference;
    use super::super::ply::{below_from, random_complete_ply};
    use super::*;
    use crate::engine::cond::Offered;
    use crate::test_support::{variant, FOUR_D_POST_OPENING as P};

    /// Along random lines from 4D-Schach's post-opening test position with
    /// level IV swinging (and at rest), at every node between plies whose
    /// moves are judged at the end of their ply: the count, where it
    /// counts each piece's moves onto the cells its attack lines in the
    /// end's frame leave safe ([`Variant::count_judged`]), is the number of
    /// complete plies by the definition ([`plies_reference`] one ply deep:
    /// every offered move made, its ply followed and judged at its end).
    /// With and without a memo of the watch, kept along the line.
    #[test]
    fn a_judged_node_counts_as_the_reference() {
        let v = variant("rules/4d-schach.rules");
        let mut judged = 0;
        for (seed, fen) in [(1u64, format!("{P} {{frame=IV:-3<-3*}}")), (2, format!("{P} {{frame=II:+5<+5*}}")), (3, P.to_string())] {
            let mut below = below_from(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let mut pos = v.parse_fen(&fen, "<test>").expect("the test position");
            let mut memo = WatchMemo::default();
            for _ in 0..6 {
                if matches!(v.node(&pos), Node::Judged) {
                    let reference = plies_reference(&v, &pos, 1);
                    assert_eq!(v.count_complete(&pos), reference, "{}", v.fen(&pos));
                    assert_eq!(v.count_complete_with(&pos, Some(&mut memo)), reference, "{}", v.fen(&pos));
                    judged += 1;
                }
                let Some(next) = random_complete_ply(&v, &pos, &mut below) else { break };
                pos = next;
            }
        }
        assert!(judged >= 12, "{judged} judged nodes");
    }

    /// Judged nodes one after another that differ by a few cells, as
    /// perft meets them, from 4D-Schach's post-opening test position with
    /// level IV swinging after VIf1-VIf2 (the benchmark's swinging
    /// position, one ply on: Black to move): its children (siblings), then
    /// the ends of the first ply below them that forms a group (a
    /// relocation's targets, activation by activation). Each is counted
    /// with what is kept from one node to the next (the watches in the
    /// memo, the pieces' moves, the attacks on the royal piece's landings)
    /// and is the number of complete plies by the definition; some of the
    /// pieces' moves and landings' attacks must come from what was kept
    /// (each such answer is also checked against a fresh one in debug
    /// builds). When written: 90 nodes, 1,038 pieces' counts or lists and
    /// 47 landings' attacks from what was kept.
    #[test]
    fn consecutive_judged_nodes_count_as_the_reference_with_what_is_kept() {
        const AFTER_VIF2: &str = "5p2/2P5/8/6p1/8/5P2/4B3/8|4n3/8/8/7q/5P2/8/3R1P2/8|8/8/4p3/3k4/8/8/7R/6N1|8/8/B3P3/8/8/b3p3/8/8|6n1/7r/8/8/3K4/4P3/8/8|5p2/3r4/8/5p2/7Q/8/8/4N3|8/4b3/5p2/8/6P1/8/2p5/5P2[] b - - 0 1 {frame=IV:-3<-3}";
        let v = variant("rules/4d-schach.rules");
        let pos = v.parse_fen(AFTER_VIF2, "<test>").expect("the test position");
        let siblings: Vec<Position> = v.successors(&pos).into_iter().map(|(_, next)| next).filter(|next| !in_ply(next)).collect();
        // The ends of the first ply below a sibling that forms a group.
        let mut ends = Vec::new();
        for next in siblings.iter().flat_map(|s| v.successors(s)).map(|(_, next)| next).filter(in_ply) {
            super::super::perft::ply_ends(&v, &next, &mut ends);
            if !ends.is_empty() {
                break;
            }
        }
        let (moves_before, zone_before) = (movegen::KEPT_MOVES_HITS.with(|h| h.get()), movegen::ROYAL_ZONE_HITS.with(|h| h.get()));
        let mut memo = WatchMemo::default();
        let mut judged = 0;
        for node in siblings.iter().take(30).chain(ends.iter().take(60)) {
            if !matches!(v.node(node), Node::Judged) {
                continue;
            }
            assert_eq!(v.count_complete_with(node, Some(&mut memo)), plies_reference(&v, node, 1), "{}", v.fen(node));
            judged += 1;
        }
        let moves_kept = movegen::KEPT_MOVES_HITS.with(|h| h.get()) - moves_before;
        let zone_kept = movegen::ROYAL_ZONE_HITS.with(|h| h.get()) - zone_before;
        assert!(judged >= 80, "{judged} judged nodes");
        assert!(moves_kept > 100 && zone_kept > 10, "{moves_kept} pieces' moves and {zone_kept} landings' attacks from what was kept");
    }

    /// A judged node where an `offer` rule forbids some moves: 4D-Schach's
    /// "no group while in check" (the position of
    /// `engine::cond::tests::bulk_counts_less_the_forbidden_moves_are_the_listed_ones`:
    /// White's King on a1 of level I checked along rank 1 by the Rook on
    /// e1; the Pawn c2 blocks on c1 but forms a line of 3 with the Pawns on
    /// c1 of levels II and III), with the empty level IV swinging so that
    /// each move is judged at the end of its ply. The King's steps are
    /// counted without listing ([`Offered::allows_every_move_of`]); the
    /// Pawns' moves are listed and each judged by the rule: the count is
    /// the reference's (6). Following the block as if no rule forbade it
    /// counts the relocations and castlings the group would oblige (over a
    /// million plies).
    #[test]
    fn a_judged_node_in_check_leaves_out_the_forbidden_moves() {
        let v = variant("rules/4d-schach.rules");
        let fen = "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/2P5|8/8/8/8/8/8/8/2P5|8/8/8/8/8/8/2P5/K3r3 w - - 0 1 {frame=IV:-3<-3*}";
        let pos = v.parse_fen(fen, "<test>").expect("the test position");
        assert!(matches!(v.node(&pos), Node::Judged));
        let t = v.tables_for(&pos);
        let offered = Offered::new(&v.game, &t, &pos);
        assert!(!offered.allows_every_move(), "the rule applies");
        let pawn = crate::engine::position::kind_of(pos.board[pos.cells_of(0, t.nwords).find(|&c| c != pos.royal[0]).expect("a pawn") as usize]);
        assert!(!offered.allows_every_move_of(pawn) && offered.allows_every_move_of(crate::engine::position::kind_of(pos.board[pos.royal[0] as usize])));
        let reference = plies_reference(&v, &pos, 1);
        assert_eq!(v.count_complete(&pos), reference);
        // Without the rule, the block on c1 is one more legal move.
        let mut plain = Vec::new();
        crate::engine::movegen::legal_moves_plain(&v.game, &t, &pos, &mut plain);
        let mut list = Vec::new();
        crate::engine::movegen::legal_moves(&v.game, &t, &pos, &mut list);
        assert_eq!(plain.len(), list.len() + 1);
    }
}
