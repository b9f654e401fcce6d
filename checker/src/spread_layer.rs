//! The spread layer: the claims about spread pieces (`spread pieces on at
//! most N squares`, `entangled groups at most N`) proved by induction, or
//! refuted with a trace, over an abstraction of the game that keeps only
//! what they talk about.
//!
//! **State.** One *token* per piece of the setup (a spread pair of the setup
//! is one token; pieces in hand are tokens off the board). Per token: on the
//! board or not, its owner, the number of cells it stands on, and its unit
//! (-1: none, i.e. conventional). Per unit: whether it is an entangled
//! group (unit ids are token indices). Per group label of `entangle {
//! groups … }`: the unit holding it (-1: free). The side to move. Where
//! pieces stand is forgotten.
//!
//! **Groups.** An entangled group is a unit that an entangle formed or
//! joined (docs/LANGUAGE.md §3.17): it holds pieces of both sides (an
//! entangle joins a piece to a unit of the other side), and the rules give
//! it a label. The layer marks such a unit when an entangle joins it (in the
//! setup: a unit with a label or with pieces of both sides, as the concrete
//! check counts them); a collapse or a new split clears the mark. `entangled
//! groups at most N` counts the units holding a label and the marked units
//! with members and without one, not the labels: a group without
//! a label counts too. That every group has a label is a lemma the layer
//! proves, not an assumption.
//!
//! **Actions**, each allowed only when the rules data has the mechanism
//! (a `spread` block with a weight, `castling splits` with a castling rule,
//! an `entangle` block, a hand):
//!
//! | action | precondition | effect |
//! |---|---|---|
//! | pass | — | nothing: a quiet move, a half's move, a promotion, a tunnel, a bounce |
//! | split `x` | `x` the mover's, conventional, of a kind with a quiet move | `x` on one more cell, in a new unit without a label, not a group |
//! | castling split `x r` | both the mover's and conventional, `x` of the castling kind, `r` of the partner kind | both on one more cell, in one new unit without a label |
//! | entangle `x y` | `x` the mover's, conventional, with a quiet and a capturing move; `y` an enemy in a unit `U`; `U` holds a label, or one is free | `x` on one more cell, joins `U`, now a group; a `U` without a label (a single pair, a castling unit) takes a free one |
//! | castling entangle `x r y` | the castling split's and the entangle's | both join `U` as above |
//! | collision `x y` | `x` the mover's, with a capturing move; `y` an enemy | the units of `x` and `y` collapse (members back on one cell, no unit, their labels free); then `y` may be captured |
//! | drop `x` | `x` off the board, a hand exists | `x` back, conventional, the mover's |
//!
//! The sides alternate. Every move of the engine is one of these actions (a
//! capture of conventional pieces is a collision of no units), so the
//! abstraction has at least the engine's transitions, and a claim it proves
//! holds in the game. It has more (a knight "attacks" a half anywhere on the
//! board, a castling split needs no empty squares): a trace refuting a claim
//! is a sequence of abstract actions, checked only on the layer, not played
//! on a board.
//!
//! **Proofs** are Houdini over the claims and three structural lemmas (a
//! token is conventional exactly when it stands on one cell; a unit holds at
//! most one label; a group's unit holds a label): the largest subset that
//! holds in the setup and is preserved by every action. There a groups claim
//! stands as the stronger "at most N labels in use, and every group holds
//! one", which implies it (each labelled unit holds its own label) and keeps
//! the induction query small; counting the units themselves takes a term per
//! unit and token, which is what a refutation's last state is checked on. **Refutations** are bounded model checking from the
//! setup, shortest first.
//!
//! (A first version kept a label per token, with lemmas relating pairs of
//! tokens: their induction step took minutes on 32 tokens. A label that
//! names its unit needs no such lemma.)

use crate::templates::Templates;
use rulebook_interpreter::model::{Color, KindId, Property};
use rulebook_interpreter::engine::position::{color_of, kind_of, Position};
use rulebook_interpreter::Variant;
use std::time::Instant;
use z3::ast::{Bool, Int};
use z3::{Model, Params, SatResult, Solver};

/// Is `p` a claim about spread pieces (decided on the spread layer, not by
/// the Z3 move encoding, whose states have no spread pieces)?
pub fn is_spread_property(p: &Property) -> bool {
    matches!(p, Property::SpreadAtMost { .. } | Property::GroupsAtMost { .. })
}

/// One piece of the setup, followed through the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Its kind in the setup.
    pub kind: KindId,
    /// Its owner in the setup.
    pub color: Color,
    /// The setup cell it stands on (its red cell for a pair); `None` for a
    /// piece in hand.
    pub cell: Option<u16>,
    /// It (or a kind it promotes to) has a quiet move, so it may split.
    pub can_split: bool,
    /// It (or a kind it promotes to) has a capturing move, so it may attack.
    pub can_attack: bool,
    /// It is of the castling (royal) kind.
    pub king: bool,
    /// It is of the castling partner kind.
    pub rook: bool,
    /// It has a legal move in the setup (with its owner to move). Only used
    /// to prefer plausible refutation lines.
    pub mobile: bool,
}

/// The mechanisms of the rules data that the layer's actions model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerRules {
    /// A piece may split (a `spread` block with at least one weight).
    pub split: bool,
    /// The royal piece may castle as one move of a split (`castling splits`
    /// and a castling rule).
    pub castling_split: bool,
    /// Entanglement exists (`entangle { … }`).
    pub entangle: bool,
    /// The group labels (`entangle { groups … }`): at most this many groups at once.
    pub labels: Vec<String>,
    /// Pieces may be dropped from a hand.
    pub drops: bool,
}

/// What the layer concluded about one claim.
#[derive(Clone, Debug)]
pub enum LayerVerdict {
    /// Holds in the setup and is preserved by every action.
    Proved,
    /// A sequence of abstract actions from the setup breaks it.
    Refuted(Trace),
    /// Neither: why (not inductive and no trace within the bound, or a limit).
    Open(String),
}

/// A counterexample on the spread layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The actions from the setup, one line each (`white: the Pawn from e2 splits`).
    pub steps: Vec<String>,
    /// What holds at the end that the claim forbids.
    pub end: String,
}

/// Which actions a refutation's line may use: lines of the same length are
/// tried from the most plausible on a board to the least, since the layer
/// does not see squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Only {
    /// No castling (it needs empty squares), and only pieces that can move
    /// in the setup split or entangle.
    Mobile,
    /// No castling.
    NoCastling,
    /// Every action.
    All,
}

/// Action codes.
const PASS: i64 = 0;
const SPLIT: i64 = 1;
const CASTLE_SPLIT: i64 = 2;
const ENTANGLE: i64 = 3;
const CASTLE_ENTANGLE: i64 = 4;
const COLLISION: i64 = 5;
const DROP: i64 = 6;

/// The most cells a token's count may hold in a symbolic state (only
/// reachable values matter; this bounds the domain for the finite-domain solver).
const MAX_CELLS: i64 = 15;

/// A fact of the layer: a claim, or a structural lemma.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fact {
    Claim(Property),
    /// A token is conventional (in no unit) exactly when it stands on one cell.
    ConventionalOneCell,
    /// A unit holds at most one label.
    OneLabelPerUnit,
    /// The unit of a token marked as in a group holds a label.
    GroupsLabelled,
}

/// A symbolic state of the layer.
#[derive(Clone, Debug)]
struct LState {
    /// Per token: on the board.
    alive: Vec<Bool>,
    /// Per token: its owner.
    colour: Vec<Int>,
    /// Per token: how many cells it stands on.
    cells: Vec<Int>,
    /// Per token: its unit, -1 for none (conventional).
    unit: Vec<Int>,
    /// Per unit id: the unit is an entangled group.
    group: Vec<Bool>,
    /// Per label: the unit holding it, -1 when free.
    owner: Vec<Int>,
    /// The side to move.
    side: Int,
}

/// A symbolic action: its code and parameters (`x` the mover's piece, `r`
/// the castling partner, `y` the enemy piece, `f` a fresh unit, `l` a
/// label index (0-based; `labels` for none), `cap` whether a collision captures).
#[derive(Clone, Debug)]
struct Action {
    act: Int,
    x: Int,
    r: Int,
    y: Int,
    f: Int,
    l: Int,
    cap: Bool,
}

/// The initial values of a token.
#[derive(Clone, Copy, Debug)]
struct Initial {
    alive: bool,
    colour: i64,
    cells: i64,
    unit: i64,
}

fn int(v: i64) -> Int {
    Int::from_i64(v)
}

fn truth(model: &Model, b: &Bool) -> bool {
    model.eval(b, true).and_then(|b| b.as_bool()) == Some(true)
}

/// `terms[idx]` for a symbolic index in `0..terms.len()`.
fn pick(terms: &[Int], idx: &Int) -> Int {
    let mut out = terms.last().cloned().unwrap_or_else(|| int(-1));
    for (i, t) in terms.iter().enumerate().rev().skip(1) {
        out = idx.eq(int(i as i64)).ite(t, &out);
    }
    out
}

/// `flags[idx]` for a symbolic index.
fn pick_bool(flags: &[Bool], idx: &Int) -> Bool {
    let mut out = flags.last().cloned().unwrap_or_else(|| Bool::from_bool(false));
    for (i, t) in flags.iter().enumerate().rev().skip(1) {
        out = idx.eq(int(i as i64)).ite(t, &out);
    }
    out
}

/// A static per-token flag at a symbolic index.
fn pick_static(flags: &[bool], idx: &Int) -> Bool {
    let options: Vec<Bool> = flags.iter().enumerate().filter(|(_, f)| **f).map(|(i, _)| idx.eq(int(i as i64))).collect();
    Bool::or(&options)
}

/// The spread layer of one variant.
pub struct SpreadLayer<'a> {
    variant: &'a Variant,
    /// The tokens: the setup's pieces.
    pub tokens: Vec<Token>,
    /// The mechanisms modelled.
    pub rules: LayerRules,
    initial: Vec<Initial>,
    /// Per label: the setup's unit holding it (-1: free).
    initial_owner: Vec<i64>,
    /// Per unit id: the setup's unit is an entangled group.
    initial_groups: Vec<bool>,
    /// Facts proved to hold in every reachable state (by the last `check`).
    invariants: Vec<Fact>,
    initial_side: i64,
    timeout_ms: u32,
    deadline: Instant,
    /// Solver queries made.
    pub queries: u32,
}

impl<'a> SpreadLayer<'a> {
    /// The layer of `variant`, from its rules data and its setup. `Err`
    /// when the setup does not parse.
    pub fn new(variant: &'a Variant, timeout_ms: u32, deadline: Instant) -> Result<SpreadLayer<'a>, String> {
        let game = &variant.game;
        let start = variant.start().map_err(|d| format!("the setup does not parse: {}", d.message))?;
        let labels: Vec<String> =
            game.spread.as_ref().and_then(|s| s.entangle.as_ref()).map(|e| e.labels.clone()).unwrap_or_default();
        let split = game.spread.as_ref().is_some_and(|s| !s.weights.is_empty());
        let rules = LayerRules {
            split,
            castling_split: split && game.castling.is_some() && game.spread.as_ref().is_some_and(|s| s.castling_split),
            entangle: split && game.spread.as_ref().is_some_and(|s| s.entangle.is_some()),
            labels,
            drops: game.hand.is_some(),
        };
        let (tokens, initial) = tokens_of(variant, &start, rules.drops);
        let initial_owner = (1..=rules.labels.len())
            .map(|l| {
                start
                    .spread
                    .as_ref()
                    .and_then(|s| s.pairs.iter().find(|p| p.label as usize == l))
                    .map_or(-1, |p| p.unit as i64)
            })
            .collect();
        // The setup's entangled groups: units with a label or with pieces of
        // both sides (as `concrete::groups` counts them).
        let initial_groups = (0..tokens.len())
            .map(|u| {
                start.spread.as_deref().is_some_and(|s| {
                    let owner = |c: u16| color_of(start.board[c as usize]);
                    let mut members = s.pairs.iter().filter(|p| p.unit as usize == u);
                    members.next().is_some_and(|f| f.label != 0 || members.any(|p| p.label != 0 || owner(p.red) != owner(f.red)))
                })
            })
            .collect();
        Ok(SpreadLayer {
            variant,
            tokens,
            rules,
            initial,
            initial_owner,
            initial_groups,
            invariants: Vec::new(),
            initial_side: start.side as i64,
            timeout_ms,
            deadline,
            queries: 0,
        })
    }

    /// What the layer follows, as report text: `the 32 pieces of the setup
    /// through split, castling split, entangle (2 labels), collapse and capture`.
    pub fn describe(&self) -> String {
        let mut actions = Vec::new();
        if self.rules.split {
            actions.push("split".to_string());
        }
        if self.rules.castling_split {
            actions.push("castling split".to_string());
        }
        if self.rules.entangle {
            let n = self.rules.labels.len();
            actions.push(format!("entangle ({n} label{})", if n == 1 { "" } else { "s" }));
        }
        actions.push("collapse".into());
        actions.push("capture".into());
        if self.rules.drops {
            actions.push("drop".into());
        }
        let last = actions.pop().unwrap_or_default();
        let list = if actions.is_empty() { last } else { format!("{} and {last}", actions.join(", ")) };
        format!("the {} pieces of the setup through {list}", self.tokens.len())
    }

    fn solver(&mut self) -> Option<Solver> {
        let left = self.deadline.saturating_duration_since(Instant::now()).as_millis();
        if left == 0 {
            return None;
        }
        self.queries += 1;
        // Every term has a small finite domain (see `domain`): the
        // finite-domain logic bit-blasts to SAT.
        let solver = Solver::new_for_logic("QF_FD").unwrap_or_default();
        let mut params = Params::new();
        params.set_u32("timeout", self.timeout_ms.min(left.min(u32::MAX as u128) as u32).max(1));
        solver.set_params(&params);
        Some(solver)
    }

    fn state(&self, name: &str) -> LState {
        let n = self.tokens.len();
        LState {
            alive: (0..n).map(|i| Bool::new_const(format!("{name}.alive{i}"))).collect(),
            colour: (0..n).map(|i| Int::new_const(format!("{name}.colour{i}"))).collect(),
            cells: (0..n).map(|i| Int::new_const(format!("{name}.cells{i}"))).collect(),
            unit: (0..n).map(|i| Int::new_const(format!("{name}.unit{i}"))).collect(),
            group: (0..n).map(|u| Bool::new_const(format!("{name}.group{u}"))).collect(),
            owner: (0..self.rules.labels.len()).map(|l| Int::new_const(format!("{name}.owner{l}"))).collect(),
            side: Int::new_const(format!("{name}.side")),
        }
    }

    fn action(&self, name: &str) -> Action {
        Action {
            act: Int::new_const(format!("{name}.act")),
            x: Int::new_const(format!("{name}.x")),
            r: Int::new_const(format!("{name}.r")),
            y: Int::new_const(format!("{name}.y")),
            f: Int::new_const(format!("{name}.f")),
            l: Int::new_const(format!("{name}.l")),
            cap: Bool::new_const(format!("{name}.cap")),
        }
    }

    /// The bounds of a state's terms (the finite-domain solver needs them).
    fn domain(&self, s: &LState) -> Vec<Bool> {
        let top = self.tokens.len() as i64 - 1;
        let mut out = vec![s.side.ge(int(0)), s.side.le(int(1))];
        for i in 0..self.tokens.len() {
            out.extend([
                s.colour[i].ge(int(0)),
                s.colour[i].le(int(1)),
                s.cells[i].ge(int(1)),
                s.cells[i].le(int(MAX_CELLS)),
                s.unit[i].ge(int(-1)),
                s.unit[i].le(int(top)),
            ]);
        }
        for o in &s.owner {
            out.push(o.ge(int(-1)));
            out.push(o.le(int(top)));
        }
        out
    }

    fn action_domain(&self, a: &Action) -> Vec<Bool> {
        let top = self.tokens.len() as i64 - 1;
        let mut out = vec![a.act.ge(int(PASS)), a.act.le(int(DROP)), a.l.ge(int(0)), a.l.le(int(self.rules.labels.len() as i64))];
        for t in [&a.x, &a.r, &a.y, &a.f] {
            out.push(t.ge(int(0)));
            out.push(t.le(int(top)));
        }
        out
    }

    /// The setup's values.
    fn init(&self, s: &LState) -> Vec<Bool> {
        let mut out = vec![s.side.eq(int(self.initial_side))];
        for (i, v) in self.initial.iter().enumerate() {
            out.push(if v.alive { s.alive[i].clone() } else { s.alive[i].not() });
            out.push(s.colour[i].eq(int(v.colour)));
            out.push(s.cells[i].eq(int(v.cells)));
            out.push(s.unit[i].eq(int(v.unit)));
        }
        for (o, &v) in s.owner.iter().zip(&self.initial_owner) {
            out.push(o.eq(int(v)));
        }
        for (g, &v) in s.group.iter().zip(&self.initial_groups) {
            out.push(if v { g.clone() } else { g.not() });
        }
        out
    }

    /// Some alive token other than `except` (when given) is in unit `u`.
    fn has_member(&self, s: &LState, u: &Int, except: Option<&Int>) -> Bool {
        let parts: Vec<Bool> = (0..self.tokens.len())
            .map(|j| {
                let mut conj = vec![s.alive[j].clone(), s.unit[j].eq(u)];
                if let Some(e) = except {
                    conj.push(e.eq(int(j as i64)).not());
                }
                Bool::and(&conj)
            })
            .collect();
        Bool::or(&parts)
    }

    /// No label is held by unit `u`.
    fn unlabelled(&self, s: &LState, u: &Int) -> Bool {
        Bool::and(&s.owner.iter().map(|o| o.eq(u).not()).collect::<Vec<_>>())
    }

    /// Token `t` (symbolic) is alive, the mover's, and conventional.
    fn mover_conventional(&self, s: &LState, t: &Int) -> Bool {
        Bool::and(&[pick_bool(&s.alive, t), pick(&s.colour, t).eq(&s.side), pick(&s.unit, t).eq(int(-1))])
    }

    /// The castling pair `x` (castling kind) and `r` (partner kind), both the mover's and conventional.
    fn castling_pair(&self, s: &LState, a: &Action) -> Bool {
        let kings: Vec<bool> = self.tokens.iter().map(|t| t.king).collect();
        let rooks: Vec<bool> = self.tokens.iter().map(|t| t.rook).collect();
        Bool::and(&[
            pick_static(&kings, &a.x),
            pick_static(&rooks, &a.r),
            a.x.eq(&a.r).not(),
            self.mover_conventional(s, &a.x),
            self.mover_conventional(s, &a.r),
        ])
    }

    /// A fresh unit `f`: no alive token is in it and it holds no label.
    fn fresh(&self, s: &LState, f: &Int) -> Bool {
        Bool::and(&[self.has_member(s, f, None).not(), self.unlabelled(s, f)])
    }

    /// The entangle target `y`, an alive enemy token in a unit `U`, and the
    /// label choice `l`: none (`l` = the number of labels) when `U` holds a
    /// label (it keeps it); a free label when `U` holds none, whatever its
    /// members (a single pair or a castling unit becomes a group).
    fn entangle_target(&self, s: &LState, a: &Action) -> Bool {
        let u = pick(&s.unit, &a.y);
        let none = int(self.rules.labels.len() as i64);
        let takes: Vec<Bool> = s.owner.iter().enumerate().map(|(l, o)| Bool::and(&[a.l.eq(int(l as i64)), o.eq(int(-1))])).collect();
        let unlabelled = self.unlabelled(s, &u);
        Bool::and(&[
            pick_bool(&s.alive, &a.y),
            pick(&s.colour, &a.y).eq(&s.side).not(),
            u.eq(int(-1)).not(),
            Bool::or(&[
                Bool::and(&[unlabelled.not(), a.l.eq(&none)]),
                Bool::and(&[unlabelled, Bool::or(&takes)]),
            ]),
        ])
    }

    /// The action `a` may be taken in `s`, within `only` (see [`Only`]).
    fn enabled(&self, s: &LState, a: &Action, only: Only) -> Bool {
        let plain = only != Only::All;
        let movers: Vec<bool> = self.tokens.iter().map(|t| t.can_split && (only != Only::Mobile || t.mobile)).collect();
        let attacks: Vec<bool> = self.tokens.iter().map(|t| t.can_attack).collect();
        let rules = &self.rules;
        let mut options = vec![a.act.eq(int(PASS))];
        if rules.split {
            options.push(Bool::and(&[
                a.act.eq(int(SPLIT)),
                self.mover_conventional(s, &a.x),
                pick_static(&movers, &a.x),
                self.fresh(s, &a.f),
            ]));
        }
        if rules.castling_split && !plain {
            options.push(Bool::and(&[a.act.eq(int(CASTLE_SPLIT)), self.castling_pair(s, a), self.fresh(s, &a.f)]));
        }
        if rules.entangle {
            options.push(Bool::and(&[
                a.act.eq(int(ENTANGLE)),
                self.mover_conventional(s, &a.x),
                pick_static(&movers, &a.x),
                pick_static(&attacks, &a.x),
                self.entangle_target(s, a),
            ]));
            if rules.castling_split && !plain {
                options.push(Bool::and(&[a.act.eq(int(CASTLE_ENTANGLE)), self.castling_pair(s, a), self.entangle_target(s, a)]));
            }
        }
        options.push(Bool::and(&[
            a.act.eq(int(COLLISION)),
            pick_bool(&s.alive, &a.x),
            pick(&s.colour, &a.x).eq(&s.side),
            pick_static(&attacks, &a.x),
            pick_bool(&s.alive, &a.y),
            pick(&s.colour, &a.y).eq(&s.side).not(),
        ]));
        if rules.drops {
            options.push(Bool::and(&[a.act.eq(int(DROP)), pick_bool(&s.alive, &a.x).not()]));
        }
        Bool::or(&options)
    }

    /// The state after `a` in `s` (meaningful when `a` is enabled).
    fn next(&self, s: &LState, a: &Action) -> LState {
        let n = self.tokens.len();
        let is = |v: i64| a.act.eq(int(v));
        let none = int(-1);
        let target = pick(&s.unit, &a.y);
        let attacker_unit = pick(&s.unit, &a.x);
        let collision = is(COLLISION);
        // A unit that collapses: the attacker's or the victim's (when spread).
        let collapses = |u: &Int| {
            Bool::and(&[collision.clone(), u.eq(&none).not(), Bool::or(&[u.eq(&attacker_unit), u.eq(&target)])])
        };
        let mut out = LState {
            alive: Vec::new(),
            colour: Vec::new(),
            cells: Vec::new(),
            unit: Vec::new(),
            group: Vec::new(),
            owner: Vec::new(),
            side: int(1) - &s.side,
        };
        let entangling = Bool::or(&[is(ENTANGLE), is(CASTLE_ENTANGLE)]);
        for j in 0..n {
            let (is_x, is_r, is_y) = (a.x.eq(int(j as i64)), a.r.eq(int(j as i64)), a.y.eq(int(j as i64)));
            let x_or_r = Bool::or(&[is_x.clone(), is_r]);
            let splitting = Bool::or(&[Bool::and(&[is(SPLIT), is_x.clone()]), Bool::and(&[is(CASTLE_SPLIT), x_or_r.clone()])]);
            let joining = Bool::or(&[Bool::and(&[is(ENTANGLE), is_x.clone()]), Bool::and(&[is(CASTLE_ENTANGLE), x_or_r])]);
            let collapsing = Bool::and(&[s.alive[j].clone(), collapses(&s.unit[j])]);
            let captured = Bool::and(&[collision.clone(), a.cap.clone(), is_y]);
            let dropped = Bool::and(&[is(DROP), is_x]);
            let reset = Bool::or(&[captured.clone(), collapsing, dropped.clone()]);
            let grows = Bool::or(&[splitting.clone(), joining.clone()]);
            out.alive.push(captured.ite(&Bool::from_bool(false), &dropped.ite(&Bool::from_bool(true), &s.alive[j])));
            out.colour.push(dropped.ite(&s.side, &s.colour[j]));
            out.cells.push(reset.ite(&int(1), &grows.ite(&(&s.cells[j] + 1), &s.cells[j])));
            out.unit.push(reset.ite(&none, &splitting.ite(&a.f, &joining.ite(&target, &s.unit[j]))));
        }
        // A unit an entangle joins is a group; one that collapses, or a
        // split's new unit, is not.
        let new_unit = Bool::or(&[is(SPLIT), is(CASTLE_SPLIT)]);
        for (u, g) in s.group.iter().enumerate() {
            let u = int(u as i64);
            let off = Bool::or(&[collapses(&u), Bool::and(&[new_unit.clone(), a.f.eq(&u)])]);
            let joined = Bool::and(&[entangling.clone(), target.eq(&u)]);
            out.group.push(off.ite(&Bool::from_bool(false), &joined.ite(&Bool::from_bool(true), g)));
        }
        for (l, o) in s.owner.iter().enumerate() {
            let taken = Bool::and(&[entangling.clone(), a.l.eq(int(l as i64))]);
            out.owner.push(taken.ite(&target, &collapses(o).ite(&none, o)));
        }
        out
    }

    /// `a` equals `b`, term by term.
    fn same(&self, a: &LState, b: &LState) -> Vec<Bool> {
        let mut out = vec![a.side.eq(&b.side)];
        for i in 0..self.tokens.len() {
            out.push(a.alive[i].eq(&b.alive[i]));
            out.push(a.colour[i].eq(&b.colour[i]));
            out.push(a.cells[i].eq(&b.cells[i]));
            out.push(a.unit[i].eq(&b.unit[i]));
        }
        for (x, y) in a.owner.iter().zip(&b.owner) {
            out.push(x.eq(y));
        }
        for (x, y) in a.group.iter().zip(&b.group) {
            out.push(x.eq(y));
        }
        out
    }

    /// Unit `u` is a group without a label: marked as a group, with an
    /// alive member, and no label names it.
    fn unlabelled_group(&self, s: &LState, u: i64) -> Bool {
        let u_term = int(u);
        Bool::and(&[s.group[u as usize].clone(), self.has_member(s, &u_term, None), self.unlabelled(s, &u_term)])
    }

    /// The units a group may be (unit ids are token indices).
    fn unit_ids(&self) -> std::ops::Range<i64> {
        0..self.tokens.len() as i64
    }

    /// The number of labels in use.
    fn labels_in_use(&self, s: &LState) -> Int {
        let ones: Vec<Int> = s.owner.iter().map(|o| o.eq(int(-1)).ite(&int(0), &int(1))).collect();
        if ones.is_empty() {
            int(0)
        } else {
            Int::add(&ones)
        }
    }

    /// The number of entangled groups: the units holding a label (one per
    /// label in use, with [`Fact::OneLabelPerUnit`]) and the groups without
    /// one (none, with [`Fact::GroupsLabelled`]).
    fn groups(&self, s: &LState) -> Int {
        let mut ones = vec![self.labels_in_use(s)];
        ones.extend(self.unit_ids().map(|u| self.unlabelled_group(s, u).ite(&int(1), &int(0))));
        Int::add(&ones)
    }

    /// Every unit marked as a group holds a label.
    fn groups_labelled(&self, s: &LState) -> Bool {
        let parts: Vec<Bool> =
            s.group.iter().enumerate().map(|(u, g)| g.implies(self.unlabelled(s, &int(u as i64)).not())).collect();
        Bool::and(&parts)
    }

    /// `fact` holds in `s`, a groups claim in its stronger inductive form
    /// (see the module docs; `holds` states it exactly).
    fn holds_inductive(&self, s: &LState, fact: &Fact) -> Bool {
        match fact {
            Fact::Claim(Property::GroupsAtMost { groups }) => {
                Bool::and(&[self.labels_in_use(s).le(int(*groups as i64)), self.groups_labelled(s)])
            }
            _ => self.holds(s, fact),
        }
    }

    /// `fact` holds in `s`.
    fn holds(&self, s: &LState, fact: &Fact) -> Bool {
        let n = self.tokens.len();
        let each = |f: &dyn Fn(usize) -> Bool| Bool::and(&(0..n).map(f).collect::<Vec<_>>());
        match fact {
            Fact::Claim(Property::SpreadAtMost { squares }) => {
                each(&|j| s.alive[j].implies(s.cells[j].le(int(*squares as i64))))
            }
            Fact::Claim(Property::GroupsAtMost { groups }) => self.groups(s).le(int(*groups as i64)),
            Fact::Claim(_) => Bool::from_bool(true),
            Fact::ConventionalOneCell => each(&|j| s.alive[j].implies(s.unit[j].eq(int(-1)).eq(s.cells[j].eq(int(1))))),
            Fact::OneLabelPerUnit => {
                let mut parts = Vec::new();
                for (l, a) in s.owner.iter().enumerate() {
                    for b in &s.owner[l + 1..] {
                        parts.push(Bool::and(&[a.eq(int(-1)).not(), a.eq(b)]).not());
                    }
                }
                Bool::and(&parts)
            }
            Fact::GroupsLabelled => self.groups_labelled(s),
        }
    }

    /// Runs one query; `Ok(Some(model))` when satisfiable.
    fn ask(&mut self, facts: &[Bool]) -> Result<Option<Model>, String> {
        let Some(solver) = self.solver() else {
            return Err("overall time limit reached".into());
        };
        for f in facts {
            solver.assert(f);
        }
        let asked = Instant::now();
        let result = solver.check();
        if std::env::var_os("RULEBOOK_TIMINGS").is_some() {
            eprintln!("           spread layer query {}: {} facts, {result:?} in {:.2} s", self.queries, facts.len(), asked.elapsed().as_secs_f64());
        }
        match result {
            SatResult::Unsat => Ok(None),
            SatResult::Sat => solver.get_model().map(Some).ok_or_else(|| "no model".to_string()),
            SatResult::Unknown => Err(solver.get_reason_unknown().unwrap_or_else(|| format!("timeout after {} ms", self.timeout_ms))),
        }
    }

    /// Decides each of `claims` (spread properties; others are `Open`):
    /// proved by induction with the structural lemmas, else refuted by the
    /// shortest trace of at most `max_steps` actions from the setup, else open.
    pub fn check(&mut self, claims: &[Property], max_steps: usize) -> Vec<LayerVerdict> {
        let mut facts: Vec<Fact> = claims.iter().map(|p| Fact::Claim(p.clone())).collect();
        facts.extend([Fact::ConventionalOneCell, Fact::OneLabelPerUnit, Fact::GroupsLabelled]);
        let proved = self.houdini(&facts);
        // What Houdini kept holds in every state reachable from the setup:
        // the refutations may assume it of each state of their lines.
        self.invariants = match &proved {
            Ok(kept) => facts.iter().zip(kept).filter(|(_, k)| **k).map(|(f, _)| f.clone()).collect(),
            Err(_) => Vec::new(),
        };
        claims
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if !is_spread_property(p) {
                    return LayerVerdict::Open("not a claim about spread pieces".into());
                }
                match &proved {
                    Ok(kept) if kept[i] => LayerVerdict::Proved,
                    Ok(_) => match self.refute(p, max_steps) {
                        Ok(Some(trace)) => LayerVerdict::Refuted(trace),
                        Ok(None) => LayerVerdict::Open(format!(
                            "not inductive on the spread layer, and no sequence of at most {max_steps} abstract actions from the setup breaks it"
                        )),
                        Err(why) => LayerVerdict::Open(why),
                    },
                    Err(why) => LayerVerdict::Open(why.clone()),
                }
            })
            .collect()
    }

    /// The largest subset of `facts` that holds in the setup and is
    /// preserved together by every action (per fact: kept or not).
    fn houdini(&mut self, facts: &[Fact]) -> Result<Vec<bool>, String> {
        let s = self.state("s");
        let a = self.action("a");
        let next = self.next(&s, &a);
        // The setup.
        let start = self.state("init");
        let init = self.init(&start);
        let mut keep: Vec<bool> = Vec::with_capacity(facts.len());
        for f in facts {
            let mut q = init.clone();
            q.push(self.holds_inductive(&start, f).not());
            keep.push(self.ask(&q)?.is_none());
        }
        // The step: drop every fact a counterexample breaks, until none does.
        loop {
            let kept: Vec<usize> = (0..facts.len()).filter(|&i| keep[i]).collect();
            if kept.is_empty() {
                return Ok(keep);
            }
            let mut q = self.domain(&s);
            q.extend(self.action_domain(&a));
            q.push(self.enabled(&s, &a, Only::All));
            for &i in &kept {
                q.push(self.holds_inductive(&s, &facts[i]));
            }
            let after: Vec<Bool> = kept.iter().map(|&i| self.holds_inductive(&next, &facts[i])).collect();
            q.push(Bool::and(&after).not());
            let Some(model) = self.ask(&q)? else { return Ok(keep) };
            let broken: Vec<usize> = kept.iter().zip(&after).filter(|(_, f)| !truth(&model, f)).map(|(&i, _)| i).collect();
            if broken.is_empty() {
                return Err("the solver's counterexample breaks no fact".into());
            }
            for i in broken {
                keep[i] = false;
            }
        }
    }

    /// The shortest sequence of at most `max_steps` actions from the setup
    /// after which `p` fails; of equal length, the most plausible first (see
    /// [`Only`]). When proving that no shorter one exists takes too long,
    /// any sequence of at most `max_steps` actions, cut where `p` first fails.
    fn refute(&mut self, p: &Property, max_steps: usize) -> Result<Option<Trace>, String> {
        for k in 0..=max_steps {
            let tries: &[Only] = match (k, self.rules.castling_split) {
                (0, _) => &[Only::All],
                (_, true) => &[Only::Mobile, Only::NoCastling, Only::All],
                (_, false) => &[Only::Mobile, Only::All],
            };
            for &only in tries {
                match self.unroll(p, k, only) {
                    Ok(None) => {}
                    Ok(Some(trace)) => return Ok(Some(trace)),
                    Err(why) if k < max_steps => {
                        // Some line of `max_steps` actions (passes may pad it).
                        return match self.unroll(p, max_steps, Only::All) {
                            Ok(Some(trace)) => Ok(Some(trace)),
                            Ok(None) => Ok(None),
                            Err(_) => Err(why),
                        };
                    }
                    Err(why) => return Err(why),
                }
            }
        }
        Ok(None)
    }

    /// A sequence of `k` actions from the setup after which `p` fails (cut
    /// where it first fails).
    fn unroll(&mut self, p: &Property, k: usize, only: Only) -> Result<Option<Trace>, String> {
        let fact = Fact::Claim(p.clone());
        let states: Vec<LState> = (0..=k).map(|i| self.state(&format!("t{i}"))).collect();
        let actions: Vec<Action> = (0..k).map(|i| self.action(&format!("a{i}"))).collect();
        let mut q = self.init(&states[0]);
        for i in 0..k {
            q.extend(self.domain(&states[i + 1]));
            q.extend(self.action_domain(&actions[i]));
            q.push(self.enabled(&states[i], &actions[i], only));
            q.extend(self.same(&states[i + 1], &self.next(&states[i], &actions[i])));
        }
        // The proved invariants hold in each state of the line (they help
        // the solver; they rule out no line that is possible on the layer).
        for st in &states {
            for f in &self.invariants {
                q.push(self.holds_inductive(st, f));
            }
        }
        q.push(self.holds(&states[k], &fact).not());
        let Some(model) = self.ask(&q)? else { return Ok(None) };
        let first = (0..=k).find(|&i| !truth(&model, &self.holds(&states[i], &fact))).unwrap_or(k);
        Ok(Some(self.trace(&model, &states[..=first], &actions[..first], p)))
    }

    /// The trace a model gives, as text.
    fn trace(&self, model: &Model, states: &[LState], actions: &[Action], p: &Property) -> Trace {
        let value = |x: &Int| model.eval(x, true).and_then(|v| v.as_i64()).unwrap_or(-1);
        let game = &self.variant.game;
        let player = |c: i64| game.players.get(c as usize).map_or_else(|| format!("player {c}"), |p| p.name.clone());
        let piece = |t: i64| match self.tokens.get(t as usize) {
            Some(tok) => {
                let kind = game.kinds.get(tok.kind as usize).map_or("piece", |k| k.name.as_str());
                match tok.cell {
                    Some(c) => format!("{kind} from {}", game.geometry.name(c)),
                    None => format!("{kind} from the hand"),
                }
            }
            None => format!("piece #{t}"),
        };
        let label_name = |l: usize| self.rules.labels.get(l).map_or_else(|| format!("#{l}"), |s| format!("\"{s}\""));
        let mut steps = Vec::new();
        for (i, a) in actions.iter().enumerate() {
            let (before, after) = (&states[i], &states[i + 1]);
            let side = player(value(&before.side));
            let (x, r, y) = (value(&a.x), value(&a.r), value(&a.y));
            let theirs = |t: i64| format!("{}'s {}", player(value(&before.colour.get(t as usize).cloned().unwrap_or_else(|| int(-1)))), piece(t));
            // The group the mover's piece is in afterwards.
            let group = |t: i64| {
                let u = value(&after.unit.get(t as usize).cloned().unwrap_or_else(|| int(-1)));
                match after.owner.iter().position(|o| value(o) == u) {
                    Some(l) => format!("group {}", label_name(l)),
                    None => "a unit without a label".to_string(),
                }
            };
            let text = match value(&a.act) {
                SPLIT => format!("{side}: the {} splits onto two squares", piece(x)),
                CASTLE_SPLIT => format!("{side}: the {} splits by castling, and the {} joins its unit", piece(x), piece(r)),
                ENTANGLE => format!("{side}: the {} entangles with {} ({})", piece(x), theirs(y), group(x)),
                CASTLE_ENTANGLE => {
                    format!("{side}: the {} entangles by castling with {}, the {} joining too ({})", piece(x), theirs(y), piece(r), group(x))
                }
                COLLISION => format!(
                    "{side}: the {} attacks {}: their units collapse{}",
                    piece(x),
                    theirs(y),
                    if truth(model, &a.cap) { ", and it is captured" } else { "" }
                ),
                DROP => format!("{side}: the {} is dropped", piece(x)),
                _ => format!("{side}: a move that changes no piece's squares or unit"),
            };
            steps.push(format!("{}. {text}", i + 1));
        }
        let last = &states[states.len() - 1];
        let end = match p {
            Property::SpreadAtMost { .. } => {
                let spread: Vec<String> = (0..self.tokens.len())
                    .filter(|&j| truth(model, &last.alive[j]))
                    .filter_map(|j| {
                        let c = value(&last.cells[j]);
                        (c > 1).then(|| format!("the {} stands on {c} squares", piece(j as i64)))
                    })
                    .collect();
                if spread.is_empty() {
                    "every piece stands on one square".to_string()
                } else {
                    spread.join(", ")
                }
            }
            Property::GroupsAtMost { .. } => {
                let mut names: Vec<String> =
                    last.owner.iter().enumerate().filter(|(_, o)| value(o) != -1).map(|(l, _)| label_name(l)).collect();
                // Groups without a label: units holding pieces of both sides.
                for u in self.unit_ids() {
                    if !truth(model, &self.unlabelled_group(last, u)) {
                        continue;
                    }
                    let members: Vec<String> = (0..self.tokens.len())
                        .filter(|&j| truth(model, &last.alive[j]) && value(&last.unit[j]) == u)
                        .map(|j| format!("{}'s {}", player(value(&last.colour[j])), piece(j as i64)))
                        .collect();
                    names.push(format!("one without a label: {}", members.join(", ")));
                }
                format!("{} entangled group{} ({})", names.len(), if names.len() == 1 { "" } else { "s" }, names.join("; "))
            }
            _ => String::new(),
        };
        Trace { steps, end }
    }
}

/// The tokens of the setup `start` and their initial values: one per
/// conventional piece, one per pair (at its red cell), one per piece in hand
/// (off the board).
fn tokens_of(v: &Variant, start: &Position, drops: bool) -> (Vec<Token>, Vec<Initial>) {
    let game = &v.game;
    let templates = Templates::new(game);
    // Per kind: the kinds it may become (itself and its promotion targets).
    let becomes = |k: KindId| -> Vec<KindId> {
        let mut out = vec![k];
        for r in game.promotions.iter().filter(|r| r.kind == k) {
            out.extend(r.targets.iter().copied());
        }
        out
    };
    let has = |k: KindId, c: Color, quiet: bool| {
        templates.by_player[c as usize].iter().any(|t| t.kind == k && if quiet { t.quiet } else { t.capture || t.takes_ep })
    };
    let any_kind = |c: Color, quiet: bool| (0..game.kinds.len() as KindId).any(|k| has(k, c, quiet));
    let castling = game.castling.as_ref();
    // The cells of pieces that can move in the setup, per owner.
    let movable: [Vec<u16>; 2] = [0u8, 1].map(|c| {
        let mut pos = start.clone();
        pos.side = c;
        v.legal_moves(&pos).iter().map(|m| m.from).collect()
    });
    let make = |kind: KindId, color: Color, cell: Option<u16>| {
        let kinds = becomes(kind);
        Token {
            kind,
            color,
            cell,
            // A piece dropped back may come back as another kind (demoted).
            can_split: kinds.iter().any(|&k| has(k, color, true)) || (drops && (any_kind(0, true) || any_kind(1, true))),
            can_attack: kinds.iter().any(|&k| has(k, color, false)) || (drops && (any_kind(0, false) || any_kind(1, false))),
            king: castling.is_some_and(|r| r.king == kind),
            rook: castling.is_some_and(|r| r.partners.contains(&kind)),
            mobile: cell.is_some_and(|c| movable.get(color as usize).is_some_and(|m| m.contains(&c))),
        }
    };
    let mut tokens = Vec::new();
    let mut initial = Vec::new();
    for cell in game.geometry.board_cells() {
        let piece = start.board[cell as usize];
        if piece == 0 {
            continue;
        }
        let pair = start.spread.as_ref().and_then(|s| s.pair_at(cell).copied());
        if pair.is_some_and(|p| p.red != cell) {
            continue;
        }
        let (kind, color) = (kind_of(piece), color_of(piece));
        tokens.push(make(kind, color, Some(cell)));
        initial.push(match pair {
            Some(p) => Initial {
                alive: true,
                colour: color as i64,
                cells: if p.red == p.blue { 1 } else { 2 },
                unit: p.unit as i64,
            },
            None => Initial { alive: true, colour: color as i64, cells: 1, unit: -1 },
        });
    }
    for color in 0..2u8 {
        for kind in 0..game.kinds.len() {
            for _ in 0..start.hand[color as usize].get(kind).copied().unwrap_or(0) {
                tokens.push(make(kind as KindId, color, None));
                initial.push(Initial { alive: false, colour: color as i64, cells: 1, unit: -1 });
            }
        }
    }
    (tokens, initial)
}
