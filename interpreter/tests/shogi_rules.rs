//! Shogi's mechanisms (issue 17): promoted forms written `+P`, promotion on
//! entering, within or leaving a zone and optional where the piece names
//! itself, promotion only on captures, and the drop limits (`at most 1 per
//! file`, `no mate`, `also promoted`), on positions built for them in
//! `rules/fairy/minishogi.rules` (5×5, white's zone rank 5), `kyotoshogi`
//! and `micro`; every count is worked out by hand in the comments.
//! Fairy-Stockfish's perft counts of the shogi family are in `fsf_perft.rs`.

mod support;

use rulebook_interpreter::text::notation::{coordinate, parse_move, san};
use rulebook_interpreter::Variant;
use support::{fen_after, legal_texts};

fn minishogi() -> Variant {
    support::variant("fairy/minishogi")
}

#[test]
fn entering_the_zone_offers_promotion_and_the_piece_may_decline() {
    // Silver c4: b5 c5 d5 enter the zone, each with and without promotion
    // (6), b3 d3 do not (2); king a1: a2 b1 b2 (3). 11.
    let moves = legal_texts(&minishogi(), "4k/2S2/5/5/K4[-] w 0 1");
    assert_eq!(moves.len(), 11, "{moves:?}");
    for to in ["b5", "c5", "d5"] {
        assert!(moves.contains(&format!("c4{to}")) && moves.contains(&format!("c4{to}+")), "{to}: {moves:?}");
    }
    assert!(moves.contains(&"c4b3".to_string()) && !moves.contains(&"c4b3+".to_string()));
}

#[test]
fn leaving_the_zone_promotes_too() {
    // Silver c5 (in the zone): b4 and d4, each both ways (4); king 3. 7.
    let moves = legal_texts(&minishogi(), "2S1k/5/5/5/K4[-] w 0 1");
    assert_eq!(moves, ["a1a2", "a1b1", "a1b2", "c5b4", "c5b4+", "c5d4", "c5d4+"]);
}

#[test]
fn a_pawn_on_the_last_rank_must_promote() {
    // Pawn c4–c5 only as a tokin (the later rule, `Pawn on rank 5 to
    // Tokin`); king 3. 4. A pawn standing on rank 5 is no position.
    let v = minishogi();
    assert_eq!(legal_texts(&v, "4k/2P2/5/5/K4[-] w 0 1"), ["a1a2", "a1b1", "a1b2", "c4c5+"]);
    let d = v.parse_fen("2P1k/5/5/5/K4[-] w 0 1", "<test>").expect_err("a pawn on rank 5");
    assert!(d.message.contains("must have promoted"), "{}", d.message);
    // The tokin is written +P; the pawn, minishogi's one kind that must
    // promote, is pawn-like in SAN (no letter).
    let pos = v.parse_fen("4k/2P2/5/5/K4[-] w 0 1", "<test>").expect("reads");
    let legal = v.legal_moves(&pos);
    let m = legal.iter().find(|m| coordinate(&v, m) == "c4c5+").expect("the promotion");
    assert_eq!(san(&v, &pos, m, &legal), "c5=+P");
    // (No fifty-move rule names a piece whose move resets the clock.)
    assert_eq!(v.fen(&v.play(&pos, m)), "2+P1k/5/5/5/K4[] b - - 1 1");
}

#[test]
fn no_second_unpromoted_pawn_on_a_file() {
    let v = minishogi();
    // An empty board but the kings: a pawn drops on ranks 1–4 (20 cells)
    // but a1 (19); king 3. 22.
    assert_eq!(legal_texts(&v, "4k/5/5/5/K4[P] w 0 1").len(), 22);
    // A pawn on b2: 18 empty cells on ranks 1–4, less b1 b3 b4 on its file,
    // 15 drops; b2–b3; king a2 b1. 18.
    assert_eq!(legal_texts(&v, "4k/5/5/1P3/K4[P] w 0 1").len(), 18);
    // A tokin on b2 does not count: 18 drops; the tokin's gold steps b3 b1
    // a2 c2 a3 c3 (6); king a2 b1 (2). 26.
    let moves = legal_texts(&v, "4k/5/5/1+P3/K4[P] w 0 1");
    assert_eq!(moves.len(), 26);
    assert!(moves.contains(&"P@b4".to_string()));
}

#[test]
fn no_mate_by_a_dropped_pawn() {
    let v = minishogi();
    // Black king a5 beside his rook b5; white gold b3 guards a4 and b4.
    // P@a4 checks, and the king can neither take it nor step to b4, nor can
    // the rook take it: mate by a pawn drop, not legal. The other 17 drops
    // (18 empty cells on ranks 1–4, less a4), the gold's 6 steps (b4 b2 a3
    // c3 a4 c4) and king e1's 3 (d1 d2 e2): 26.
    let moves = legal_texts(&v, "kr3/5/1G3/5/4K[P] w 0 1");
    assert_eq!(moves.len(), 26, "{moves:?}");
    assert!(!moves.contains(&"P@a4".to_string()));
    // Without the gold the king takes the pawn: the check is legal.
    assert!(legal_texts(&v, "kr3/5/5/5/4K[P] w 0 1").contains(&"P@a4".to_string()));
    // A gold dropped there mates legally: only the pawn is limited.
    assert!(legal_texts(&v, "kr3/5/1G3/5/4K[G] w 0 1").contains(&"G@a4".to_string()));
}

#[test]
fn a_captured_tokin_goes_to_hand_as_a_pawn() {
    // Black rook c5 takes the tokin on c3: black's hand gets a pawn.
    let after = fen_after(&minishogi(), "2r1k/5/2+P2/5/K4[-] b 0 1", &["c5c3"]);
    assert_eq!(after, "4k/5/2r2/5/K4[p] w - - 0 2");
}

#[test]
fn shogi_fen_forms_and_their_errors() {
    let v = minishogi();
    // `w 0 1` is `w - - 0 1`; `[-]` is an empty pocket; written FEN is the full form.
    let pos = v.parse_fen("rbsgk/4p/5/P4/KGSBR[-] w 0 1", "<test>").expect("reads");
    assert_eq!(v.fen(&pos), "rbsgk/4p/5/P4/KGSBR[] w - - 0 1");
    for (fen, says) in [
        ("4k/5/5/5/K3+Q[-] w 0 1", "unknown promoted piece `+Q`"),
        ("4k/5/5/5/K3+[-] w 0 1", "`+` without a piece letter"),
        ("4k/5/5/5/K4[+P] w 0 1", "a promoted piece cannot be in hand"),
    ] {
        let d = v.parse_fen(fen, "<test>").expect_err(fen);
        assert!(d.message.contains(says), "{fen}: {}", d.message);
    }
}

#[test]
fn a_trailing_plus_is_a_promotion_before_it_is_a_check() {
    // c4b5+ promotes the silver; c4b5 does not (and is written without a
    // check mark: neither move checks).
    let v = minishogi();
    let pos = v.parse_fen("4k/2S2/5/5/K4[-] w 0 1", "<test>").expect("reads");
    let m = parse_move(&v, &pos, "c4b5+", "<test>", 0).expect("a move");
    assert!(m.is_promotion());
    let m = parse_move(&v, &pos, "c4b5", "<test>", 0).expect("a move");
    assert!(!m.is_promotion());
}

#[test]
fn kyoto_drops_either_face_up() {
    // Kings a5 and e1; a pawn in hand drops on the 23 empty cells as a pawn
    // or as its rook face (46); king d1 d2 e2 (3). 49.
    let v = support::variant("fairy/kyotoshogi");
    let moves = legal_texts(&v, "k4/5/5/5/4K[P] w 0 1");
    assert_eq!(moves.len(), 49);
    assert!(moves.contains(&"P@c3".to_string()) && moves.contains(&"+P@c3".to_string()));
    // Every move of a piece turns it over: the rook face steps back as a pawn
    // (`-`). (A drop does not reset the half-move clock, §3.9.)
    assert_eq!(fen_after(&v, "k4/5/5/5/4K[P] w 0 1", &["+P@c3"]), "k4/5/2+P2/5/4K[] b - - 1 1");
    assert!(legal_texts(&v, "k4/5/2+P2/5/4K[] w 0 1").contains(&"c3c5-".to_string()));
}

#[test]
fn micro_pieces_turn_over_only_when_they_capture() {
    // 4×5. Rook b2: b3 a2 c2 d2 b1 as a rook (5), b4 capturing the pawn
    // only turned over (1); king a1: a2 b1 (2). 8.
    let v = support::variant("fairy/micro");
    let fen = "3k/1p2/4/1R2/K3[-] w 0 1";
    let moves = legal_texts(&v, fen);
    assert_eq!(moves, ["a1a2", "a1b1", "b2a2", "b2b1", "b2b3", "b2b4+", "b2c2", "b2d2"]);
    assert_eq!(fen_after(&v, fen, &["b2b4+"]), "3k/1+R2/4/4/K3[P] b - - 0 1");
}
