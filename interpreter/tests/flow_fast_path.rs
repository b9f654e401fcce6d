//! The flow layer's fast path against its reference: perft sends through the
//! flow layer only the nodes with flow state or a swinging level and, at
//! other nodes, only the moves after which an `oblige` rule fires
//! (`Variant::ply_starts`, with a pre-filter on the guard's `line` atoms);
//! `flow::perft::plies_reference` makes every decision through the flow
//! layer (`Variant::successors_reference`). Both must count the same, with
//! groups forming within the depth, and list the same decisions.

mod support;

use rulebook_interpreter::flow::perft::{plies, plies_reference};
use rulebook_interpreter::{Position, Variant};

/// The small tower of interpreter/tests/obligations.rs (4 × 4 × 3, every
/// level sliding), with the group rule; `LINE` is its length range.
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
  if line LINE own Pawn along file rank level
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

/// The tower with `line` (`3`: no upper bound, so the pre-filter applies;
/// `3..4`: bounded, so every move is tried).
fn tower(line: &str) -> Variant {
    support::variant_from_text("fast-path-tower", &TOWER.replace("LINE", line))
}

fn at(v: &Variant, fen: &str) -> Position {
    v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message))
}

/// Positions of the tower where groups form within three plies: White's
/// d2-d3 forms b3-c3-d3 at once; Black's pawns can form one on their second
/// move; a standing black group (not yet fired: it fires after White's
/// move, for Black as the subject); a level swinging.
const POSITIONS: [&str; 4] = [
    "k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1",
    "k3/1p2/p1p1/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1",
    "k3/4/ppp1/4|4/4/4/4|4/1P2/2P1/K3 w - - 0 1",
    "k3/1p2/p1p1/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1 {frame=II:+2<+2*}",
];

/// The same decisions (in the same order) and the same counts, fast path
/// and reference, for both guards (to depth 3 for the unbounded one).
#[test]
fn the_fast_path_counts_as_the_reference_in_the_tower() {
    for line in ["3", "3..4"] {
        let v = tower(line);
        for fen in POSITIONS {
            let pos = at(&v, fen);
            let fast: Vec<_> = v.successors(&pos).into_iter().map(|(a, _)| a).collect();
            let reference: Vec<_> = v.successors_reference(&pos).into_iter().map(|(a, _)| a).collect();
            assert_eq!(fast, reference, "line {line}, {fen}: decisions");
            assert_eq!(v.actions(&pos), fast, "line {line}, {fen}: actions");
            let mut legal = v.legal_moves(&pos);
            let mut want: Vec<_> = fast.iter().filter_map(|a| a.as_move().copied()).collect();
            legal.sort_by_key(|m| (m.from, m.to, m.promotion));
            want.sort_by_key(|m| (m.from, m.to, m.promotion));
            assert_eq!(legal, want, "line {line}, {fen}: legal moves");
            // Depth 3 where the pre-filter works; the bounded guard (every
            // move tried, as the reference does) to depth 2 (debug-build time).
            let deepest = if line == "3" { 3 } else { 2 };
            for depth in 1..=deepest {
                assert_eq!(plies(&v, &pos, depth), plies_reference(&v, &pos, depth), "line {line}, {fen}, depth {depth}");
            }
        }
    }
}

/// The first position: White's d2-d3 forms the group b3-c3-d3 (I), and
/// only it starts a longer ply, so `needs_flow` holds; without White's d2
/// pawn no move can form a group and the node stays on the engine's path.
#[test]
fn needs_flow_asks_whether_a_move_starts_a_longer_ply() {
    let v = tower("3");
    let pos = at(&v, POSITIONS[0]);
    assert!(v.needs_flow(&pos));
    let t = v.tables_for(&pos);
    let starts = v.ply_starts(&pos, &t).expect("the pre-filter decides");
    let names: Vec<String> = starts.iter().map(|s| format!("{}{}", v.game.geometry.name(s.mv.from), v.game.geometry.name(s.mv.to))).collect();
    assert_eq!(names, ["Id2Id3"]);
    let quiet = at(&v, "k3/4/4/4|4/4/4/4|4/1PP1/4/K3 w - - 0 1");
    assert!(!v.needs_flow(&quiet));
}

const G: &str = "7k/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/8|8/8/8/8/2P5/8/2P5/2P5|8/8/8/8/8/8/8/8|8/8/8/8/8/8/8/K7 w - - 0 1";

/// 4D-Schach, White pawns IIIc1, IIIc2, IIIc4, kings VIIh8 (Black) and
/// Ia1 (White). Only IIIc4-IIIc3 forms a group (c1-c2-c3): its inner pawn
/// c2 goes to an empty cell of another level (6 × 64 cells less the two
/// kings' and the 6 the black king attacks: VIIg8, VIIg7, VIIh7 and VIh8,
/// VIg8, VIh7 — a pawn there would be attacked; 376 cells; no placement
/// makes a new line of 3), then one of 7 × 14 = 98 activations, none of
/// which exposes White's king (the only black piece is the far king):
/// 376 × 98 = 36,848 plies. The other 20 moves are plies of one decision.
#[test]
#[ignore = "about 10 s in a debug build; cargo test -p rulebook-interpreter --release --test flow_fast_path -- --ignored"]
fn a_group_in_4d_schach_counts_as_derived() {
    let v = support::variant("4d-schach");
    let pos = at(&v, G);
    let fast = plies(&v, &pos, 1);
    assert_eq!(fast, 376 * 98 + 20);
    assert_eq!(plies_reference(&v, &pos, 1), fast);
}

/// The post-opening test position of four_d.rs at depth 2, at rest and
/// with level IV swinging: fast path and reference agree.
#[test]
#[ignore = "about a minute in a debug build; cargo test -p rulebook-interpreter --release --test flow_fast_path -- --ignored"]
fn the_4d_test_position_counts_as_the_reference() {
    let v = support::variant("4d-schach");
    const P: &str = "5p2/2P5/8/6p1/8/5P2/4B3/8|4n3/8/8/7q/5P2/8/3R4/5P2|8/8/4p3/3k4/8/8/7R/6N1|8/8/B3P3/8/8/b3p3/8/8|6n1/7r/8/8/3K4/4P3/8/8|5p2/3r4/8/5p2/7Q/8/8/4N3|8/4b3/5p2/8/6P1/8/2p5/5P2 w - - 0 1";
    for fen in [P.to_string(), format!("{P} {{frame=IV:-3<-3*}}")] {
        let pos = at(&v, &fen);
        assert_eq!(plies(&v, &pos, 2), plies_reference(&v, &pos, 2), "{fen}");
    }
    // After VIf1-VIf2, White's VIIf3-VIf3 forms the group VIf2-f3-f4, so
    // depth 2 below it counts a group's plies (relocation, then one of 98
    // activations): the part of perft 3 that the peer of four_d.rs, which
    // knows no obligations, does not count.
    let pos = at(&v, P);
    let m = v.legal_moves(&pos).into_iter().find(|m| v.game.geometry.name(m.from) == "VIf1" && v.game.geometry.name(m.to) == "VIf2").expect("VIf1-VIf2");
    let after = v.play(&pos, &m);
    assert_eq!(plies(&v, &after, 2), plies_reference(&v, &after, 2));
}

/// A placement phase whose end fires a rule: on a chess board, each side
/// places two knights on its ranks 2 and 3 (Black's 7 and 6), and when the
/// opening ends with more than one black piece on some rank, White may
/// move a black knight from such a rank to a rank holding no black piece.
/// The fast path counts a placement
/// after which no rule can oblige without making it; the rule's `opening
/// ends` can hold only after the last placement (a placement takes one
/// piece from a hand, and the phase ends when both are empty), so with
/// two or more pieces in the hands every placement is one complete ply,
/// and with one the placements are made and the rule fires. By hand:
///
/// The reference makes every placement; the counts must agree, from the
/// start to depth 4 (the last placement and the first move of play), and
/// at Black's last placement with a knight on b7: its 15 placements, of
/// which the seven on rank 7 make the rule fire.
#[test]
fn a_rule_at_the_end_of_a_placement_phase_counts_as_the_reference() {
    let text = r#"
variant "Knights placed, then corrected"
board { files a..h  ranks 1..8 }
players {
  white: forward +rank
  black: forward -rank
}
piece King K { royal  move W  move F }
piece Knight N { move N }
hand { drop any on rank 2 or rank 3 }
phase opening {
  place from hand
  until hands empty
}
rule "correction" {
  on ply-end
  if opening ends and more than 1 black's pieces on some rank
  then white may relocate black's piece except King
    from rank with more than 1 black's pieces to rank with fewer than 1 black's pieces
}
setup "4k3/8/8/8/8/8/8/4K3[NNnn] w - - 0 1"
end {
  checkmate: lose
  stalemate: draw
}
"#;
    let v = support::variant_from_text("placement-end", text);
    let start = v.start().expect("setup");
    for depth in 1..=4 {
        assert_eq!(plies(&v, &start, depth), plies_reference(&v, &start, depth), "depth {depth}");
    }
    // Black's last knight on the same rank as the first: the rule fires.
    let last = at(&v, "4k3/1n6/8/8/8/2N5/4N3/4K3[n] b - - 3 2");
    let offered = v.actions(&last).len() as u64;
    let counted = plies(&v, &last, 1);
    assert_eq!(counted, plies_reference(&v, &last, 1));
    assert!(counted > offered, "{counted} plies, {offered} placements: the correction never fired");
}

/// The end of 4D-Schach's opening: from random openings, with three and
/// two pieces left in the hands, the fast path (which counts a placement
/// after which no rule can oblige without making it) and the reference
/// agree one ply deep. (With one left the last placement ends the opening
/// and the entropy correction may fire; its plies, a relocation by each
/// side after each placement, run to hundreds of millions.)
#[test]
fn the_end_of_the_4d_opening_counts_as_the_reference() {
    let v = support::variant("4d-schach");
    for seed in 1..=4u64 {
        let mut rng = support::Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut pos = v.start().expect("setup parses");
        for placed in 0..30 {
            let left = 32 - placed;
            if left <= 4 {
                assert_eq!(plies(&v, &pos, 1), plies_reference(&v, &pos, 1), "seed {seed}, {left} left: {}", v.fen(&pos));
            }
            let moves = v.legal_moves(&pos);
            pos = v.play(&pos, &moves[rng.below(moves.len())]);
        }
    }
}

/// An activation that makes a group up the column: in the tower, White's
/// pawns IIb4 and IIIb4 stand one above the other with Ib4 empty; after
/// Id2-Id3 forms the group Ib3-Ic3-Id3, Ic3 is relocated and a level is
/// pulled. Pulling level I one row along the ranks brings Ib3 under IIb4,
/// forming Ib3-IIb4-IIIb4 up the column: the rule fires again in the same
/// ply. The count judges an activation after which no rule can fire
/// without making it, so it must tell such a pull apart: fast path and
/// reference agree to depth 2, and some activation below Id2-Id3 leaves
/// the ply owing more. (A watch that lets no activation fire a rule
/// counts 851 plies at depth 1 here; the reference counts 16,276.)
#[test]
fn an_activation_that_forms_a_group_up_the_column_counts_as_the_reference() {
    let v = tower("3");
    let pos = at(&v, "1P2/4/4/3k|1P2/4/4/4|4/1PP1/3P/K3 w - - 0 1");
    for depth in 1..=2 {
        assert_eq!(plies(&v, &pos, depth), plies_reference(&v, &pos, depth), "depth {depth}");
    }
    let name = |c| v.game.geometry.name(c);
    let group = v.successors(&pos).into_iter().find(|(a, _)| a.as_move().is_some_and(|m| name(m.from) == "Id2" && name(m.to) == "Id3")).expect("Id2-Id3").1;
    let mut fired_again = 0;
    for (_, relocated) in v.successors(&group) {
        for (a, after) in v.successors(&relocated) {
            if matches!(a, rulebook_interpreter::flow::Action::Activate { .. }) && rulebook_interpreter::flow::ply::in_ply(&after) {
                fired_again += 1;
            }
        }
    }
    assert!(fired_again > 0, "no activation below Id2-Id3 formed a group");
}
