//! Explosions (`explosion { … }`, issue 17), on positions built for each
//! rule, with the legal moves counted by hand in each test. Fairy-Stockfish's
//! perft counts of the atomic family are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::Variant;
use support::{fen_after as after, legal_texts as moves};
use std::path::Path;

fn atomic() -> Variant {
    support::variant("fairy/atomic")
}

#[test]
fn a_capture_removes_the_capturer_and_every_piece_around_but_pawns() {
    // exd5: the explosion on d5 takes the capturing pawn, the captured pawn,
    // the knight on e6 and white's own bishop on c4; the pawn on c6 is spared.
    // Left: the two kings and the c6 pawn.
    let v = atomic();
    assert_eq!(after(&v, "7k/8/2p1n3/3p4/2B1P3/8/8/K7 w - - 0 1", &["e4d5"]), "7k/8/2p5/8/8/8/8/K7 b - - 0 1");
}

#[test]
fn touching_kings_are_not_in_check_and_a_king_never_captures() {
    // Ka1 next to kb2. a2 and b1 touch the black king, so they are safe
    // although the king attacks them; Kxb2 would blow up the capturing king.
    // By hand: 2 moves.
    let v = atomic();
    assert_eq!(moves(&v, "8/8/8/8/8/8/1k6/K7 w - - 0 1"), ["a1a2", "a1b1"]);
}

#[test]
fn blowing_up_the_enemy_king_is_legal_even_in_check() {
    // White is in check from the rook on h1. Ka2 escapes (b1 stays on the
    // rook's rank), Rb1 blocks, and Rxb7 leaves the check but blows up the
    // king on b8, which ends the game: 3 moves (chess would allow 2).
    let v = atomic();
    assert_eq!(moves(&v, "1k6/1p6/8/8/8/8/1R6/K6r w - - 0 1"), ["a1a2", "b2b1", "b2b7"]);
    let over = after(&v, "1k6/1p6/8/8/8/8/1R6/K6r w - - 0 1", &["b2b7"]);
    let pos = v.parse_fen(&over, "<test>").expect("a position without a black king reads back");
    assert!(v.legal_moves(&pos).is_empty(), "{over}: the game is over");
}

#[test]
fn a_capture_next_to_the_own_king_is_illegal() {
    // The pawn on b2 checks the king on a1. Capturing it, with the king or
    // with the knight from d3, would blow up white's own king; so only the
    // king's steps to a2 and b1 remain (chess would add Kxb2 and Nxb2).
    let v = atomic();
    assert_eq!(moves(&v, "4k3/8/8/8/8/3N4/1p6/K7 w - - 0 1"), ["a1a2", "a1b1"]);
}

#[test]
fn the_reach_and_the_immune_kinds_are_the_files() {
    let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/chess.rules");
    // `around 2`, the King immune: Kxd2 removes the pawn on d2 and every
    // piece within two king steps of d2 but the kings (the black king on d4
    // survives too); the knight on h8 is too far.
    let v = support::variant_from_text(
        "explosion",
        &format!("variant \"Wide blast\"\nextends \"{}\"\nexplosion {{\n  around 2\n  immune King\n}}\n", chess.display()),
    );
    assert_eq!(after(&v, "7n/8/8/8/3k4/2b5/3p4/3K4 w - - 0 1", &["d1d2"]), "7n/8/8/8/3k4/8/3K4/8 b - - 0 1");
    // `around 0`: only the two pieces of the capture go; the knight next to
    // d2 stays.
    let v = support::variant_from_text("explosion", &format!("variant \"Narrow blast\"\nextends \"{}\"\nexplosion {{ around 0 }}\n", chess.display()));
    assert_eq!(after(&v, "4k3/8/8/8/8/2n5/3p4/3QK3 w - - 0 1", &["d1d2"]), "4k3/8/8/8/8/2n5/8/4K3 b - - 0 1");
}

#[test]
fn castling_rights_go_with_an_exploded_rook() {
    // Bxg7: the explosion on g7 reaches h8 and takes black's rook there, so
    // black's short castling right goes with it (and the bishop and knight).
    let v = atomic();
    assert_eq!(after(&v, "r3k2r/6n1/8/8/8/8/1B6/4K3 w kq - 0 1", &["b2g7"]), "r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
}

#[test]
fn immune_kings_capture_and_survive_but_never_take_each_other() {
    // Atomar: Ke4 next to kd5. Its steps d3 e3 f3 d4 f4 f5, and Kxe5, which
    // explodes the knight and leaves both immune kings: 7 moves; Kxd5 is
    // barred by the rule "kings do not take kings".
    let v = support::variant("fairy/atomar");
    assert_eq!(moves(&v, "8/8/8/3kn3/4K3/8/8/8 w - - 0 1"), ["e4d3", "e4d4", "e4e3", "e4e5", "e4f3", "e4f4", "e4f5"]);
    assert_eq!(after(&v, "8/8/8/3kn3/4K3/8/8/8 w - - 0 1", &["e4e5"]), "8/8/8/3kK3/8/8/8/8 b - - 0 1");
}
