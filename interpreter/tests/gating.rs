//! Gating (`gate any on rank 1` in `hand`) and the first-move rights it
//! needs, on `rules/fairy/seirawan.rules` and `shouse.rules`; every count is
//! worked out by hand in the comments. Fairy-Stockfish's perft counts of
//! both are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::Variant;
use support::{fen_after, legal_texts};

fn seirawan() -> Variant {
    support::variant("fairy/seirawan")
}

#[test]
fn the_first_moves_of_the_back_rank_may_gate() {
    // Pawns 16; knights b1 g1 two moves each, each also with the hawk or the
    // elephant left on the knight's square: 4 × 3. 28.
    let v = seirawan();
    let moves = legal_texts(&v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1");
    assert_eq!(moves.len(), 28);
    for m in ["g1f3", "g1f3h", "g1f3e", "b1c3h"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
}

#[test]
fn castling_gates_on_the_kings_or_the_rooks_square() {
    // King e1: d1 d2 e2 f2 f1, each plain or gating H or E (15); castling
    // short and long, each plain or gating H or E on e1 or on the rook's
    // square (2 × 5); rook a1: a2..a8, b1 c1 d1 (10 × 3); rook h1: h2..h8,
    // g1 f1 (9 × 3). 82, Fairy-Stockfish's count too.
    let moves = legal_texts(&seirawan(), "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 0 1");
    assert_eq!(moves.len(), 82);
    // Castling is written king square then rook square; gating on the
    // rook's square starts from it (Fairy-Stockfish's `h1e1h`).
    for m in ["e1h1", "e1h1h", "h1e1h", "e1a1e", "a1e1e"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
}

#[test]
fn a_gated_piece_does_not_shield_its_own_king() {
    // The knight d1 (it keeps its right: `D`) is pinned by the rook a1: it
    // may not move, even gating a hawk onto d1 that would block the line
    // again. King e1 (no right): d2 e2 f2 f1. 4.
    assert_eq!(legal_texts(&seirawan(), "4k3/8/8/8/8/8/8/r2NK3[H] w D - 0 1"), ["e1d2", "e1e2", "e1f1", "e1f2"]);
}

#[test]
fn first_move_rights_are_read_written_and_lost() {
    let v = seirawan();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1";
    // The knight leaves g1 with a hawk behind: g1's right is gone, the hawk has none.
    assert_eq!(fen_after(&v, start, &["g1f3h"]), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBHR[Ehe] b KQBCDFkqbcdfg - 1 1");
    // The queen leaving d8 takes black's d; the king's capture takes white's
    // castling, while the rooks keep their rights, now written A and H.
    let fen = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1";
    assert_eq!(fen_after(&v, fen, &["e2e3", "d8d2", "e1d2"]), "rnb1kbnr/ppp1pppp/8/8/8/4P3/PPPK1PPP/RNBQ1BNR[HEhe] b ABCDFGHkqbcfg - 0 2");
    // A capture on a square with a right takes it (the bishop takes the
    // rook h8: black's k goes), and the bishop's move takes white's C.
    let fen = "rnbqkbnr/pppppp1p/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1";
    assert_eq!(fen_after(&v, fen, &["b2b3", "a7a6", "c1b2", "a6a5", "b2h8"]).split(' ').nth(2), Some("KQBDFGqbcdfg"));
    // A file letter must name a piece of that side on its first rank.
    let e = v.parse_fen("4k3/8/8/8/8/8/8/4K3[H] w A - 0 1", "<test>").expect_err("a1 is empty");
    assert!(e.message.contains("bad castling right"), "{}", e.message);
}

#[test]
fn a_pawn_is_never_gated_in_s_house() {
    // A pawn in hand and nothing else: pawns 16; knights 4, not gated (a
    // pawn is not gated on rank 1); pawn drops on the 32 empty squares of
    // ranks 3–6; the other pieces are blocked. 52.
    let v = support::variant("fairy/shouse");
    let moves = legal_texts(&v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[P] w KQBCDFGkqbcdfg - 0 1");
    assert_eq!(moves.len(), 16 + 4 + 32, "{moves:?}");
    assert!(!moves.iter().any(|m| m.ends_with('p')), "{moves:?}");
}
