//! The watch of the `forbid` conditions that apply at a node
//! ([`super::watch_conds`]) kept from one count one ply above perft's
//! leaves to the next, with its answers: consecutive nodes mostly differ by
//! a move of the other side (or, at the ends of a ply that relocates a
//! piece, by where the relocated piece stands), which leaves the pieces the
//! conditions' lines count as they were.

use super::answers::Answers;
use super::{resolve, unbounded_line, FiresFrom, Watch};
use crate::engine::cond::RunMemo;
use crate::engine::frame;
use crate::engine::position::Position;
use crate::engine::tables::Tables;
use crate::model::cond::{Atom, Cond};
use crate::model::Game;

/// The last watch of `forbid` conditions, with what it read.
#[derive(Debug, Default)]
pub struct CondsMemo {
    /// What the last watch read ([`CondsMemo::read`]); empty before the first.
    key: Vec<u64>,
    /// The key of the node at hand, built here without allocating.
    scratch: Vec<u64>,
    /// The last watch.
    watch: Option<Watch>,
    /// Its answers.
    answers: Answers,
}

impl CondsMemo {
    /// [`super::watch_conds`] of `conds` at `pos` (`t` its tables, `runs`
    /// the runs already found there), from the memo where the last node
    /// read the same, with its answers kept per cell and per move.
    pub fn kept(&mut self, game: &Game, t: &Tables, pos: &Position, conds: &[&Cond], runs: &RunMemo) -> FiresFrom<'_> {
        let mut key = std::mem::take(&mut self.scratch);
        Self::read(game, t, pos, conds, &mut key);
        let holds = self.watch.is_some() && key == self.key;
        if holds {
            debug_assert_eq!(self.watch.as_ref(), Some(&super::watch_conds(game, t, pos, conds, runs)), "a conditions' watch from the memo at a node that reads the same");
            self.scratch = key;
        } else {
            self.watch = Some(super::watch_conds(game, t, pos, conds, runs));
            self.scratch = std::mem::replace(&mut self.key, key);
        }
        self.answers.renew(game.geometry.cells(), holds);
        let watch = self.watch.get_or_insert(Watch::Anything);
        self.answers.of(watch)
    }

    /// Everything [`super::watch_conds`] reads at `pos`, as words in `key`:
    /// the tables (by their number, which no other tables of the process
    /// have) and whether they are the position's frame's, the side to
    /// move, whether moves only place pieces, the conditions (by address:
    /// a memo serves one game), and the cells of the pieces each
    /// alternative's first unbounded `line` counts.
    fn read(game: &Game, t: &Tables, pos: &Position, conds: &[&Cond], key: &mut Vec<u64>) {
        key.clear();
        let mover = pos.side;
        key.push(t.id());
        key.push(u64::from(mover) | u64::from(frame::tables_match(t, pos)) << 8 | u64::from(super::moves_only_place(game, t, pos)) << 9);
        let cells = game.geometry.cells() as u32;
        for &cond in conds {
            key.push(std::ptr::from_ref(cond) as u64);
            for alt in &cond.any_of {
                match unbounded_line(alt, cells).map(|lit| &lit.atom) {
                    Some(Atom::Line { pieces, .. }) => {
                        let owner = resolve(pieces.who, mover, mover);
                        key.extend_from_slice(&crate::engine::cond::set_cells(pos, t, owner, pieces.kind)[..t.nwords]);
                    }
                    // No such line: the watch lets anything through, whatever the board.
                    _ => key.push(u64::MAX),
                }
            }
        }
    }
}
