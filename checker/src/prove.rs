//! Symbolic questions to Z3 over the encoding of [`crate::encode`]: claims
//! proved by induction (one symbolic step), and witnesses (a position and a
//! move where some condition holds).
//!
//! Every query runs under a per-query timeout and an overall deadline; a
//! query the solver cannot decide in time is answered `Unknown`, never waited
//! for, and once the deadline has passed no query is asked (nor its formula
//! built): every question left is answered `Unknown` with [`BUDGET_SPENT`].

use crate::concrete::position_holds;
use crate::encode::{Encoder, Key, State, Step};
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Color, KindId, Property};
use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::engine::position::{code, Move, PROMOTED};
use rulebook_interpreter::{Position, Variant};
use std::collections::HashMap;
use std::time::Instant;
use z3::ast::{Bool, Int};
use z3::{Params, SatResult, Solver};

/// The resource limit of one query in a side's incremental solver (Z3's
/// `rlimit`, a count of its steps: the same on every machine, so where a
/// query stops does not depend on the machine's speed or load). About a
/// second of work here; a query that needs more is asked again alone.
const INCREMENTAL_RLIMIT: u32 = 10_000_000;

/// Why a question was not decided when the overall deadline (the whole
/// check's time budget) passed before or while it was asked.
pub const BUDGET_SPENT: &str = "time budget spent";

/// A position fact that induction proves and later queries assume: a
/// claim's position property, or one of the checker's built-in facts that
/// no rules file can state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lemma {
    /// A position property.
    Property(Property),
    /// Every face-down piece stands on one of `cells`, with the piece code
    /// given there: the setup's face-down pieces, where they stand in the
    /// setup. (A face-down piece never moves without being revealed, and
    /// nothing turns face down, so each stays where it started, as it
    /// started, until it moves or is captured.)
    FaceDownAtSetup {
        /// The setup's face-down cells with their piece codes.
        cells: Vec<(Cell, u8)>,
    },
}

impl From<Property> for Lemma {
    fn from(p: Property) -> Lemma {
        Lemma::Property(p)
    }
}

impl Lemma {
    /// The built-in lemma about the face-down pieces of `start` (the setup).
    pub fn face_down_at(v: &Variant, start: &Position) -> Lemma {
        let cells = v
            .game
            .geometry
            .board_cells()
            .filter(|&c| start.is_hidden(c) && start.board[c as usize] != 0)
            .map(|c| (c, start.board[c as usize] & !PROMOTED))
            .collect();
        Lemma::FaceDownAtSetup { cells }
    }

    /// Does the lemma hold in the concrete position `pos`?
    pub fn holds_in(&self, v: &Variant, pos: &Position) -> bool {
        match self {
            Lemma::Property(p) => position_holds(v, pos, p),
            Lemma::FaceDownAtSetup { cells } => v.game.geometry.board_cells().all(|c| {
                !pos.is_hidden(c) || cells.iter().any(|&(at, piece)| at == c && pos.board[c as usize] & !PROMOTED == piece)
            }),
        }
    }
}

/// The kinds whose pieces alone a lemma reads on the board, where taking
/// pieces off the board can never break it (`no K on ZONE`, `no K next to
/// enemy L`, `at most N K`); `None` for any other lemma.
fn kinds_read(l: &Lemma) -> Option<Vec<KindId>> {
    match l {
        Lemma::Property(Property::NeverOn { kind, .. } | Property::AtMost { kind, .. }) => Some(vec![*kind]),
        Lemma::Property(Property::NeverAdjacent { kind, other }) => Some(vec![*kind, *other]),
        _ => None,
    }
}

/// Does only a state where the side that just moved is not in check keep
/// the lemma from breaking? A royal piece reaches a hand only by being
/// captured, which some move does from nearly any state: asked without that
/// fact, the question is satisfiable, and asking it first is time lost.
fn needs_reachability(l: &Lemma) -> bool {
    matches!(l, Lemma::Property(Property::NeverInHand { .. }))
}

/// A concrete situation Z3 found: a position with its side to move, and a move.
#[derive(Clone, Debug)]
pub struct Witness {
    /// The position.
    pub position: Position,
    /// The position as FEN.
    pub fen: String,
    /// The move's key.
    pub key: Key,
    /// The interpreter's move with that key in the position (when it is legal there).
    pub mv: Option<Move>,
    /// The move in coordinate notation (or its key when the interpreter has no such move).
    pub mv_text: String,
}

/// A solver's answer.
#[derive(Clone, Debug)]
pub enum Answer {
    /// No such situation exists.
    Unsat,
    /// One exists; here it is.
    Sat(Box<Witness>),
    /// The solver gave up (timeout or deadline); the reason.
    Unknown(String),
}

/// What induction concluded about one position property.
#[derive(Clone, Debug)]
pub enum Induction {
    /// Preserved by every legal move from every state satisfying the proved set.
    Proved,
    /// A step from a state satisfying the candidates breaks it (the state may be unreachable).
    NotInductive(Box<Witness>),
    /// The solver could not decide.
    Unknown(String),
}

/// One side's incremental solver. The background facts of that side and
/// the finite domains of the step's terms are asserted once, unguarded;
/// every other fact a query asks is asserted once as `literal => fact`
/// and assumed through its literal. So the transition (the legal moves and
/// the next state, the bulk of every query) is bit-blasted once per side,
/// not once per query, and what the SAT solver learns carries over.
struct SideSolver {
    solver: Solver,
    /// Per fact asserted so far (Z3 terms are hash-consed: a formula built
    /// again is the same term), the literal that stands for it.
    guards: HashMap<Bool, Bool>,
}

impl SideSolver {
    /// The literal standing for `fact`, asserting `literal => fact` the first time.
    fn guard(&mut self, fact: &Bool) -> Bool {
        if let Some(lit) = self.guards.get(fact) {
            return lit.clone();
        }
        let lit = Bool::fresh_const("fact");
        self.solver.assert(lit.implies(fact));
        self.guards.insert(fact.clone(), lit.clone());
        lit
    }
}

/// Which solver a query goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Solving {
    /// The side's incremental solver: for Houdini's and the move claims'
    /// questions, many over one transition, mostly unsatisfiable.
    Incremental,
    /// A solver of its own: for one-off questions of existence and
    /// witnesses, whose facts (a moving kind, a part's templates, a landing
    /// zone) let Z3's preprocessing cut the transition down before
    /// bit-blasting. On 4D-Schach's 448 cells such a question took 0.3–4 s
    /// alone and up to 20 s (its limit) against the whole transition in the
    /// incremental solver.
    Fresh,
}

/// What one solver call gave: the answer, the model (when satisfiable)
/// and the reason it gave up (when unknown).
struct Outcome {
    result: SatResult,
    model: Option<z3::Model>,
    reason: Option<String>,
}

impl From<(SatResult, &Solver)> for Outcome {
    fn from((result, solver): (SatResult, &Solver)) -> Outcome {
        let model = if result == SatResult::Sat { solver.get_model() } else { None };
        let reason = if result == SatResult::Unknown { solver.get_reason_unknown() } else { None };
        Outcome { result, model, reason }
    }
}

/// What one side's round of Houdini found, asked on a thread of its own.
struct Round {
    /// The first candidate broken, with why.
    broken: Option<(usize, Induction)>,
    /// Queries asked.
    queries: u32,
    /// Some question went unanswered because the deadline had passed.
    budget_spent: bool,
}

/// Asks Z3 about one variant.
pub struct Prover<'a> {
    /// The encoder.
    pub enc: Encoder<'a>,
    state: State,
    /// Per side, its legal moves and the state after each, built at the
    /// side's first question (a check that asks nothing, or asks about one
    /// side only, builds less: on 4D-Schach each takes over a second).
    steps: [std::cell::OnceCell<Step>; 2],
    /// Per side, its incremental solver (made at the side's first query;
    /// dropped after a query it could not decide, so that a cancelled
    /// search leaves nothing behind).
    solvers: [Option<SideSolver>; 2],
    timeout_ms: u32,
    deadline: Instant,
    /// Number of solver queries made.
    pub queries: u32,
    /// Some question went unanswered because the deadline had passed.
    pub budget_spent: bool,
    /// What the next queries ask, for the timings `RULEBOOK_TIMINGS` prints.
    topic: String,
    /// Whether induction takes what the encoding's construction settles
    /// without asking ([`Encoder::hand_gain_needs_check`]); on by default,
    /// off for the test that asks Z3 about it instead.
    pub by_construction: bool,
}

impl<'a> Prover<'a> {
    /// A prover for `variant` with a per-query timeout and an overall deadline.
    pub fn new(variant: &'a Variant, timeout_ms: u32, deadline: Instant) -> Prover<'a> {
        let enc = Encoder::new(variant);
        let state = enc.state("s");
        Prover { enc, state, steps: [std::cell::OnceCell::new(), std::cell::OnceCell::new()], solvers: [None, None], timeout_ms, deadline, queries: 0, budget_spent: false, topic: String::new(), by_construction: true }
    }

    /// The legal moves of `side` from the prover's state (built at the first call).
    fn step(&self, side: Color) -> &Step {
        self.steps[side as usize].get_or_init(|| self.enc.step(&self.state, side, &format!("m{side}")))
    }

    /// Has the overall deadline passed? (Then every question is answered
    /// `Unknown` with [`BUDGET_SPENT`], and `budget_spent` is set.)
    pub fn out_of_time(&mut self) -> bool {
        if Instant::now() < self.deadline {
            return false;
        }
        self.budget_spent = true;
        true
    }

    /// A solver for one query, with its time limit (`limit_ms`, at most the
    /// time left); `None` once the deadline has passed.
    fn fresh_solver(&self, limit_ms: u32) -> Option<Solver> {
        let left = self.deadline.saturating_duration_since(Instant::now()).as_millis();
        if left == 0 {
            return None;
        }
        let solver = Solver::new_for_logic("QF_FD").unwrap_or_default();
        let mut params = Params::new();
        params.set_u32("timeout", limit_ms.min(left.min(u32::MAX as u128) as u32).max(1));
        solver.set_params(&params);
        Some(solver)
    }

    /// The incremental solver of `side`, with its time limit set for one
    /// query (the per-query timeout, at most the time left); `None` once the
    /// deadline has passed.
    fn solver(&mut self, side: Color) -> Option<&mut SideSolver> {
        let left = self.deadline.saturating_duration_since(Instant::now()).as_millis();
        if left == 0 {
            return None;
        }
        if self.solvers[side as usize].is_none() {
            // Every term of the encoding has a finite domain: the finite-domain
            // logic bit-blasts to SAT, which decides these queries in well under a
            // second where the general arithmetic solver times out.
            let solver = Solver::new_for_logic("QF_FD").unwrap_or_default();
            // What every query of this side assumes, and the domains of the
            // step's terms (top level: the finite-domain solver reads its
            // bounds there).
            for fact in [self.enc.well_formed(&self.state), self.enc.ep_consistent(&self.state, side), self.step(side).bounds.clone()] {
                solver.assert(&fact);
            }
            self.solvers[side as usize] = Some(SideSolver { solver, guards: HashMap::new() });
        }
        let made = self.solvers[side as usize].as_mut()?;
        let mut params = Params::new();
        params.set_u32("timeout", self.timeout_ms.min(left.min(u32::MAX as u128) as u32).max(1));
        params.set_u32("rlimit", INCREMENTAL_RLIMIT);
        made.solver.set_params(&params);
        Some(made)
    }

    /// The facts every state satisfies: it is a position, and its
    /// en-passant victim is a piece that could have set it.
    fn background(&self, side: Color) -> Vec<Bool> {
        vec![self.enc.well_formed(&self.state), self.enc.ep_consistent(&self.state, side)]
    }

    /// The background facts, then `lemmas` (proved position facts) holding in the state.
    fn assumptions(&self, side: Color, lemmas: &[Lemma]) -> Vec<Bool> {
        let mut facts = self.background(side);
        facts.extend(lemmas.iter().map(|l| self.lemma_holds(&self.state, l)));
        facts
    }

    /// Asks about `facts`; unless that is already unsatisfiable, asks again
    /// with the fact every reachable state with `side` to move satisfies by
    /// the rules themselves: the side that just moved is not in check. (The
    /// first query is cheaper, and its `Unsat` settles the second.)
    fn ask_escalating(&mut self, side: Color, domains: &[Bool], facts: &[Bool]) -> Answer {
        self.ask_escalating_from(side, domains, facts, false)
    }

    /// [`Self::ask_escalating`], asking only the second query where `direct`
    /// (the first would be satisfiable: see [`needs_reachability`]).
    fn ask_escalating_from(&mut self, side: Color, domains: &[Bool], facts: &[Bool], direct: bool) -> Answer {
        if !direct {
            if let Answer::Unsat = self.ask(side, Solving::Incremental, domains, facts) {
                return Answer::Unsat;
            }
        }
        let mut more = facts.to_vec();
        more.push(self.enc.in_check(&self.state, side ^ 1).not());
        self.ask(side, Solving::Incremental, domains, &more)
    }

    /// A position property as a formula over `s`. The spread claims say
    /// what they mean of the encoding's states, which have no spread pieces.
    pub fn holds(&self, s: &State, p: &Property) -> Bool {
        let enc = &self.enc;
        let geo = &enc.variant.game.geometry;
        match p {
            // The encoding's states have no spread pieces: every piece
            // stands on one cell and no group exists. (The claims themselves
            // are decided on the spread layer, `crate::spread_layer`.)
            Property::SpreadAtMost { squares: 0 } => {
                Bool::and(&enc.cells().iter().map(|&c| enc.at(s, c).eq(Int::from_i64(0))).collect::<Vec<_>>())
            }
            Property::SpreadAtMost { .. } | Property::GroupsAtMost { .. } => Bool::from_bool(true),
            Property::NeverOn { kind, zone } => {
                let mut parts = Vec::new();
                for color in 0..2u8 {
                    for &c in &zone[color as usize] {
                        parts.push(enc.at(s, c).ne(Int::from_i64(code(*kind, color) as i64)));
                    }
                }
                Bool::and(&parts)
            }
            Property::NeverAdjacent { kind, other } => {
                let mut parts = Vec::new();
                for color in 0..2u8 {
                    let mine = Int::from_i64(code(*kind, color) as i64);
                    let theirs = Int::from_i64(code(*other, color ^ 1) as i64);
                    for &a in enc.cells() {
                        for &b in enc.cells() {
                            if crate::concrete::king_step(geo, a, b) {
                                parts.push(Bool::and(&[enc.at(s, a).eq(&mine), enc.at(s, b).eq(&theirs)]).not());
                            }
                        }
                    }
                }
                Bool::and(&parts)
            }
            Property::AtMost { kind, count } if *count <= 1 => {
                // No piece at all, or no two cells holding one: plain clauses,
                // which SAT handles far better than a sum.
                let mut parts = Vec::new();
                for color in 0..2u8 {
                    let mine = Int::from_i64(code(*kind, color) as i64);
                    let here: Vec<Bool> = enc.cells().iter().map(|&c| enc.at(s, c).eq(&mine)).collect();
                    for (i, a) in here.iter().enumerate() {
                        if *count == 0 {
                            parts.push(a.not());
                            continue;
                        }
                        for b in &here[i + 1..] {
                            parts.push(Bool::and(&[a.clone(), b.clone()]).not());
                        }
                    }
                }
                Bool::and(&parts)
            }
            Property::AtMost { kind, count } => {
                // A cardinality constraint (native to the SAT solver), not a sum.
                let mut parts = Vec::new();
                for color in 0..2u8 {
                    let mine = Int::from_i64(code(*kind, color) as i64);
                    let here: Vec<Bool> = enc.cells().iter().map(|&c| enc.at(s, c).eq(&mine)).collect();
                    parts.push(z3::ast::atmost(&here, *count));
                }
                Bool::and(&parts)
            }
            Property::NeverInHand { kind } => match s.hand.get(*kind as usize) {
                Some(h) => Bool::and(&[h[0].eq(Int::from_i64(0)), h[1].eq(Int::from_i64(0))]),
                None => Bool::from_bool(true),
            },
            Property::KeepsColour { .. } | Property::KeepsColourAtRest { .. } | Property::HiddenArrivals { .. } | Property::Directions { .. } => Bool::from_bool(true),
        }
    }

    /// A lemma as a formula over `s`.
    pub fn lemma_holds(&self, s: &State, l: &Lemma) -> Bool {
        match l {
            Lemma::Property(p) => self.holds(s, p),
            Lemma::FaceDownAtSetup { cells } => {
                let Some(hidden) = &s.hidden else { return Bool::from_bool(true) };
                let parts: Vec<Bool> = self
                    .enc
                    .cells()
                    .iter()
                    .map(|&c| match cells.iter().find(|&&(at, _)| at == c) {
                        Some(&(_, piece)) => hidden[c as usize].implies(self.enc.at(s, c).eq(Int::from_i64(piece as i64))),
                        None => hidden[c as usize].not(),
                    })
                    .collect();
                Bool::and(&parts)
            }
        }
    }

    /// A position property fails in `s` (the negation of [`Prover::holds`],
    /// stated with two chosen cells for `at most 1`, which is much smaller).
    /// Top-level facts (bounds of the chosen cells must be top-level for the
    /// finite-domain solver).
    fn violated(&self, s: &State, l: &Lemma) -> (Vec<Bool>, Bool) {
        let p = match l {
            Lemma::Property(p) => p,
            other => return (Vec::new(), self.lemma_holds(s, other).not()),
        };
        match p {
            Property::AtMost { kind, count: 1 } => {
                let enc = &self.enc;
                let last = enc.cells().last().copied().unwrap_or(0) as i64;
                let x = Int::fresh_const("twice.a");
                let y = Int::fresh_const("twice.b");
                let mut facts = Vec::new();
                for v in [&x, &y] {
                    facts.push(v.ge(Int::from_i64(0)));
                    facts.push(v.le(Int::from_i64(last)));
                    facts.push(Bool::or(&enc.cells().iter().map(|&c| v.eq(Int::from_i64(c as i64))).collect::<Vec<_>>()));
                }
                facts.push(x.lt(&y));
                let (a, b) = (enc.at_term(s, &x), enc.at_term(s, &y));
                let options: Vec<Bool> = (0..2u8)
                    .map(|color| {
                        let mine = Int::from_i64(code(*kind, color) as i64);
                        Bool::and(&[a.eq(&mine), b.eq(&mine)])
                    })
                    .collect();
                (facts, Bool::or(&options))
            }
            _ => (Vec::new(), self.holds(s, p).not()),
        }
    }

    /// The move of `step` (by `side`) breaks the move property `p`.
    fn move_breaks(&self, step: &Step, side: Color, p: &Property) -> Bool {
        match p {
            Property::HiddenArrivals { zone, kinds } => {
                // A face-down piece moves (it is revealed) into the zone, and
                // its disguise is not one of `kinds`: the mover of a piece
                // move, or castling's partner.
                let int = Int::from_i64;
                let zone = &zone[side as usize];
                let into = |cell: &Int| Bool::or(&zone.iter().map(|&c| cell.eq(int(c as i64))).collect::<Vec<_>>());
                let allowed = |kind: &Int| Bool::or(&kinds.iter().map(|&k| kind.eq(int(k as i64))).collect::<Vec<_>>());
                let revealed = step.reveal.ge(int(0));
                Bool::or(&[
                    Bool::and(&[step.key[0].le(int(1)), revealed.clone(), into(&step.travels[0].1), allowed(&step.mover).not()]),
                    Bool::and(&[step.key[0].ge(int(3)), revealed, into(&step.travels[1].1), allowed(&step.mover2).not()]),
                ])
            }
            // The encoding takes every level at rest: both claims are the same there.
            Property::KeepsColour { kind } | Property::KeepsColourAtRest { kind } => {
                let k = Int::from_i64(*kind as i64);
                let changes = |from: &Int, to: &Int| self.enc.colour_term(from).ne(self.enc.colour_term(to));
                Bool::or(&[
                    Bool::and(&[step.mover.eq(&k), changes(&step.travels[0].0, &step.travels[0].1)]),
                    Bool::and(&[step.mover2.eq(&k), changes(&step.travels[1].0, &step.travels[1].1)]),
                ])
            }
            _ => Bool::from_bool(false),
        }
    }

    /// Runs one query: `facts` with `side` to move; a model becomes a
    /// witness. `domains` are facts about fresh constants only (their
    /// bounds, which the finite-domain solver needs at top level): they are
    /// asserted unguarded, the rest through their literals.
    fn ask(&mut self, side: Color, how: Solving, domains: &[Bool], facts: &[Bool]) -> Answer {
        let asked = Instant::now();
        let mut outcome = match how {
            Solving::Incremental => self.solver(side).map(|made| {
                for d in domains {
                    made.solver.assert(d);
                }
                let literals: Vec<Bool> = facts.iter().map(|f| made.guard(f)).collect();
                let result = made.solver.check_assumptions(&literals);
                Outcome::from((result, &made.solver))
            }),
            Solving::Fresh => None,
        };
        // The incremental solver works within a resource limit (a count of
        // its steps, the same on every machine): a query it does not settle
        // within it goes to a solver of its own, whose preprocessing may cut
        // the transition down (on Nebelschach some took 3–6 s incrementally
        // and 1.6 s alone). The side's solver is kept: where it stopped does
        // not depend on the machine.
        // (Z3 gives the same reason for both limits: the clock tells them apart.)
        let spent_ms = asked.elapsed().as_millis().min(u32::MAX as u128) as u32;
        let timed_out = spent_ms >= self.timeout_ms;
        let spilled = matches!(&outcome, Some(o) if o.result == SatResult::Unknown) && !timed_out;
        if how == Solving::Fresh || spilled {
            // What is left of the query's time limit.
            let limit = if spilled { self.timeout_ms - spent_ms } else { self.timeout_ms };
            outcome = self.fresh_solver(limit).map(|solver| {
                for f in domains.iter().chain(facts) {
                    solver.assert(f);
                }
                let result = solver.check();
                Outcome::from((result, &solver))
            });
        }
        let Some(Outcome { result, model, reason }) = outcome else {
            self.budget_spent = true;
            return Answer::Unknown(BUDGET_SPENT.into());
        };
        self.queries += 1;
        let n_facts = domains.len() + facts.len();
        if std::env::var_os("RULEBOOK_TIMINGS").is_some() {
            let alone = if spilled { " (asked again alone)" } else { "" };
            eprintln!("           query {}: side {side}, {n_facts} facts, {result:?} in {:.2} s{alone} ({})", self.queries, asked.elapsed().as_secs_f64(), self.topic);
        }
        if how == Solving::Incremental && timed_out {
            // A query cut short (at a moment that depends on the machine):
            // the next one of this side starts afresh, so that what it
            // answers does not depend on how far this one got.
            self.solvers[side as usize] = None;
        }
        match result {
            SatResult::Unsat => Answer::Unsat,
            SatResult::Sat => match model {
                Some(model) => {
                    let step = self.step(side);
                    let position = self.enc.read(&model, &self.state, side);
                    let key = self.enc.read_key(&model, step);
                    let v = self.enc.variant;
                    // Only a position the FEN reader accepts is given to the
                    // interpreter (a solver's state may break its invariants).
                    let valid = v.parse_fen(&v.fen(&position), "<witness>").is_ok();
                    let mv = if valid { self.enc.find_move(&position, key) } else { None };
                    let mv_text = match &mv {
                        Some(m) => coordinate(v, m),
                        None => format!("{key:?}"),
                    };
                    Answer::Sat(Box::new(Witness { fen: v.fen(&position), position, key, mv, mv_text }))
                }
                None => Answer::Unknown("no model".into()),
            },
            // A query cut short by the overall deadline (its timeout is the
            // time left) says so, not just "timeout".
            SatResult::Unknown if self.out_of_time() => Answer::Unknown(BUDGET_SPENT.into()),
            // Which query gave up, after how long, and why (a claim left
            // UNKNOWN says so).
            SatResult::Unknown => {
                let reason = reason.unwrap_or_else(|| "no reason given".into());
                let player = self.enc.variant.game.players.get(side as usize).map_or("?", |p| p.name.as_str());
                Answer::Unknown(format!(
                    "Z3 query {} ({player} to move, {n_facts} facts) gave up after {:.2} s (its limit: {:.2} s): {reason}",
                    self.queries,
                    asked.elapsed().as_secs_f64(),
                    f64::from(self.timeout_ms) / 1000.0
                ))
            }
        }
    }

    /// Houdini: the largest subset of `candidates` (position properties and
    /// built-in lemmas) that is inductive together: assuming all of them (and
    /// the background facts) before any legal move, each holds after it. Returns, per candidate, the
    /// verdict (a candidate dropped on the way keeps the reason it was dropped).
    ///
    /// The two sides' questions of a round are independent: the second
    /// side's are asked on a thread of its own (with its own Z3 context and
    /// prover, whose incremental solver lives as long as the induction)
    /// while this thread asks the first side's. The outcome is the one of
    /// asking them in turn: when the first side breaks a candidate, the
    /// second side's answers of that round are dropped (and its queries not
    /// counted). The second side's solver sees every round, so its answers
    /// do not depend on timing either.
    pub fn induction(&mut self, candidates: &[Lemma]) -> Vec<Induction> {
        if candidates.is_empty() {
            return Vec::new();
        }
        let variant = self.enc.variant;
        let (timeout_ms, deadline, by_construction) = (self.timeout_ms, self.deadline, self.by_construction);
        std::thread::scope(|scope| {
            let (jobs, job_rx) = std::sync::mpsc::channel::<Vec<usize>>();
            let (found_tx, found) = std::sync::mpsc::channel::<Round>();
            let helper = scope.spawn(move || {
                let mut other = Prover::new(variant, timeout_ms, deadline);
                other.by_construction = by_construction;
                for alive in job_rx {
                    let before = other.queries;
                    let broken = other.induction_round(1, candidates, &alive);
                    let round = Round { broken, queries: other.queries - before, budget_spent: other.budget_spent };
                    if found_tx.send(round).is_err() {
                        break;
                    }
                }
            });
            let mut verdict: Vec<Option<Induction>> = vec![None; candidates.len()];
            loop {
                let alive: Vec<usize> = (0..candidates.len()).filter(|&i| verdict[i].is_none()).collect();
                if alive.is_empty() {
                    break;
                }
                // Each restart builds the formulas of every candidate left: past
                // the deadline, none is decided any more.
                if self.out_of_time() {
                    for i in alive {
                        verdict[i] = Some(Induction::Unknown(BUDGET_SPENT.into()));
                    }
                    break;
                }
                let parallel = jobs.send(alive.clone()).is_ok();
                let first = self.induction_round(0, candidates, &alive);
                let second = match parallel.then(|| found.recv().ok()).flatten() {
                    Some(round) => round,
                    // No helper (it could not start, or it failed): this thread asks.
                    None => {
                        if let Some((i, why)) = first {
                            verdict[i] = Some(why);
                            continue;
                        }
                        Round { broken: self.induction_round(1, candidates, &alive), queries: 0, budget_spent: false }
                    }
                };
                if let Some((i, why)) = first {
                    verdict[i] = Some(why);
                    continue;
                }
                self.queries += second.queries;
                self.budget_spent |= second.budget_spent;
                match second.broken {
                    Some((i, why)) => verdict[i] = Some(why),
                    None => break,
                }
            }
            drop(jobs);
            let _ = helper.join();
            verdict.into_iter().map(|v| v.unwrap_or(Induction::Proved)).collect()
        })
    }

    /// One round of Houdini for `side`: the first of the `alive` candidates
    /// that a move of `side` breaks, assuming them all, with why (a
    /// counterexample to induction, or the reason the solver gave up); `None`
    /// when no move of `side` breaks any.
    fn induction_round(&mut self, side: Color, candidates: &[Lemma], alive: &[usize]) -> Option<(usize, Induction)> {
        let kinds = self.enc.variant.game.kinds.len() as i64;
        let step = self.step(side).clone();
        let mut assumed = self.background(side);
        for &j in alive {
            assumed.push(self.lemma_holds(&self.state, &candidates[j]));
        }
        let broken: Vec<(Vec<Bool>, Bool)> = alive.iter().map(|&i| self.violated(&step.next, &candidates[i])).collect();
        // One small query per moving kind asks whether any candidate
        // breaks; only when one might is each candidate asked alone,
        // first over pseudo-legal moves, then over legal moves.
        let timed = std::env::var_os("RULEBOOK_TIMINGS").is_some();
        // A royal piece goes to hand only by a capture that the fact the
        // escalation adds (the side that just moved is not in check)
        // excludes, by the encoding's construction
        // ([`Encoder::hand_gain_needs_check`]): no piece move is asked about it.
        let by_construction: Vec<bool> = alive
            .iter()
            .map(|&i| match candidates[i] {
                Lemma::Property(Property::NeverInHand { kind }) => self.by_construction && self.enc.hand_gain_needs_check(kind),
                _ => false,
            })
            .collect();
        for k in -1..kinds {
            // (`available_of(k)`: available, moving a piece of kind k.)
            // Only the candidates a move of kind k could break are asked
            // about: one that reads only kinds such a move never puts on the
            // board holds after it (the move only takes pieces off there).
            let placed = self.enc.placed_by(k);
            let open: Vec<usize> = (0..alive.len())
                .filter(|&n| k < 0 || !by_construction[n])
                .filter(|&n| match (&placed, kinds_read(&candidates[alive[n]])) {
                    (Some(placed), Some(read)) => read.iter().any(|r| placed.contains(r)),
                    _ => true,
                })
                .collect();
            if open.is_empty() {
                continue;
            }
            if timed {
                let kind = usize::try_from(k).ok().and_then(|k| self.enc.variant.game.kinds.get(k)).map_or("a drop", |k| k.name.as_str());
                self.topic = format!("induction: any of {} candidates broken by {kind}", open.len());
            }
            let domains: Vec<Bool> = open.iter().flat_map(|&n| broken[n].0.iter().cloned()).collect();
            let mut facts = assumed.clone();
            facts.push(step.available_of(k));
            facts.push(Bool::or(&open.iter().map(|&n| broken[n].1.clone()).collect::<Vec<_>>()));
            let direct = open.iter().all(|&n| needs_reachability(&candidates[alive[n]]));
            if let Answer::Unsat = self.ask_escalating_from(side, &domains, &facts, direct) {
                continue;
            }
            for &n in &open {
                let i = alive[n];
                if timed {
                    let what: String = format!("{:?}", candidates[i]).chars().take(60).collect();
                    self.topic = format!("induction: candidate {i} ({what}), pseudo-legal, then legal");
                }
                let mut one = assumed.clone();
                one.push(broken[n].1.clone());
                one.push(step.available_of(k));
                let direct = needs_reachability(&candidates[i]);
                if let Answer::Unsat = self.ask_escalating_from(side, &broken[n].0, &one, direct) {
                    continue;
                }
                // Legal: available and no royal piece of the mover attacked after it.
                one.push(step.safe.clone());
                match self.ask_escalating_from(side, &broken[n].0, &one, direct) {
                    Answer::Unsat => {}
                    Answer::Sat(w) => return Some((i, Induction::NotInductive(w))),
                    Answer::Unknown(why) => return Some((i, Induction::Unknown(why))),
                }
            }
        }
        None
    }

    /// A move property: no legal move from any state satisfying the background
    /// facts and `lemmas` (proved position facts) breaks it.
    pub fn move_property(&mut self, p: &Property, lemmas: &[Lemma]) -> Induction {
        for side in 0..2u8 {
            if self.out_of_time() {
                return Induction::Unknown(BUDGET_SPENT.into());
            }
            let mut facts = self.assumptions(side, lemmas);
            facts.push(self.step(side).legal.clone());
            facts.push(self.move_breaks(self.step(side), side, p));
            match self.ask_escalating(side, &[], &facts) {
                Answer::Unsat => {}
                Answer::Sat(w) => return Induction::NotInductive(w),
                Answer::Unknown(why) => return Induction::Unknown(why),
            }
        }
        Induction::Proved
    }

    /// Does some position allow `side` a move of a piece of `kind` along its
    /// movement part `part`: an ordinary move or capture (not a drop or
    /// castling) from and to the cells of one of the part's templates? One
    /// [`Self::exists`] question (`Unsat`: the part never moves the piece).
    pub fn part_moves(&mut self, side: Color, lemmas: &[Lemma], kind: KindId, part: usize) -> Answer {
        self.exists(side, lemmas, |enc, _, step| {
            let uses: Vec<Bool> = enc.templates.by_player[side as usize]
                .iter()
                .filter(|t| t.kind == kind && t.part == part)
                .map(|t| Bool::and(&[step.key[1].eq(Int::from_i64(t.from as i64)), step.key[2].eq(Int::from_i64(t.to as i64))]))
                .collect();
            Bool::and(&[Bool::or(&uses), step.key[0].le(Int::from_i64(1)), step.mover.eq(Int::from_i64(i64::from(kind)))])
        })
    }

    /// Is there a state satisfying the background facts and `lemmas` where
    /// the move of `side` is available (pseudo-legal: the mover's king may be
    /// left attacked) and `condition` holds? One query, no preference for
    /// small positions: for rules that never fire.
    pub fn exists(&mut self, side: Color, lemmas: &[Lemma], condition: impl Fn(&Encoder, &State, &Step) -> Bool) -> Answer {
        if self.out_of_time() {
            return Answer::Unknown(BUDGET_SPENT.into());
        }
        let mut facts = self.assumptions(side, lemmas);
        let step = self.step(side);
        facts.push(step.available.clone());
        facts.push(condition(&self.enc, &self.state, step));
        self.ask(side, Solving::Fresh, &[], &facts)
    }

    /// A witness: a state satisfying the background facts, `lemmas`, and a
    /// legal move of `side` for which `condition` holds. Witnesses are kept
    /// small: first with few pieces on the board, then with any number.
    pub fn witness(&mut self, side: Color, lemmas: &[Lemma], condition: impl Fn(&Encoder, &State, &Step) -> Bool) -> Answer {
        if self.out_of_time() {
            return Answer::Unknown(BUDGET_SPENT.into());
        }
        let mut facts = self.assumptions(side, lemmas);
        let step = self.step(side);
        facts.push(step.legal.clone());
        facts.push(condition(&self.enc, &self.state, step));
        facts.push(self.enc.in_check(&self.state, side ^ 1).not());
        facts.extend(self.realistic(side));
        // A cardinality constraint, not a sum of integers: the SAT solver
        // reasons about it natively (as a sum, "at most 4 pieces" on shogi's
        // 81 cells ran past 20 s; as a cardinality, half a second).
        let occupied: Vec<Bool> = self.enc.cells().iter().map(|&c| self.enc.at(&self.state, c).ne(Int::from_i64(0))).collect();
        for bound in [4u32, 8] {
            let mut small = facts.clone();
            small.push(z3::ast::atmost(&occupied, bound));
            if let Answer::Sat(w) = self.ask(side, Solving::Fresh, &[], &small) {
                return Answer::Sat(w);
            }
        }
        self.ask(side, Solving::Fresh, &[], &facts)
    }

    /// Makes witnesses look like games: as many royal pieces per side as in
    /// the setup, no pieces in hand unless the setup has some kind's hand, no
    /// en-passant targets unless asked for.
    fn realistic(&self, _side: Color) -> Vec<Bool> {
        let enc = &self.enc;
        let v = enc.variant;
        let mut out = Vec::new();
        if let Ok(start) = v.start() {
            for color in 0..2u8 {
                let royals: Vec<Bool> = enc
                    .cells()
                    .iter()
                    .map(|&c| {
                        let is_royal: Vec<Bool> = v
                            .game
                            .kinds
                            .iter()
                            .enumerate()
                            .filter(|(_, k)| k.royal)
                            .map(|(k, _)| enc.at(&self.state, c).eq(Int::from_i64(code(k as u8, color) as i64)))
                            .collect();
                        Bool::or(&is_royal)
                    })
                    .collect();
                let weighted: Vec<(&Bool, i32)> = royals.iter().map(|r| (r, 1)).collect();
                out.push(Bool::pb_eq(&weighted, start.royal_count[color as usize] as i32));
            }
        }
        for h in &self.state.hand {
            for x in h {
                out.push(x.le(Int::from_i64(2)));
            }
        }
        out
    }
}
