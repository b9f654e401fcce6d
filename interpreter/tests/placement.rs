//! The placement phase (`phase { place from hand … }`, issue 13) against
//! Fairy-Stockfish's counts (../shared/fsf-perft-checks.tsv, from its
//! tests/perft.sh) for `placement` and `sittuyin`, with the start counts
//! also derived by hand below, and hand-made positions for each constraint.

mod support;

use rulebook_interpreter::engine::perft::perft;
use rulebook_interpreter::flow::{perft as flow_perft, Action};
use rulebook_interpreter::{Position, Variant};
use support::variant;

fn fairy(name: &str) -> Variant {
    variant(&format!("fairy/{name}"))
}

fn at(v: &Variant, fen: &str) -> Position {
    v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message))
}

// ---- Fairy-Stockfish's counts -------------------------------------------------

/// placement startpos 3 = 50,560 (fsf-perft-checks.tsv). By hand: each side
/// places one of K Q R B N on one of the 8 squares of its first rank: 40
/// first placements each (a first bishop goes anywhere: 4 squares of the
/// other colour stay free). White's second placement, after its first piece
/// X (black's placement changes nothing on white's rank):
///   X = K or Q: the other four kinds on 7 squares = 28;
///   X = R or N: five kinds (a second R or N is left) on 7 squares = 35;
///   X = B: K Q R N on 7 squares = 28, and the second bishop only on the
///   4 squares of the other colour = 32.
/// Over the 8 squares of X: 8 × (28 + 28 + 35 + 35 + 32) = 1,264; times
/// black's 40 placements: 50,560.
#[test]
fn placement_start_depth_3() {
    let v = fairy("placement");
    let start = v.start().expect("setup");
    assert_eq!(v.actions(&start).len(), 40);
    assert_eq!(perft(&v, &start, 3), 50_560);
}

/// placement `rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/QR1BKNN1[BRk] w - - 0 1` 6 = 17,804.
#[test]
fn placement_bishop_colours_and_castling_depth_6() {
    let v = fairy("placement");
    let pos = at(&v, "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/QR1BKNN1[BRk] w - - 0 1");
    // By hand: c1 and h1 are free. The bishop must go to c1 (dark; d1's is
    // light); the rook to h1 (on c1 it would leave only light h1 for the
    // bishop). So two placements: Bc1 and Rh1.
    assert_eq!(v.actions(&pos).len(), 2);
    assert_eq!(perft(&v, &pos, 6), 17_804);
}

/// placement `1n1r1q2/pppppppp/8/8/8/8/PPPPPPPP/1N1B1R1N[KQRBkrbbn] b - - 0 4` 5 = 145,152.
#[test]
fn placement_two_bishops_in_hand_depth_5() {
    let v = fairy("placement");
    let pos = at(&v, "1n1r1q2/pppppppp/8/8/8/8/PPPPPPPP/1N1B1R1N[KQRBkrbbn] b - - 0 4");
    assert_eq!(perft(&v, &pos, 5), 145_152);
}

/// placement `r3k3/pppppppp/8/8/8/8/PPPPPPPP/R6R[Kr] w q - 0 1` 4 = 18,492:
/// white's king placed on e1 gains both castling rights (rooks on a1, h1).
#[test]
fn placement_castling_by_placement_depth_4() {
    let v = fairy("placement");
    let pos = at(&v, "r3k3/pppppppp/8/8/8/8/PPPPPPPP/R6R[Kr] w q - 0 1");
    // By hand: the king on one of the 6 free squares b1..g1.
    assert_eq!(v.actions(&pos).len(), 6);
    let e1 = v.actions(&pos).into_iter().find(|a| v.game.geometry.name(a.as_move().expect("a placement").to) == "e1").expect("Ke1");
    let after = v.apply(&pos, &e1);
    assert!(v.fen(&after).contains(" b KQq "), "{}", v.fen(&after));
    assert_eq!(perft(&v, &pos, 4), 18_492);
}

/// sittuyin startpos 3 = 580,096 (fsf-perft-checks.tsv). By hand: white may
/// place on 20 empty squares (ranks 1 and 2, e3..h3), a rook on the 8 of
/// rank 1: K 20 + F 20 + R 8 + S 20 + N 20 = 88 first placements; black
/// likewise 88. White's second placement after its first piece X on square q
/// (black's placements do not touch white's squares; 19 squares stay free):
///   X = K or F (the only one): F|K, S, N on 19 and R on rank 1's free
///   squares: 57 + 7 if q is on rank 1 (8 squares), 57 + 8 if not (12):
///   8 × 64 + 12 × 65 = 1,292 each;
///   X = R (q on rank 1): K F S N on 19 and R on 7: 83, × 8 = 664;
///   X = S or N (one more left): K F S N on 19 and R on 7 or 8:
///   8 × 83 + 12 × 84 = 1,672 each.
/// Sum: 2 × 1,292 + 664 + 2 × 1,672 = 6,592; times black's 88: 580,096.
#[test]
fn sittuyin_start_depth_3() {
    let v = fairy("sittuyin");
    let start = v.start().expect("setup");
    assert_eq!(v.actions(&start).len(), 88);
    assert_eq!(perft(&v, &start, 3), 580_096);
}

// The other sittuyin rows of fsf-perft-checks.tsv are play positions where a
// pawn can promote by sittuyin's rule (`becomes Fers in place or with a quiet
// move`): fsf_perft.rs runs them, sittuyin_rules.rs counts the rule by hand.

// ---- the mechanisms, one position each -------------------------------------

/// While a hand holds pieces its owner only places; a player whose hand is
/// empty moves; when both are empty the phase is over and the state is gone.
#[test]
fn placing_is_compulsory_and_the_phase_ends_with_the_hands() {
    let v = fairy("placement");
    let start = v.start().expect("setup");
    assert!(start.flow.is_some());
    assert!(v.actions(&start).iter().all(|a| matches!(a, Action::Move(m) if m.kind == rulebook_interpreter::engine::position::MoveKind::Drop)));
    // White's hand is empty, black's is not: white moves (16 pawn moves,
    // 4 knight moves: the knights on b1 g1 reach a3 c3 f3 h3), black places.
    let pos = at(&v, "8/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[kqrrbbnn] w KQ - 0 1");
    assert_eq!(v.actions(&pos).len(), 20);
    // The last placement ends the phase: no flow state after it.
    let pos = at(&v, "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[k] b KQ - 0 1");
    let actions = v.actions(&pos);
    assert_eq!(actions.len(), 1); // e8, the only free square
    let after = v.apply(&pos, &actions[0]);
    assert!(after.flow.is_none());
    // The king placed on e8 with rooks on a8 and h8 gains both rights. The
    // phase is over, so play begins and the move limit's count starts from
    // 0 (LANGUAGE §3.19). Fairy-Stockfish agrees: it resets its rule-50
    // counter on every drop that cannot be undone ("Reset rule 50 counter
    // for irreversible drops", position.cpp), as placement's drops are.
    assert_eq!(v.fen(&after), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 2");
    // The same placement with a count of 7 before it: still 0 after it.
    let pos = at(&v, "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[k] b KQ - 7 1");
    let after = v.apply(&pos, &v.actions(&pos)[0]);
    assert_eq!(after.halfmove, 0);
}

/// The phase as the position text says it, and back.
#[test]
fn the_phase_round_trips_through_the_position_text() {
    let v = fairy("placement");
    let start = v.start().expect("setup");
    // Derived (hands not empty): written without a key.
    assert_eq!(v.fen(&start), "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1");
    // Play declared although pieces are in hand: the key is kept.
    let pos = at(&v, "8/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[kqrrbbnn] w KQ - 0 1 {phase=play}");
    assert!(pos.flow.is_none());
    assert_eq!(v.fen(&pos), "8/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[kqrrbbnn] w KQ - 0 1 {phase=play}");
    let err = v.parse_fen("8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1 {phase=opening}", "<t>").expect_err("no such phase");
    assert!(err.message.contains("opening"), "{}", err.message);
}

/// An ordered placement with a zone and a colour per entry, and the guard
/// against placing a piece that attacks or is attacked.
#[test]
fn ordered_placement_with_zones_colours_and_the_guard() {
    let v = load_inline(
        "ordered",
        r#"
hand { drop any on empty }
phase opening {
  place from hand
  order {
    King on rank 1 or rank 2
    Pawn on rank 2 or rank 3 coloured like a2
    Rook on rank 1 coloured like a1
  }
  placed piece attacks no enemy and is not attacked
  until hands empty
}
setup "8/8/8/8/8/8/8/8[KPRkpr] w - - 0 1"
"#,
    );
    let start = v.start().expect("setup");
    // Entry 1, the king on rank 1 or 2: 16 squares (no enemy piece yet).
    assert_eq!(v.actions(&start).len(), 16);
    // Black's king on its own ranks 1 and 2 (ranks 8 and 7): 16 squares, none
    // near the white king on e1.
    assert_eq!(v.actions(&at(&v, "8/8/8/8/8/8/8/4K3[PRkpr] b - - 0 1")).len(), 16);
    // White's pawn on rank 2 or 3, coloured like a2 (file + rank odd): a2 c2
    // e2 g2, b3 d3 f3 h3; d3 holds the black king; c2 and e2 are attacked by
    // it (and attack it). Left: a2 g2 b3 f3 h3 = 5.
    let pos = at(&v, "8/8/8/8/8/3k4/8/4K3[PRpr] w - - 0 1");
    let mut names: Vec<String> = v.actions(&pos).iter().map(|a| v.game.geometry.name(a.as_move().expect("placement").to)).collect();
    names.sort();
    assert_eq!(names, ["a2", "b3", "f3", "g2", "h3"]);
    // White's rook on rank 1 coloured like a1 (dark): a1 c1 e1 g1, e1 holds
    // the king: a1 (sees its own a2 pawn and king), c1 and g1 (empty files):
    // attack no enemy, and nothing black (king e8, pawn a7) attacks them. 3.
    assert_eq!(v.actions(&at(&v, "4k3/p7/8/8/8/8/P7/4K3[Rr] w - - 0 1")).len(), 3);
    // Black's rook: rank 8, coloured like a1 as black sees it (a8: light,
    // file + rank odd): a8 c8 e8 g8, e8 holds the black king. a8 sees its own
    // a7 pawn and king; the c and g files are empty down to c1 and g1; the
    // white rook on a1 is blocked by its a2 pawn and sees only rank 1. 3.
    assert_eq!(v.actions(&at(&v, "4k3/p7/8/8/8/8/P7/R3K3[r] b - - 0 1")).len(), 3);
    // A hand that is not the rest of the order is a position-text error: white
    // holds a pawn, but the order's last entry (all that one piece in hand can
    // be) is the rook; two rooks where a pawn and a rook are due.
    for bad in ["4k3/8/8/8/8/8/8/4K3[Ppr] w - - 0 1", "8/8/8/8/8/8/8/8[KRRkpr] w - - 0 1"] {
        let err = v.parse_fen(bad, "<t>").expect_err(bad);
        assert!(err.message.contains("rest of phase `opening`'s order"), "{bad}: {}", err.message);
    }
}

/// Loads `body` as a variant extending chess (written to a temporary file).
fn load_inline(name: &str, body: &str) -> Variant {
    let chess = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/chess.rules");
    let dir = std::env::temp_dir().join(format!("rulebook-placement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(format!("{name}.rules"));
    let text = format!("variant \"{name}\"\nextends \"{}\"\n{body}", chess.display());
    std::fs::write(&path, text).expect("write the rules");
    support::variant_at(&path)
}

/// Complete plies and single decisions agree where every ply is one decision.
#[test]
fn plies_and_decisions_agree_without_obligations() {
    let v = fairy("placement");
    let start = v.start().expect("setup");
    assert_eq!(flow_perft::decisions(&v, &start, 2), 1_600);
    assert_eq!(flow_perft::plies(&v, &start, 2), 1_600);
}

/// `only if COND` with a condition of §3.20: no three own pawns in a line
/// along a file or a rank (the 4D-Schach opening's group rule, on a flat
/// board). White holds pawns on a2 and b2 and places a third pawn on rank 2
/// or 3: of the 14 empty squares there, c2 would make a2-b2-c2 a line of
/// three along the rank, so 13 remain. A line along a file needs three
/// pawns on one file, which two ranks cannot hold.
#[test]
fn a_placement_is_legal_only_if_its_condition_holds_after_it() {
    let v = load_inline(
        "no-groups",
        r#"
hand { drop any on rank 2 or rank 3 }
phase opening {
  place from hand
  only if not line 3 own Pawn along file rank
  until hands empty
}
setup "4k3/8/8/8/8/8/PP6/4K3[PPpp] w - - 0 1"
"#,
    );
    let start = v.start().expect("setup");
    let mut names: Vec<String> = v.actions(&start).iter().map(|a| v.game.geometry.name(a.as_move().expect("placement").to)).collect();
    names.sort();
    assert_eq!(names.len(), 13, "{names:?}");
    assert!(!names.contains(&"c2".to_string()));
}

/// Random games of placement chess through the phase into play. What the
/// rules text says must hold at the phase's end: after 16 placements (8 a
/// side, the players alternating) the phase is over; every piece stands on
/// its owner's first rank; each side's bishops stand on different colours;
/// a side has the castling right towards a rook exactly when its king stands
/// on e1 (e8) and that rook on a1 or h1 (a8, h8). In play the moves are the
/// engine's own, tried one by one on a copy (the reference generator).
#[test]
fn random_placement_games_end_the_phase_as_the_rules_say() {
    use rulebook_interpreter::engine::movegen::legal_moves_reference;
    let v = fairy("placement");
    let geo = &v.game.geometry;
    let sq = |name: &str| geo.parse_square(name).expect("square");
    let bishop = v.game.kind_by_name("Bishop").expect("bishop");
    let king = v.game.kind_by_name("King").expect("king");
    let rook = v.game.kind_by_name("Rook").expect("rook");
    let mut rng = support::Rng(0x5eed_0013);
    for game in 0..40 {
        let mut pos = v.start().expect("setup");
        for ply in 0..16 {
            assert!(pos.flow.is_some(), "game {game}: the phase ended after {ply} placements");
            let actions = v.actions(&pos);
            assert!(!actions.is_empty());
            let a = actions[rng.below(actions.len())];
            pos = v.apply(&pos, &a);
        }
        assert!(pos.flow.is_none(), "game {game}: still in the phase: {}", v.fen(&pos));
        for color in 0..2u8 {
            let home = if color == 0 { 0 } else { 7 };
            let mut colours = Vec::new();
            for c in pos.cells_of(color, v.tables.nwords) {
                let kind = rulebook_interpreter::engine::position::kind_of(pos.board[c as usize]);
                if kind != v.game.kind_by_name("Pawn").expect("pawn") {
                    assert_eq!(geo.coords(c)[1], home, "game {game}: {}", v.fen(&pos));
                }
                if kind == bishop {
                    colours.push(geo.coords(c).iter().sum::<usize>() % 2);
                }
            }
            colours.sort();
            assert_eq!(colours, [0, 1], "game {game}: {}", v.fen(&pos));
            let (k, a, h) = if color == 0 { (sq("e1"), sq("a1"), sq("h1")) } else { (sq("e8"), sq("a8"), sq("h8")) };
            let on = |cell, kind| pos.board[cell as usize] == rulebook_interpreter::engine::position::code(kind, color);
            for (rook_cell, slot) in [(h, 0), (a, 1)] {
                let expected = on(k, king) && on(rook_cell, rook);
                assert_eq!(pos.castling[color as usize][slot] == rook_cell, expected, "game {game}: {}", v.fen(&pos));
            }
        }
        for _ in 0..20 {
            let moves = v.legal_moves(&pos);
            let mut reference = Vec::new();
            legal_moves_reference(&v.game, &v.tables, &pos, &mut reference);
            let key = |m: &rulebook_interpreter::Move| (m.from, m.to, m.promotion, m.kind as u8);
            let mut a: Vec<_> = moves.iter().map(key).collect();
            let mut b: Vec<_> = reference.iter().map(key).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "game {game}: {}", v.fen(&pos));
            if moves.is_empty() {
                break;
            }
            pos = v.play(&pos, &moves[rng.below(moves.len())]);
        }
    }
}

/// A phase's `only if` conditions that read only pieces of another kind than
/// the one placed (4D-Schach's kings on levels III and V, and its pawns'
/// lines, while a knight is placed) are tested once per node, not after
/// each placement; a `line` of the placed kind that fails before is judged
/// by the run through the placed cell (4D-Schach's "no group" while a pawn
/// is placed); only the drops of the order's next kind are listed. The
/// offered placements must be those that pass every
/// guard tested after each placement one by one (`phase::allowed`, which
/// knows nothing in advance), along random 4D-Schach openings, at every
/// node where one passes (the stages that drop guards follow otherwise).
#[test]
fn guards_on_other_kinds_tested_once_offer_what_each_placement_tested_alone_offers() {
    use rulebook_interpreter::engine::movegen;
    use rulebook_interpreter::engine::position::MoveKind;
    use rulebook_interpreter::flow::phase;
    let v = support::variant("4d-schach");
    let mut checked = 0;
    for seed in 1..=3u64 {
        let mut rng = support::Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut pos = v.start().expect("setup");
        for _ in 0..32 {
            let Some(ph) = pos.flow.as_ref().map(|f| f.phase as usize).filter(|&p| p < v.game.phases.len()) else { break };
            let placement = &v.game.phases[ph].placement;
            let t = v.tables_for(&pos);
            let mut drops = Vec::new();
            movegen::legal_moves(&v.game, &t, &pos, &mut drops);
            // The placements (a phase offers no moves of the board while its mover holds pieces).
            let alone: Vec<_> = drops.iter().filter(|m| m.kind == MoveKind::Drop && phase::allowed(&v.game, &t, placement, &pos, m)).map(|m| (m.piece, m.to)).collect();
            let offered: Vec<_> = v.actions(&pos).iter().filter_map(|a| a.as_move()).map(|m| (m.piece, m.to)).collect();
            if !alone.is_empty() {
                assert_eq!(offered, alone, "seed {seed}: {}", v.fen(&pos));
                checked += 1;
            }
            let actions = v.actions(&pos);
            pos = v.apply(&pos, &actions[rng.below(actions.len())]);
        }
    }
    assert!(checked >= 90, "only {checked} nodes compared");
}
