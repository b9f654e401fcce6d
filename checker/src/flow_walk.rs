//! A walk of the game by decisions, from the setup: every action of the
//! flow layer (placements, moves, relocations, activations, exiles,
//! returns, waivers), first every line of a few decisions, then seeded
//! random lines as far as the budget goes (a game whose phase places 32
//! pieces has too many lines to reach play any other way).
//!
//! It looks for the places where the rules do not decide, and keeps the
//! first (shortest found) line from the setup to each, as a witness:
//!
//! - rules that hold at the same moment where the order of the file (or
//!   the mover before the other player) decides which acts first
//!   ([`Simultaneous`]; the checker's C0215);
//! - an obligation that came due with nothing to meet it and was dropped
//!   ([`Dropped`]; C0216);
//! - a move after which a rule obliges something that no legal decision
//!   can meet, so that the move is illegal for it ([`Blocked`]; C0217);
//! - a chain of obligations that comes back to a state it passed through,
//!   so that a ply need not end ([`Cycle`]; C0234);
//! - a decision node in a phase before play where the player to decide has
//!   none ([`Stuck`]; C0235);
//!
//! and it measures the longest ply seen (decisions in one ply).

use rulebook_interpreter::flow::ply::in_ply;
use rulebook_interpreter::flow::{Action, FlowEvent, Obligation};
use rulebook_interpreter::text::notation::action::action_coordinate;
use crate::concrete::{move_holds, position_holds};
use rulebook_interpreter::model::cond::{Effect, Trigger};
use rulebook_interpreter::model::{Claim, Color, Outcome};
use rulebook_interpreter::{Position, Status, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;
use std::collections::HashSet;
use std::time::Instant;

/// How far and how long to walk.
#[derive(Clone, Debug)]
pub struct WalkLimits {
    /// Every line of this many decisions from the setup is walked.
    pub exhaustive: u32,
    /// Then random lines of at most this many decisions each.
    pub line_length: u32,
    /// At most this many random lines.
    pub lines: u32,
    /// Most decision nodes to expand (all parts together).
    pub max_nodes: u64,
    /// When to stop.
    pub deadline: Instant,
    /// The random lines' seed (the report names it, so a line can be found again).
    pub seed: u64,
}

/// A line of decisions from the setup, and the position it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The decisions, in coordinate notation (replayable with `rulebook moves --play`).
    pub decisions: Vec<String>,
    /// The position text after them.
    pub position: String,
}

impl Witness {
    /// The witness as a line of the search from the setup (its decisions as
    /// the line's text; no `Move`s, as not every decision is one).
    pub fn line(&self) -> crate::explore::Line {
        crate::explore::Line { moves: Vec::new(), text: self.decisions.clone(), fen: self.position.clone() }
    }
}

/// Two rules (or one rule for both players) that held at the same moment.
#[derive(Clone, Debug)]
pub struct Simultaneous {
    /// The rule that acted (index into `Game::rules`) and its subject.
    pub acted: (usize, Color),
    /// The other rule that held and its subject.
    pub other: (usize, Color),
    /// The line up to and including the decision after which both held.
    pub witness: Witness,
}

/// An obligation dropped when it came due.
#[derive(Clone, Debug)]
pub struct Dropped {
    /// The obligation.
    pub obligation: Obligation,
    /// The line up to and including the decision after which it was dropped.
    pub witness: Witness,
}

/// A move whose ply cannot be completed because of what a rule obliges after it.
#[derive(Clone, Debug)]
pub struct Blocked {
    /// The rule that fired after the move.
    pub rule: usize,
    /// The line to the position the move is made from.
    pub witness: Witness,
    /// The move, which is legal by itself.
    pub mv: String,
}

/// A chain of obligations that came back to a state of its ply.
#[derive(Clone, Debug)]
pub struct Cycle {
    /// The rules that fired along it.
    pub rules: Vec<usize>,
    /// The line to the repeated state: the first decision of the ply and
    /// the chain after it, ending where the state repeats.
    pub witness: Witness,
    /// How many decisions the cycle takes.
    pub length: usize,
}

/// A node of a phase before play with no decision for the player to decide.
#[derive(Clone, Debug)]
pub struct Stuck {
    /// The phase (index into `Game::phases`).
    pub phase: usize,
    /// The player who has no decision.
    pub player: Color,
    /// The line to the node.
    pub witness: Witness,
}

/// A claim broken at a node of the walk.
#[derive(Clone, Debug)]
pub struct Broken {
    /// The line to the position where it fails (for a move claim: the
    /// position the move is made from).
    pub witness: Witness,
    /// The move that breaks a move claim, in coordinate notation.
    pub mv: Option<String>,
}

/// What the walk found.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Per claim given, the first node where it fails.
    pub broken: Vec<Option<Broken>>,
    /// Per pair of rules (first seen first), the first witness.
    pub simultaneous: Vec<Simultaneous>,
    /// Per rule step, the first compulsory obligation dropped.
    pub dropped: Vec<Dropped>,
    /// Per rule, the first move it made illegal.
    pub blocked: Vec<Blocked>,
    /// The first chain that came back to a state.
    pub cycle: Option<Cycle>,
    /// The first node with no decision in a phase.
    pub stuck: Option<Stuck>,
    /// Per player, the first line found after which that player has won
    /// (no decision left between plies, and the status gives the game to it).
    pub wins: [Option<Witness>; 2],
    /// The most decisions in one ply seen, with a line ending with such a ply.
    pub longest_ply: Option<(usize, Witness)>,
    /// Pieces out of play: the nodes with one, and the first node where a
    /// piece is still held against a deadline whose level already rests.
    pub out_of_play: OutOfPlaySeen,
    /// Decision nodes expanded.
    pub nodes: u64,
    /// Every line of this many decisions was walked.
    pub exhaustive_done: u32,
    /// Random lines walked.
    pub lines_done: u32,
    /// Decisions made along the directed lines.
    pub directed_decisions: u64,
    /// Per rule that obliges and that no line of the exhaustive and random
    /// parts saw act: after how many decisions a directed line first saw it
    /// act (`None`: none did), and how many directed lines steered towards it.
    pub directed: Vec<Directed>,
    /// Decisions made along them.
    pub line_decisions: u64,
    /// Why the walk stopped early, if it did.
    pub stopped: Option<String>,
}

/// Lines steered towards a rule that obliges, which the other lines never
/// saw act (its condition rare by chance: a line of four pawns).
#[derive(Clone, Debug)]
pub struct Directed {
    /// The rule (index into `Game::rules`).
    pub rule: usize,
    /// The lines steered towards it (0: it acted along the lines steered
    /// towards an earlier rule).
    pub lines: u32,
    /// After how many decisions of its line it first acted.
    pub reached: Option<usize>,
}

/// What the walk saw of pieces out of play (`exile`): the claim "no piece
/// stays out of play beyond its deadline", checked at every node.
#[derive(Clone, Debug, Default)]
pub struct OutOfPlaySeen {
    /// Nodes with a piece out of play.
    pub nodes: u64,
    /// Nodes with a piece held against a deadline (its level still swings).
    pub held: u64,
    /// The first node where a piece is held against the swing of a level
    /// that rests: its deadline has passed and it is still held.
    pub overdue: Option<Witness>,
}

/// Walks the game of `v` from its setup within `limits`, checking `claims`
/// at every node (position claims) and on every move decided there (move
/// claims).
pub fn walk(v: &Variant, claims: &[Claim], limits: &WalkLimits) -> Walk {
    let out = Walk { broken: vec![None; claims.len()], ..Walk::default() };
    let mut w = Walker { v, claims, limits, out, path: Vec::new(), ply: 0, seen: HashSet::new(), first_acted: vec![None; v.game.rules.len()], reached: None };
    let Ok(start) = v.start() else { return w.out };
    w.run(start);
    w.out
}

/// Most decisions a chain of obligations is followed for (in [`Walker::chains`]).
const CHAIN_NODES: u64 = 400;

/// Directed lines per rule that obliges and that no earlier line saw act.
const DIRECTED_LINES: u32 = 6;

/// Directed lines per rule that ends the game and that no earlier line saw
/// act (a game must go on to such a rule: fewer tries pay).
const DIRECTED_END_LINES: u32 = 3;

/// Decisions a directed line goes on for, at random, after its rule acted
/// (to see what follows: exiles, returns, deadlines passing).
const AFTER_ACTING: u32 = 200;

struct Walker<'a> {
    v: &'a Variant,
    claims: &'a [Claim],
    limits: &'a WalkLimits,
    out: Walk,
    /// The decisions from the setup to the current node.
    path: Vec<Action>,
    /// The decisions of the current ply so far.
    ply: usize,
    /// Positions (by key and remaining depth) already expanded in the exhaustive part.
    seen: HashSet<(u64, u32)>,
    /// Per rule: after how many decisions of its line it first acted
    /// (`None`: never seen to act).
    first_acted: Vec<Option<usize>>,
    /// Where the last directed line's rule first acted (between plies), and the line to it.
    reached: Option<(Position, Vec<Action>)>,
}

impl Walker<'_> {
    fn run(&mut self, start: Position) {
        for d in 1..=self.limits.exhaustive {
            self.seen.clear();
            self.ply = 0;
            if !self.exhaust(&start, d) {
                return;
            }
            self.out.exhaustive_done = d;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.limits.seed);
        for _ in 0..self.limits.lines {
            if !self.random_line(&start, &mut rng) {
                return;
            }
            self.out.lines_done += 1;
        }
        self.directed(&start, &mut rng);
        // Where each rule steered towards first acted, on whichever line.
        for d in &mut self.out.directed {
            d.reached = self.first_acted[d.rule];
        }
    }

    /// Notes that `rule` acted at the current node (the first time counts).
    fn note_acted(&mut self, rule: usize) {
        let decisions = self.path.len();
        if let Some(first) = self.first_acted.get_mut(rule) {
            first.get_or_insert(decisions);
        }
    }

    fn acted(&self, rule: usize) -> bool {
        self.first_acted.get(rule).is_some_and(Option::is_some)
    }

    /// The rules that oblige or end the game and were never seen to act:
    /// lines steered towards the positions where their condition holds.
    fn directed(&mut self, start: &Position, rng: &mut ChaCha8Rng) {
        let game = &self.v.game;
        // Those that oblige first, in file order (what one makes possible,
        // such as pieces out of play, the next may need), then those that
        // end the game (a game goes on to them).
        let unseen = |r: &usize| !self.acted(*r) && game.rules[*r].trigger == Trigger::PlyEnd && game.rules[*r].guard.is_some();
        let targets: Vec<usize> = (0..game.rules.len())
            .filter(unseen)
            .filter(|&r| matches!(game.rules[r].effect, Effect::Oblige(_)))
            .chain((0..game.rules.len()).filter(unseen).filter(|&r| matches!(game.rules[r].effect, Effect::End { .. })))
            .collect();
        // A rule whose condition gives no way to steer (a piece out of play
        // can return) is steered towards from where the rule before it
        // acted: what one rule makes possible, the next may need.
        let mut from: (Position, Vec<Action>) = (start.clone(), Vec::new());
        for rule in targets {
            self.out.directed.push(Directed { rule, lines: 0, reached: None });
            if self.acted(rule) {
                continue; // it acted along the lines steered towards an earlier rule
            }
            let tries = if matches!(game.rules[rule].effect, Effect::End { .. }) { DIRECTED_END_LINES } else { DIRECTED_LINES };
            for _ in 0..tries {
                let go = self.directed_line(&from, rule, rng);
                if let Some(d) = self.out.directed.last_mut() {
                    d.lines += 1;
                }
                if !go {
                    return;
                }
                if let Some(reached) = self.reached.take() {
                    from = reached;
                    break;
                }
            }
        }
    }

    /// How far the condition of `rule` is from holding after `pos` (the
    /// least over the players it is judged for), with the player to decide
    /// at `at` as the mover.
    fn shortfall(&self, rule: usize, at: &Position, pos: &Position) -> u32 {
        let v = self.v;
        rulebook_interpreter::engine::cond::rule_shortfall(&v.game, &v.tables_for(pos), pos, &v.game.rules[rule], v.decider(at))
    }

    /// A line steered towards `rule`: mostly the decision after which its
    /// condition is nearest to holding (ties and one decision in five at
    /// random), then, once it has acted, [`AFTER_ACTING`] decisions at
    /// random; `false` when a limit stopped it.
    fn directed_line(&mut self, (start, path): &(Position, Vec<Action>), rule: usize, rng: &mut ChaCha8Rng) -> bool {
        // Decisions since the rule acted in this line (`None`: not yet).
        let after: Cell<Option<u32>> = Cell::new(None);
        let pick = |w: &Self, pos: &Position, succ: &[(Action, Position)], rng: &mut ChaCha8Rng| {
            if after.get().is_some() || rng.random_bool(0.2) {
                return rng.random_range(0..succ.len());
            }
            let scores: Vec<u32> = succ.iter().map(|(_, p)| w.shortfall(rule, pos, p)).collect();
            let best = scores.iter().copied().min().unwrap_or(0);
            let ties: Vec<usize> = (0..succ.len()).filter(|&i| scores[i] == best).collect();
            ties[rng.random_range(0..ties.len())]
        };
        let acted_before = self.acted(rule);
        let went = |w: &mut Self, pos: &Position| {
            w.out.directed_decisions += 1;
            if after.get().is_none() && !acted_before && w.acted(rule) {
                after.set(Some(0));
            }
            let Some(n) = after.get() else { return false };
            // The first node between plies after it acted: where the next
            // rule's lines start.
            if w.reached.is_none() && !in_ply(pos) {
                w.reached = Some((pos.clone(), w.path.clone()));
            }
            after.set(Some(n + 1));
            n + 1 > AFTER_ACTING
        };
        self.line(start, path, rng, pick, went)
    }

    /// One random line from `start`; `false` when a limit stopped it. Half
    /// the time a decision after which a rule obliges (where rules meet),
    /// when there is one.
    fn random_line(&mut self, start: &Position, rng: &mut ChaCha8Rng) -> bool {
        let pick = |_: &Self, _: &Position, succ: &[(Action, Position)], rng: &mut ChaCha8Rng| {
            let obliging: Vec<usize> = (0..succ.len()).filter(|&i| in_ply(&succ[i].1)).collect();
            if !obliging.is_empty() && rng.random_bool(0.5) {
                obliging[rng.random_range(0..obliging.len())]
            } else {
                rng.random_range(0..succ.len())
            }
        };
        let went = |w: &mut Self, _: &Position| {
            w.out.line_decisions += 1;
            false
        };
        self.line(start, &[], rng, pick, went)
    }

    /// One line of at most `line_length` decisions from `start` (reached by
    /// `path`): at each node the decision `pick` chooses; after each,
    /// `went` sees the position reached and ends the line by returning
    /// `true`. `false` when a limit stopped it.
    fn line(
        &mut self,
        start: &Position,
        path: &[Action],
        rng: &mut ChaCha8Rng,
        mut pick: impl FnMut(&Self, &Position, &[(Action, Position)], &mut ChaCha8Rng) -> usize,
        mut went: impl FnMut(&mut Self, &Position) -> bool,
    ) -> bool {
        let mut pos = start.clone();
        self.path = path.to_vec();
        self.ply = 0;
        for _ in 0..self.limits.line_length {
            if !self.tick() {
                return false;
            }
            let mut succ = self.examine(&pos);
            if succ.is_empty() {
                break;
            }
            let i = pick(self, &pos, &succ, rng);
            let (a, _) = succ.swap_remove(i);
            pos = self.step(&pos, &a);
            if went(self, &pos) {
                break;
            }
        }
        true
    }

    fn key(&self, pos: &Position) -> u64 {
        pos.key(&self.v.tables_for(pos))
    }

    /// Counts a node; `false` (and why, in `stopped`) when a limit is hit.
    fn tick(&mut self) -> bool {
        self.out.nodes += 1;
        if self.out.nodes > self.limits.max_nodes {
            self.out.stopped = Some(format!("node limit {}", self.limits.max_nodes));
            return false;
        }
        if Instant::now() >= self.limits.deadline {
            self.out.stopped = Some("time limit".to_string());
            return false;
        }
        true
    }

    /// Every line of `depth` more decisions below `pos`; `false` when a limit stopped it.
    fn exhaust(&mut self, pos: &Position, depth: u32) -> bool {
        if depth == 0 || !self.seen.insert((self.key(pos), depth)) {
            return true;
        }
        if !self.tick() {
            return false;
        }
        let succ = self.examine(pos);
        for (a, _) in succ {
            let ply = self.ply;
            let next = self.step(pos, &a);
            let go = self.exhaust(&next, depth - 1);
            self.path.pop();
            self.ply = ply;
            if !go {
                return false;
            }
        }
        true
    }

    /// The legal decisions at `pos`, after looking at the node for what
    /// the walk reports (a phase node with none, moves a rule blocks,
    /// chains of obligations).
    fn examine(&mut self, pos: &Position) -> Vec<(Action, Position)> {
        let v = self.v;
        let succ = v.successors(pos);
        let phase = pos.flow.as_ref().map(|f| f.phase as usize).filter(|&p| p < v.game.phases.len());
        if succ.is_empty() && !in_ply(pos) {
            if let (Some(phase), None) = (phase, &self.out.stuck) {
                self.out.stuck = Some(Stuck { phase, player: v.decider(pos), witness: self.witness(pos) });
            }
            let mover = pos.side as usize;
            let status = v.status(pos);
            if let Status::Rule { rule, .. } = status {
                self.note_acted(rule); // a rule that ends the game acted here
            }
            let winner = match status {
                Status::Checkmate(o) | Status::Stalemate(o) | Status::Rule { outcome: o, .. } => match o {
                    Outcome::Win => Some(mover),
                    Outcome::Lose => Some(1 - mover),
                    Outcome::Draw => None,
                },
                _ => None,
            };
            if let Some(p) = winner.filter(|&p| self.out.wins[p].is_none()) {
                self.out.wins[p] = Some(self.witness(pos));
            }
        }
        if !in_ply(pos) && phase.is_none() {
            self.ply_starts(pos, &succ);
        }
        self.check_claims(pos, &succ);
        self.check_out_of_play(pos);
        succ
    }

    /// A piece out of play is held against its deadline only while the
    /// level whose swing is the deadline still swings.
    fn check_out_of_play(&mut self, pos: &Position) {
        let Some(flow) = pos.flow.as_ref().filter(|f| !f.out.is_empty()) else { return };
        let seen = &mut self.out.out_of_play;
        seen.nodes += 1;
        let swinging: Vec<bool> = match &pos.frame {
            Some(f) => f.levels.iter().map(|l| l.swing.is_some()).collect(),
            None => Vec::new(),
        };
        let deadlines: Vec<u8> = flow.out.iter().filter(|e| e.holder.is_some()).filter_map(|e| e.level).collect();
        if !deadlines.is_empty() {
            seen.held += 1;
        }
        let overdue = deadlines.iter().any(|&l| !swinging.get(l as usize).copied().unwrap_or(false));
        if overdue && self.out.out_of_play.overdue.is_none() {
            self.out.out_of_play.overdue = Some(self.witness(pos));
        }
    }

    /// Checks the claims not yet broken at `pos`, whose decisions are `succ`.
    fn check_claims(&mut self, pos: &Position, succ: &[(Action, Position)]) {
        let claims = self.claims;
        for (i, claim) in claims.iter().enumerate() {
            if self.out.broken[i].is_some() {
                continue;
            }
            let p = &claim.property;
            let broken = if p.is_move_property() {
                // A move of an obligation is made by the player who owes it.
                let mut view = pos.clone();
                view.side = self.v.decider(pos);
                succ.iter().find_map(|(a, _)| match a {
                    Action::Move(m) if !move_holds(self.v, &view, m, p) => Some(Some(action_coordinate(self.v, a))),
                    _ => None,
                })
            } else {
                (!position_holds(self.v, pos, p)).then_some(None)
            };
            if let Some(mv) = broken {
                self.out.broken[i] = Some(Broken { witness: self.witness(pos), mv });
            }
        }
    }

    /// At a node between plies: a move legal by itself (the engine's legal
    /// moves) that is not among the decisions, and after which a rule
    /// obliges, is blocked by what the rule obliges (it cannot be met, or
    /// never ends); its chains of obligations are followed.
    fn ply_starts(&mut self, pos: &Position, succ: &[(Action, Position)]) {
        let v = self.v;
        let mut alone = Vec::new();
        rulebook_interpreter::engine::movegen::legal_moves(&v.game, &v.tables_for(pos), pos, &mut alone);
        for m in alone {
            if succ.iter().any(|(a, _)| *a == Action::Move(m)) {
                continue;
            }
            let next = v.apply(pos, &Action::Move(m));
            let Some(rule) = next.flow.as_ref().and_then(|f| f.queue.first()).and_then(|o| o.source).map(|(r, _)| r as usize) else { continue };
            if self.out.cycle.is_none() {
                self.chains(pos, m, rule, next);
            }
            if !self.out.blocked.iter().any(|b| b.rule == rule) {
                let mv = action_coordinate(v, &Action::Move(m));
                self.out.blocked.push(Blocked { rule, witness: self.witness(pos), mv });
            }
        }
    }

    /// Follows the chains of obligations after `mv` (made at `pos`, giving
    /// `next`, where `rule` fired) by every candidate action (before the whole-ply test, so a
    /// chain that never ends is followed too), depth first, within
    /// [`CHAIN_NODES`]: a state that comes back within the ply is a cycle.
    fn chains(&mut self, pos: &Position, mv: rulebook_interpreter::Move, rule: usize, next: Position) {
        let mut budget = CHAIN_NODES;
        let mut trail = vec![self.key(pos)];
        let mut actions = vec![Action::Move(mv)];
        let mut rules = vec![rule];
        fn go(
            w: &mut Walker<'_>,
            pos: &Position,
            trail: &mut Vec<u64>,
            actions: &mut Vec<Action>,
            rules: &mut Vec<usize>,
            budget: &mut u64,
        ) {
            if !in_ply(pos) || w.out.cycle.is_some() || *budget == 0 {
                return;
            }
            *budget -= 1;
            let key = w.key(pos);
            if let Some(at) = trail.iter().position(|&k| k == key) {
                let mut path = w.path.clone();
                path.extend(actions.iter().cloned());
                let witness = w.witness_of(&path);
                w.out.cycle = Some(Cycle { rules: rules.clone(), witness, length: trail.len() - at });
                return;
            }
            trail.push(key);
            for a in w.v.candidates(pos) {
                let mut events = Vec::new();
                let after = w.v.apply_traced(pos, &a, &mut events);
                let fired: Vec<usize> = events.iter().filter_map(|e| if let FlowEvent::Fired { rule, .. } = e { Some(*rule) } else { None }).collect();
                let n = fired.len();
                rules.extend(fired);
                actions.push(a);
                go(w, &after, trail, actions, rules, budget);
                actions.pop();
                rules.truncate(rules.len() - n);
                if w.out.cycle.is_some() || *budget == 0 {
                    break;
                }
            }
            trail.pop();
        }
        go(self, &next, &mut trail, &mut actions, &mut rules, &mut budget);
    }

    /// Makes `a` at `pos` (one of its legal decisions) as the next decision
    /// of the line, noting what the flow layer did; the position after it.
    fn step(&mut self, pos: &Position, a: &Action) -> Position {
        let mut events = Vec::new();
        let next = self.v.apply_traced(pos, a, &mut events);
        self.path.push(*a);
        self.ply += 1;
        for e in &events {
            match e {
                FlowEvent::Fired { rule, subject, also } => {
                    self.note_acted(*rule);
                    for &other in also {
                        let pair = |s: &Simultaneous| {
                            let (a, b) = (s.acted.0, s.other.0);
                            (a, b) == (*rule, other.0) || (b, a) == (*rule, other.0)
                        };
                        if !self.out.simultaneous.iter().any(pair) {
                            let witness = self.witness(&next);
                            self.out.simultaneous.push(Simultaneous { acted: (*rule, *subject), other, witness });
                        }
                    }
                }
                FlowEvent::Dropped(o) if o.compulsory => {
                    if !self.out.dropped.iter().any(|d| d.obligation.source == o.source) {
                        let witness = self.witness(&next);
                        self.out.dropped.push(Dropped { obligation: *o, witness });
                    }
                }
                FlowEvent::Dropped(_) => {}
                FlowEvent::PlyEnd => {}
            }
        }
        if !in_ply(&next) {
            // The ply is over: its decisions are those since the last ply end.
            let decisions = self.ply;
            if self.out.longest_ply.as_ref().is_none_or(|(n, _)| decisions > *n) && decisions > 1 {
                let witness = self.witness(&next);
                self.out.longest_ply = Some((decisions, witness));
            }
            self.ply = 0;
        }
        next
    }

    /// The current line as a witness, ending at `pos`.
    fn witness(&self, pos: &Position) -> Witness {
        Witness { decisions: self.path.iter().map(|a| action_coordinate(self.v, a)).collect(), position: self.v.fen(pos) }
    }

    /// The line `path` from the setup as a witness, replayed for its position
    /// (where the walk does not hold it).
    fn witness_of(&self, path: &[Action]) -> Witness {
        let v = self.v;
        let mut pos = v.start().ok();
        for a in path {
            pos = pos.map(|p| v.apply(&p, a));
        }
        Witness { decisions: path.iter().map(|a| action_coordinate(v, a)).collect(), position: pos.map(|p| v.fen(&p)).unwrap_or_default() }
    }
}
