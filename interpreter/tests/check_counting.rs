//! Check counting (`PLAYER gave check N times`, issue 17;
//! `rules/fairy/3check.rules`), on positions built for it, counted by hand.
//! Fairy-Stockfish's perft counts of three-check are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::text::notation::coordinate;
use rulebook_interpreter::{model::Outcome, Status, Variant};

fn three_check() -> Variant {
    support::variant("fairy/3check")
}

#[test]
fn the_third_check_ends_the_game() {
    // White has given two checks. The rook on a1 has 7 moves up the file and
    // 3 along the rank, the king 5 (d1 d2 e2 f2 f1): 15 moves, of which only
    // Ra8 attacks the king on e8.
    let v = three_check();
    let pos = v.parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0", "<test>").expect("reads");
    let moves = v.legal_moves(&pos);
    assert_eq!(moves.len(), 15);
    let play = |text: &str| v.play(&pos, moves.iter().find(|m| coordinate(&v, m) == text).expect("legal"));
    let third = play("a1a8");
    assert_eq!(v.fen(&third), "R3k3/8/8/8/8/8/8/4K3 b - - 1 1 +3+0");
    assert!(v.legal_moves(&third).is_empty());
    assert!(matches!(v.status(&third), Status::Rule { outcome: Outcome::Lose, .. }), "black, to move, has lost");
    // A move that gives no check counts nothing: black plays on, his king
    // to d8 or f8 (the rook on a7 covers d7, e7 and f7).
    let quiet = play("a1a7");
    assert_eq!(v.fen(&quiet), "4k3/R7/8/8/8/8/8/4K3 b - - 1 1 +2+0");
    assert_eq!(v.legal_moves(&quiet).len(), 2);
}

#[test]
fn fairy_stockfish_check_fields_read_as_checks_given() {
    let v = three_check();
    // `1+3`: white needs 1 more check, black 3: white has given 2, black 0.
    let a = v.parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1", "<test>").expect("reads");
    assert_eq!(a.checks, [2, 0]);
    assert_eq!(v.fen(&a), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0");
    let b = v.parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0", "<test>").expect("reads");
    assert_eq!(b.checks, [2, 0]);
}
