//! Compulsory drops (`drop King on empty, compulsory`) and a king that is
//! not royal, on `rules/fairy/koedem.rules`; every count is worked out by
//! hand in the comments. Fairy-Stockfish's two koedem counts are in
//! `fsf_perft.rs`.

mod support;

use rulebook_interpreter::Variant;
use support::legal_texts;

fn koedem() -> Variant {
    support::variant("fairy/koedem")
}

#[test]
fn a_king_in_hand_must_be_dropped_first() {
    // White holds a king and a queen, the king's square e1 and d1 empty:
    // only king drops, on the 34 empty squares (ranks 3–6 and d1 e1); no
    // queen drop, no move (Fairy-Stockfish: 34).
    let moves = legal_texts(&koedem(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB2BNR[KQ] w kq - 0 1");
    assert_eq!(moves.len(), 34);
    assert!(moves.iter().all(|m| m.starts_with("K@")), "{moves:?}");
    // With only a queen in hand, moves and queen drops: 20 chess moves,
    // Ke1-d1, queen drops on the 33 empty squares. 54.
    assert_eq!(legal_texts(&koedem(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[Q] w KQkq - 0 1").len(), 54);
}

#[test]
fn the_king_is_not_royal() {
    // The rook a1 attacks e1 and f1: the king may stay attacked and step
    // onto f1: d1 d2 e2 f2 f1. 5. Black's rook may take it: b1 c1 d1 xe1,
    // a2..a8: 11; black's king h8: g8 g7 h7. 14.
    let v = koedem();
    assert_eq!(legal_texts(&v, "7k/8/8/8/8/8/8/r3K3[] w - - 0 1").len(), 5);
    let black = legal_texts(&v, "7k/8/8/8/8/8/8/r3K3[] b - - 0 1");
    assert_eq!(black.len(), 14, "{black:?}");
    assert!(black.contains(&"a1e1".to_string()));
}

#[test]
fn no_king_against_two_kings_loses() {
    // Black has no king, white two: black has lost, no move is legal.
    let v = koedem();
    let pos = v.parse_fen("8/8/8/8/8/8/p7/K6K[] b - - 0 1", "<test>").expect("reads");
    assert!(v.legal_moves(&pos).is_empty());
    // No king against one: play goes on (a king can be lost for good).
    assert_eq!(legal_texts(&v, "8/8/8/8/8/8/p7/7K[] b - - 0 1"), ["a2a1b", "a2a1n", "a2a1q", "a2a1r"]);
}
