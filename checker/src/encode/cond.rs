//! Rule conditions ([`Cond`]) as Z3 formulas over a [`State`]: the
//! encoding of `engine::cond`'s tests, for the decisions that depend on
//! them (a placement phase's `only if`).
//!
//! Stated: `line`, `count` (board, zone, `on some`/`on every` axis),
//! `in check`, `to move`, `has only`, `attacks`, `attacked`, `coloured
//! like`, and, from what the [`Reading`] gives as constants (the pieces out
//! of play and the phase, which no single move changes), `exiled … can
//! return` and `PHASE ends`. Not stated (the caller reports the decision as
//! not encoded): `distance`, `can move`.

use super::{int, sum, Encoder, State};
use rulebook_interpreter::engine::frame;
use rulebook_interpreter::flow::OutOfPlay;
use rulebook_interpreter::engine::position::{code, color_of, kind_of};
use rulebook_interpreter::model::cond::{Atom, Cond, PieceSet, Range, Scope, Who};
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Color, KindId};
use z3::ast::{Bool, Int};

/// How a condition is read (as in `engine::cond`): who is who (the player
/// who made or makes the move in question, the subject `own` names, the
/// side to move in the state), and the parts of the position that are
/// constants of the encoding: the pieces out of play and the phase.
#[derive(Clone, Copy, Debug)]
pub struct Reading<'p> {
    /// `mover`.
    pub mover: Color,
    /// `own`.
    pub subject: Color,
    /// The side to move in the state the condition is read in.
    pub to_move: Color,
    /// The current phase (an index into `Game::phases`; their number in play).
    pub phase: usize,
    /// The pieces out of play (`Flow::out`).
    pub out: &'p [OutOfPlay],
}

/// A test the encoding does not state, by its name in the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unstated(pub &'static str);

impl Reading<'_> {
    fn player(&self, w: Who) -> Color {
        w.player(self.mover, self.subject)
    }
}

impl Encoder<'_> {
    /// `cond` in state `s`, read with `roles`; the first test it has that
    /// the encoding does not state, if any.
    pub fn cond(&self, s: &State, cond: &Cond, roles: Reading) -> Result<Bool, Unstated> {
        let mut any = Vec::new();
        for conj in &cond.any_of {
            let mut all = Vec::new();
            for lit in conj {
                let a = self.atom(s, &lit.atom, roles)?;
                all.push(if lit.negated { a.not() } else { a });
            }
            any.push(Bool::and(&all));
        }
        Ok(Bool::or(&any))
    }

    /// The code on `v` is a piece of `owner` (of `kind`, or of any kind).
    fn is_of(&self, v: &Int, owner: Color, kind: Option<KindId>) -> Bool {
        match kind {
            Some(k) => v.eq(int(code(k, owner) as i64)),
            None => self.is_enemy(v, owner),
        }
    }

    /// 1 when a piece of the set (owned by `owner`) stands on `cell`, else 0.
    fn one_if(&self, s: &State, cell: Cell, owner: Color, kind: Option<KindId>) -> Int {
        self.is_of(&self.at(s, cell), owner, kind).ite(&int(1), &int(0))
    }

    fn within(n: &Int, range: Range) -> Bool {
        Bool::and(&[n.ge(int(range.lo as i64)), n.le(int(range.hi as i64))])
    }

    fn atom(&self, s: &State, atom: &Atom, roles: Reading) -> Result<Bool, Unstated> {
        let geo = &self.game.geometry;
        Ok(match atom {
            Atom::Line { length, pieces, axes } => self.line(s, *length, *pieces, axes, roles),
            Atom::Count { count: count_range, pieces, scope } => {
                let owner = roles.player(pieces.who);
                let count = |cells: &mut dyn Iterator<Item = Cell>| -> Int {
                    sum(&cells.map(|c| self.one_if(s, c, owner, pieces.kind)).collect::<Vec<_>>())
                };
                match scope {
                    Scope::Board => Self::within(&count(&mut self.cells.iter().copied()), *count_range),
                    Scope::Zone(z) => Self::within(&count(&mut z[owner as usize].iter().copied()), *count_range),
                    Scope::Some(axis) | Scope::Every(axis) => {
                        let slices: Vec<Bool> = (0..geo.size(*axis))
                            .map(|i| Self::within(&count(&mut self.cells.iter().copied().filter(|&c| geo.coords(c)[*axis] == i)), *count_range))
                            .collect();
                        if matches!(scope, Scope::Every(_)) {
                            Bool::and(&slices)
                        } else {
                            Bool::or(&slices)
                        }
                    }
                }
            }
            Atom::InCheck(w) => self.in_check(s, roles.player(*w)),
            Atom::ChecksGiven { .. } => return Err(Unstated("check counting")),
            Atom::Passed(_) => return Err(Unstated("passing")),
            Atom::BoardFull => return Err(Unstated("a full board")),
            Atom::ToMove(w) => Bool::from_bool(roles.to_move == roles.player(*w)),
            Atom::HasOnly { who, counts } => {
                let p = roles.player(*who);
                let mut all = Vec::new();
                for (k, &most) in counts.iter().enumerate().take(self.game.kinds.len()) {
                    let mut terms: Vec<Int> = self.cells.iter().map(|&c| self.one_if(s, c, p, Some(k as KindId))).collect();
                    terms.push(s.hand[k][p as usize].clone());
                    all.push(Int::add(&terms).le(int(most as i64)));
                }
                Bool::and(&all)
            }
            Atom::Attacks { pieces, target } => {
                let by = roles.player(pieces.who);
                let victim = roles.player(target.who);
                let ts = &self.templates.by_player[by as usize];
                let mut any = Vec::new();
                for &cell in &self.cells {
                    let from: Vec<Bool> = self.attackers[by as usize][cell as usize]
                        .iter()
                        .map(|&i| &ts[i])
                        .filter(|t| t.from != cell && pieces.kind.is_none_or(|k| t.kind == k))
                        .map(|t| self.template_ready(s, t, by))
                        .collect();
                    if !from.is_empty() {
                        any.push(Bool::and(&[self.is_of(&self.at(s, cell), victim, target.kind), Bool::or(&from)]));
                    }
                }
                Bool::or(&any)
            }
            Atom::Faces { pieces, target, axis, through } => {
                // Every pair of cells on one line along the axis: one of each
                // set on them, the cells between empty.
                let (p, q) = (roles.player(pieces.who), roles.player(target.who));
                let geo = &self.game.geometry;
                let mut any = Vec::new();
                for &a in &self.cells {
                    for &b in &self.cells {
                        let (ca, cb) = (geo.coords(a), geo.coords(b));
                        if a == b || ca.iter().zip(&cb).enumerate().any(|(i, (x, y))| i != *axis && x != y) {
                            continue;
                        }
                        let (lo, hi) = (ca[*axis].min(cb[*axis]), ca[*axis].max(cb[*axis]));
                        let mut at: Vec<i64> = ca.iter().map(|&c| c as i64).collect();
                        let mut parts = vec![self.is_of(&self.at(s, a), p, pieces.kind), self.is_of(&self.at(s, b), q, target.kind)];
                        let mut open = true;
                        for k in (lo + 1..hi).filter(|_| !*through) {
                            at[*axis] = k as i64;
                            match geo.cell(&at) {
                                Some(c) => parts.push(self.at(s, c).eq(int(0))),
                                None => open = false,
                            }
                        }
                        if open {
                            any.push(Bool::and(&parts));
                        }
                    }
                }
                Bool::or(&any)
            }
            Atom::Attacked(pieces) => {
                let owner = roles.player(pieces.who);
                let any: Vec<Bool> = self
                    .cells
                    .iter()
                    .map(|&c| Bool::and(&[self.is_of(&self.at(s, c), owner, pieces.kind), self.attacked(s, c, owner ^ 1)]))
                    .collect();
                Bool::or(&any)
            }
            Atom::Coloured { pieces, like } => {
                let owner = roles.player(pieces.who);
                let colour = frame::cell_colour(self.game, *like);
                let any: Vec<Bool> = self
                    .cells
                    .iter()
                    .filter(|&&c| frame::cell_colour(self.game, c) == colour)
                    .map(|&c| self.is_of(&self.at(s, c), owner, pieces.kind))
                    .collect();
                Bool::or(&any)
            }
            Atom::Exiled { pieces, onto } => {
                let holder = roles.player(pieces.who);
                let mut any = Vec::new();
                for e in roles.out.iter().filter(|e| e.holder == Some(holder) && pieces.kind.is_none_or(|k| kind_of(e.piece) == k)) {
                    let colour = color_of(e.piece);
                    for &c in &e.cells {
                        let occ = self.at(s, c);
                        any.push(match onto {
                            // It may land: the cell empty, or an enemy piece that is not royal there.
                            None if !e.fresh => Bool::or(&[occ.eq(int(0)), Bool::and(&[self.is_of(&occ, colour ^ 1, None), self.is_royal(&occ, colour ^ 1).not()])]),
                            None => continue,
                            Some(set) => {
                                let owner = roles.player(set.who);
                                if owner == colour {
                                    continue;
                                }
                                self.is_of(&occ, owner, set.kind)
                            }
                        });
                    }
                }
                Bool::or(&any)
            }
            Atom::PhaseEnds(phase) => {
                if roles.phase != *phase {
                    return Ok(Bool::from_bool(false));
                }
                let held: Vec<Int> = s.hand.iter().take(self.game.kinds.len()).flat_map(|h| h.iter().cloned()).collect();
                if held.is_empty() {
                    Bool::from_bool(true)
                } else {
                    Int::add(&held).eq(int(0))
                }
            }
            Atom::Distance { .. } => return Err(Unstated("distance")),
            Atom::CanMove { .. } => return Err(Unstated("can move")),
        })
    }

    /// `line N[..M] PIECES along AXES`: some maximal run of the set's
    /// pieces along one of `axes`, stepping in the encoder's frame, has a
    /// length in `length`. Without an upper bound, a window of `N` cells
    /// all holding a piece of the set is such a run's part; with one, a
    /// run of exactly `n` is its `n` cells held and the cells just before
    /// and after it (where there are any) not.
    fn line(&self, s: &State, length: Range, pieces: PieceSet, axes: &[usize], roles: Reading) -> Bool {
        let geo = &self.game.geometry;
        let owner = roles.player(pieces.who);
        let member = |c: Cell| self.is_of(&self.at(s, c), owner, pieces.kind);
        // No line is longer than the longest axis: a bound at least that
        // long is "or more", and a window of the least length stands for it.
        let longest = (0..geo.dims()).map(|a| geo.size(a)).max().unwrap_or(1) as u32;
        let open = length.hi >= longest;
        let hi = if open { length.lo } else { length.hi };
        let mut any = Vec::new();
        for &axis in axes {
            let mut fwd = vec![0i32; geo.dims()];
            fwd[axis] = 1;
            let back: Vec<i32> = fwd.iter().map(|x| -x).collect();
            let step = |c: Cell, v: &[i32]| crate::templates::frame_step(self.game, &self.offsets, c, v);
            for &start in &self.cells {
                // The cells of the longest window from `start` that `hi` allows.
                let mut run = vec![start];
                let mut last = start;
                while (run.len() as u32) < hi.max(1) {
                    match step(last, &fwd) {
                        Some(next) => {
                            run.push(next);
                            last = next;
                        }
                        None => break,
                    }
                }
                for n in length.lo.max(1)..=hi {
                    let n = n as usize;
                    if run.len() < n {
                        break;
                    }
                    let mut parts: Vec<Bool> = run[..n].iter().map(|&c| member(c)).collect();
                    if !open {
                        if let Some(before) = step(start, &back) {
                            parts.push(member(before).not());
                        }
                        if let Some(after) = step(run[n - 1], &fwd) {
                            parts.push(member(after).not());
                        }
                    }
                    any.push(Bool::and(&parts));
                    if open {
                        break;
                    }
                }
            }
        }
        Bool::or(&any)
    }
}
