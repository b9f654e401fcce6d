//! Walls, blockers nobody owns (`then moves the wall anywhere`, `then shoots
//! a wall from the moved piece` under `players`), on `rules/fairy/duck.rules`
//! and `amazons.rules`; every count is worked out by hand in the comments.
//! Fairy-Stockfish's counts of both are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::Variant;
use support::{fen_after, legal_texts};

fn duck() -> Variant {
    support::variant("fairy/duck")
}

#[test]
fn every_move_carries_the_ducks_new_square() {
    // The duck on e4: chess's 20 first moves less e2-e4 (blocked): 19; each
    // with the duck on any of the 31 empty squares after it but e4. 589.
    let fen = "rnbqkbnr/pppppppp/8/8/4*3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let moves = legal_texts(&duck(), fen);
    assert_eq!(moves.len(), 19 * 31);
    assert!(moves.contains(&"e2e3,e3e2".to_string()), "the square just left");
    assert!(!moves.iter().any(|m| m.ends_with("e4")), "the duck must move");
    // It moves: the old square empties, the new one holds it.
    assert_eq!(fen_after(&duck(), fen, &["g1f3,f3e5"]), "rnbqkbnr/pppppppp/8/4*3/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
}

#[test]
fn the_duck_on_the_passed_square_cancels_en_passant() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(fen_after(&duck(), start, &["e2e4,e4e5"]), "rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(fen_after(&duck(), start, &["e2e4,e4e3"]), "rnbqkbnr/pppppppp/8/8/4P3/4*3/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

#[test]
fn nothing_passes_or_takes_the_duck() {
    // Rook a1 and the duck a4: the rook's a2 a3 (the duck stops it) and
    // b1..h1 (9); king h2: g1 h1 g2 g3 h3 (5). 14 moves, each with the duck
    // on one of the 60 empty squares after it but a4 (64 − 3 pieces − the
    // duck). Black's king h8 stays out of the way.
    let moves = legal_texts(&duck(), "7k/8/8/8/*7/8/7K/R7 w - - 0 1");
    assert_eq!(moves.len(), 14 * 60, "{}", moves.len());
    assert!(!moves.iter().any(|m| m.starts_with("a1a4") || m.starts_with("a1a5")));
}

#[test]
fn an_amazon_shoots_where_it_could_move_from_where_it_landed() {
    // White's amazon a1, walled in by b1 a2 c3: its one move is a1-b2.
    // From b2 (a1 now empty) the arrow: a1 c1 a3, up the b-file b3..b10 (8),
    // along rank 2 c2..j2 (8). 19.
    let v = support::variant("fairy/amazons");
    let fen = "9q/10/10/10/10/10/10/2*7/*9/Q*8 w - - 0 1";
    let moves = legal_texts(&v, fen);
    assert_eq!(moves.len(), 19, "{moves:?}");
    assert!(moves.contains(&"a1b2,b2a1".to_string()));
    // Arrows stay: one more wall after the move.
    let after = fen_after(&v, fen, &["a1b2,b2j2"]);
    assert_eq!(after, "9q/10/10/10/10/10/10/2*7/*Q7*/1*8 b - - 1 1");
}

#[test]
fn the_play_view_shows_the_duck() {
    let v = duck();
    let pos = v.parse_fen("rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "<test>").expect("reads");
    let text = rulebook_interpreter::play::view::render(&v, &pos, None, None, None);
    let rank5 = text.lines().find(|l| l.trim_start().starts_with('5')).expect("rank 5");
    assert!(rank5.contains('*'), "{text}");
}
