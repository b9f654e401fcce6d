//! Spread pieces (`spread { … }`): the state of pieces that stand on two
//! squares at once, and the constants that mark spread actions and their
//! chance outcomes in a [`Move`](crate::position::Move).
//!
//! A *pair* is one piece on two cells, its red and its blue half; both halves
//! stand on the board with the piece's code. Pairs belong to *units*: a unit
//! collapses on one roll of its weight's die and every member goes to the
//! same branch (red or blue). An independent pair is a unit of one member;
//! an entangled *group* is a unit of two or more, and carries a label.

use crate::geometry::Cell;

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
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpreadState {
    /// The pairs.
    pub pairs: Vec<Pair>,
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

    /// How many groups (units of two or more members) exist.
    pub fn groups(&self) -> usize {
        let mut units: Vec<u8> = self.pairs.iter().map(|p| p.unit).collect();
        units.sort_unstable();
        units.dedup();
        units.iter().filter(|&&u| self.unit(u).count() >= 2).count()
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
