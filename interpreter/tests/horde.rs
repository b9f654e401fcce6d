//! A player with `no royal piece` (issue 17; `rules/fairy/horde.rules`), on
//! positions built for it, each count by hand. Fairy-Stockfish's perft
//! counts of horde chess are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::Variant;

fn horde() -> Variant {
    support::variant("fairy/horde")
}

#[test]
fn white_has_no_king_and_may_not_be_given_one() {
    let v = horde();
    let d = v.parse_fen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "<test>").expect_err("a white king");
    assert!(d.message.contains("white has a royal piece"), "{}", d.message);
    // Black still needs his.
    let d = v.parse_fen("8/8/8/8/8/8/8/P7 w - - 0 1", "<test>").expect_err("no black king");
    assert!(d.message.contains("black has no royal piece"), "{}", d.message);
}

#[test]
fn the_double_step_from_rank_1_is_not_taken_en_passant() {
    // a1–a3 passes a2, next to the black pawn on b3, which could take it
    // there in chess. In horde it may not: black has his king's five steps
    // (d8 f8 d7 e7 f7) and b3–b2, 6 moves, and the FEN has no en-passant square.
    let v = horde();
    let pos = v.parse_fen("4k3/8/8/8/8/1p6/8/P7 w - - 0 1", "<test>").expect("reads");
    let m = v.legal_moves(&pos).into_iter().find(|m| coordinate(&v, m) == "a1a3").expect("the double step");
    let after = v.play(&pos, &m);
    assert_eq!(v.fen(&after), "4k3/8/8/8/8/Pp6/8/8 b - - 0 1");
    assert_eq!(v.legal_moves(&after).len(), 6);
    // From rank 2 the double step is chess's: a2–a4 passes a3, where the
    // pawn on b4 takes it en passant.
    let pos = v.parse_fen("4k3/8/8/8/1p6/8/P7/8 w - - 0 1", "<test>").expect("reads");
    let m = v.legal_moves(&pos).into_iter().find(|m| coordinate(&v, m) == "a2a4").expect("the double step");
    let after = v.play(&pos, &m);
    assert!(v.legal_moves(&after).iter().any(|m| coordinate(&v, m) == "b4a3"), "{}", v.fen(&after));
}
