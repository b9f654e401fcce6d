//! Conversions (`converts around 1`, `converts enclosed`), drops that depend
//! on the pieces around them (`unlimited`, `next to own piece`, `enclosing`,
//! `first filling ZONE`), passing only when stuck and `board full`, on
//! `rules/fairy/ataxx.rules`, `flipello.rules` and `flipersi.rules`; every
//! count is worked out by hand in the comments. Fairy-Stockfish's counts of
//! the four games are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::Variant;
use support::{fen_after, legal_texts};

fn ataxx() -> Variant {
    support::variant("fairy/ataxx")
}

#[test]
fn ataxx_clones_next_to_a_stone_and_jumps_two_squares() {
    // White's stones a7 and g1: clones a6 b6 b7 and f1 f2 g2 (6); jumps two
    // king steps away, a7: a5 b5 c5 c6 c7 and g1: e1 e2 e3 f3 g3 (10). 16.
    let moves = legal_texts(&ataxx(), "P5p/7/7/7/7/7/p5P w 0 1");
    assert_eq!(moves.len(), 16, "{moves:?}");
    assert!(moves.contains(&"P@b6".to_string()) && moves.contains(&"a7c5".to_string()));
}

#[test]
fn ataxx_turns_the_enemy_stones_next_to_where_a_stone_lands() {
    // White clones to d3, next to black's d4: it turns white. A clone takes
    // nothing from a hand (the empty pocket is written `[]`).
    let v = ataxx();
    assert_eq!(fen_after(&v, "7/7/7/3p3/7/3P3/7 w 0 1", &["P@d3"]), "7/7/7/3P3/3P3/3P3/7[] b - - 1 1");
    // A jump leaves its square: d2-c4 lands next to d4, which turns.
    assert_eq!(fen_after(&v, "7/7/7/3p3/7/3P3/7 w 0 1", &["d2c4"]), "7/7/7/2PP3/7/7/7[] b - - 1 1");
}

#[test]
fn a_player_without_a_move_passes_and_only_then() {
    // White's a1 is hemmed in by black stones on every square within two
    // steps: no clone, no jump; the pass (a1a1) is its only move.
    assert_eq!(legal_texts(&ataxx(), "7/7/7/7/ppp4/ppp4/Ppp4 w 0 1"), ["a1a1"]);
    // With a move to make, no pass.
    assert!(!legal_texts(&ataxx(), "P5p/7/7/7/7/7/p5P w 0 1").contains(&"a7a7".to_string()));
}

#[test]
fn a_full_board_ends_the_game() {
    // One empty square, g7, next to white's f6: the clone P@g7 is white's
    // only move, and the full board after it ends the game.
    let v = ataxx();
    let fen = "pppppp1/pppppPp/ppppppp/ppppppp/ppppppp/ppppppp/ppppppp w 0 1";
    assert_eq!(legal_texts(&v, fen), ["P@g7"]);
    let pos = v.parse_fen(fen, "<test>").expect("reads");
    let m = v.legal_moves(&pos)[0];
    assert!(v.legal_moves(&v.play(&pos, &m)).is_empty());
}

#[test]
fn othello_places_only_where_a_line_turns_over() {
    // The four opening placements, each closing off one black disc.
    let v = support::variant("fairy/flipello");
    let start = v.start().expect("setup");
    let hands = v.fen(&start).split('[').nth(1).map(|s| s.to_string()).expect("hands");
    let fen = format!("8/8/8/3pP3/3Pp3/8/8/8[{hands}");
    assert_eq!(legal_texts(&v, &fen), ["P@c5", "P@d6", "P@e3", "P@f4"]);
    // e3 closes e4 off against e5: it turns white.
    let after = fen_after(&v, &fen, &["P@e3"]);
    assert!(after.starts_with("8/8/8/3pP3/3PP3/4P3/8/8["), "{after}");
}

#[test]
fn flipersi_fills_the_centre_first() {
    // An empty board: the four centre squares only, enclosing nothing (4);
    // once they are full, a disc must close a line off.
    let v = support::variant("fairy/flipersi");
    assert_eq!(v.legal_moves(&v.start().expect("setup")).len(), 4);
    let start = v.fen(&v.start().expect("setup"));
    let after = fen_after(&v, &start, &["P@d4", "P@e4", "P@e5", "P@d5"]);
    assert!(after.starts_with("8/8/8/3pP3/3Pp3/8/8/8["), "{after}");
    assert_eq!(legal_texts(&v, &after), ["P@c5", "P@d6", "P@e3", "P@f4"]);
}
