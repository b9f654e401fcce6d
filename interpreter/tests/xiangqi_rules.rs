//! Xiangqi's mechanisms (issue 17): lame leaps (`move N lame`), landing
//! zones (`within file d..f and rank 1..3`), label runs in zones, and the
//! flying general as a rule (`forbid moves after which own King faces enemy
//! King along rank`), on positions built for them in
//! `rules/fairy/xiangqi.rules` (files a–i, ranks 1–10; the palaces d–f × 1–3
//! and 8–10); every count is worked out by hand in the comments.
//! Fairy-Stockfish's perft counts are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::Variant;
use support::legal_texts;

fn xiangqi() -> Variant {
    support::variant("fairy/xiangqi")
}

#[test]
fn the_horse_is_blocked_next_to_it_and_the_soldier_steps_sideways_across_the_river() {
    // Horse e5 with its own soldier on e6: d7 and f7 pass e6 (blocked); d3
    // f3 c6 c4 g6 g4 do not (6). Soldier e6, across the river: e7 d6 f6 (3).
    // General e1: f1 e2; d1 would face the black general on d10 (2). 11.
    let moves = legal_texts(&xiangqi(), "3k5/9/9/9/4P4/4N4/9/9/9/4K4 w - - 0 1");
    assert_eq!(moves.len(), 11, "{moves:?}");
    assert!(!moves.contains(&"e5d7".to_string()) && !moves.contains(&"e5f7".to_string()));
    assert!(moves.contains(&"e6d6".to_string()) && !moves.contains(&"e1d1".to_string()));
}

#[test]
fn the_elephant_stays_home_and_is_blocked_at_its_eye() {
    // Elephant e5: c7 and g7 are across the river; c3 passes d4, where a
    // soldier stands; g3 (1). Soldier d4, not across: d5 (1). General d1
    // (the soldier on d4 stands between it and d10), f1, e2 (3). 5.
    assert_eq!(legal_texts(&xiangqi(), "3k5/9/9/9/9/4B4/3P5/9/9/4K4 w - - 0 1"), ["d4d5", "e1d1", "e1e2", "e1f1", "e5g3"]);
}

#[test]
fn the_palace_holds_general_and_advisors() {
    // General f1 (a corner of the palace): e1 f2 (g1 is outside) (2).
    // Advisor e2: d1 d3 f3 (f1 is the general's) (3). 5.
    assert_eq!(legal_texts(&xiangqi(), "3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1"), ["e2d1", "e2d3", "e2f3", "f1e1", "f1f2"]);
}

#[test]
fn the_generals_never_face_each_other() {
    // The horse on e5 is all that stands between the generals on the
    // e-file: none of its moves is legal. General e1: d1 f1 e2 (3).
    assert_eq!(legal_texts(&xiangqi(), "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1"), ["e1d1", "e1e2", "e1f1"]);
}

#[test]
fn the_cannon_captures_over_one_screen() {
    // Cannon a1: quiet a2 a3 a4 (the pawn on a5 stops it) and b1 c1 d1 (the
    // general on e1) (6); over the pawn it takes the rook on a8 (1); over the
    // general on the rank nothing stands (0). General f1 e2; d1 faces d10 (2). 9.
    let moves = legal_texts(&xiangqi(), "3k5/9/r8/9/9/p8/9/9/9/C3K4 w - - 0 1");
    assert_eq!(moves, ["a1a2", "a1a3", "a1a4", "a1a8", "a1b1", "a1c1", "a1d1", "e1e2", "e1f1"]);
}
