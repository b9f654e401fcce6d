//! Promotion as a move of its own (`Pawn … becomes Fers in place or with a
//! quiet move, if …, giving no check, attacking no enemy piece`), on
//! positions built for it in `rules/fairy/sittuyin.rules` (white's promotion
//! squares a8 b7 c6 d5 e5 f6 g7 h8; black's a1 b2 c3 d4 e4 f3 g2 h1). Every
//! count is worked out by hand in the comments; Fairy-Stockfish 11.1 gives
//! the same lists. Its perft counts of sittuyin are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::text::notation::{coordinate, san};
use rulebook_interpreter::Variant;
use support::legal_texts;

fn sittuyin() -> Variant {
    support::variant("fairy/sittuyin")
}

#[test]
fn a_last_pawn_promotes_anywhere_in_place_or_one_step_away() {
    // One pawn, g8 (not a promotion square for a pawn that is not the
    // last): a general in place, or on f7 or h7 (3); king h1: g1 g2 h2 (3). 6.
    let moves = legal_texts(&sittuyin(), "1k4P1/8/8/8/8/8/8/7K[] w - - 0 1");
    assert_eq!(moves, ["g8f7f", "g8g8f", "g8h7f", "h1g1", "h1g2", "h1h2"]);
}

#[test]
fn the_new_general_may_not_attack_an_enemy_piece() {
    // A black rook on f7: a general on g8 would attack it (no g8g8f), f7 is
    // taken; h7 attacks g8 and g6 only (g8h7f). King 3. 4.
    let moves = legal_texts(&sittuyin(), "1k4P1/5r2/8/8/8/8/8/7K[] w - - 0 1");
    assert_eq!(moves, ["g8h7f", "h1g1", "h1g2", "h1h2"]);
    // A white knight there is no enemy: g8g8f, g8h7f; the knight's six
    // leaps (d6 d8 e5 g5 h6 h8); king 3. 11.
    assert_eq!(legal_texts(&sittuyin(), "1k4P1/5N2/8/8/8/8/8/7K[] w - - 0 1").len(), 11);
}

#[test]
fn with_two_pawns_only_one_on_a_promotion_square_promotes() {
    // Pawns g7 (a promotion square) and a2 (not): g7 in place, f8 h8 f6 h6
    // (5; none of them attacks b5's king); pushes g7g8, a2a3 (2); king e1:
    // d1 f1 d2 e2 f2 (5). 12.
    let moves = legal_texts(&sittuyin(), "8/6P1/8/1k6/8/8/P7/4K3[] w - - 0 1");
    assert_eq!(moves.len(), 12, "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("a2") && m.ends_with('f')), "{moves:?}");
    // With a general on the board, none: a general b1 (c2; a2 is its own
    // pawn's), pushes 2, king 5. 8.
    assert_eq!(legal_texts(&sittuyin(), "8/6P1/8/1k6/8/8/P7/1F2K3[] w - - 0 1").len(), 8);
}

#[test]
fn black_promotes_on_its_own_diagonals() {
    // Black pawns d4 (black's promotion square) and h7: d4 in place, c3 e3
    // c5 e5 (5); pushes d4d3 h7h6 (2); king a8: a7 b7 b8 (3). 10. White's
    // king h1 is not attacked by a general on any of them.
    let moves = legal_texts(&sittuyin(), "k7/7p/8/8/3p4/8/8/7K[] b - - 0 1");
    assert_eq!(moves.len(), 10, "{moves:?}");
    assert!(moves.contains(&"d4d4f".to_string()) && moves.contains(&"d4e3f".to_string()));
}

#[test]
fn a_promotion_that_gives_check_is_not_legal() {
    // The last pawn c7, black's king a7: a general on b8 or b6 would attack
    // it (check); in place on c7 it attacks b8 b6 d8 d6, and d8 and d6 are
    // safe too: c7c7f c7d8f c7d6f (3), the push c7c8 (1); king h1 3. 7.
    let moves = legal_texts(&sittuyin(), "8/k1P5/8/8/8/8/8/7K[] w - - 0 1");
    assert_eq!(moves, ["c7c7f", "c7c8", "c7d6f", "c7d8f", "h1g1", "h1g2", "h1h2"]);
}

#[test]
fn notation_of_a_promotion_in_place() {
    let v = sittuyin();
    let pos = v.parse_fen("1k4P1/8/8/8/8/8/8/7K[] w - - 0 1", "<test>").expect("reads");
    let legal = v.legal_moves(&pos);
    let m = legal.iter().find(|m| coordinate(&v, m) == "g8g8f").expect("in place");
    assert_eq!(san(&v, &pos, m, &legal), "Pg8=F");
    assert_eq!(v.fen(&v.play(&pos, m)), "1k4F~1/8/8/8/8/8/8/7K[] b - - 1 1");
}
