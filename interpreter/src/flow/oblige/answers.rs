//! The answers of one watch's pre-filter kept while the watch stays the
//! same ([`super::FiresFrom`]): [`super::Watch::may_fire_from`] per cell and
//! [`super::Watch::may_fire`] per move. Both memos of a count one ply
//! above perft's leaves keep them: the `oblige` rules' watch
//! ([`super::WatchMemo`]) and the `forbid` conditions' ([`super::CondsMemo`]).

use super::{FiresFrom, Watch, MOVE_SLOTS};

/// The kept answers, stamped with the round they were given in.
#[derive(Debug, Default)]
pub(super) struct Answers {
    /// [`Watch::may_fire_from`] per cell, as asked so far: the
    /// [`round`](Self::round) it was asked in (the high 16 bits) and 1 +
    /// the kind asked about × 2 + the answer (the answer reads the watch
    /// and the tables alone, not the board: it stays while the watch does).
    /// An answer of another round is not known.
    from: Vec<std::cell::Cell<u32>>,
    /// [`Watch::may_fire`] per move as asked so far, kept as
    /// [`from`](Self::from) is ([`FiresFrom::may_fire`]): a table of
    /// [`MOVE_SLOTS`] slots, each move in the one its cells hash to.
    moves: Vec<std::cell::Cell<u64>>,
    /// The round of the answers that hold (1 to 65,535; 0 before the
    /// first): a new watch starts a round instead of clearing the tables
    /// (at perft's nodes one ply above the leaves that cleared 9 KB each
    /// time, 7% of 4D-Schach's swinging perft 4).
    round: u32,
}

impl Answers {
    /// Makes ready to answer for a board of `cells` cells: the answers
    /// kept so far hold on where `holds`, else a new round starts (once
    /// the stamps run out, the tables are cleared and round 1 starts again).
    pub(super) fn renew(&mut self, cells: usize, holds: bool) {
        if self.from.len() != cells || self.round == 0 {
            self.from.clear();
            self.from.resize_with(cells, Default::default);
            self.moves.clear();
            self.moves.resize_with(MOVE_SLOTS, Default::default);
            self.round = 1;
        } else if !holds {
            self.round += 1;
            if self.round > u32::from(u16::MAX) {
                self.from.iter().for_each(|c| c.set(0));
                self.moves.iter().for_each(|c| c.set(0));
                self.round = 1;
            }
        }
    }

    /// `watch` with the answers of this round.
    pub(super) fn of<'a>(&'a self, watch: &'a Watch) -> FiresFrom<'a> {
        FiresFrom { watch, known: &self.from, moves: &self.moves, round: self.round }
    }
}
