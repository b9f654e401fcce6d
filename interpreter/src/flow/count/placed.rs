//! The activations after a relocation, judged for all its targets at once.
//!
//! A relocation's targets lead to positions that differ only by where the
//! relocated piece stands; each then owes the same activations, which
//! change the frame only. Where an activation ends the ply ([`FrameWatch`]:
//! no rule can fire in its frame), the ply is legal when the mover's royal
//! piece is not attacked in the frame after the jumps at its end. So, per
//! activation, the frame, its tables, the runs the rules look for without
//! the relocated piece and the attacks on the royal piece without it
//! ([`crate::engine::movegen::AttackLines::shield`]) are worked out once,
//! on the board without the piece; each
//! target then asks only whether a run forms through its cell and whether
//! the piece on it blocks every attack. Profile behind it (perf, 4D-Schach's
//! post-opening perft 3): the activation leaves were 6 of its 11.8 million
//! plies, and judging each alone took most of the count
//! (`attacked_forward` 16%, `FrameWatch::may_fire` 13%, the frames'
//! tables 12%).

use super::super::oblige::{watch_frames, FrameWatch, PlacedWatches};
use super::super::Action;
use super::owes_activation;
use crate::engine::cond::RunMemo;
use crate::engine::frame;
use crate::engine::movegen::{attack_lines, attack_lines_from, Shield};
use crate::engine::position::{color_of, kind_of, Position, WORDS};
use crate::engine::variant::Variant;
use crate::model::geometry::Cell;

impl Variant {
    /// The count of [`Variant::count_activations`] for `nodes` that differ
    /// only by one piece of the ply's mover, on `placed[i]` in node `i` (a
    /// relocation's targets), judged activation by activation for all of
    /// them at once (see the module documentation); `None` where the nodes
    /// are not such (other differences, a royal piece moved, no frame watch
    /// at some node, explosions, spread or face-down pieces, several royal
    /// pieces), and the caller judges them one by one.
    pub(super) fn count_placed_activations(&self, nodes: &[Position], placed: &[Cell]) -> Option<u64> {
        let first = nodes.first()?;
        let at = *placed.first()?;
        if placed.len() != nodes.len() || !nodes.iter().zip(placed).all(|(node, &cell)| differs_only_by_placed(first, at, node, cell)) {
            return None;
        }
        self.count_placed_from(first, placed, |i, out| out.clone_from(&nodes[i]))
    }

    /// [`Self::count_placed_activations`] for the nodes that are `first`
    /// with its piece on `placed[0]` on `placed[i]` instead (each one's
    /// [`differs_only_by_placed`] from `first` is the caller's to know), where
    /// `node(i, out)` writes node `i` into `out`: the few nodes followed one
    /// by one are made then, and the others never are.
    pub(super) fn count_placed_from(&self, first: &Position, placed: &[Cell], node: impl Fn(usize, &mut Position)) -> Option<u64> {
        let mut count = PlacedCount(0);
        self.placed_activations(first, placed, node, &mut count)?;
        Some(count.0)
    }

    /// The walk of [`Self::count_placed_from`], telling `sink` what it
    /// finds: per activation, the nodes whose ply it ends legally with no
    /// rule firing (by their cells), and every position after it that is
    /// followed one by one. `None` (nothing told) where the nodes are not
    /// judged so.
    pub(in crate::flow) fn placed_activations(&self, first: &Position, placed: &[Cell], node: impl Fn(usize, &mut Position), sink: &mut impl PlacedSink) -> Option<()> {
        let game = &self.game;
        if placed.len() < 2 || game.explosion.is_some() || first.spread.is_some() || first.any_hidden() {
            return None;
        }
        // The frame watch is the node's where it owes only the activation.
        if !owes_activation(first) || first.flow.as_ref().is_none_or(|f| f.queue.len() != 1) {
            return None;
        }
        let (mover, by) = (first.side ^ 1, first.side);
        if first.royal_count[mover as usize] > 1 {
            return None;
        }
        let t = self.tables_for(first);
        let mut base = first.clone();
        base.take(placed[0], &t);
        let piece = first.board[placed[0] as usize];
        if piece == 0 || color_of(piece) != mover || t.royal_mask >> kind_of(piece) & 1 != 0 {
            return None;
        }
        let mut spare = first.clone();
        // The watches split, found from the board without the piece where
        // its tests allow, else from each node's own watch.
        let watches = match PlacedWatches::around(game, &t, first, &base, piece, placed) {
            Some(w) => w,
            None => {
                let each: Vec<FrameWatch> = (0..placed.len())
                    .map(|i| {
                        node(i, &mut spare);
                        watch_frames(game, &t, &spare)
                    })
                    .collect();
                PlacedWatches::new(each.iter().zip(placed.iter().copied()))?
            }
        };
        // Each node's cell is its own (the count goes by cells).
        let cells = *watches.cells()?;
        let actions = self.candidates(first);
        let runs: Vec<RunMemo> = placed.iter().map(|_| RunMemo::default()).collect();
        let king = base.royal[mover as usize];
        // The attacks on the royal piece in the node's frame, on the board
        // without the piece: an activation's frame changes only those whose
        // paths cross the levels it moves ([`frame::unchanged_between`]).
        let stack = game.slide.as_ref().map(|s| s.stack_axis);
        let node_lines = if base.royal_count[mover as usize] == 0 { None } else { attack_lines(&t, &base, king, by) };
        let mut next = first.clone();
        let mut formed = Vec::new();
        for a in &actions {
            // The activation judged on the board without the piece: the
            // runs formed without it in its frame, and the attacks on the
            // royal piece after the ply's jumps. The nodes no rule can fire
            // at end their ply: legal where the piece keeps the royal piece
            // unattacked. The others (all of them where the activation is
            // not judged so) are made and followed.
            if let Action::Activate { level, rows } = a {
                base.frame.clone_from(&first.frame);
                if frame::activate(game, &mut base, *level, *rows) {
                    let t_now = self.tables_for(&base);
                    watches.formed(&t_now, &mut formed);
                    let keeps = frame::tick_keeps_offsets(&base);
                    frame::tick(game, &mut base);
                    let t_end = if keeps { t_now.clone() } else { self.tables_for(&base) };
                    let shield = if base.royal_count[mover as usize] == 0 {
                        Some(Shield::Unattacked)
                    } else if let (Some(lines), Some(stack)) = (&node_lines, stack) {
                        // Only the attackers whose paths to the royal piece
                        // cross a level the frame moved are looked at again.
                        let changed = frame::changed_levels(&t.frame, &t_end.frame);
                        let at = game.geometry.coord(king, stack);
                        let same = |a: Cell| frame::unchanged_between(changed, game.geometry.coord(a, stack), at);
                        attack_lines_from(&t_end, &base, king, by, |a| !same(a)).map(|l| l.shield().and(lines.shield_from(same)))
                    } else {
                        attack_lines(&t_end, &base, king, by).map(|l| l.shield())
                    };
                    if let Some(shield) = shield {
                        // By cells: the nodes no rule fires at counted
                        // together, the others followed one by one.
                        let firing = watches.judge(&t_now, &formed).firing();
                        let calm: [u64; WORDS] = std::array::from_fn(|w| cells[w] & !firing[w]);
                        sink.ended(self, (*level, *rows), &shield.kept_cells(&calm), placed, &node);
                        if firing.iter().all(|&w| w == 0) {
                            continue;
                        }
                        for i in (0..placed.len()).filter(|&i| firing[placed[i] as usize / 64] >> (placed[i] % 64) & 1 != 0) {
                            node(i, &mut spare);
                            self.apply_keeping_runs(&spare, &t, a, &mut next, &runs[i]);
                            sink.followed(self, &next);
                        }
                        continue;
                    }
                }
            }
            for (i, runs) in runs.iter().enumerate() {
                node(i, &mut spare);
                self.apply_keeping_runs(&spare, &t, a, &mut next, runs);
                sink.followed(self, &next);
            }
        }
        Some(())
    }
}

/// What [`Variant::placed_activations`] tells: the count of complete plies
/// ([`PlacedCount`]) or their ends (perft's, [`crate::flow::perft::ply_ends`]).
pub(in crate::flow) trait PlacedSink {
    /// The activation of `level` by `rows` (the pair `activation`) ends the
    /// ply legally, with no rule firing, at the nodes whose cell (in
    /// `placed`: node `i` has its piece on `placed[i]`) is in `cells`;
    /// `node(i, out)` writes node `i` into `out`.
    fn ended(&mut self, v: &Variant, activation: (u8, i8), cells: &[u64; WORDS], placed: &[Cell], node: &dyn Fn(usize, &mut Position));

    /// `next`, a position after an activation at one node, is followed on
    /// its own (a rule may fire, or the activation is not judged by cells).
    fn followed(&mut self, v: &Variant, next: &Position);
}

/// The count of complete plies (what [`Variant::count_placed_from`] returns).
struct PlacedCount(u64);

impl PlacedSink for PlacedCount {
    fn ended(&mut self, _: &Variant, _: (u8, i8), cells: &[u64; WORDS], _: &[Cell], _: &dyn Fn(usize, &mut Position)) {
        // Each node's cell is its own: one ply per cell.
        self.0 += cells.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
    }

    fn followed(&mut self, v: &Variant, next: &Position) {
        self.0 += v.plies_through(next);
    }
}

/// Is `node` the position `first` with the piece `first` has on `at` on
/// `cell` instead: the same side to move, frame, flow state and board but
/// for those two cells (`cell` empty in `first`)? Such nodes are judged
/// together ([`Variant::count_placed_from`]).
pub(in crate::flow) fn differs_only_by_placed(first: &Position, at: Cell, node: &Position, cell: Cell) -> bool {
    let (a, c) = (at as usize, cell as usize);
    let piece = first.board[a];
    let state = node.side == first.side && node.frame == first.frame && node.flow == first.flow;
    if a == c {
        return state && node.board == first.board;
    }
    let (lo, hi) = (a.min(c), a.max(c));
    state
        && first.board[c] == 0
        && node.board[c] == piece
        && node.board[a] == 0
        && node.board[..lo] == first.board[..lo]
        && node.board[lo + 1..hi] == first.board[lo + 1..hi]
        && node.board[hi + 1..] == first.board[hi + 1..]
}

#[cfg(test)]
mod tests {
    use super::super::owes_activation;
    use crate::engine::position::Position;
    use crate::engine::variant::Variant;
    use super::{frame, watch_frames, FrameWatch, PlacedWatches};
    use crate::flow::ply::relocations_along_random_lines;
    use crate::flow::Action;

    fn load(path: &std::path::Path) -> Variant {
        let Ok((game, _)) = crate::model::load::load(path) else { panic!("{} does not load", path.display()) };
        Variant::new(std::sync::Arc::new(game))
    }

    /// Along random lines of play from `start`, every move that forms a
    /// group: the activations after its relocation's targets counted
    /// together and one node after another give the same count. Returns
    /// how many relocations were compared, and how many of them the batch
    /// judged.
    fn compare(v: &Variant, start: &Position, lines: u64, plies: usize) -> (usize, usize) {
        let (mut compared, mut batched, mut frames) = (0, 0, 0);
        relocations_along_random_lines(v, start, lines, plies, |next| {
            let (mut nodes, mut placed) = (Vec::new(), Vec::new());
            for (a, after) in v.successors(next) {
                if let (Action::Relocate { to, .. }, true) = (a, owes_activation(&after) && !v.dead_mid_ply(&after)) {
                    nodes.push(after);
                    placed.push(Some(to));
                }
            }
            let alone = v.count_activations(&mut nodes, &vec![None; placed.len()]);
            let together = v.count_activations(&mut nodes, &placed);
            assert_eq!(together, alone, "{}", v.fen(next));
            compared += 1;
            let cells: Vec<_> = placed.iter().flatten().copied().collect();
            batched += usize::from(v.count_placed_activations(&nodes, &cells).is_some());
            frames += watches_agree(v, &nodes, &cells);
        });
        assert!(frames > 0 || compared == 0, "no relocation's watches split from the board without the piece");
        (compared, batched)
    }

    /// The frame watches of a relocation's targets split from the board
    /// without the piece ([`PlacedWatches::around`]) answer as each
    /// target's own watch ([`watch_frames`]) in every frame an activation
    /// offered there makes, node by node and by cells.
    /// Returns how many activation frames were compared.
    fn watches_agree(v: &Variant, nodes: &[Position], placed: &[crate::model::geometry::Cell]) -> usize {
        let (Some(first), Some(&cell)) = (nodes.first(), placed.first()) else { return 0 };
        let t = v.tables_for(first);
        let mut base = first.clone();
        base.take(cell, &t);
        let Some(around) = PlacedWatches::around(&v.game, &t, first, &base, first.board[cell as usize], placed) else { return 0 };
        let each: Vec<FrameWatch> = nodes.iter().map(|p| watch_frames(&v.game, &v.tables_for(p), p)).collect();
        let Some(own) = PlacedWatches::new(each.iter().zip(placed.iter().copied())) else { panic!("split but not one by one: {}", v.fen(first)) };
        let mut formed = (Vec::new(), Vec::new());
        let mut frames = 0;
        for a in v.candidates(first) {
            let Action::Activate { level, rows } = a else { continue };
            base.frame.clone_from(&first.frame);
            if !frame::activate(&v.game, &mut base, level, rows) {
                continue;
            }
            let t = v.tables_for(&base);
            around.formed(&t, &mut formed.0);
            own.formed(&t, &mut formed.1);
            let (around_fires, own_fires) = (around.judge(&t, &formed.0), own.judge(&t, &formed.1));
            // By cells too ([`Fires::firing`]), as the count asks.
            let firing = around_fires.firing();
            for i in 0..nodes.len() {
                assert_eq!(around_fires.may_fire(i), own_fires.may_fire(i), "{} with a piece on {}", v.fen(&base), placed[i]);
                let by_cell = firing[placed[i] as usize / 64] >> (placed[i] % 64) & 1 != 0;
                assert_eq!(by_cell, own_fires.may_fire(i), "{} with a piece on {} (by cells)", v.fen(&base), placed[i]);
            }
            frames += 1;
        }
        frames
    }

    /// The small tower of interpreter/tests/flow_fast_path.rs, whose pawns
    /// form groups within a few plies, and 4D-Schach from the post-opening
    /// test position of interpreter/tests/four_d.rs (at rest, and with
    /// level IV swinging).
    #[test]
    fn activations_judged_together_count_as_one_by_one() {
        let dir = std::env::temp_dir().join(format!("rulebook-placed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let tower = dir.join("tower.rules");
        std::fs::write(&tower, TOWER).expect("write");
        let v = load(&tower);
        let mut compared = 0;
        for fen in ["k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1", "k3/1p2/p1p1/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1", "1P2/4/4/3k|1P2/4/4/4|4/1PP1/3P/K3 w - - 0 1"] {
            let pos = v.parse_fen(fen, "<test>").expect("tower position");
            let (all, batched) = compare(&v, &pos, 12, 8);
            assert!(batched * 2 > all, "{batched} of {all} relocations judged together");
            compared += batched;
        }
        let v4 = load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/4d-schach.rules"));
        const P: &str = crate::test_support::FOUR_D_POST_OPENING;
        // After VIf1-VIf2, White's VIIf3-VIf3 forms the group VIf2-f3-f4
        // (interpreter/tests/flow_fast_path.rs), whatever Black plays.
        for fen in [P.to_string(), format!("{P} {{frame=IV:-3<-3*}}")] {
            let pos = v4.parse_fen(&fen, "<test>").expect("4D position");
            let name = |c| v4.game.geometry.name(c);
            let m = v4.legal_moves(&pos).into_iter().find(|m| name(m.from) == "VIf1" && name(m.to) == "VIf2").expect("VIf1-VIf2");
            let pos = v4.play(&pos, &m);
            let (all, batched) = compare(&v4, &pos, 6, 3);
            assert!(batched * 2 > all, "{batched} of {all} relocations judged together");
            compared += batched;
        }
        assert!(compared > 50, "{compared} relocations compared");
    }

    const TOWER: &str = r#"
variant "Tower with groups"
board { files a..d  ranks 1..4  levels I II III }
players {
  white: forward +rank
  black: forward -rank
}
slide {
  levels I III along rank
  levels II along file
  out at most 3
  swing 1 row per ply, overshoot 1 less each pass
}
piece King K { royal  move W  move F }
piece Rook R { move ride W }
piece Pawn P { quiet W  capture F }
rule "group" {
  on ply-end
  if line 3 own Pawn along file rank level
  then owner must relocate inner pieces to another level,
    placed piece attacks no enemy and is not attacked,
    only if not line 3 own Pawn along file rank level
  then owner must activate
}
setup "k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1"
end {
  checkmate: lose
  stalemate: draw
}
"#;
}
