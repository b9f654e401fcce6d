//! Spread pieces (`spread { … }`): the state of pieces that stand on two
//! squares at once, and the constants that mark spread actions and their
//! chance outcomes in a [`Move`].
//!
//! A *pair* is one piece on two cells, its red and its blue half; both halves
//! stand on the board with the piece's code. Pairs belong to *units*: a unit
//! collapses on one roll of its weight's die and every member goes to the
//! same branch (red or blue). An independent pair is a unit of one member;
//! an entangled *group* is a unit of two or more, and carries a label.

use crate::model::geometry::Cell;

/// One piece standing on two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    /// The cell of its red half.
    pub red: Cell,
    /// The cell of its blue half.
    pub blue: Cell,
    /// Its unit: pairs with equal `unit` collapse together.
    pub unit: u8,
    /// The unit's weight (index into `SpreadRules::weights`).
    pub weight: u8,
    /// The unit's group label, 1-based index into `EntangleRules::labels`; 0: none.
    pub label: u8,
}

/// Red or blue: a branch of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Branch {
    /// The red branch.
    Red,
    /// The blue branch.
    Blue,
}

impl Pair {
    /// The cell of the half in `branch`.
    pub fn cell(&self, branch: Branch) -> Cell {
        match branch {
            Branch::Red => self.red,
            Branch::Blue => self.blue,
        }
    }

    /// The branch whose half stands on `cell` (`None` if neither does).
    pub fn branch_at(&self, cell: Cell) -> Option<Branch> {
        if self.red == cell {
            Some(Branch::Red)
        } else if self.blue == cell {
            Some(Branch::Blue)
        } else {
            None
        }
    }
}

/// The spread pieces of a position. Kept canonical (pairs sorted by their
/// red cell, units numbered in order of first appearance), so equal states
/// compare and hash equal.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct SpreadState {
    /// The pairs.
    pub pairs: Vec<Pair>,
}

impl Clone for SpreadState {
    fn clone(&self) -> Self {
        SpreadState { pairs: self.pairs.clone() }
    }

    /// Reuses the pairs' allocation ([`Position::copy_from`] of a reused copy allocates nothing).
    fn clone_from(&mut self, source: &Self) {
        self.pairs.clone_from(&source.pairs);
    }
}

impl SpreadState {
    /// The pair with a half on `cell`.
    pub fn pair_at(&self, cell: Cell) -> Option<&Pair> {
        self.pairs.iter().find(|p| p.red == cell || p.blue == cell)
    }

    /// The members of unit `unit`.
    pub fn unit(&self, unit: u8) -> impl Iterator<Item = &Pair> {
        self.pairs.iter().filter(move |p| p.unit == unit)
    }

    /// How many group labels are in use. Every entangled group carries one
    /// (R8, R16), so in the engine's positions this is the number of groups;
    /// [`entangled_groups`] counts the groups from the pieces themselves.
    pub fn groups(&self) -> usize {
        let mut labels: Vec<u8> = self.pairs.iter().map(|p| p.label).filter(|&l| l != 0).collect();
        labels.sort_unstable();
        labels.dedup();
        labels.len()
    }

    /// Sorts the pairs and renumbers the units (canonical form).
    pub fn normalize(&mut self) {
        self.pairs.sort_unstable_by_key(|p| (p.red, p.blue));
        let mut map: Vec<(u8, u8)> = Vec::new();
        for p in &mut self.pairs {
            let next = map.len() as u8;
            let id = match map.iter().find(|(old, _)| *old == p.unit) {
                Some(&(_, new)) => new,
                None => {
                    map.push((p.unit, next));
                    next
                }
            };
            p.unit = id;
        }
    }

    /// A unit id not used by any pair.
    pub fn fresh_unit(&self) -> u8 {
        self.pairs.iter().map(|p| p.unit + 1).max().unwrap_or(0)
    }
}

/// How many entangled groups `pos` holds. A group is a unit that an
/// entangling move formed or joined: entangling joins a piece to a unit of
/// the other side, so a group holds pieces of both sides, and the engine
/// gives it a label. A unit of one side's pieces without a label (a single
/// pair, or a castling split's king and partner) is not a group. Counted
/// here: the units that hold pieces of both sides or carry a label, so
/// that a position written by hand cannot hide a group by leaving out its
/// label (docs/LANGUAGE.md §3.17).
pub fn entangled_groups(pos: &crate::engine::position::Position) -> usize {
    use crate::engine::position::color_of;
    let Some(state) = pos.spread.as_deref() else { return 0 };
    let mut units: Vec<u8> = state.pairs.iter().map(|p| p.unit).collect();
    units.sort_unstable();
    units.dedup();
    let owner = |p: &Pair| pos.board.get(p.red as usize).map(|&c| color_of(c));
    units
        .into_iter()
        .filter(|&u| {
            let mut members = state.unit(u);
            let Some(first) = members.next() else { return false };
            first.label != 0 || members.any(|p| p.label != 0 || owner(p) != owner(first))
        })
        .count()
}

// --- Move::spread: what spread action a move is -------------------------------

/// `Move::spread & ACTION`: the action (one of the constants below, or 0 for an ordinary move).
pub const ACTION: u8 = 0b11;
/// A split: the piece stands on `to` and `second` afterwards (one of them may be `from`).
pub const SPLIT: u8 = 1;
/// An entangle: a stay-and-move split joining the unit of the enemy half on `aux`.
pub const ENTANGLE: u8 = 2;
/// A tunnel: a ride through the enemy piece directly before `to`.
pub const TUNNEL: u8 = 3;
/// Set when the red half is `second` (otherwise `to` is red).
pub const RED_SECOND: u8 = 0x80;
/// `(Move::spread >> WEIGHT_SHIFT) & WEIGHT_MASK`: the split's weight (index into `SpreadRules::weights`).
pub const WEIGHT_SHIFT: u8 = 2;
/// See [`WEIGHT_SHIFT`].
pub const WEIGHT_MASK: u8 = 0b1_1111;

// --- Move::outcome: the chance outcome of a collision or tunnel -----------------

/// The attacker's unit collapsed to red.
pub const ATTACKER_RED: u8 = 1;
/// The attacker's unit collapsed to blue.
pub const ATTACKER_BLUE: u8 = 2;
/// The victim's unit collapsed to red (0 in the victim bits when it is the attacker's unit or conventional).
pub const VICTIM_RED: u8 = 4;
/// The victim's unit collapsed to blue.
pub const VICTIM_BLUE: u8 = 8;
/// The tunnel succeeded.
pub const THROUGH: u8 = 16;
/// The tunnel failed: the piece bounces back and stays.
pub const BOUNCE: u8 = 32;

/// The attacker's branch in an outcome.
pub fn attacker_branch(outcome: u8) -> Option<Branch> {
    match outcome & 3 {
        ATTACKER_RED => Some(Branch::Red),
        ATTACKER_BLUE => Some(Branch::Blue),
        _ => None,
    }
}

/// The victim's branch in an outcome.
pub fn victim_branch(outcome: u8) -> Option<Branch> {
    match outcome & 12 {
        VICTIM_RED => Some(Branch::Red),
        VICTIM_BLUE => Some(Branch::Blue),
        _ => None,
    }
}

// --- Playing a move in a game with spread pieces ---------------------------------

use crate::model::Game;
use crate::engine::position::{code, kind_of, Move, MoveKind, Position, NO_CELL, PROMOTED};
use crate::engine::tables::Tables;

/// Does `m` need [`make`] rather than the plain make? (A spread action, a
/// chance outcome of one, or any move while pieces stand spread.)
#[inline]
pub fn needs_spread_make(pos: &Position, m: &Move) -> bool {
    m.spread != 0 || m.outcome != 0 || pos.spread.is_some()
}

/// The red and blue cells of a split or entangle move.
pub fn split_cells(m: &Move) -> (Cell, Cell) {
    if m.spread & RED_SECOND != 0 {
        (m.second, m.to)
    } else {
        (m.to, m.second)
    }
}

/// The cell of the enemy half an entangle attacks.
pub fn entangle_target(m: &Move) -> Cell {
    (m.aux >> 16) as Cell
}

/// The cell of the victim a capture attempt aims at (`m.to`, or the
/// en-passant victim's cell).
pub fn victim_cell(m: &Move) -> Cell {
    if m.kind == MoveKind::EnPassant {
        (m.aux & 0xFFFF) as Cell
    } else {
        m.to
    }
}

/// Plays `m` in a game with spread pieces (see the module docs and
/// docs/LANGUAGE.md): splits and entangles put the piece on two cells,
/// a capture attempt involving a half collapses the units involved first
/// (the outcome in `m.outcome` says to which branch), a quiet move of a half
/// moves that half, a tunnel passes or bounces. Passes the turn.
pub fn make(pos: &mut Position, m: &Move, game: &Game, t: &Tables) {
    let mut state = pos.spread.take().map(|b| *b).unwrap_or_default();
    match m.spread & ACTION {
        TUNNEL => {
            if m.outcome & BOUNCE != 0 {
                pass(pos, game, m.piece, false);
            } else {
                let plain = Move { kind: MoveKind::Normal, aux: 0, spread: 0, outcome: 0, ..*m };
                pos.make_plain(&plain, game, t);
            }
        }
        SPLIT | ENTANGLE => split(pos, &mut state, m, game, t),
        _ => ordinary(pos, &mut state, m, game, t),
    }
    state.normalize();
    pos.spread = if state.pairs.is_empty() { None } else { Some(Box::new(state)) };
}

/// The turn passes without a piece moving (a bounce, or a collision whose
/// attacker turned out to stand elsewhere).
fn pass(pos: &mut Position, game: &Game, piece: u8, captured: bool) {
    pos.ep_len = 0;
    pos.ep_victim = NO_CELL;
    let resets = captured || game.end.fifty_move_piece == Some(piece);
    pos.halfmove = if resets { 0 } else { pos.halfmove.saturating_add(1) };
    if pos.side == 1 {
        pos.fullmove = pos.fullmove.saturating_add(1);
    }
    pos.side ^= 1;
}

/// Collapses `unit` to `branch`: every member stays on that branch's cell
/// and leaves the other.
fn collapse(pos: &mut Position, state: &mut SpreadState, unit: u8, branch: Branch, t: &Tables) {
    let members: Vec<Pair> = state.unit(unit).copied().collect();
    for p in members {
        let gone = match branch {
            Branch::Red => p.blue,
            Branch::Blue => p.red,
        };
        pos.take(gone, t);
    }
    state.pairs.retain(|p| p.unit != unit);
}

fn ordinary(pos: &mut Position, state: &mut SpreadState, m: &Move, game: &Game, t: &Tables) {
    if matches!(m.kind, MoveKind::Castle | MoveKind::Drop) {
        pos.make_plain(m, game, t);
        return;
    }
    let mut m = *m;
    let attacker = state.pair_at(m.from).copied();
    let mut vcell = victim_cell(&m);
    if m.kind == MoveKind::EnPassant {
        if let Some(v) = state.pair_at(vcell).copied() {
            // En passant against a half: re-placed as if the pawn had made
            // the single step (the half moves onto the passed cell), then an
            // ordinary capture attempt there.
            let piece = pos.take(vcell, t);
            pos.put(m.to, piece, t);
            relocate(state, v, vcell, m.to);
            m.kind = MoveKind::Normal;
            m.aux = 0;
            vcell = m.to;
        }
    }
    let victim = state.pair_at(vcell).copied();
    let present = pos.board[vcell as usize] != 0;
    if present && (attacker.is_some() || victim.is_some()) {
        // A collision: the units involved collapse first.
        if let (Some(a), Some(b)) = (attacker, attacker_branch(m.outcome)) {
            collapse(pos, state, a.unit, b, t);
        }
        if let Some(v) = victim {
            if attacker.is_none_or(|a| a.unit != v.unit) {
                if let Some(b) = victim_branch(m.outcome) {
                    collapse(pos, state, v.unit, b, t);
                }
            }
        }
        let here = pos.board[m.from as usize];
        let mover_here = here != 0 && kind_of(here) == m.piece && crate::engine::position::color_of(here) == pos.side;
        if !mover_here {
            pass(pos, game, m.piece, false);
            return;
        }
        // The attacker is real: it moves, capturing the victim if it is there
        // and landing on the empty cell if not.
        pos.make_plain(&m, game, t);
        return;
    }
    if let Some(a) = attacker {
        // A quiet move of a half: that half moves; a promotion changes both.
        pos.make_plain(&m, game, t);
        relocate(state, a, m.from, m.to);
        if m.is_promotion() {
            let other = if a.red == m.from { a.blue } else { a.red };
            let us = pos.side ^ 1;
            pos.take(other, t);
            pos.put(other, code(m.promotion, us) | PROMOTED, t);
        }
        return;
    }
    pos.make_plain(&m, game, t);
}

/// Moves the half of `pair` on `from` to `to` in the state.
fn relocate(state: &mut SpreadState, pair: Pair, from: Cell, to: Cell) {
    if let Some(p) = state.pairs.iter_mut().find(|p| **p == pair) {
        if p.red == from {
            p.red = to;
        } else if p.blue == from {
            p.blue = to;
        }
    }
}

fn split(pos: &mut Position, state: &mut SpreadState, m: &Move, game: &Game, t: &Tables) {
    let us = pos.side;
    let (red, blue) = split_cells(m);
    let piece = pos.take(m.from, t);
    for c in [m.to, m.second] {
        pos.put(c, piece, t);
    }
    let weight = (m.spread >> WEIGHT_SHIFT) & WEIGHT_MASK;
    let unit = state.fresh_unit();
    state.pairs.push(Pair { red, blue, unit, weight, label: 0 });
    pos.ep_len = 0;
    pos.ep_victim = NO_CELL;
    match m.kind {
        MoveKind::Castle => {
            // The partner castles in the king's castling branch and stays in the other.
            let partner = (m.aux & 0xFFFF) as Cell;
            if let Some(rule) = &game.castling {
                let rook_to = rule.sides[m.side as usize].rook_to[us as usize];
                let rook = pos.board[partner as usize];
                pos.put(rook_to, rook, t);
                let (r, b) = if red == m.to { (rook_to, partner) } else { (partner, rook_to) };
                state.pairs.push(Pair { red: r, blue: b, unit, weight, label: 0 });
            }
        }
        MoveKind::EnPassantSetter => {
            // The double step's passed cells become targets while they are empty.
            // An entangle keeps its target in the high half of `aux`.
            let start = if m.spread & ACTION == ENTANGLE { m.aux & 0xFFFF } else { m.aux };
            let mut n = 0;
            for &c in t.cells.get(start as usize..).unwrap_or(&[]).iter().take(4) {
                if c == m.to {
                    break;
                }
                if pos.board[c as usize] == 0 {
                    pos.ep_targets[n] = c;
                    n += 1;
                }
            }
            pos.ep_len = n as u8;
            if n > 0 {
                pos.ep_victim = m.to;
            }
        }
        _ => {}
    }
    if m.spread & ACTION == ENTANGLE {
        // Join the attacked half's unit: same weight, and its label. A unit
        // without one (a single pair, or a castling split's king and
        // partner) becomes a new group and takes the first free label (the
        // generator offers no entangle with it when none is free).
        if let Some(target) = state.pair_at(entangle_target(m)).copied() {
            let label = if target.label != 0 {
                target.label
            } else {
                let labels = game.spread.as_ref().and_then(|s| s.entangle.as_ref()).map_or(0, |e| e.labels.len());
                (1..=labels as u8).find(|l| !state.pairs.iter().any(|p| p.label == *l)).unwrap_or(0)
            };
            for p in state.pairs.iter_mut() {
                if p.unit == unit || p.unit == target.unit {
                    p.unit = target.unit;
                    p.weight = target.weight;
                    p.label = label;
                }
            }
        }
    }
    if let Some(rule) = &game.castling {
        if m.piece == rule.king {
            pos.castling[us as usize] = [NO_CELL; 2];
        }
    }
    pos.lose_right_at(m.from);
    let resets = game.end.fifty_move_piece == Some(m.piece);
    pos.halfmove = if resets { 0 } else { pos.halfmove.saturating_add(1) };
    if us == 1 {
        pos.fullmove = pos.fullmove.saturating_add(1);
    }
    pos.side ^= 1;
}

/// The probability of `m`'s chance outcome given its decision (1 for a
/// move without one): the product over the collapsed units of their
/// branch's faces over the die's faces, or the tunnel's.
pub fn outcome_probability(game: &Game, pos: &Position, m: &Move) -> num_rational::Ratio<u64> {
    use num_rational::Ratio;
    let mut p = Ratio::from_integer(1u64);
    if m.outcome == 0 {
        return p;
    }
    let faces = |die: usize| game.dice.get(die).map_or(1, |d| d.faces as u64).max(1);
    if m.outcome & (THROUGH | BOUNCE) != 0 {
        if let Some(tunnel) = &game.tunnel {
            let n = faces(tunnel.die);
            let through = tunnel.through_faces.len() as u64;
            p *= if m.outcome & THROUGH != 0 { Ratio::new(through, n) } else { Ratio::new(n - through.min(n), n) };
        }
        return p;
    }
    let Some(rules) = &game.spread else { return p };
    let Some(state) = pos.spread.as_deref() else { return p };
    let branch_p = |pair: &Pair, branch: Branch| -> Ratio<u64> {
        match rules.weights.get(pair.weight as usize) {
            Some(w) => {
                let n = match branch {
                    Branch::Red => w.red_faces.len(),
                    Branch::Blue => w.blue_faces.len(),
                };
                Ratio::new(n as u64, faces(w.die))
            }
            None => Ratio::from_integer(0),
        }
    };
    if let (Some(a), Some(b)) = (state.pair_at(m.from), attacker_branch(m.outcome)) {
        p *= branch_p(a, b);
    }
    if let (Some(v), Some(b)) = (state.pair_at(victim_cell(m)), victim_branch(m.outcome)) {
        p *= branch_p(v, b);
    }
    p
}
