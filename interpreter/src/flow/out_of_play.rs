//! Pieces out of play (`exile` and `return exiled piece`, issue 13).
//!
//! An `exile` step of an `oblige` rule takes pieces of the level activated in
//! the ply off the board. Each becomes an [`OutOfPlay`] entry of the flow
//! state, with the player who holds the power to return it (the exiling
//! player), the cell it left, the level whose swing is its deadline, and its
//! *return cells*: the cells of its level that have stood, since it left, at
//! the place in the shaft where it stood when it left. The set starts with
//! the cell it left and grows at every jump of the level ([`after_tick`]).
//!
//! A `return exiled piece` step puts one piece its player holds back onto a
//! return cell that is empty or holds a piece of the other colour (captured;
//! never a royal piece), not in the ply it was taken in. When the level
//! comes to rest, the deadline has passed: a piece of the holder's own colour
//! stays out for good (no holder), and a piece of the other colour passes to
//! its owner when the step says `missed: enemy piece to owner` (no deadline
//! any more), else it stays out too.

use crate::engine::frame;
use crate::engine::position::{color_of, kind_of, Position};
use crate::model::geometry::Cell;
use crate::model::{Color, Game};

/// A piece out of play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OutOfPlay {
    /// The piece (its board code: kind and colour).
    pub piece: u8,
    /// The cell it left.
    pub origin: Cell,
    /// Who may return it (`None`: nobody, it stays out for good).
    pub holder: Option<Color>,
    /// The level whose swing is the deadline (`None`: no deadline).
    pub level: Option<u8>,
    /// That level's offset when the piece left (its place in the shaft is
    /// the origin's local coordinate plus this on the level's slide axis).
    pub anchor: i8,
    /// Its return cells, in the order gained.
    pub cells: Vec<Cell>,
    /// Taken in the ply in progress (not returned in it).
    pub fresh: bool,
    /// An enemy piece not returned in time passes to its owner.
    pub to_owner: bool,
}

impl OutOfPlay {
    /// A number mixing the whole entry, for `Position::key`.
    pub fn key(&self) -> u64 {
        let mut h = u64::from(self.piece) | u64::from(self.origin) << 8 | u64::from(self.holder.map_or(3, |c| c)) << 24;
        h |= u64::from(self.level.map_or(255, |l| l)) << 26 | u64::from(self.anchor as u8) << 34 | u64::from(self.fresh) << 42 | u64::from(self.to_owner) << 43;
        for &c in &self.cells {
            h = h.wrapping_mul(0x100000001B3).wrapping_add(u64::from(c) + 1);
        }
        h
    }
}

/// May a piece out of play whose board code is `piece` return onto `cell` in
/// `pos`: empty, or holding a piece of the other colour that is not royal?
pub fn may_land(game: &Game, pos: &Position, piece: u8, cell: Cell) -> bool {
    let occ = pos.board[cell as usize];
    occ == 0 || (color_of(occ) != color_of(piece) && !game.kinds.get(kind_of(occ) as usize).is_some_and(|k| k.royal))
}

/// The returns `player` may make in `pos`: (entry index, the cell it left,
/// the return cell) for each piece it holds that was not taken in this ply,
/// onto each of its return cells where it may land.
pub fn returns(game: &Game, pos: &Position, player: Color) -> Vec<(u8, Cell, Cell)> {
    let Some(flow) = &pos.flow else { return Vec::new() };
    let mut out = Vec::new();
    for (i, e) in flow.out.iter().enumerate() {
        if e.holder != Some(player) || e.fresh {
            continue;
        }
        for &c in &e.cells {
            if may_land(game, pos, e.piece, c) {
                out.push((i as u8, e.origin, c));
            }
        }
    }
    out
}

/// The cell of level `level` that stands, with the level at `offset`, where
/// `origin` stood with the level at `anchor` (`None`: outside the level).
fn cell_at_place(game: &Game, origin: Cell, anchor: i8, offset: i8) -> Option<Cell> {
    let slide = game.slide.as_ref()?;
    let coords = game.geometry.coords(origin);
    let level = coords[slide.stack_axis];
    let axis = slide.axes.get(level).copied().flatten()?;
    let local = coords[axis] as i64 + i64::from(anchor) - i64::from(offset);
    if local < 0 || local >= game.geometry.size(axis) as i64 {
        return None;
    }
    let mut c: Vec<i64> = coords.iter().map(|&x| x as i64).collect();
    c[axis] = local;
    game.geometry.cell(&c)
}

/// The end of a complete ply, after the levels jumped ([`frame::tick`]):
/// every entry whose level swings gains the cell now standing at its place;
/// an entry whose level has come to rest passes its deadline (the cell at
/// its place at rest is gained first); nothing taken is fresh any more.
pub fn after_tick(game: &Game, pos: &mut Position) {
    if pos.flow.as_ref().is_none_or(|f| f.out.is_empty()) {
        return; // nothing out of play (the usual end of a ply)
    }
    let offsets = frame::offsets_of(pos);
    let swinging: Vec<bool> = match &pos.frame {
        Some(f) => f.levels.iter().map(|l| l.swing.is_some()).collect(),
        None => Vec::new(),
    };
    let Some(flow) = pos.flow.as_mut() else { return };
    for e in &mut flow.out {
        e.fresh = false;
        let Some(level) = e.level else { continue };
        let offset = offsets.as_ref().and_then(|o| o.get(level as usize).copied()).unwrap_or(0);
        if let Some(c) = cell_at_place(game, e.origin, e.anchor, offset) {
            if !e.cells.contains(&c) {
                e.cells.push(c);
            }
        }
        if swinging.get(level as usize).copied().unwrap_or(false) {
            continue;
        }
        // The level is at rest: the deadline has passed.
        e.level = None;
        let own = e.holder == Some(color_of(e.piece));
        e.holder = if !own && e.to_owner && e.holder.is_some() { Some(color_of(e.piece)) } else { None };
    }
}
