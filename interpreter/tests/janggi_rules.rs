//! Janggi's mechanisms on positions built for them in
//! `rules/fairy/janggi.rules` (9 files a–i, 10 ranks; white's palace d1–f3):
//! the elephant's lame (3,2) leap blocked on either square it passes, the
//! cannon that may not jump or take a cannon, passing (`pass` in a piece,
//! never out of check), bikjang and the game ending after passes. Every count
//! is worked out by hand in the comments; Fairy-Stockfish's three janggi
//! counts are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::Variant;
use support::legal_texts;

fn janggi() -> Variant {
    support::variant("fairy/janggi")
}

#[test]
fn the_elephant_is_blocked_on_either_square_it_passes() {
    // Kings d1 and f10 (no facing). Elephant e5: eight leaps, c2 c8 g2 g8 b3
    // b7 h3 h7; a pawn on e6 blocks the two that pass it (c8, g8): 6. Pawn
    // e6: e7 d6 f6 (3). King d1: d2 e1, e2 along the palace diagonal (3),
    // and the pass (1). 13.
    let v = janggi();
    let moves = legal_texts(&v, "5k3/9/9/9/4P4/4B4/9/9/9/3K5 w - - 0 1");
    assert_eq!(moves.len(), 13, "{moves:?}");
    assert!(!moves.contains(&"e5g8".to_string()) && !moves.contains(&"e5c8".to_string()));
    // The pawn on f7 instead blocks only g8 (its second passed square): 7;
    // pawn f8 e7 g7 (3); king and pass 4. 14.
    let moves = legal_texts(&v, "5k3/9/9/5P3/9/4B4/9/9/9/3K5 w - - 0 1");
    assert_eq!(moves.len(), 14, "{moves:?}");
    assert!(!moves.contains(&"e5g8".to_string()) && moves.contains(&"e5c8".to_string()));
}

#[test]
fn the_cannon_neither_jumps_nor_takes_a_cannon() {
    // Cannon a5 over its pawn a7: a8, and not the black cannon a9 (1); no
    // screen down or along rank 5. Pawn a7: a8 b7 (2). King d1 3, pass 1. 7.
    let v = janggi();
    assert_eq!(legal_texts(&v, "9/c4k3/9/P8/9/C8/9/9/9/3K5 w - - 0 1").len(), 7);
    // A white cannon on a7 instead: neither cannon may jump the other (nor
    // the black one): king 3 and pass. 4.
    assert_eq!(legal_texts(&v, "9/c4k3/9/C8/9/C8/9/9/9/3K5 w - - 0 1"), ["d1d1", "d1d2", "d1e1", "d1e2"]);
}

#[test]
fn the_cannon_jumps_across_the_palace_diagonal() {
    // White cannon d1, a white guard on e2 (the palace's centre) as its
    // screen: d1-f3 over it (1); along rank 1 and the d-file no screen.
    // Guard e2: d2 e1 e3 (f2 is its king's) and f1 d3 f3 along the
    // diagonals (d1 is its cannon's) (6). King f2: f1 f3 (e2 is its guard's,
    // f2 is on no diagonal) and the pass (3). Generals f2 and d10 do not face. 10.
    let v = janggi();
    let moves = legal_texts(&v, "3k5/9/9/9/9/9/9/9/4AK3/3C5 w - - 0 1");
    assert_eq!(moves.len(), 10, "{moves:?}");
    assert!(moves.contains(&"d1f3".to_string()));
}

#[test]
fn no_pass_out_of_check() {
    // The black chariot d5 checks the king d1 down the d-file: e1 and e2
    // (along the diagonal) leave it; d2 does not; no pass.
    assert_eq!(legal_texts(&janggi(), "5k3/9/9/9/9/3r5/9/9/9/3K5 w - - 0 1"), ["d1e1", "d1e2"]);
}

#[test]
fn bikjang_must_be_broken_or_answered_by_a_pass() {
    // Generals e1 and e10 face each other: e1-e2 keeps the facing and is
    // not legal; d1 f1 break it; the pass is legal. 3.
    let v = janggi();
    assert_eq!(legal_texts(&v, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), ["e1d1", "e1e1", "e1f1"]);
    // After the pass the generals still face each other: the game is over.
    let pos = v.parse_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "<test>").expect("reads");
    let pass = v.legal_moves(&pos).into_iter().find(|m| m.from == m.to).expect("the pass");
    assert!(v.legal_moves(&v.play(&pos, &pass)).is_empty());
}

#[test]
fn two_passes_in_a_row_end_the_game() {
    let v = janggi();
    let mut pos = v.parse_fen("5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "<test>").expect("reads");
    for _ in 0..2 {
        assert!(!v.legal_moves(&pos).is_empty());
        let pass = v.legal_moves(&pos).into_iter().find(|m| m.from == m.to).expect("a pass");
        pos = v.play(&pos, &pass);
    }
    assert!(v.legal_moves(&pos).is_empty());
}
