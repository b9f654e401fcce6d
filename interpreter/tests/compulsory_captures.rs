//! `captures are compulsory` (issue 17), on positions built for the rule,
//! with the legal moves counted by hand in each test. Fairy-Stockfish's
//! perft counts of the giveaway family are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::Variant;
use support::legal_texts as moves;

fn fairy(name: &str) -> Variant {
    support::variant(&format!("fairy/{name}"))
}

#[test]
fn a_legal_capture_removes_every_other_move() {
    // The pawn on e2 has e3, e4 and exd3; only the capture is left.
    let v = fairy("giveaway");
    assert_eq!(moves(&v, "8/8/8/8/8/3p4/4P3/8 w - - 0 1"), ["e2d3"]);
    // Two captures: both stay, the player chooses (the king on b1 takes a2
    // or c2; its quiet steps a1, b2, c1 go).
    assert_eq!(moves(&v, "8/8/8/8/8/8/p1p5/1K6 w - - 0 1"), ["b1a2", "b1c2"]);
    // No capture: every move (the king's five steps from b1: a1 a2 b2 c2 c1).
    assert_eq!(moves(&v, "7p/8/8/8/8/8/8/1K6 w - - 0 1").len(), 5);
}

#[test]
fn a_capture_that_leaves_the_royal_king_attacked_compels_nothing() {
    let v = fairy("losers");
    // In check from the rook on h1: Rxa2 would leave the check, so it is not
    // legal and does not compel; the king's steps d2, e2, f2 remain (d1 and
    // f1 stay on the rook's rank).
    assert_eq!(moves(&v, "4k3/8/8/8/8/8/n7/R3K2r w - - 0 1"), ["e1d2", "e1e2", "e1f2"]);
    // Without the check, Rxa2 is legal and the only move.
    assert_eq!(moves(&v, "4k3/8/8/8/8/8/n7/R3K3 w - - 0 1"), ["a1a2"]);
}

#[test]
fn losing_everything_wins() {
    // White's pawn on a6 must take black's last piece, on b7 (a7 is a quiet
    // move, removed). Black, left with nothing, wins at once: the position
    // has no moves, and the rule's outcome for black, to move, is a win.
    let v = fairy("giveaway");
    let pos = v.parse_fen("8/1p6/P7/8/8/8/8/8 w - - 0 1", "<test>").expect("reads");
    let m = v.legal_moves(&pos);
    assert_eq!(m.iter().map(|m| coordinate(&v, m)).collect::<Vec<_>>(), ["a6b7"]);
    let after = v.play(&pos, &m[0]);
    assert!(v.legal_moves(&after).is_empty());
    assert_eq!(
        v.status(&after),
        rulebook_interpreter::Status::Rule { rule: v.game.rules.iter().position(|r| r.name == "extinction wins").expect("the rule"), outcome: rulebook_interpreter::model::Outcome::Win }
    );
}
