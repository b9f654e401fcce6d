//! Actions: the decisions a player may take.

use crate::engine::position::Move;
use crate::model::geometry::Cell;

/// One decision. A placement from the hand is a [`Move`] of kind `Drop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A move of a piece, a drop (placement) or castling.
    Move(Move),
    /// Pull level `level` (at rest) out of the shaft by `|rows|` rows, in the
    /// direction of the sign, along its slide axis (`slide { … }`).
    Activate {
        /// The level's index on the stacking axis.
        level: u8,
        /// Signed number of rows.
        rows: i8,
    },
    /// Move the piece on `from` to the empty cell `to` (no capture).
    Relocate {
        /// Where the piece stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
    },
    /// Take pieces out of play: one of the deciding player's own (`own`)
    /// and one of the other player's (`enemy`), as the exile step asks.
    Exile {
        /// The cell of the own piece taken.
        own: Option<Cell>,
        /// The cell of the enemy piece taken.
        enemy: Option<Cell>,
    },
    /// Return piece `index` of the flow state's pieces out of play onto `to`
    /// (capturing an enemy piece there).
    Return {
        /// Index into `Flow::out`.
        index: u8,
        /// The cell the piece left (for notation).
        from: Cell,
        /// The return cell.
        to: Cell,
    },
    /// Waive an optional obligation.
    Pass,
}

impl Action {
    /// The move, if this action is one.
    pub fn as_move(&self) -> Option<&Move> {
        match self {
            Action::Move(m) => Some(m),
            _ => None,
        }
    }
}
