//! Perft with a transposition table (`--hash MB`, issue 18) counts what
//! perft without one counts, on variants whose positions carry every kind of
//! state the key must cover (castling, en passant, hands, promoted marks,
//! check counts, first-move rights, passes, walls) and on those where the
//! table is not used (phases, face-down pieces). Tables of one bucket (four
//! slots) and of one megabyte: slots replaced again and again must never give
//! a wrong count.

mod support;

use rulebook_interpreter::engine::perft::{perft, perft_limited, Budget};

fn agree(name: &str, fen: Option<&str>, depth: u32) {
    let v = support::variant(name);
    let pos = match fen {
        Some(f) => v.parse_fen(f, "<test>").unwrap_or_else(|d| panic!("{name}: {}", d.message)),
        None => v.start().expect("the setup"),
    };
    let plain = perft(&v, &pos, depth);
    for megabytes in [0, 1] {
        let budget = Budget::new(None, None).with_hash(megabytes);
        assert_eq!(perft_limited(&v, &pos, depth, &budget), Some(plain), "{name} perft {depth}, {megabytes} MB");
        // Again with the table filled: the counts come from it.
        assert_eq!(perft_limited(&v, &pos, depth, &budget), Some(plain), "{name} perft {depth} again, {megabytes} MB");
    }
}

#[test]
fn chess_positions_count_the_same_with_a_table() {
    agree("chess", None, 4);
    // Kiwipete: castling, en passant, promotions.
    agree("chess", Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), 3);
    agree("crazyhouse", None, 3);
    agree("fairy/3check", Some("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +2+0"), 3);
}

#[test]
fn en_passant_targets_count_the_same_with_a_table() {
    // The Chess Programming Wiki's position 3: double steps beside enemy
    // pawns and beside none.
    agree("chess", Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"), 5);
    // Position 4: promotions, castling and en passant on both wings.
    agree("chess", Some("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"), 4);
}

/// An en-passant target that no piece of the side to move could take on is
/// left out of the key, so that the table finds a position reached with and
/// without a double step as one; a target a piece can take on stays in.
#[test]
fn the_key_keeps_only_en_passant_targets_a_piece_could_take_on() {
    let v = support::variant("chess");
    let key = |fen: &str| v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message)).key(&v.tables);
    // After 1. e4 no black pawn stands on d4 or f4.
    assert_eq!(
        key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    // A black pawn on d4 could take on e3.
    assert_ne!(
        key("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        key("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    // A black knight on d4 could not.
    assert_eq!(
        key("r1bqkbnr/pppppppp/8/8/3nP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        key("r1bqkbnr/pppppppp/8/8/3nP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    // A white pawn on d4 is not the side to move's.
    assert_eq!(
        key("rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq e3 0 1"),
        key("rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 1")
    );
}

#[test]
fn fairy_positions_count_the_same_with_a_table() {
    agree("fairy/shogi", None, 3);
    agree("fairy/seirawan", None, 3);
    agree("fairy/cambodian", None, 3);
    agree("fairy/janggi", None, 3);
    agree("fairy/ataxx", None, 4);
    agree("fairy/duck", None, 2);
}

#[test]
fn phases_and_face_down_pieces_count_without_it() {
    agree("fairy/sittuyin", None, 3);
    agree("nebelschach", None, 3);
}
