//! The complete plies from a node of a placement phase, counted from the
//! set of cells its placements may go to.
//!
//! Profile behind it (perf, 4D-Schach's perft 4 from the empty tower, the
//! kings then one pawn each): listing the drops and testing each
//! placement's guards one by one was 70% of the count, about 35 µs for
//! each of the 1,688 nodes one ply above the leaves, 211 placements each.
//! The guards are cell sets or cheap per-cell tests
//! ([`phase::placement_cells`]), and a placement after which no rule can
//! oblige ([`super::super::oblige::Watch::drops_may_fire`]) ends its ply: it is one complete ply,
//! counted without a move being listed or made.

use super::super::ply::in_ply;
use super::super::{phase, Action};
use crate::engine::position::{cells_in, Move};
use crate::engine::variant::Variant;
use crate::engine::position::Position;

impl Variant {
    /// The complete plies from `pos`, a node of placement phase `phase`
    /// (its index in `Game::phases`), where [`phase::placement_cells`]
    /// finds its placements as a set; `None` otherwise (the caller lists
    /// them). Each placement the oblige watch lets through is made and
    /// followed; every other one is a complete ply.
    pub(super) fn count_placing(&self, pos: &Position, phase: usize) -> Option<u64> {
        let game = &self.game;
        let placement = &game.phases.get(phase)?.placement;
        let t = self.tables_for(pos);
        let (kind, cells) = phase::placement_cells(game, &t, placement, pos)?;
        let watch = super::super::oblige::watch(game, &t, pos);
        let us = pos.side;
        let firing = watch.drops_may_fire(&t, kind, us, &cells);
        let mut n: u64 = cells.iter().zip(&firing).map(|(c, f)| u64::from((c & !f).count_ones())).sum();
        for cell in cells_in(&firing) {
            let next = self.apply(pos, &Action::Move(Move::drop(kind, cell)));
            n += if in_ply(&next) { self.count_complete(&next) } else { 1 };
        }
        Some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::perft::plies_reference;
    use super::super::super::ply::{below_from, random_complete_ply, Node};
    use super::*;
    use crate::engine::position::{MoveKind, WORDS};
    use crate::test_support::variant;

    /// Along random games through 4D-Schach's opening (32 placements in
    /// the rulebook's order, with colours, guards and `only if`s, then the
    /// entropy correction), at every node of the phase: the cells
    /// [`phase::placement_cells`] finds are the cells of the placements
    /// listed one by one ([`Variant::actions`], [`phase::placements`]), and
    /// the count is the number of complete plies by the definition
    /// ([`plies_reference`] one ply deep, before the last four placements). The kings' placements, and any
    /// node where a guard needs the placement made, are listed instead
    /// (`None`); most nodes are found as sets.
    #[test]
    fn placement_cells_are_the_placements_listed() {
        let v = variant("rules/4d-schach.rules");
        let (mut found, mut listed) = (0, 0);
        for game in 0..2u64 {
            let mut below = below_from(0x9E37_79B9_7F4A_7C15 ^ game);
            let mut pos = v.start().expect("the setup");
            for _ in 0..34 {
                let Node::Placing(phase) = v.node(&pos) else { break };
                let t = v.tables_for(&pos);
                let placement = &v.game.phases[phase].placement;
                match phase::placement_cells(&v.game, &t, placement, &pos) {
                    Some((kind, cells)) => {
                        let mut expected = [0u64; WORDS];
                        for a in v.actions(&pos) {
                            let Action::Move(m) = a else { panic!("a placement node offers moves") };
                            assert_eq!((m.kind, m.piece), (MoveKind::Drop, kind), "a placement of the kind due");
                            expected[m.to as usize / 64] |= 1 << (m.to % 64);
                        }
                        assert_eq!(cells, expected, "the placements' cells");
                        // The last placements lead to the entropy correction,
                        // whose relocations the definition follows slowly.
                        if phase::hand_size(&v.game, &pos, 0) + phase::hand_size(&v.game, &pos, 1) > 4 {
                            assert_eq!(v.count_placing(&pos, phase), Some(plies_reference(&v, &pos, 1)), "the complete plies");
                        }
                        found += 1;
                    }
                    None => listed += 1,
                }
                let Some(next) = random_complete_ply(&v, &pos, &mut below) else { break };
                pos = next;
            }
        }
        assert!(found >= 50 && listed >= 4, "{found} nodes found as sets, {listed} listed");
    }
}
