//! Parts that apply only on a piece's first move (`if unmoved`) or out of
//! check (`if not in check`), the first-move rights they need (the FEN
//! castling field's file letters) and a rule that takes them (`… loses its
//! first-move right`), on `rules/fairy/cambodian.rules`; every count is
//! worked out by hand in the comments. Fairy-Stockfish's cambodian and
//! karouk counts are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::Variant;
use support::{fen_after, legal_texts};

fn cambodian() -> Variant {
    support::variant("fairy/cambodian")
}

const START: &str = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1";

#[test]
fn the_king_leaps_on_its_first_move() {
    // Makruk's 23 moves, and the king's leaps d1-b2 and d1-f2 (rank 2 is
    // empty); the met's double step e1-e3 is blocked by its own pawn. 25.
    let moves = legal_texts(&cambodian(), START);
    assert_eq!(moves.len(), 25);
    assert!(moves.contains(&"d1b2".to_string()) && moves.contains(&"d1f2".to_string()));
    // Without the right (no `D`), no leap: 23.
    assert_eq!(legal_texts(&cambodian(), "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w Ede - 0 1").len(), 23);
}

#[test]
fn the_met_jumps_two_squares_onto_an_empty_square() {
    // White: king d1, met e1 (both with rights), pawn e2; black king e8.
    // Met: d2 f2, and e1-e3 over its own pawn (3); king: c1 c2 d2, and
    // the leaps b2 f2 (5); pawn e2-e3 (1). 9.
    let moves = legal_texts(&cambodian(), "4k3/8/8/8/8/8/4P3/3KM3 w DE - 0 1");
    assert_eq!(moves.len(), 9, "{moves:?}");
    assert!(moves.contains(&"e1e3".to_string()));
    // A black khon on e3 (it attacks d2, f2 and e2): the met's jump would
    // land on it and is quiet only, the pawn is blocked; met d2 f2 (2),
    // king c1 c2 and the leap b2 (3). 5.
    let moves = legal_texts(&cambodian(), "4k3/8/8/8/8/4s3/4P3/3KM3 w DE - 0 1");
    assert_eq!(moves, ["d1b2", "d1c1", "d1c2", "e1d2", "e1f2"]);
}

#[test]
fn no_leap_out_of_check() {
    // The black rook d8 checks the king d1 down the d-file: king c1 c2 e2
    // (d2 is still on the file); no leap to b2 or f2, though both are safe.
    let moves = legal_texts(&cambodian(), "3rk3/8/8/8/8/8/8/3K4 w D - 0 1");
    assert_eq!(moves, ["d1c1", "d1c2", "d1e1", "d1e2"]);
}

#[test]
fn rights_go_with_a_move_and_with_a_rook_on_the_kings_line() {
    let v = cambodian();
    // The king steps and back: D is gone for good.
    assert_eq!(fen_after(&v, START, &["d1d2", "e8e7", "d2d1"]).split(' ').nth(2), Some("Ed"));
    // A white rook onto the e-file (black's king e8, whatever stands
    // between) takes black's e; the rook on the d-file does not touch d8's met.
    let fen = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/R1SKMSNR w DEde - 0 1";
    assert_eq!(fen_after(&v, fen, &["a1a2", "a6a5", "a2e2"]).split(' ').nth(2), Some("DEd"));
}
