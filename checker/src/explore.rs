//! Explicit, bounded exploration of the game tree from the setup: the
//! checker's bounded model checking.
//!
//! The search is iterative deepening with a transposition table per
//! iteration. The table maps [`Position::key`] to the most remaining depth a
//! position was explored with, so a position already explored at least as
//! deeply is skipped; only keys are kept, and the positions themselves live
//! on a stack one per ply. Every position reachable within `d` plies is
//! visited in iteration `d`, so iteration `d` only needs to check the
//! positions at ply `d` (the shallower ones were checked before): the first
//! counterexample found is a shortest one, and so is the first win.
//!
//! 1. Claims: iterations `0..=depth`. Position claims are checked at every
//!    position, move claims on every legal move made from it; positions with
//!    no legal move are terminal (not expanded) and are classified (wins,
//!    ends the file does not declare).
//! 2. Wins: iterations `depth+1..=win_depth`, run only while some player's
//!    win (or quiet win) that could happen at that ply is still missing. At
//!    the last ply only the children that give check are tested for mate
//!    (and all children, when stalemate decides the game), so no move list
//!    is generated at the leaves otherwise.
//!
//! The draw rules (move limit, repetition) are not applied along the lines:
//! within a few plies from a normal setup they cannot end the game.

use crate::concrete::{move_holds, position_holds};
use rulebook_interpreter::model::{Claim, Outcome, Property};
use rulebook_interpreter::text::notation::{coordinate, is_capture};
use rulebook_interpreter::engine::movegen::Scratch;
use rulebook_interpreter::engine::position::{MoveKind, NO_KIND};
use rulebook_interpreter::{Move, Position, Status, Variant};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

/// How far and how long to search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Plies from the setup within which claims are checked.
    pub depth: u32,
    /// Plies from the setup within which wins are searched (at least `depth`
    /// to have any effect beyond it).
    pub win_depth: u32,
    /// Most positions to visit (all iterations together).
    pub max_nodes: u64,
    /// When to give up.
    pub deadline: Instant,
    /// Do not start an iteration that, judging by the growth of the last
    /// two, would need more than twice the positions left in `max_nodes`:
    /// it could not finish, and would only spend the budget (and time).
    /// The depths reached are the same whenever the estimate is right.
    /// (Whatever this flag says, an iteration is not started when, at the
    /// rate of the search so far, it would run past the deadline before it
    /// finished or reached the node limit: it would end by the clock, and
    /// spend the rest of the time for nothing that a report could repeat.)
    pub skip_hopeless: bool,
}

impl Limits {
    /// Limits with a time budget counted from now.
    pub fn new(depth: u32, win_depth: u32, max_nodes: u64, time: Duration) -> Limits {
        let now = Instant::now();
        // A budget too large for the clock means no time limit in practice.
        let deadline = now.checked_add(time).unwrap_or_else(|| now + Duration::from_secs(1 << 32));
        Limits { depth, win_depth, max_nodes, deadline, skip_hopeless: false }
    }
}

/// A line of play from the setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// The moves in coordinate notation (replayable with `rulebook moves --play`).
    pub text: Vec<String>,
    /// The position after the line, as FEN.
    pub fen: String,
}

/// A counterexample to a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// From the setup to the position where the claim fails (for a move
    /// claim: the position the offending move is made from).
    pub line: Line,
    /// The offending move, for move properties.
    pub mv: Option<Move>,
    /// The offending move in coordinate notation.
    pub mv_text: Option<String>,
}

/// What the exploration found.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// Every position up to this many plies was checked against the claims
    /// (the last depth fully completed; the setup itself is always checked).
    pub depth_done: u32,
    /// The wins still missing were searched for in every position up to this
    /// many plies (at least `depth_done`). Plies where no missing win could
    /// occur count as searched, and so does a ply where the search stopped
    /// because nothing was missing any more.
    pub win_depth_done: u32,
    /// Positions visited (once per iteration; leaves tested for mate count).
    pub nodes: u64,
    /// Why the search stopped early (`node limit 2000000`, `time limit 10 s`),
    /// `None` if it finished.
    pub stopped: Option<String>,
    /// Per claim given, the first (shortest) counterexample found.
    pub violations: Vec<Option<Violation>>,
    /// Per player: a shortest line after which that player has won: the side
    /// to move has no legal move and [`Variant::status`] gives it `Lose` (the
    /// other player won) or `Win` (it won itself).
    pub wins: [Option<Line>; 2],
    /// The same, but the last move neither captures nor moves the
    /// `end.fifty_move_piece` kind, is not a drop and (when reveals reset the
    /// count) reveals nothing, so it does not reset the move-limit count: a
    /// witness that a win and the move-limit draw can meet.
    pub quiet_wins: [Option<Line>; 2],
    /// A reachable position with no legal move for which the file declares no
    /// outcome (`end.checkmate` or `end.stalemate` is `None` for that case),
    /// and whether the side to move is in check there.
    pub undeclared_end: Option<(Line, bool)>,
    /// A line after which two `rule` items end the game with different
    /// results (the first in file order decides), with the two rules' indices.
    pub rule_conflict: Option<(Line, usize, usize)>,
}

/// Explores the game tree of `v` from its setup, checking `claims` within
/// `limits.depth` plies and searching wins within `limits.win_depth` plies.
pub fn explore(v: &Variant, claims: &[Claim], limits: &Limits) -> Exploration {
    let began = Instant::now();
    let mut out = Exploration {
        depth_done: 0,
        win_depth_done: 0,
        nodes: 0,
        stopped: None,
        violations: vec![None; claims.len()],
        wins: [None, None],
        quiet_wins: [None, None],
        undeclared_end: None,
        rule_conflict: None,
    };
    let start = match v.start() {
        Ok(p) => p,
        Err(d) => {
            out.stopped = Some(format!("the setup does not parse: {}", d.message));
            return out;
        }
    };
    let mut s = Search {
        v,
        claims,
        limits,
        time_limit: limits.deadline.saturating_duration_since(began),
        began,
        stack: Vec::new(),
        moves: Vec::new(),
        scratch: Scratch::default(),
        path: Vec::new(),
        tt: HashMap::default(),
        strict: false,
        // A `rule` item can end a game where nobody is in check.
        test_all_leaves: decisive(v.game.end.stalemate.unwrap_or(Outcome::Draw)) || !v.game.rules.is_empty(),
        per_iteration: Vec::new(),
        start,
        out,
    };
    s.run();
    s.out
}

/// Whether a search step goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// Keep searching.
    Go,
    /// A limit was hit.
    Stop,
    /// Nothing left to find in this iteration.
    Done,
}

/// What an iteration looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Claims, wins and undeclared ends at the last ply.
    Claims,
    /// Only wins (and undeclared mates) at the last ply.
    Wins,
}

/// Salt for the key of a last-ply position reached by a quiet move, so that a
/// quiet arrival is not hidden by an earlier capturing one.
const QUIET_SALT: u64 = 0x5bd1_e995_9e37_79b9;

/// Position keys are already Zobrist hashes: use them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Table = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

fn decisive(o: Outcome) -> bool {
    matches!(o, Outcome::Win | Outcome::Lose)
}

struct Search<'a> {
    v: &'a Variant,
    claims: &'a [Claim],
    limits: &'a Limits,
    time_limit: Duration,
    /// When the search began (its rate so far judges an iteration's time).
    began: Instant,
    start: Position,
    /// The position at each ply of the current line (one more for leaf tests).
    stack: Vec<Position>,
    /// A move buffer per ply.
    moves: Vec<Vec<Move>>,
    /// The buffers for judging a leaf's moves one at a time.
    scratch: Scratch,
    /// The moves of the current line.
    path: Vec<Move>,
    /// Key (salted for quiet last-ply arrivals) → 1 + most remaining plies explored.
    tt: Table,
    /// Whether limits apply (not while checking the setup alone).
    strict: bool,
    /// Whether stalemate decides the game, so every leaf must be tested.
    test_all_leaves: bool,
    /// Positions visited by each completed iteration, in order.
    per_iteration: Vec<u64>,
    out: Exploration,
}

impl Search<'_> {
    fn run(&mut self) {
        let depth = self.limits.depth;
        for d in 0..=depth {
            self.strict = d > 0;
            if self.strict && (self.out_of_time() || self.hopeless(d)) {
                return;
            }
            let before = self.out.nodes;
            self.prepare(d as usize);
            if self.visit(0, d as usize, Mode::Claims, true) == Flow::Stop {
                return;
            }
            self.per_iteration.push(self.out.nodes - before);
            self.out.depth_done = d;
            self.out.win_depth_done = d;
        }
        for d in depth + 1..=self.limits.win_depth {
            if !self.anything_missing() {
                self.out.win_depth_done = self.limits.win_depth;
                return;
            }
            if self.missing_at(d as usize) {
                if self.out_of_time() || self.hopeless(d) {
                    return;
                }
                let before = self.out.nodes;
                self.prepare(d as usize);
                if self.visit(0, d as usize, Mode::Wins, true) == Flow::Stop {
                    return;
                }
                self.per_iteration.push(self.out.nodes - before);
            }
            self.out.win_depth_done = d;
        }
    }

    /// Would the iteration to `d` plies need more than twice the positions
    /// left in the budget (see [`Limits::skip_hopeless`]), or, at the rate
    /// of the search so far, more time than is left before the deadline
    /// (for as many positions as it may visit)? Says so in `stopped`.
    fn hopeless(&mut self, d: u32) -> bool {
        let [.., before, last] = self.per_iteration[..] else { return false };
        if before == 0 {
            return false;
        }
        let estimate = (last as f64) * (last as f64) / (before as f64);
        let left = self.limits.max_nodes.saturating_sub(self.out.nodes) as f64;
        // Two significant digits: the estimate is rough.
        let rounded = |x: f64| {
            let scale = 10f64.powi((x.log10().floor() as i32 - 1).max(0));
            ((x / scale).round() * scale) as u64
        };
        if self.limits.skip_hopeless && estimate > 2.0 * left {
            self.out.stopped = Some(format!("node limit {}: ply {d} would need about {} positions", self.limits.max_nodes, rounded(estimate)));
            return true;
        }
        let spent = self.began.elapsed().as_secs_f64();
        let time_left = self.limits.deadline.saturating_duration_since(Instant::now()).as_secs_f64();
        if spent <= 0.0 || self.out.nodes == 0 {
            return false;
        }
        let needed = estimate.min(left) / (self.out.nodes as f64 / spent);
        if needed <= time_left {
            return false;
        }
        self.out.stopped = Some(format!(
            "{}: ply {d} would need about {} positions, about {} s at the rate so far",
            self.time_limit_words(),
            rounded(estimate),
            rounded(needed.max(1.0))
        ));
        true
    }

    /// "time limit 40 s": the search's time budget, as `stopped` says it.
    fn time_limit_words(&self) -> String {
        let tenths = (self.time_limit.as_secs_f64() * 10.0).round() / 10.0;
        if tenths.fract() == 0.0 {
            format!("time limit {} s", tenths as u64)
        } else {
            format!("time limit {tenths:.1} s")
        }
    }

    /// Readies an iteration to `d` plies: an empty table, and a position
    /// and a move buffer per ply (grown as the iterations go deeper).
    fn prepare(&mut self, d: usize) {
        self.tt.clear();
        while self.stack.len() < d + 2 {
            self.stack.push(self.start.clone());
            self.moves.push(Vec::new());
        }
    }

    /// Counts a visited position; `false` when a limit is hit.
    #[inline]
    fn tick(&mut self) -> bool {
        let n = self.out.nodes;
        self.out.nodes += 1;
        if !self.strict {
            return true;
        }
        if n >= self.limits.max_nodes {
            self.out.stopped = Some(format!("node limit {}", self.limits.max_nodes));
            return false;
        }
        // Often enough that many claims (checked at every leaf) cannot
        // carry the search far past its deadline.
        !(n.is_multiple_of(256) && self.out_of_time())
    }

    /// Has the deadline passed? (Says so in `stopped`.)
    fn out_of_time(&mut self) -> bool {
        if Instant::now() < self.limits.deadline {
            return false;
        }
        self.out.stopped = Some(self.time_limit_words());
        true
    }

    /// The players who could win at a position `ply` plies from the setup.
    fn winners_at(&self, ply: usize) -> [bool; 2] {
        if !self.v.game.rules.is_empty() {
            // A `rule` item may give either player the game at any ply.
            return [true, true];
        }
        let mover = (self.start.side as usize + ply) % 2;
        let end = &self.v.game.end;
        let mut w = [false; 2];
        let mut outcomes = vec![end.checkmate.unwrap_or(Outcome::Lose)];
        if self.test_all_leaves {
            outcomes.push(end.stalemate.unwrap_or(Outcome::Draw));
        }
        for o in outcomes {
            match o {
                Outcome::Win => w[mover] = true,
                Outcome::Lose => w[1 - mover] = true,
                Outcome::Draw => {}
            }
        }
        w
    }

    /// Is a win that could happen at `ply` still missing?
    fn missing_at(&self, ply: usize) -> bool {
        let w = self.winners_at(ply);
        (0..2).any(|p| w[p] && (self.out.wins[p].is_none() || self.out.quiet_wins[p].is_none()))
    }

    /// Is any win that could happen at all still missing?
    fn anything_missing(&self) -> bool {
        self.missing_at(0) || self.missing_at(1)
    }

    /// Does `m` leave the move-limit count running? (Not when it reveals a
    /// face-down piece and reveals reset the count.)
    fn quiet(&self, pos: &Position, m: &Move) -> bool {
        let end = &self.v.game.end;
        m.kind != MoveKind::Drop
            && !is_capture(pos, m)
            && end.fifty_move_piece != Some(m.piece)
            && !(end.fifty_move_reveal && m.reveal != NO_KIND)
    }

    /// Visits the position at `ply` (reached by a quiet move if `quiet`) in the
    /// iteration to `d` plies.
    fn visit(&mut self, ply: usize, d: usize, mode: Mode, quiet: bool) -> Flow {
        let remaining = d - ply;
        let mut key = self.stack[ply].key(&self.v.tables);
        if remaining == 0 && quiet {
            key ^= QUIET_SALT;
        }
        let slot = self.tt.entry(key).or_insert(0);
        if *slot as usize > remaining {
            return Flow::Go;
        }
        *slot = remaining as u32 + 1;
        if !self.tick() {
            return Flow::Stop;
        }
        if remaining == 0 {
            // The last ply of a claims iteration (shallower positions were
            // checked and classified in the iterations before).
            self.check_leaf(ply, quiet);
            return Flow::Go;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        self.v.legal_moves_into(&self.stack[ply], &mut moves);
        let flow = if moves.is_empty() {
            // Terminal: not expanded.
            Flow::Go
        } else if remaining == 1 && mode == Mode::Wins {
            self.test_leaves(ply, d, &moves)
        } else {
            self.expand(ply, d, mode, &moves)
        };
        self.moves[ply] = moves;
        flow
    }

    fn expand(&mut self, ply: usize, d: usize, mode: Mode, moves: &[Move]) -> Flow {
        for m in moves {
            let quiet = self.quiet(&self.stack[ply], m);
            self.make_child(ply, m);
            self.path.push(*m);
            let flow = self.visit(ply + 1, d, mode, quiet);
            self.path.pop();
            if flow != Flow::Go {
                return flow;
            }
        }
        Flow::Go
    }

    /// Puts the position after `m` at `ply + 1`.
    #[inline]
    fn make_child(&mut self, ply: usize, m: &Move) {
        let (here, next) = self.stack.split_at_mut(ply + 1);
        let child = &mut next[0];
        if here[ply].flow.is_some() {
            // A phase or an obligation: the flow layer's work comes with the move.
            *child = self.v.play(&here[ply], m);
            return;
        }
        child.copy_from(&here[ply], &self.v.tables);
        child.make(m, &self.v.game, &self.v.tables);
    }

    /// The last ply of a win iteration: tests the children that give check
    /// (all children when stalemate decides) for having no legal move.
    fn test_leaves(&mut self, ply: usize, d: usize, moves: &[Move]) -> Flow {
        for m in moves {
            if !self.tick() {
                return Flow::Stop;
            }
            self.make_child(ply, m);
            let child = &self.stack[ply + 1];
            if !self.test_all_leaves && !self.v.in_check(child) {
                continue;
            }
            if !self.v.has_legal_move(child, &mut self.scratch) {
                let quiet = self.quiet(&self.stack[ply], m);
                self.path.push(*m);
                self.record_end(ply + 1, quiet);
                self.path.pop();
                if !self.missing_at(d) {
                    return Flow::Done;
                }
            }
        }
        Flow::Go
    }

    /// The last ply of a claims iteration: checks the claims still unrefuted
    /// at the position at `ply` and classifies it if it has no legal move.
    /// Where the moves can be judged one at a time ([`Variant::one_by_one`]),
    /// only the candidates that break a move claim, and then the first that
    /// is legal, are tried: most positions here are leaves, and a leaf needs
    /// no list of its moves.
    fn check_leaf(&mut self, ply: usize, quiet: bool) {
        let (v, claims) = (self.v, self.claims);
        let move_claims_left = claims.iter().zip(&self.out.violations).any(|(c, found)| found.is_none() && c.property.is_move_property());
        let pos = &self.stack[ply];
        let line = || line(v, &self.start, &self.path);
        let violations = &mut self.out.violations;
        let any_move = match v.one_by_one(pos, &mut self.scratch) {
            Some(mut judge) if judge.exact || !move_claims_left => {
                // A move property holds of a decision as of each of its
                // chance outcomes ([`move_holds`]); the move reported is the
                // first outcome, the first breaking move of the legal list.
                let outcomes = &mut self.moves[ply];
                check_claims(v, claims, violations, pos, &line, |p| {
                    let m = judge.first(|m| !move_holds(v, pos, m, p))?;
                    outcomes.clear();
                    judge.outcomes(&m, outcomes);
                    outcomes.first().copied()
                });
                judge.first(|_| true).is_some()
            }
            _ => {
                let moves = &mut self.moves[ply];
                moves.clear();
                v.legal_moves_into(pos, moves);
                check_claims(v, claims, violations, pos, &line, |p| moves.iter().find(|m| !move_holds(v, pos, m, p)).copied());
                !moves.is_empty()
            }
        };
        if !any_move {
            self.record_end(ply, quiet);
        }
    }

    /// Classifies the terminal position at `ply` (the end of `self.path`).
    fn record_end(&mut self, ply: usize, quiet: bool) {
        let pos = &self.stack[ply];
        let mover = pos.side as usize;
        let end = &self.v.game.end;
        let (outcome, declared, check) = match self.v.status(pos) {
            Status::Checkmate(o) => (o, end.checkmate.is_some(), true),
            Status::Stalemate(o) => (o, end.stalemate.is_some(), false),
            // A `rule` item ended the game: declared by the file itself.
            Status::Rule { outcome, .. } => {
                if self.out.rule_conflict.is_none() {
                    let t = self.v.tables_for(pos);
                    let all = rulebook_interpreter::engine::cond::holding(&self.v.game, &t, pos);
                    if let Some(other) = all.iter().skip(1).find(|d| d.winner != all[0].winner) {
                        self.out.rule_conflict = Some((self.line(), all[0].rule, other.rule));
                    }
                }
                (outcome, true, false)
            }
            _ => return,
        };
        if !declared && self.out.undeclared_end.is_none() {
            self.out.undeclared_end = Some((self.line(), check));
        }
        let winner = match outcome {
            Outcome::Win => mover,
            Outcome::Lose => 1 - mover,
            Outcome::Draw => return,
        };
        if self.out.wins[winner].is_none() {
            self.out.wins[winner] = Some(self.line());
        }
        if quiet && self.out.quiet_wins[winner].is_none() {
            self.out.quiet_wins[winner] = Some(self.line());
        }
    }

    /// The current line, replayed from the setup.
    fn line(&self) -> Line {
        line(self.v, &self.start, &self.path)
    }
}

/// Checks the claims of `claims` not yet refuted (`violations`) at `pos`,
/// reached by `line`; `first_breaking` gives the first legal move that
/// breaks a move property.
fn check_claims(
    v: &Variant,
    claims: &[Claim],
    violations: &mut [Option<Violation>],
    pos: &Position,
    line: &dyn Fn() -> Line,
    mut first_breaking: impl FnMut(&Property) -> Option<Move>,
) {
    for (claim, found) in claims.iter().zip(violations) {
        if found.is_some() {
            continue;
        }
        let p = &claim.property;
        *found = if p.is_move_property() {
            first_breaking(p).map(|m| Violation { line: line(), mv: Some(m), mv_text: Some(coordinate(v, &m)) })
        } else if !position_holds(v, pos, p) {
            Some(Violation { line: line(), mv: None, mv_text: None })
        } else {
            None
        };
    }
}

/// The line of `moves` from `start`, replayed.
fn line(v: &Variant, start: &Position, moves: &[Move]) -> Line {
    let mut pos = start.clone();
    let mut text = Vec::with_capacity(moves.len());
    for m in moves {
        text.push(coordinate(v, m));
        pos = v.play(&pos, m);
    }
    Line { moves: moves.to_vec(), text, fen: v.fen(&pos) }
}
