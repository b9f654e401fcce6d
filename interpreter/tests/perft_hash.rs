//! Perft with a transposition table (`--hash MB`, issue 18) counts what
//! perft without one counts, on variants whose positions carry every kind of
//! state the key must cover (castling, en passant, hands, promoted marks,
//! check counts, first-move rights, passes, walls) and on those where the
//! table is not used (phases, face-down pieces). Tables of one slot and of
//! one megabyte: a slot replaced again and again must never give a wrong count.

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
